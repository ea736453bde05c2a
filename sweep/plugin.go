package sweep

// Plugin describes a plugin that the servers of a builtin target served:
// what it is, what one request takes from the pool, and what compiling it
// cost. A grid whose points serve different plugins (the component knob
// as an axis) has one per plugin, each naming its configs.
type Plugin struct {
	Name string `json:"name"` // "workload" or the plugin file's path
	// Kind is "core module", "preview-1 command", "wasi:cli/run component"
	// or "sweep:plugin component".
	Kind  string `json:"kind"`
	Bytes int    `json:"bytes"` // size of the wasm binary
	// CoreInstances, Memories and Tables are what one request holds from
	// total_core_instances, total_memories and total_tables (for a
	// component, by Wasmtime's own count at load).
	CoreInstances int `json:"core_instances_per_request"`
	Memories      int `json:"memories_per_request"`
	Tables        int `json:"tables_per_request"`
	// CompileSeconds is the compile's wall time on this machine, measured
	// when it ran (here or into the compile cache); LoadSeconds what
	// loading took in this run (the compile, or reading the cache).
	CompileSeconds float64 `json:"compile_seconds"`
	LoadSeconds    float64 `json:"load_seconds"`
	Cached         bool    `json:"cached,omitempty"` // loaded from the compile cache
	// Imports and Exports are a component's top-level names.
	Imports []string `json:"imports,omitempty"`
	Exports []string `json:"exports,omitempty"`
	// Configs are the grid labels of the points it served, when the grid
	// serves more than one plugin.
	Configs []string `json:"configs,omitempty"`
}

// IsComponent reports whether the plugin is a component.
func (p Plugin) IsComponent() bool {
	return p.Kind == "wasi:cli/run component" || p.Kind == "sweep:plugin component" || p.Kind == "wasi:http component"
}
