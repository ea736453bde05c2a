package profile_test

import (
	"fmt"
	"time"

	pprof "github.com/google/pprof/profile"

	"github.com/sweep-dev/sweep/sweep/profile"
)

// Example groups a profile's samples into families. On a server the
// profile comes from perf (see the package documentation):
//
//	if err := profile.Check(ctx); err != nil { warn once; go on without profiles }
//	profile.Record(ctx, []int{0}, 2*time.Second, "perf.data") // while the load runs
//	p, err := profile.Convert(ctx, "perf.data", serverPID)
//
// Here p is built by hand with Convert's sample types and three stacks:
// a page fault taken in Go code, the pooling allocator's memset freeing a
// slot, and a Wasmtime frame called from the host.
func Example() {
	kernel := &pprof.Mapping{ID: 1, File: "[kernel.kallsyms]"}
	libc := &pprof.Mapping{ID: 2, File: "/usr/lib/x86_64-linux-gnu/libc.so.6"}
	host := &pprof.Mapping{ID: 3, File: "/usr/local/bin/sweep"}
	var locs []*pprof.Location
	loc := func(m *pprof.Mapping, fn string) *pprof.Location {
		l := &pprof.Location{ID: uint64(len(locs) + 1), Mapping: m, Line: []pprof.Line{{Function: &pprof.Function{ID: uint64(len(locs) + 1), Name: fn}}}}
		if m == kernel {
			l.Address = 0xffffffff81000000
		}
		locs = append(locs, l)
		return l
	}
	sample := func(cpu time.Duration, stack ...*pprof.Location) *pprof.Sample {
		return &pprof.Sample{Location: stack, Value: []int64{1, int64(cpu)}}
	}
	p := &pprof.Profile{
		SampleType: []*pprof.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		Sample: []*pprof.Sample{
			sample(3*time.Millisecond, loc(kernel, "do_anonymous_page"), loc(kernel, "handle_mm_fault"), loc(kernel, "exc_page_fault"), loc(kernel, "asm_exc_page_fault"), loc(host, "main.handle")),
			sample(5*time.Millisecond, loc(libc, "__memset_avx2_unaligned_erms"), loc(host, "wasmtime::runtime::vm::memory::Memory::reset")),
			sample(2*time.Millisecond, loc(host, "wasmtime::runtime::vm::instance::Instance::new"), loc(host, "main.handle")),
		},
	}
	p.Location = locs
	for _, fam := range profile.Families(p) {
		fmt.Printf("%-14s %d sample(s), %v, %4.1f%%\n", fam.Name, fam.Samples, fam.CPU, 100*fam.Share)
	}
	// Output:
	// memset/memcpy  1 sample(s), 5ms, 50.0%
	// page fault     1 sample(s), 3ms, 30.0%
	// Wasmtime       1 sample(s), 2ms, 20.0%
}
