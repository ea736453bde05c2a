package setting

import (
	"errors"
	"flag"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/sweep-dev/sweep/sweep/units"
)

func TestOptionsTable(t *testing.T) {
	pooling := []string{
		"max_unused_warm_slots", "decommit_batch_size", "async_stack_keep_resident",
		"linear_memory_keep_resident", "table_keep_resident", "total_component_instances",
		"max_component_instance_size", "max_core_instances_per_component",
		"max_memories_per_component", "max_tables_per_component", "total_memories",
		"total_tables", "total_stacks", "total_core_instances", "max_core_instance_size",
		"max_tables_per_module", "table_elements", "max_memories_per_module",
		"max_memory_size", "total_gc_heaps",
	}
	opts := Options()
	if len(opts) != len(pooling)+1+6 {
		t.Fatalf("got %d options, want %d", len(opts), len(pooling)+7)
	}
	for i, name := range pooling {
		if opts[i].Name != name || opts[i].Knob {
			t.Errorf("option %d = %q (knob %v), want pooling option %q", i, opts[i].Name, opts[i].Knob, name)
		}
	}
	for i, o := range opts {
		if o.Name == "" || o.Doc == "" || o.Default == "" {
			t.Errorf("option %d (%q): missing Name, Doc or Default", i, o.Name)
		}
		if o.ID != ID(i) || o.ID.Option().Name != o.Name || o.ID.String() != o.Name {
			t.Errorf("option %d (%q) has ID %d", i, o.Name, o.ID)
		}
		if got, ok := Lookup(o.Name); !ok || got.ID != o.ID {
			t.Errorf("Lookup(%q) = %v, %v", o.Name, got, ok)
		}
		if o.Pooling != (i < len(pooling)) || (o.Pooling && o.Knob) {
			t.Errorf("%s: Pooling %v, Knob %v", o.Name, o.Pooling, o.Knob)
		}
	}
	if got := ID(len(opts)).String(); got != "ID(27)" {
		t.Errorf("String of an ID past the table = %q", got)
	}
	for _, knob := range []string{"initial_memory", "touch", "compute", "io_wait", "response_bytes", "component"} {
		if o, _ := Lookup(knob); !o.Knob {
			t.Errorf("%s is not marked as a knob", knob)
		}
	}
	if _, ok := Lookup("nope"); ok {
		t.Error("Lookup(nope) succeeded")
	}
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name, value string
		wantErr     string // substring; "" means valid
	}{
		{"linear_memory_keep_resident", "0", ""},
		{"linear_memory_keep_resident", "64KiB", ""},
		{"linear_memory_keep_resident", "2097152", ""},
		{"linear_memory_keep_resident", "2MB", `linear_memory_keep_resident = "2MB": want a number of bytes or a size with a binary unit`},
		{"linear_memory_keep_resident", "2MB", "SI units like MB are not accepted"},
		{"linear_memory_keep_resident", "-1", `linear_memory_keep_resident = "-1": want a number of bytes`},
		{"total_memories", "64", ""},
		{"total_memories", "0", `total_memories = "0": want an integer from 1 to 4294967295`},
		{"total_memories", "4294967296", `total_memories = "4294967296": want an integer from 1`},
		{"total_memories", "64KiB", `total_memories = "64KiB": want an integer`},
		{"total_core_instances", "-3", `total_core_instances = "-3"`},
		{"max_unused_warm_slots", "0", ""},
		{"decommit_batch_size", "0", `decommit_batch_size = "0": want an integer of at least 1`},
		{"decommit_batch_size", "16", ""},
		{"table_elements", "0", ""},
		{"table_elements", "x", `table_elements = "x": want a non-negative integer`},
		{"max_memory_size", "1KiB", `max_memory_size = "1KiB": want a number of bytes or a size with a binary unit B, KiB, MiB, GiB, TiB (e.g. "64KiB") from 64KiB to 4GiB (Wasmtime's memory reservation`},
		{"max_memory_size", "8GiB", `max_memory_size = "8GiB": want a number of bytes or a size with a binary unit B, KiB, MiB, GiB, TiB (e.g. "64KiB") from 64KiB to 4GiB`},
		{"max_memory_size", "4GiB", ""},
		// Wasmtime aborts on keep_resident sizes near 2^64 (page rounding overflows).
		{"linear_memory_keep_resident", "18446744073709551615", `linear_memory_keep_resident = "18446744073709551615": want a number of bytes or a size with a binary unit B, KiB, MiB, GiB, TiB (e.g. "64KiB") up to 4GiB (the largest linear memory`},
		{"linear_memory_keep_resident", "4GiB", ""},
		{"table_keep_resident", "18446744073709551615", `table_keep_resident = "18446744073709551615": want a number of bytes or a size with a binary unit B, KiB, MiB, GiB, TiB (e.g. "64KiB") up to 1TiB`},
		{"async_stack_keep_resident", "1TiB", ""},
		{"memory_init_cow", "true", ""},
		{"memory_init_cow", "false", ""},
		{"memory_init_cow", "yes", `memory_init_cow = "yes": want true or false`},
		{"io_wait", "1ms", ""},
		{"io_wait", "0", ""},
		{"io_wait", "-1ms", `io_wait = "-1ms": want a non-negative Go duration`},
		{"io_wait", "10", `io_wait = "10": want a non-negative Go duration`},
		{"compute", "100", ""},
		{"compute", "1.5", `compute = "1.5": want a non-negative integer`},
		{"touch", "64KiB", ""},
		{"initial_memory", "2MiB", ""},
		{"initial_memory", "0", `initial_memory = "0": want a number of bytes or a size with a binary unit B, KiB, MiB, GiB, TiB (e.g. "64KiB") from 64KiB to 4GiB (a 32-bit linear memory)`},
		{"response_bytes", "1k", `response_bytes = "1k"`},
		{"linear_memory_keep_resdent", "0", `unknown setting "linear_memory_keep_resdent"; did you mean linear_memory_keep_resident?`},
		{"total_memory", "1", `did you mean total_memories`},
		{"keep_resident", "1", `did you mean table_keep_resident or async_stack_keep_resident or linear_memory_keep_resident?`},
		{"zzz", "1", `unknown setting "zzz"; known settings: async_stack_keep_resident, component, compute,`},
	}
	for _, tt := range tests {
		err := Validate(tt.name, tt.value)
		if tt.wantErr == "" {
			if err != nil {
				t.Errorf("Validate(%q, %q) = %v, want nil", tt.name, tt.value, err)
			}
			continue
		}
		if err == nil {
			t.Errorf("Validate(%q, %q) = nil, want error containing %q", tt.name, tt.value, tt.wantErr)
			continue
		}
		if !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("Validate(%q, %q) = %q, want it to contain %q", tt.name, tt.value, err, tt.wantErr)
		}
		if strings.Contains(err.Error(), "\n") {
			t.Errorf("Validate(%q, %q): error has more than one line: %q", tt.name, tt.value, err)
		}
		if !errors.Is(err, ErrSetting) {
			t.Errorf("Validate(%q, %q): error does not wrap ErrSetting", tt.name, tt.value)
		}
	}
}

