package setting

import (
	"flag"
	"fmt"
	"sort"
	"strconv"
	"time"

	"github.com/sweep-dev/sweep/sweep/units"
)

// Settings is a typed set of option values. A nil pointer field is unset
// and keeps Wasmtime's default. The workload knobs are plain values; zero
// means "none" (no memory touched, no compute, no wait, empty body).
type Settings struct {
	MaxUnusedWarmSlots           *uint32
	DecommitBatchSize            *uint64
	AsyncStackKeepResident       *units.Size
	LinearMemoryKeepResident     *units.Size
	TableKeepResident            *units.Size
	TotalComponentInstances      *uint32
	MaxComponentInstanceSize     *units.Size
	MaxCoreInstancesPerComponent *uint32
	MaxMemoriesPerComponent      *uint32
	MaxTablesPerComponent        *uint32
	TotalMemories                *uint32
	TotalTables                  *uint32
	TotalStacks                  *uint32
	TotalCoreInstances           *uint32
	MaxCoreInstanceSize          *units.Size
	MaxTablesPerModule           *uint32
	TableElements                *uint64
	MaxMemoriesPerModule         *uint32
	MaxMemorySize                *units.Size
	TotalGCHeaps                 *uint32

	MemoryInitCOW *bool

	// InitialMemory is the workload's initial linear memory; nil keeps
	// the default (1088KiB).
	InitialMemory *units.Size
	// Touch is the number of bytes of linear memory dirtied per request.
	Touch units.Size
	// Compute is the number of compute units per request (see Options).
	Compute uint64
	// IOWait is the time spent in a host call per request.
	IOWait time.Duration
	// ResponseBytes is the size of the response body.
	ResponseBytes units.Size
}

// field returns a pointer to the field holding option name: one of
// **uint32, **uint64, **units.Size, **bool, *units.Size, *uint64,
// *time.Duration. It panics on an unknown name (the table is fixed).
func (s *Settings) field(name string) any {
	switch name {
	case "max_unused_warm_slots":
		return &s.MaxUnusedWarmSlots
	case "decommit_batch_size":
		return &s.DecommitBatchSize
	case "async_stack_keep_resident":
		return &s.AsyncStackKeepResident
	case "linear_memory_keep_resident":
		return &s.LinearMemoryKeepResident
	case "table_keep_resident":
		return &s.TableKeepResident
	case "total_component_instances":
		return &s.TotalComponentInstances
	case "max_component_instance_size":
		return &s.MaxComponentInstanceSize
	case "max_core_instances_per_component":
		return &s.MaxCoreInstancesPerComponent
	case "max_memories_per_component":
		return &s.MaxMemoriesPerComponent
	case "max_tables_per_component":
		return &s.MaxTablesPerComponent
	case "total_memories":
		return &s.TotalMemories
	case "total_tables":
		return &s.TotalTables
	case "total_stacks":
		return &s.TotalStacks
	case "total_core_instances":
		return &s.TotalCoreInstances
	case "max_core_instance_size":
		return &s.MaxCoreInstanceSize
	case "max_tables_per_module":
		return &s.MaxTablesPerModule
	case "table_elements":
		return &s.TableElements
	case "max_memories_per_module":
		return &s.MaxMemoriesPerModule
	case "max_memory_size":
		return &s.MaxMemorySize
	case "total_gc_heaps":
		return &s.TotalGCHeaps
	case "memory_init_cow":
		return &s.MemoryInitCOW
	case "initial_memory":
		return &s.InitialMemory
	case "touch":
		return &s.Touch
	case "compute":
		return &s.Compute
	case "io_wait":
		return &s.IOWait
	case "response_bytes":
		return &s.ResponseBytes
	}
	panic("setting: no field for " + name)
}

// Set parses value for the option name and stores it in s.
func (s *Settings) Set(name, value string) error {
	o, ok := Lookup(name)
	if !ok {
		return unknownError(name)
	}
	v, err := o.parse(value)
	if err != nil {
		return err
	}
	switch p := s.field(name).(type) {
	case **uint32:
		x := v.(uint32)
		*p = &x
	case **uint64:
		x := v.(uint64)
		*p = &x
	case **units.Size:
		x := v.(units.Size)
		*p = &x
	case **bool:
		x := v.(bool)
		*p = &x
	case *units.Size:
		*p = v.(units.Size)
	case *uint64:
		*p = v.(uint64)
	case *time.Duration:
		*p = v.(time.Duration)
	}
	return nil
}

// Get returns the value of option name as a string, and whether it is set
// (for knobs: non-zero).
func (s *Settings) Get(name string) (string, bool) {
	if _, ok := Lookup(name); !ok {
		return "", false
	}
	switch p := s.field(name).(type) {
	case **uint32:
		if *p != nil {
			return strconv.FormatUint(uint64(**p), 10), true
		}
	case **uint64:
		if *p != nil {
			return strconv.FormatUint(**p, 10), true
		}
	case **units.Size:
		if *p != nil {
			return (**p).String(), true
		}
	case **bool:
		if *p != nil {
			return strconv.FormatBool(**p), true
		}
	case *units.Size:
		if *p != 0 {
			return p.String(), true
		}
	case *uint64:
		if *p != 0 {
			return strconv.FormatUint(*p, 10), true
		}
	case *time.Duration:
		if *p != 0 {
			return p.String(), true
		}
	}
	return "", false
}

// FromMap builds Settings from name → value strings ("64KiB", "64",
// "true", "1ms"). Names are checked in sorted order so the first error is
// deterministic.
func FromMap(m map[string]string) (Settings, error) {
	var s Settings
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		if err := s.Set(k, m[k]); err != nil {
			return Settings{}, err
		}
	}
	return s, nil
}

// Map returns the set fields as name → value strings (sizes with units).
// FromMap(s.Map()) equals s.
func (s Settings) Map() map[string]string {
	m := map[string]string{}
	for _, o := range options {
		if v, ok := s.Get(o.Name); ok {
			m[o.Name] = v
		}
	}
	return m
}

// flagValue adapts one option of a Settings to flag.Value.
type flagValue struct {
	s    *Settings
	name string
}

func (f flagValue) String() string {
	if f.s == nil {
		return ""
	}
	v, _ := f.s.Get(f.name)
	return v
}

func (f flagValue) Set(v string) error { return f.s.Set(f.name, v) }

// IsBoolFlag lets "-memory_init_cow" alone mean true.
func (f flagValue) IsBoolFlag() bool {
	o, _ := Lookup(f.name)
	return o.Kind == Bool
}

// RegisterFlags defines one flag per option on fs, named like the option
// (e.g. -linear_memory_keep_resident 64KiB); parsing a flag sets the field
// in s, so flags parsed after FromMap override its values.
func (s *Settings) RegisterFlags(fs *flag.FlagSet) {
	for _, o := range options {
		usage := fmt.Sprintf("%s (%s", o.Doc, o.Kind)
		if o.Default != "" {
			if o.Knob {
				usage += ", default " + o.Default
			} else {
				usage += ", Wasmtime default " + o.Default
			}
		}
		usage += ")"
		fs.Var(flagValue{s: s, name: o.Name}, o.Name, usage)
	}
}
