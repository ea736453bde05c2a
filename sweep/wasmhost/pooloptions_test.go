package wasmhost

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/bytecodealliance/wasmtime-go/v39"

	"github.com/sweep-dev/sweep/sweep/setting"
)

// TestEveryPoolingOptionReachesEngine sets each of the pooling options of
// the option table and observes Wasmtime's own behaviour or error: what
// the option does with the value set, against what it does by default.
// Each check builds its engines through applyPooling, the path sweep
// serve uses. An option with no entry here fails the test, so a new row
// in the table needs a check (or an honest reason why none exists).
func TestEveryPoolingOptionReachesEngine(t *testing.T) {
	checks := map[setting.ID]func(t *testing.T){
		setting.MaxUnusedWarmSlots:       checkWarmSlots,
		setting.DecommitBatchSize:        checkDecommitBatch,
		setting.AsyncStackKeepResident:   checkAsyncStackKeepResident,
		setting.LinearMemoryKeepResident: checkMemoryKeepResident,
		setting.TableKeepResident:        checkTableKeepResident,
		setting.TotalMemories:            checkExhaustion(setting.TotalMemories, "(memory 1)", "maximum concurrent limit of 2 for memory stripe 0 reached"),
		setting.TotalTables:              checkExhaustion(setting.TotalTables, "(table 1 funcref)", "maximum concurrent limit of 2 for tables reached"),
		setting.TotalCoreInstances:       checkExhaustion(setting.TotalCoreInstances, "", "maximum concurrent limit of 2 for core instances reached"),
		setting.TotalStacks:              checkTotalStacks,
		setting.MaxCoreInstanceSize: checkCompile(setting.MaxCoreInstanceSize, "64", "(memory 1)",
			"exceeds the configured maximum of 64 bytes", ""),
		setting.MaxTablesPerModule: checkCompile(setting.MaxTablesPerModule, "2", "(table 1 funcref) (table 1 funcref)",
			"", "defined tables count of 2 exceeds the per-instance limit of 1"),
		setting.TableElements: checkCompile(setting.TableElements, "10", "(table 11 funcref)",
			"table index 0 has a minimum element size of 11 which exceeds the limit of 10", ""),
		setting.MaxMemoriesPerModule: checkCompile(setting.MaxMemoriesPerModule, "2", "(memory 1) (memory 1)",
			"", "defined memories count of 2 exceeds the per-instance limit of 1"),
		setting.MaxMemorySize: checkMaxMemorySize,
		setting.TotalGCHeaps:  checkGCHeaps,

		// Component-model options, through the host's component C API
		// (component_cgo.go). Wasmtime checks the per-component limits when
		// a component is compiled, and total_component_instances when one
		// is instantiated.
		setting.TotalComponentInstances: checkComponentInstances,
		setting.MaxComponentInstanceSize: checkComponentCompile(setting.MaxComponentInstanceSize, "1", componentOf("(memory 1)", 1),
			"bytes of `VMComponentContext` space which exceeds the configured maximum of 1 bytes"),
		setting.MaxCoreInstancesPerComponent: checkComponentCompile(setting.MaxCoreInstancesPerComponent, "1", componentOf("", 2),
			"The component transitively contains 2 core module instances, which exceeds the configured maximum of 1"),
		setting.MaxMemoriesPerComponent: checkComponentCompile(setting.MaxMemoriesPerComponent, "1", componentOf("(memory 1)", 2),
			"The component transitively contains 2 Wasm linear memories, which exceeds the configured maximum of 1"),
		setting.MaxTablesPerComponent: checkComponentCompile(setting.MaxTablesPerComponent, "1", componentOf("(table 1 funcref)", 2),
			"The component transitively contains 2 tables, which exceeds the configured maximum of 1"),
	}
	for _, o := range setting.Options() {
		if !o.Pooling {
			if checks[o.ID] != nil {
				t.Errorf("%s is not a pooling option", o.Name)
			}
			continue
		}
		check := checks[o.ID]
		if check == nil {
			t.Errorf("%s: no check that it reaches the engine", o.Name)
			continue
		}
		t.Run(o.Name, check)
	}
}

