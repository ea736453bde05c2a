package sweep

// Restarts is when a slot's server process is restarted (run.restarts,
// Plan.Restarts). Its JSON encoding is the name.
type Restarts string

// The restart policies.
const (
	// RestartsRound (the default) starts every slot's server afresh, and
	// warms it up, for every round.
	RestartsRound Restarts = "round"
	// RestartsNever keeps a slot's server for the whole run.
	RestartsNever Restarts = "never"
)

// RestartsValues are the valid policies, in the order errors list them.
var RestartsValues = []Restarts{RestartsNever, RestartsRound}
