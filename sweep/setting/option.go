// Package setting names, documents and validates the knobs of the built-in
// Wasmtime host: the pooling-allocator options (named exactly like
// Wasmtime's C setters wasmtime_pooling_allocation_config_NAME_set),
// memory_init_cow, and the workload knobs of the builtin "workload" plugin
// (initial_memory, touch, compute, io_wait, response_bytes).
//
// It is pure Go so that config validation can use it without cgo. Values
// are written as strings ("64KiB", "64", "true", "1ms"); sizes are binary
// IEC sizes (package units), durations are Go durations.
package setting

import (
	"sort"
	"strconv"
)

// Kind is the type of an option's value.
type Kind int

const (
	// Count is a uint32 count (a C uint32_t setter).
	Count Kind = iota
	// Size is a number of bytes: an integer or a binary-unit size like "64KiB".
	Size
	// Bool is true or false.
	Bool
	// Duration is a Go duration like "1ms" or "250us".
	Duration
	// Int is a non-negative 64-bit integer (a C size_t count).
	Int
)

// String names the kind as the error messages do.
func (k Kind) String() string {
	switch k {
	case Count:
		return "count"
	case Size:
		return "size"
	case Bool:
		return "bool"
	case Duration:
		return "duration"
	case Int:
		return "integer"
	}
	return "unknown"
}

// ID identifies an option: its index in the option table. Settings keys
// its values by ID, and wasmhost's C dispatch (pooling.h) switches on it.
type ID int

// The options, in table order: the pooling options in the order of
// wasmtime/config.h, then memory_init_cow, then the workload knobs.
const (
	MaxUnusedWarmSlots ID = iota
	DecommitBatchSize
	AsyncStackKeepResident
	LinearMemoryKeepResident
	TableKeepResident
	TotalComponentInstances
	MaxComponentInstanceSize
	MaxCoreInstancesPerComponent
	MaxMemoriesPerComponent
	MaxTablesPerComponent
	TotalMemories
	TotalTables
	TotalStacks
	TotalCoreInstances
	MaxCoreInstanceSize
	MaxTablesPerModule
	TableElements
	MaxMemoriesPerModule
	MaxMemorySize
	TotalGCHeaps

	MemoryInitCOW

	InitialMemory
	Touch
	Compute
	IOWait
	ResponseBytes
	Component

	numOptions
)

// NoCLI is the CLI of a Wasmtime option that the wasmtime CLI has no -O
// flag for.
const NoCLI = "none"

// Option describes one setting.
type Option struct {
	ID   ID
	Name string
	Kind Kind
	// Pooling marks a pooling-allocator option, given to Wasmtime through
	// its C setter (pooling.h of sweep/wasmhost).
	Pooling bool
	// Knob marks a workload knob of the builtin plugin, not a Wasmtime option.
	Knob bool
	// Rust is the name of the wasmtime crate's builder method that sets a
	// Wasmtime option: a method of PoolingAllocationConfig for a pooling
	// option, of Config for memory_init_cow (Wasmtime 39); "" for a knob.
	Rust string
	// CLI is the option's key in the -O group of the wasmtime CLI (`wasmtime
	// serve -O KEY=VALUE`, Wasmtime 39's crates/cli-flags), or NoCLI when the
	// CLI has no flag for it; "" for a knob.
	CLI string
	// Doc is a one-line description (for a knob, without the "workload: "
	// that the flag help puts before it).
	Doc string
	// Note, if set, follows Doc in the reference (docs/settings.md) only.
	Note string
	// Default is Wasmtime's documented default ("" if none is documented);
	// for a knob, the value used when it is not set.
	Default string
	// min is the smallest allowed value for numeric kinds (0 allows zero).
	min uint64
	// max, when non-zero, is the largest allowed value; maxWhy explains it.
	max    uint64
	maxWhy string
}

