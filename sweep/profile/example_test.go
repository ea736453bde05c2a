package profile_test

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/sweep-dev/sweep/sweep/profile"
)

// Example profiles a server process on CPU 0 for 2 s while a load runs,
// writes the pprof file and prints its families.
func Example() {
	ctx := context.Background()
	if err := profile.Check(ctx); err != nil {
		fmt.Println("warning:", err) // e.g. "CPU profiling unavailable: perf not found on PATH (install linux-perf)"
		return
	}
	serverPID := 12345 // the server under load
	if err := profile.Record(ctx, []int{0}, 2*time.Second, "perf.data"); err != nil {
		fmt.Println(err)
		return
	}
	p, err := profile.Convert(ctx, "perf.data", serverPID)
	if err != nil {
		fmt.Println(err)
		return
	}
	f, err := os.Create("cpu.pb.gz") // go tool pprof -top cpu.pb.gz
	if err != nil {
		fmt.Println(err)
		return
	}
	defer f.Close()
	if err := p.Write(f); err != nil {
		fmt.Println(err)
		return
	}
	for _, fam := range profile.Families(p) {
		fmt.Printf("%-16s %5.1f%%\n", fam.Name, 100*fam.Share)
	}
}

// ExampleDiff explains why a candidate setting costs more CPU per request
// than the baseline, one line per family, biggest change first.
func ExampleDiff() {
	base := []profile.Family{
		{Name: profile.PageFault, CPU: 300 * time.Millisecond},
		{Name: profile.Madvise, CPU: 500 * time.Millisecond},
		{Name: profile.Wasmtime, CPU: 400 * time.Millisecond},
	}
	cand := []profile.Family{
		{Name: profile.PageFault, CPU: 200 * time.Millisecond},
		{Name: profile.Madvise, CPU: 100 * time.Millisecond},
		{Name: profile.Wasmtime, CPU: 450 * time.Millisecond},
		{Name: profile.Scheduler, CPU: 20 * time.Millisecond},
	}
	for _, d := range profile.Diff(profile.PerRequest(base, 10000), profile.PerRequest(cand, 10000)) {
		fmt.Printf("%-16s %5.1f → %5.1f µs/req (%+.1f)\n", d.Name, d.Base, d.Cand, d.Diff)
	}
	// Output:
	// madvise/munmap    50.0 →  10.0 µs/req (-40.0)
	// page fault        30.0 →  20.0 µs/req (-10.0)
	// Wasmtime          40.0 →  45.0 µs/req (+5.0)
	// scheduler          0.0 →   2.0 µs/req (+2.0)
}
