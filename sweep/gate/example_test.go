package gate_test

import (
	"os"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/gate"
)

func ExampleCompare() {
	run := func(cpu float64) sweep.Summary {
		return sweep.Summary{
			Complete: true, AAConfig: "x=0 [A/A]",
			Cells: []sweep.Cell{{
				Config: "x=0", Baseline: true, Concurrency: 16, Rounds: 5,
				CPUUsPerReq: cpu, RPS: 2600, SuccessRPS: 2600, P99Ms: 20,
				AABand: map[sweep.Metric]sweep.Band{sweep.MetricCPUPerReq: {Q1: -0.02, Q3: 0.03}},
			}},
		}
	}
	r, err := gate.Compare(run(370), run(444), gate.Thresholds{sweep.MetricCPUPerReq: 0.05}, nil)
	if err != nil {
		panic(err)
	}
	r.WriteTable(os.Stdout)
	// Output:
	// config  c   metric          old  new  change  allowed  status     note
	// x=0     16  cpu_us_per_req  370  444  +20.0%  7%       REGRESSED  worse by 20% > 7% allowed between runs
	// note: unpaired: the two runs were measured apart, so absolute changes are judged against the drift between runs (cpu_us_per_req 7%), not against either run's intervals; for a paired gate put both builds in one run (sweep check RUN_DIR)
	// note: not judged: rps, success_rps, p99_ms (no threshold given; across runs they move with the CPU share other work on the machine leaves the server; give e.g. -rps 7% to judge one)
	// REGRESSED: 1 of 1 comparisons worse beyond what an unchanged build moves between runs
}