// poolEngine builds an engine like newEngine does, with these settings
// (and the GC proposal on if gc); it is closed at cleanup.
func poolEngine(t *testing.T, settings map[string]string, gc bool) *wasmtime.Engine {
	t.Helper()
	s, err := setting.FromMap(settings)
	if err != nil {
		t.Fatal(err)
	}
	cfg := wasmtime.NewConfig()
	if gc {
		cfg.SetWasmGC(true)
		cfg.SetWasmFunctionReferences(true)
	}
	if err := applyPooling(cfg, &s); err != nil {
		t.Fatal(err)
	}
	e := wasmtime.NewEngineWithConfig(cfg)
	t.Cleanup(e.Close)
	return e
}

// poolModule compiles (module body) for e.
func poolModule(t *testing.T, e *wasmtime.Engine, body string) (*wasmtime.Module, error) {
	t.Helper()
	wasm, err := wasmtime.Wat2Wasm("(module " + body + ")")
	if err != nil {
		t.Fatal(err)
	}
	m, err := wasmtime.NewModule(e, wasm)
	if err == nil {
		t.Cleanup(m.Close)
	}
	return m, err
}

// poolInstance instantiates m in a new store; the caller closes the store.
func poolInstance(e *wasmtime.Engine, m *wasmtime.Module) (*wasmtime.Store, *wasmtime.Instance, error) {
	store := wasmtime.NewStore(e)
	inst, err := wasmtime.NewInstance(store, m, nil)
	if err != nil {
		store.Close()
		return nil, nil, err
	}
	return store, inst, nil
}

// mustInstance is poolInstance failing the test; the store is closed at
// cleanup unless the caller closes it first.
func mustInstance(t *testing.T, e *wasmtime.Engine, m *wasmtime.Module) (*wasmtime.Store, *wasmtime.Instance) {
	t.Helper()
	store, inst, err := poolInstance(e, m)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(store.Close)
	return store, inst
}

// memoryBase returns the address and the bytes of the exported memory "m".
func memoryBase(t *testing.T, store *wasmtime.Store, inst *wasmtime.Instance) (uintptr, []byte) {
	t.Helper()
	ext := inst.GetExport(store, "m")
	if ext == nil || ext.Memory() == nil {
		t.Fatal("no exported memory m")
	}
	data := ext.Memory().UnsafeData(store)
	return reflect.ValueOf(data).Pointer(), data
}

// residentPages counts the pages of [addr, addr+n) that are present in
// RAM, from /proc/self/pagemap (bit 63 of each page's entry).
func residentPages(t *testing.T, addr uintptr, n int) int {
	t.Helper()
	f, err := os.Open("/proc/self/pagemap")
	if err != nil {
		t.Skipf("no pagemap: %v", err)
	}
	defer f.Close()
	pages := (n + pageSize - 1) / pageSize
	buf := make([]byte, 8*pages)
	if _, err := f.ReadAt(buf, int64(addr/pageSize)*8); err != nil {
		t.Fatal(err)
	}
	count := 0
	for i := 0; i < pages; i++ {
		if binary.LittleEndian.Uint64(buf[8*i:])&(1<<63) != 0 {
			count++
		}
	}
	return count
}

// dirtyAndFree writes the first n bytes of a fresh instance's memory "m",
// closes its store, and returns how many of those pages stay resident.
func dirtyAndFree(t *testing.T, e *wasmtime.Engine, m *wasmtime.Module, n int) int {
	t.Helper()
	store, inst, err := poolInstance(e, m)
	if err != nil {
		t.Fatal(err)
	}
	addr, data := memoryBase(t, store, inst)
	for i := 0; i < n; i += 512 {
		data[i] = 1
	}
	if got := residentPages(t, addr, n); got != n/pageSize {
		t.Fatalf("%d of %d written pages resident before free", got, n/pageSize)
	}
	store.Close()
	return residentPages(t, addr, n)
}

