package sweep

// TargetKind is what server runs in each slot (target.kind;
// Environment.Target). Its JSON encoding is the name.
type TargetKind string

// The target kinds.
const (
	// TargetBuiltin (the default) is sweep's own Wasmtime host, `sweep
	// serve`.
	TargetBuiltin TargetKind = "builtin"
	// TargetCommand is the user's own server, started per slot.
	TargetCommand TargetKind = "command"
)

// TargetKinds are the valid kinds, in the order errors list them.
var TargetKinds = []TargetKind{TargetBuiltin, TargetCommand}