func TestFromMapRoundTrip(t *testing.T) {
	in := map[string]string{
		"linear_memory_keep_resident": "64KiB",
		"total_memories":              "64",
		"decommit_batch_size":         "8",
		"memory_init_cow":             "false",
		"touch":                       "65536",
		"compute":                     "10",
		"io_wait":                     "1ms",
		"response_bytes":              "1KiB",
	}
	s, err := FromMap(in)
	if err != nil {
		t.Fatal(err)
	}
	if !s.IsSet(LinearMemoryKeepResident) || s.Size(LinearMemoryKeepResident) != 64*units.KiB {
		t.Errorf("linear_memory_keep_resident = %v", s.Size(LinearMemoryKeepResident))
	}
	if v, ok := s.Value(TotalMemories); !ok || v != 64 || s.Uint(TotalMemories) != 64 {
		t.Errorf("total_memories = %v, %v", v, ok)
	}
	if !s.IsSet(MemoryInitCOW) || s.Bool(MemoryInitCOW) {
		t.Errorf("memory_init_cow = %v (set %v)", s.Bool(MemoryInitCOW), s.IsSet(MemoryInitCOW))
	}
	if s.IsSet(TotalTables) || s.IsSet(MaxMemorySize) || s.Size(MaxMemorySize) != 0 {
		t.Error("unset options were set")
	}
	if s.Size(Touch) != 64*units.KiB || s.Uint(Compute) != 10 || s.Duration(IOWait) != time.Millisecond || s.Size(ResponseBytes) != units.KiB {
		t.Errorf("knobs = %v %v %v %v", s.Size(Touch), s.Uint(Compute), s.Duration(IOWait), s.Size(ResponseBytes))
	}
	want := map[string]string{
		"linear_memory_keep_resident": "64KiB",
		"total_memories":              "64",
		"decommit_batch_size":         "8",
		"memory_init_cow":             "false",
		"touch":                       "64KiB",
		"compute":                     "10",
		"io_wait":                     "1ms",
		"response_bytes":              "1KiB",
	}
	if got := s.Map(); !reflect.DeepEqual(got, want) {
		t.Errorf("Map() = %v, want %v", got, want)
	}
	s2, err := FromMap(s.Map())
	if err != nil || !reflect.DeepEqual(s2, s) {
		t.Errorf("FromMap(Map()) = %+v, %v; want %+v", s2, err, s)
	}
	if m := (Settings{}).Map(); len(m) != 0 {
		t.Errorf("empty Settings map = %v", m)
	}
}