// checkMemoryKeepResident: after a store is closed, Wasmtime keeps the
// first linear_memory_keep_resident bytes of its memory resident (reset in
// place) and decommits the rest; by default none stays resident.
func checkMemoryKeepResident(t *testing.T) {
	const dirty = 256 << 10
	for _, tt := range []struct {
		settings map[string]string
		want     int
	}{
		{nil, 0},
		{map[string]string{"linear_memory_keep_resident": "64KiB"}, 64 << 10 / pageSize},
	} {
		e := poolEngine(t, tt.settings, false)
		m, err := poolModule(t, e, `(memory (export "m") 4)`)
		if err != nil {
			t.Fatal(err)
		}
		if got := dirtyAndFree(t, e, m, dirty); got != tt.want {
			t.Errorf("%v: %d of %d dirtied pages resident after free, want %d", tt.settings, got, dirty/pageSize, tt.want)
		}
	}
}

// checkDecommitBatch: with decommit_batch_size 2, one freed memory waits
// in the decommit queue, still resident, until a second joins it; with the
// default, 1, it is decommitted at once.
func checkDecommitBatch(t *testing.T) {
	const dirty = 128 << 10
	for _, tt := range []struct {
		settings map[string]string
		want     int
	}{
		{nil, 0},
		{map[string]string{"decommit_batch_size": "2"}, dirty / pageSize},
	} {
		e := poolEngine(t, tt.settings, false)
		m, err := poolModule(t, e, `(memory (export "m") 2)`)
		if err != nil {
			t.Fatal(err)
		}
		if got := dirtyAndFree(t, e, m, dirty); got != tt.want {
			t.Errorf("%v: %d of %d dirtied pages resident after free, want %d", tt.settings, got, dirty/pageSize, tt.want)
		}
	}
}

// checkWarmSlots: a freed slot stays warm, affine to its module. With
// fewer warm slots than max_unused_warm_slots, another module gets a cold
// slot; at the limit (1 here) it takes the warm one, at the same address.
func checkWarmSlots(t *testing.T) {
	for _, tt := range []struct {
		settings map[string]string
		same     bool
	}{
		{nil, false},
		{map[string]string{"max_unused_warm_slots": "1"}, true},
	} {
		e := poolEngine(t, tt.settings, false)
		a, err := poolModule(t, e, `(memory (export "m") 1) (func (export "a"))`)
		if err != nil {
			t.Fatal(err)
		}
		b, err := poolModule(t, e, `(memory (export "m") 1) (func (export "b"))`)
		if err != nil {
			t.Fatal(err)
		}
		store, inst := mustInstance(t, e, a)
		addrA, _ := memoryBase(t, store, inst)
		store.Close()
		store, inst = mustInstance(t, e, b)
		addrB, _ := memoryBase(t, store, inst)
		if same := addrA == addrB; same != tt.same {
			t.Errorf("%v: module b got module a's freed slot: %v, want %v", tt.settings, same, tt.same)
		}
	}
}

// checkTableKeepResident: like linear_memory_keep_resident, for tables.
// The table's address is not exposed, so this counts the process's
// resident anonymous memory (RssAnon) freed when the store of a filled
// 8MB table is closed: all of it by default, all but the 4MiB kept with
// table_keep_resident = 4MiB. Go's own allocations blur this by far less
// than the 1MiB allowed.
func checkTableKeepResident(t *testing.T) {
	const elems = 1000000
	const table = elems * 8
	for _, tt := range []struct {
		keep  string
		freed int64
	}{
		{"", table},
		{"4MiB", table - 4<<20},
	} {
		t.Run("keep="+tt.keep, func(t *testing.T) {
			settings := map[string]string{"table_elements": strconv.Itoa(elems), "total_tables": "2"}
			if tt.keep != "" {
				settings["table_keep_resident"] = tt.keep
			}
			e := poolEngine(t, settings, false)
			m, err := poolModule(t, e, fmt.Sprintf(`(table $t %d funcref) (func $f) (elem declare func $f)
				(func (export "fill") (table.fill $t (i32.const 0) (ref.func $f) (i32.const %d)))`, elems, elems))
			if err != nil {
				t.Fatal(err)
			}
			store, inst := mustInstance(t, e, m)
			if _, err := inst.GetFunc(store, "fill").Call(store); err != nil {
				t.Fatal(err)
			}
			before := procStatus(t, "RssAnon:")
			store.Close()
			freed := before - procStatus(t, "RssAnon:")
			if d := freed - tt.freed; d < -1<<20 || d > 1<<20 {
				t.Errorf("table_keep_resident %q: closing the store freed %d resident bytes, want %d ± 1MiB", tt.keep, freed, tt.freed)
			}
		})
	}
}

