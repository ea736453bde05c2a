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

import "sort"

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

// Option describes one setting.
type Option struct {
	Name string
	Kind Kind
	// Knob marks a workload knob of the builtin plugin, not a Wasmtime option.
	Knob bool
	// Doc is a one-line description.
	Doc string
	// Default is Wasmtime's documented default ("" if none is documented);
	// for a knob, the value used when it is not set.
	Default string
	// min is the smallest allowed value for numeric kinds (0 allows zero).
	min uint64
	// max, when non-zero, is the largest allowed value; maxWhy explains it.
	max    uint64
	maxWhy string
}

// options is the table of every known setting in a stable order: the
// pooling options in the order of wasmtime/config.h, then memory_init_cow,
// then the workload knobs.
var options = []Option{
	{Name: "max_unused_warm_slots", Kind: Count, Default: "100",
		Doc: "maximum number of unused warm slots kept in the pool (slots that keep their resident pages)"},
	{Name: "decommit_batch_size", Kind: Int, Default: "1", min: 1,
		Doc: "number of slots whose memory is decommitted together in one batch"},
	{Name: "async_stack_keep_resident", Kind: Size, Default: "0",
		Doc: "bytes of each async stack kept resident (reset in place) after deallocation"},
	{Name: "linear_memory_keep_resident", Kind: Size, Default: "0",
		Doc: "bytes of each linear memory kept resident and reset in place after deallocation; the rest is madvise(DONTNEED)-ed"},
	{Name: "table_keep_resident", Kind: Size, Default: "0",
		Doc: "bytes of each table kept resident and reset in place after deallocation"},
	{Name: "total_component_instances", Kind: Count, Default: "1000", min: 1,
		Doc: "maximum number of concurrently live component instances"},
	{Name: "max_component_instance_size", Kind: Size, Default: "1MiB", min: 1,
		Doc: "maximum bytes of a component instance's VMComponentContext metadata"},
	{Name: "max_core_instances_per_component", Kind: Count, Default: "unlimited", min: 1,
		Doc: "maximum number of core instances a single component may contain"},
	{Name: "max_memories_per_component", Kind: Count, Default: "unlimited", min: 1,
		Doc: "maximum number of linear memories a single component may transitively contain"},
	{Name: "max_tables_per_component", Kind: Count, Default: "unlimited", min: 1,
		Doc: "maximum number of tables a single component may transitively contain"},
	{Name: "total_memories", Kind: Count, Default: "1000", min: 1,
		Doc: "maximum number of concurrently live linear memories"},
	{Name: "total_tables", Kind: Count, Default: "1000", min: 1,
		Doc: "maximum number of concurrently live tables"},
	{Name: "total_stacks", Kind: Count, Default: "1000", min: 1,
		Doc: "maximum number of execution stacks for async execution"},
	{Name: "total_core_instances", Kind: Count, Default: "1000", min: 1,
		Doc: "maximum number of concurrently live core instances"},
	{Name: "max_core_instance_size", Kind: Size, Default: "1MiB", min: 1,
		Doc: "maximum bytes of a core instance's VMContext metadata"},
	{Name: "max_tables_per_module", Kind: Count, Default: "1", min: 1,
		Doc: "maximum number of tables a core module may define"},
	{Name: "table_elements", Kind: Int, Default: "20000",
		Doc: "maximum number of elements of any table a module defines"},
	{Name: "max_memories_per_module", Kind: Count, Default: "1", min: 1,
		Doc: "maximum number of linear memories a core module may define"},
	{Name: "max_memory_size", Kind: Size, Default: "4GiB", min: 64 << 10, max: 4 << 30,
		maxWhy: "Wasmtime's memory reservation per linear memory; a larger value makes engine creation abort",
		Doc:    "maximum bytes any linear memory may grow to (one 64KiB wasm page up to 4GiB)"},
	{Name: "total_gc_heaps", Kind: Count, Default: "1000", min: 1,
		Doc: "maximum number of concurrently live GC heaps"},
	{Name: "memory_init_cow", Kind: Bool, Default: "true",
		Doc: "initialise linear memory copy-on-write from a memory image of the module's data segments"},
	{Name: "initial_memory", Kind: Size, Knob: true, Default: "1088KiB", min: 64 << 10, max: 4 << 30,
		maxWhy: "a 32-bit linear memory",
		Doc:    "workload: initial linear memory, raised to hold touch and response_bytes; the default, 17 pages, is the layout of a Rust wasm32 module with its 1MiB stack"},
	{Name: "touch", Kind: Size, Knob: true, Default: "0",
		Doc: "workload: bytes of linear memory written per request, from address 0 (the data segment page included); the initial memory is sized to hold them"},
	{Name: "compute", Kind: Int, Knob: true, Default: "0",
		Doc: "workload: units of pure integer CPU work per request; one unit is 1000 dependent rounds of a 64-bit xorshift-multiply step"},
	{Name: "io_wait", Kind: Duration, Knob: true, Default: "0s",
		Doc: "workload: time spent sleeping in a host call per request while the instance stays live"},
	{Name: "response_bytes", Kind: Size, Knob: true, Default: "0",
		Doc: "workload: bytes of response body per request (written at address 0 of linear memory)"},
}

var byName = func() map[string]int {
	m := make(map[string]int, len(options))
	for i, o := range options {
		m[o.Name] = i
	}
	return m
}()

// Options returns every known setting in a stable order.
func Options() []Option {
	return append([]Option(nil), options...)
}

// Lookup returns the option called name.
func Lookup(name string) (Option, bool) {
	i, ok := byName[name]
	if !ok {
		return Option{}, false
	}
	return options[i], true
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