func TestFromMapErrors(t *testing.T) {
	_, err := FromMap(map[string]string{"total_memories": "0", "touch": "1MB"})
	// Sorted order: total_memories is reported before touch.
	if err == nil || !strings.HasPrefix(err.Error(), `total_memories = "0"`) {
		t.Errorf("err = %v", err)
	}
	_, err = FromMap(map[string]string{"bogus": "1"})
	if err == nil || !strings.Contains(err.Error(), `unknown setting "bogus"`) {
		t.Errorf("err = %v", err)
	}
}

func TestRegisterFlags(t *testing.T) {
	var s Settings
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	s.RegisterFlags(fs)
	for _, o := range Options() {
		if fs.Lookup(o.Name) == nil {
			t.Errorf("no flag -%s", o.Name)
		}
	}
	err := fs.Parse([]string{"-linear_memory_keep_resident", "1MiB", "-total_core_instances=2", "-memory_init_cow=false", "-io_wait", "5ms"})
	if err != nil {
		t.Fatal(err)
	}
	if s.Size(LinearMemoryKeepResident) != units.MiB || s.Uint(TotalCoreInstances) != 2 || !s.IsSet(MemoryInitCOW) || s.Bool(MemoryInitCOW) || s.Duration(IOWait) != 5*time.Millisecond {
		t.Errorf("parsed settings = %v", s.Map())
	}
	fs2 := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs2.SetOutput(io.Discard)
	s.RegisterFlags(fs2)
	err = fs2.Parse([]string{"-total_tables", "0"})
	if err == nil || !strings.Contains(err.Error(), `total_tables = "0": want an integer from 1`) {
		t.Errorf("bad flag error = %v", err)
	}
	if u := fs.Lookup("total_memories").Usage; !strings.Contains(u, "Wasmtime default 1000") {
		t.Errorf("usage = %q", u)
	}
}

func TestSettingsValues(t *testing.T) {
	tests := []struct {
		name, value string
		id          ID
		raw         uint64
		set         bool
	}{
		{"total_memories", "64", TotalMemories, 64, true},
		{"table_elements", "0", TableElements, 0, true},
		{"linear_memory_keep_resident", "2MiB", LinearMemoryKeepResident, 2 << 20, true},
		{"linear_memory_keep_resident", "0", LinearMemoryKeepResident, 0, true},
		{"memory_init_cow", "false", MemoryInitCOW, 0, true},
		{"memory_init_cow", "true", MemoryInitCOW, 1, true},
		{"io_wait", "1ms", IOWait, uint64(time.Millisecond), true},
		// A knob at zero is a knob left alone.
		{"touch", "0", Touch, 0, false},
		{"io_wait", "0s", IOWait, 0, false},
		{"compute", "0", Compute, 0, false},
	}
	for _, tt := range tests {
		var s Settings
		if err := s.Set(tt.name, tt.value); err != nil {
			t.Fatal(err)
		}
		if v, ok := s.Value(tt.id); v != tt.raw || ok != tt.set || s.IsSet(tt.id) != tt.set {
			t.Errorf("%s = %q: Value = %d, %v; want %d, %v", tt.name, tt.value, v, ok, tt.raw, tt.set)
		}
		if _, ok := s.Map()[tt.name]; ok != tt.set {
			t.Errorf("%s = %q: in Map %v, want %v", tt.name, tt.value, ok, tt.set)
		}
	}
	var a, b Settings
	_ = a.Set("total_memories", "8")
	b = a
	_ = b.Set("total_memories", "9")
	if a.Uint(TotalMemories) != 8 || a == b {
		t.Error("a copy of Settings shares its values")
	}
}

func TestSettingsKindMismatchPanics(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "touch is a size, not a count") {
			t.Errorf("recover() = %v", r)
		}
	}()
	var s Settings
	s.Uint(Touch)
}