// checkExhaustion: with the limit at 2, a third live instance fails with
// Wasmtime's pool-exhausted error; by default it succeeds.
func checkExhaustion(id setting.ID, body, wasm string) func(t *testing.T) {
	return func(t *testing.T) {
		for _, limit := range []string{"", "2"} {
			settings := map[string]string{}
			if limit != "" {
				settings[id.String()] = limit
			}
			e := poolEngine(t, settings, false)
			m, err := poolModule(t, e, body)
			if err != nil {
				t.Fatal(err)
			}
			mustInstance(t, e, m)
			mustInstance(t, e, m)
			store, _, err := poolInstance(e, m)
			if limit == "" {
				if err != nil {
					t.Errorf("default %s: third instance failed: %v", id, err)
				} else {
					store.Close()
				}
				continue
			}
			if err == nil {
				store.Close()
				t.Errorf("%s = 2: third instance succeeded", id)
			} else if !strings.Contains(err.Error(), wasm) {
				t.Errorf("%s = 2: error %q, want Wasmtime's %q", id, err, wasm)
			}
		}
	}
}

// checkCompile: compiling (module body) fails with Wasmtime's message
// when the option is at its default (defaultErr) or at value (setErr), and
// succeeds in the other case ("" for the one that succeeds).
func checkCompile(id setting.ID, value, body, setErr, defaultErr string) func(t *testing.T) {
	return func(t *testing.T) {
		for _, tt := range []struct {
			settings map[string]string
			want     string
		}{
			{nil, defaultErr},
			{map[string]string{id.String(): value}, setErr},
		} {
			_, err := poolModule(t, poolEngine(t, tt.settings, false), body)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("%v: compile failed: %v", tt.settings, err)
			case tt.want != "" && err == nil:
				t.Errorf("%v: compile succeeded, want Wasmtime's %q", tt.settings, tt.want)
			case tt.want != "" && !strings.Contains(err.Error(), tt.want):
				t.Errorf("%v: error %q, want Wasmtime's %q", tt.settings, err, tt.want)
			}
		}
	}
}

// checkMaxMemorySize: memory.grow past max_memory_size fails (1MiB: 16
// wasm pages); by default the same growth succeeds.
func checkMaxMemorySize(t *testing.T) {
	for _, tt := range []struct {
		settings map[string]string
		grows    bool
	}{
		{nil, true},
		{map[string]string{"max_memory_size": "1MiB"}, false},
	} {
		e := poolEngine(t, tt.settings, false)
		m, err := poolModule(t, e, `(memory (export "m") 1)`)
		if err != nil {
			t.Fatal(err)
		}
		store, inst := mustInstance(t, e, m)
		mem := inst.GetExport(store, "m").Memory()
		if _, err := mem.Grow(store, 15); err != nil {
			t.Fatalf("%v: grow to 16 pages: %v", tt.settings, err)
		}
		_, err = mem.Grow(store, 1)
		if grows := err == nil; grows != tt.grows {
			t.Errorf("%v: grow to 17 pages succeeded %v (%v), want %v", tt.settings, grows, err, tt.grows)
		}
	}
}