// options is the table of every known setting, indexed by ID. It is the
// only place an option is described: validation, Settings, the `sweep
// serve` flags, docs/settings.md and wasmhost's C setter dispatch
// (pooling.h) all derive from it.
var options = func() [numOptions]Option {
	// keepResidentWhy is the cap of the table and stack keep_resident
	// sizes: far beyond any table or stack, and below the values near 2^64
	// at which Wasmtime aborts (rounding them up to a page overflows).
	const keepResidentWhy = "beyond any table or stack; values near 2^64 make Wasmtime abort"
	t := [numOptions]Option{
		MaxUnusedWarmSlots: {Name: "max_unused_warm_slots", Kind: Count, Pooling: true, Rust: "max_unused_warm_slots", CLI: "pooling-max-unused-warm-slots", Default: "100",
			Doc: "maximum number of unused warm slots kept in the pool (slots that keep their resident pages)"},
		DecommitBatchSize: {Name: "decommit_batch_size", Kind: Int, Pooling: true, Rust: "decommit_batch_size", CLI: "pooling-decommit-batch-size", Default: "1", min: 1,
			Doc: "number of slots whose memory is decommitted together in one batch"},
		AsyncStackKeepResident: {Name: "async_stack_keep_resident", Kind: Size, Pooling: true, Rust: "async_stack_keep_resident", CLI: "pooling-async-stack-keep-resident", Default: "0", max: 1 << 40, maxWhy: keepResidentWhy,
			Doc: "bytes of each async stack kept resident (reset in place) after deallocation"},
		LinearMemoryKeepResident: {Name: "linear_memory_keep_resident", Kind: Size, Pooling: true, Rust: "linear_memory_keep_resident", CLI: "pooling-memory-keep-resident", Default: "0", max: 4 << 30,
			maxWhy: "the largest linear memory; values near 2^64 make Wasmtime abort",
			Doc:    "bytes of each linear memory kept resident and reset in place after deallocation; the rest is madvise(DONTNEED)-ed"},
		TableKeepResident: {Name: "table_keep_resident", Kind: Size, Pooling: true, Rust: "table_keep_resident", CLI: "pooling-table-keep-resident", Default: "0", max: 1 << 40, maxWhy: keepResidentWhy,
			Doc: "bytes of each table kept resident and reset in place after deallocation"},
		TotalComponentInstances: {Name: "total_component_instances", Kind: Count, Pooling: true, Rust: "total_component_instances", CLI: "pooling-total-component-instances", Default: "1000", min: 1,
			Doc: "maximum number of concurrently live component instances"},
		MaxComponentInstanceSize: {Name: "max_component_instance_size", Kind: Size, Pooling: true, Rust: "max_component_instance_size", CLI: "pooling-max-component-instance-size", Default: "1MiB", min: 1,
			Doc: "maximum bytes of a component instance's VMComponentContext metadata"},
		MaxCoreInstancesPerComponent: {Name: "max_core_instances_per_component", Kind: Count, Pooling: true, Rust: "max_core_instances_per_component", CLI: "pooling-max-core-instances-per-component", Default: "unlimited", min: 1,
			Doc: "maximum number of core instances a single component may contain"},
		MaxMemoriesPerComponent: {Name: "max_memories_per_component", Kind: Count, Pooling: true, Rust: "max_memories_per_component", CLI: "pooling-max-memories-per-component", Default: "unlimited", min: 1,
			Doc: "maximum number of linear memories a single component may transitively contain"},
		MaxTablesPerComponent: {Name: "max_tables_per_component", Kind: Count, Pooling: true, Rust: "max_tables_per_component", CLI: "pooling-max-tables-per-component", Default: "unlimited", min: 1,
			Doc: "maximum number of tables a single component may transitively contain"},
		TotalMemories: {Name: "total_memories", Kind: Count, Pooling: true, Rust: "total_memories", CLI: "pooling-total-memories", Default: "1000", min: 1,
			Doc: "maximum number of concurrently live linear memories"},
		TotalTables: {Name: "total_tables", Kind: Count, Pooling: true, Rust: "total_tables", CLI: "pooling-total-tables", Default: "1000", min: 1,
			Doc: "maximum number of concurrently live tables"},
		TotalStacks: {Name: "total_stacks", Kind: Count, Pooling: true, Rust: "total_stacks", CLI: "pooling-total-stacks", Default: "1000", min: 1,
			Doc: "maximum number of execution stacks for async execution"},
		TotalCoreInstances: {Name: "total_core_instances", Kind: Count, Pooling: true, Rust: "total_core_instances", CLI: "pooling-total-core-instances", Default: "1000", min: 1,
			Doc: "maximum number of concurrently live core instances"},
		MaxCoreInstanceSize: {Name: "max_core_instance_size", Kind: Size, Pooling: true, Rust: "max_core_instance_size", CLI: "pooling-max-core-instance-size", Default: "1MiB", min: 1,
			Doc: "maximum bytes of a core instance's VMContext metadata"},
		MaxTablesPerModule: {Name: "max_tables_per_module", Kind: Count, Pooling: true, Rust: "max_tables_per_module", CLI: "pooling-max-tables-per-module", Default: "1", min: 1,
			Doc: "maximum number of tables a core module may define"},
		TableElements: {Name: "table_elements", Kind: Int, Pooling: true, Rust: "table_elements", CLI: "pooling-table-elements", Default: "20000",
			Doc: "maximum number of elements of any table a module defines"},
		MaxMemoriesPerModule: {Name: "max_memories_per_module", Kind: Count, Pooling: true, Rust: "max_memories_per_module", CLI: "pooling-max-memories-per-module", Default: "1", min: 1,
			Doc: "maximum number of linear memories a core module may define"},
		MaxMemorySize: {Name: "max_memory_size", Kind: Size, Pooling: true, Rust: "max_memory_size", CLI: "pooling-max-memory-size", Default: "4GiB", min: 64 << 10, max: 4 << 30,
			maxWhy: "Wasmtime's memory reservation per linear memory; a larger value makes engine creation abort",
			Doc:    "maximum bytes any linear memory may grow to (one 64KiB wasm page up to 4GiB)"},
		TotalGCHeaps: {Name: "total_gc_heaps", Kind: Count, Pooling: true, Rust: "total_gc_heaps", CLI: "pooling-total-gc-heaps", Default: "1000", min: 1,
			Doc: "maximum number of concurrently live GC heaps"},

		MemoryInitCOW: {Name: "memory_init_cow", Kind: Bool, Default: "true", Rust: "memory_init_cow", CLI: "memory-init-cow",
			Doc: "initialise linear memory copy-on-write from a memory image of the module's data segments"},

		InitialMemory: {Name: "initial_memory", Kind: Size, Knob: true, Default: "1088KiB", min: 64 << 10, max: 4 << 30,
			maxWhy: "a 32-bit linear memory",
			Doc:    "initial linear memory, raised to hold touch and response_bytes; the default, 17 pages, is the layout of a Rust wasm32 module with its 1MiB stack",
			Note:   "It matters because on free Wasmtime resets min(keep_resident, memory size) bytes whether they were written or not"},
		Touch: {Name: "touch", Kind: Size, Knob: true, Default: "0",
			Doc: "bytes of linear memory written per request, from address 0 (the data segment page included); the initial memory is sized to hold them"},
		Compute: {Name: "compute", Kind: Int, Knob: true, Default: "0",
			Doc: "units of pure integer CPU work per request; one unit is 1000 dependent rounds of a 64-bit xorshift-multiply step"},
		IOWait: {Name: "io_wait", Kind: Duration, Knob: true, Default: "0s",
			Doc: "time spent sleeping in a host call per request while the instance stays live"},
		ResponseBytes: {Name: "response_bytes", Kind: Size, Knob: true, Default: "0",
			Doc: "bytes of response body per request (written at address 0 of linear memory)"},
		Component: {Name: "component", Kind: Bool, Knob: true, Default: "false",
			Doc:  "serve the workload's component twin: the same core code behind the sweep:plugin/handler interface of plugins/wit/plugin.wit, as a WebAssembly component",
			Note: "A request then also builds a component instance, a second (glue) core instance, and lowers and lifts strings through the canonical ABI; core module against component can be an axis of one paired grid"},
	}
	for i := range t {
		t[i].ID = ID(i)
	}
	return t
}()

