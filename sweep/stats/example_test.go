package stats_test

import (
	"fmt"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/stats"
	"github.com/sweep-dev/sweep/sweep/units"
)

// Twelve paired rounds of a baseline, its A/A twin and one candidate at two
// concurrency levels: the candidate is cheaper single-threaded and far
// more expensive under concurrency, so the baseline is kept at c=16.
func ExampleAnalyze() {
	cpu := map[string]map[int][]float64{ // config → concurrency → µs/req per round
		"kr=0":       {1: {100, 102, 98, 101, 99, 100, 103, 97, 101, 100, 99, 102}, 16: {370, 372, 368, 375, 371, 369, 373, 370, 372, 371, 368, 374}},
		"kr=0 [A/A]": {1: {99, 103, 97, 101, 100, 102, 98, 101, 99, 100, 101, 98}, 16: {371, 369, 373, 370, 372, 370, 372, 368, 375, 371, 373, 369}},
		"kr=1MiB":    {1: {77, 79, 76, 78, 77, 78, 77, 79, 76, 77, 78, 77}, 16: {810, 805, 815, 800, 812, 808, 811, 806, 814, 803, 809, 807}},
	}
	var ws []sweep.Window
	for round := range 12 {
		for _, c := range []int{1, 16} {
			for _, config := range []string{"kr=1MiB", "kr=0", "kr=0 [A/A]"} {
				ws = append(ws, sweep.Window{
					Config: config, Concurrency: c, Round: round,
					Baseline: config != "kr=1MiB", AA: config == "kr=0 [A/A]",
					Requests: 10000, Success: 10000, RPS: 10000, SuccessRPS: 10000,
					CPUUsPerReq: cpu[config][c][round],
				})
			}
		}
	}
	a := stats.Analyze(ws, stats.Options{Baseline: "kr=0", AA: "kr=0 [A/A]"})
	for _, c := range a.Cells {
		d, ok := c.VsBaseline[sweep.MetricCPUPerReq]
		verdict := "(baseline)"
		if ok {
			verdict = fmt.Sprintf("%s: %s", units.Change(d.Median), d.Verdict)
		}
		fmt.Printf("%-10s c=%-2d %5.0f µs/req  %s\n", c.Config, c.Concurrency, c.CPUUsPerReq, verdict)
	}
	for _, tr := range a.Tradeoffs {
		if tr.Flip {
			fmt.Printf("flip: %s %s at c=%d, %s at c=%d\n", tr.Config, units.Change(tr.Low), tr.LowConc, units.Change(tr.High), tr.HighConc)
		}
	}
	r := a.Recommendation
	fmt.Printf("keep baseline: %v (%s)\n", r.KeepBaseline, r.Keep)
	// Output:
	// kr=0       c=1    100 µs/req  (baseline)
	// kr=0       c=16   371 µs/req  (baseline)
	// kr=0 [A/A] c=1    100 µs/req  0.0%: control
	// kr=0 [A/A] c=16   371 µs/req  +0.1%: control
	// kr=1MiB    c=1     77 µs/req  −22.7%: better
	// kr=1MiB    c=16   808 µs/req  +118.3%: worse
	// flip: kr=1MiB −22.7% at c=1, +118.3% at c=16
	// keep baseline: true (no_improvement)
}