// checkGCHeaps: a store whose module uses GC types takes a GC heap from
// the pool when it is instantiated; with total_gc_heaps = 2 a third live
// store cannot, by default it can.
func checkGCHeaps(t *testing.T) {
	for _, limit := range []string{"", "2"} {
		settings := map[string]string{}
		if limit != "" {
			settings["total_gc_heaps"] = limit
		}
		e := poolEngine(t, settings, true)
		m, err := poolModule(t, e, `(type $s (struct (field i32)))
			(func (export "new") (result i32) (struct.get $s 0 (struct.new $s (i32.const 7))))`)
		if err != nil {
			t.Fatal(err)
		}
		var errs []error
		for i := 0; i < 3; i++ {
			store, inst, err := poolInstance(e, m)
			if err == nil {
				t.Cleanup(store.Close)
				_, err = inst.GetFunc(store, "new").Call(store)
			}
			errs = append(errs, err)
		}
		const wasm = "maximum concurrent GC heap limit of 2 reached"
		switch {
		case errs[0] != nil || errs[1] != nil:
			t.Errorf("total_gc_heaps %q: first two stores: %v, %v", limit, errs[0], errs[1])
		case limit == "" && errs[2] != nil:
			t.Errorf("default: third store: %v", errs[2])
		case limit != "" && errs[2] == nil:
			t.Errorf("total_gc_heaps = 2: a third store allocated a GC object")
		case limit != "" && !strings.Contains(errs[2].Error(), wasm):
			t.Errorf("total_gc_heaps = 2: error %q, want Wasmtime's %q", firstLine(errs[2].Error()), wasm)
		}
	}
}

// checkTotalStacks: the engine reserves the async stack pool up front,
// total_stacks × (async stack size, 2MiB by default, plus a guard page),
// even though sweep never runs wasm asynchronously; so 129 stacks take
// 128 × (2MiB+4KiB) more address space than 1.
func checkTotalStacks(t *testing.T) {
	grow := func(stacks string) int64 {
		// Small memory and table pools, so that they do not blur the figure.
		settings := map[string]string{"total_stacks": stacks, "total_memories": "1", "total_tables": "1"}
		before := procStatus(t, "VmSize:")
		poolEngine(t, settings, false)
		return procStatus(t, "VmSize:") - before
	}
	one, many := grow("1"), grow("129")
	want := int64(128 * (2<<20 + pageSize))
	if d := many - one; d < want || d > want+32<<20 {
		t.Errorf("129 stacks reserved %d bytes more than 1 stack, want %d (+ at most 32MiB of other mappings)", d, want)
	}
}

// procStatus is a "NAME: N kB" figure of /proc/self/status in bytes.
func procStatus(t *testing.T, name string) int64 {
	t.Helper()
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skipf("no /proc/self/status: %v", err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) == 3 && f[0] == name {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb << 10
		}
	}
	t.Fatalf("no %s in /proc/self/status", name)
	return 0
}

// checkAsyncStackKeepResident: async stacks are reset only when an async
// call's fiber stack is freed, and sweep makes no async calls (wasmtime-go
// has none), so no value in range changes anything observable here. What
// is observable is that the value reaches the stack pool: Wasmtime rounds
// it up to whole pages when it builds the engine, and a value that cannot
// be rounded makes engine creation fail — which in the C API aborts the
// process, so this runs in a child process, handed the raw value past
// sweep's own check (which refuses it: package setting caps the option at
// 1TiB for this reason). The child is also given a harmless value and the
// cap itself, to show that the failure is this value's.
func checkAsyncStackKeepResident(t *testing.T) {
	const huge = uint64(1<<64 - 1)
	if _, err := setting.FromMap(map[string]string{"async_stack_keep_resident": strconv.FormatUint(huge, 10)}); err == nil {
		t.Errorf("async_stack_keep_resident = %d passed sweep's check, want it refused", huge)
	}
	for _, tt := range []struct {
		value uint64
		fails bool
	}{
		{64 << 10, false},
		{1 << 40, false},
		{huge, true},
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestEngineChild$")
		cmd.Env = append(os.Environ(), fmt.Sprintf("SWEEP_ENGINE_CHILD=async_stack_keep_resident=%d", tt.value))
		out, err := cmd.CombinedOutput()
		const wasm = "byte count overflow rounding up"
		switch {
		case !tt.fails && (err != nil || !bytes.Contains(out, []byte("engine created"))):
			t.Errorf("async_stack_keep_resident = %d: engine creation failed: %v\n%s", tt.value, err, out)
		case tt.fails && err == nil:
			t.Errorf("async_stack_keep_resident = %d: engine creation succeeded, want Wasmtime's %q", tt.value, wasm)
		case tt.fails && !bytes.Contains(out, []byte(wasm)):
			t.Errorf("async_stack_keep_resident = %d: child output %q, want Wasmtime's %q", tt.value, out, wasm)
		}
	}
}

