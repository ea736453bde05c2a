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