var byName = func() map[string]ID {
	m := make(map[string]ID, len(options))
	for _, o := range options {
		m[o.Name] = o.ID
	}
	return m
}()

// CSetter returns the Wasmtime C API function that sets option o,
// wasmtime_pooling_allocation_config_NAME_set for a pooling option (it
// takes the wasmtime_pooling_allocation_config_t) and
// wasmtime_config_NAME_set for memory_init_cow (it takes the
// wasm_config_t), or "" for a workload knob.
func (o Option) CSetter() string {
	switch {
	case o.Knob:
		return ""
	case o.Pooling:
		return "wasmtime_pooling_allocation_config_" + o.Name + "_set"
	}
	return "wasmtime_config_" + o.Name + "_set"
}

// Options returns every known setting in table order.
func Options() []Option {
	return append([]Option(nil), options[:]...)
}

// Lookup returns the option called name.
func Lookup(name string) (Option, bool) {
	id, ok := byName[name]
	if !ok {
		return Option{}, false
	}
	return options[id], true
}

// Option returns the option with this ID. It panics on an ID outside the
// table.
func (id ID) Option() Option { return options[id] }

// String returns the option's name.
func (id ID) String() string {
	if id < 0 || id >= numOptions {
		return "ID(" + strconv.Itoa(int(id)) + ")"
	}
	return options[id].Name
}

// Names returns every known setting name in sorted order.
func Names() []string {
	names := make([]string, 0, len(options))
	for _, o := range options {
		names = append(names, o.Name)
	}
	sort.Strings(names)
	return names
}