// TestEngineChild builds one engine with the raw value in
// $SWEEP_ENGINE_CHILD (name=bytes), unchecked, and exits; it is the child
// process of checkAsyncStackKeepResident and does nothing otherwise.
func TestEngineChild(t *testing.T) {
	kv := os.Getenv("SWEEP_ENGINE_CHILD")
	if kv == "" {
		t.Skip("only run as a child process")
	}
	name, value, _ := strings.Cut(kv, "=")
	o, ok := setting.Lookup(name)
	v, err := strconv.ParseUint(value, 10, 64)
	if !ok || err != nil {
		t.Fatalf("SWEEP_ENGINE_CHILD = %q: want a pooling option name=bytes", kv)
	}
	cfg := wasmtime.NewConfig()
	if err := applyRaw(cfg, map[setting.ID]uint64{o.ID: v}); err != nil {
		t.Fatal(err)
	}
	e := wasmtime.NewEngineWithConfig(cfg)
	defer e.Close()
	fmt.Println("engine created")
}

// componentOf is a component that instantiates n times a core module
// whose body is body.
func componentOf(body string, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "(component (core module $m %s)", body)
	for range n {
		b.WriteString(" (core instance (instantiate $m))")
	}
	b.WriteString(")")
	return b.String()
}

// checkComponentCompile: compiling the component wat for an engine built
// through applyPooling succeeds by default and fails with Wasmtime's
// message want with the option at value.
func checkComponentCompile(id setting.ID, value, wat, want string) func(t *testing.T) {
	return func(t *testing.T) {
		wasm, err := wasmtime.Wat2Wasm(wat)
		if err != nil {
			t.Fatal(err)
		}
		for _, tt := range []struct {
			settings map[string]string
			want     string
		}{
			{nil, ""},
			{map[string]string{id.String(): value}, want},
		} {
			c, err := compileComponent(poolEngine(t, tt.settings, false), wasm)
			if err == nil {
				deleteComponent(c)
			}
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("%v: compile failed: %v", tt.settings, err)
			case tt.want != "" && err == nil:
				t.Errorf("%v: compile succeeded, want Wasmtime's %q", tt.settings, tt.want)
			case tt.want != "" && !strings.Contains(err.Error(), tt.want):
				t.Errorf("%v: error %q, want Wasmtime's %q", tt.settings, firstLine(err.Error()), tt.want)
			}
		}
	}
}

// checkComponentInstances: with total_component_instances = 1 a second
// live instance of a component (two requests' stores open at once, as the
// host opens them) fails with Wasmtime's pool-exhausted error; by default
// it succeeds.
func checkComponentInstances(t *testing.T) {
	for _, limit := range []string{"", "1"} {
		settings := map[string]string{}
		if limit != "" {
			settings["total_component_instances"] = limit
		}
		h, err := New(Options{Plugin: "testdata/echo-component.wat", Settings: settingsOf(t, settings), Cache: noCache})
		if err != nil {
			t.Fatal(err)
		}
		var errs []error
		var open []*call
		for range 2 {
			c := h.newCall(context.Background())
			errs = append(errs, c.openComponent(nil))
			open = append(open, c)
		}
		for _, c := range open {
			c.closeComponent()
			c.closeStdout()
			c.release()
		}
		h.Close()
		const wasm = "maximum concurrent limit of 1 for component instances reached"
		switch {
		case errs[0] != nil:
			t.Errorf("total_component_instances %q: first instance: %v", limit, errs[0])
		case limit == "" && errs[1] != nil:
			t.Errorf("default: second live instance: %v", errs[1])
		case limit != "" && errs[1] == nil:
			t.Errorf("total_component_instances = 1: a second instance was live at once")
		case limit != "" && !strings.Contains(errs[1].Error(), wasm):
			t.Errorf("total_component_instances = 1: error %q, want Wasmtime's %q", firstLine(errs[1].Error()), wasm)
		}
	}
}
