// Command bench-shards compares two run directories of one grid — the
// grid run whole and its shards merged (bench/run.sh blocks) — as issue
// 18 asks: the same recommendation, and the same verdict for every cell
// whose effect is beyond both runs' resolution.
//
//	bench-shards WHOLE_DIR MERGED_DIR
package main

import (
	"fmt"
	"math"
	"os"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/rundir"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: bench-shards WHOLE_DIR MERGED_DIR")
		os.Exit(2)
	}
	a, err := rundir.ReadSummary(os.Args[1])
	if err == nil {
		var b sweep.Summary
		if b, err = rundir.ReadSummary(os.Args[2]); err == nil {
			report(a, b)
			return
		}
	}
	fmt.Fprintln(os.Stderr, "bench-shards:", err)
	os.Exit(1)
}

type key struct {
	config string
	conc   int
	metric sweep.Metric
}

func report(whole, merged sweep.Summary) {
	rec := func(s sweep.Summary) string {
		if s.Recommendation == nil {
			return "none"
		}
		return s.Recommendation.Config
	}
	fmt.Printf("recommendation: whole %q, merged %q, same: %t\n", rec(whole), rec(merged), rec(whole) == rec(merged))
	deltas := map[key]sweep.Delta{}
	for _, c := range whole.Cells {
		for m, d := range c.VsBaseline {
			deltas[key{c.Config, c.Concurrency, m}] = d
		}
	}
	var beyond, agree, all, agreeAll int
	for _, c := range merged.Cells {
		for m, d := range c.VsBaseline {
			w, ok := deltas[key{c.Config, c.Concurrency, m}]
			if !ok || c.AA {
				continue
			}
			all++
			same := w.Verdict == d.Verdict
			if same {
				agreeAll++
			}
			if w.Resolution == nil || d.Resolution == nil {
				continue
			}
			if math.Abs(w.Estimate) > *w.Resolution && math.Abs(d.Estimate) > *d.Resolution {
				beyond++
				if same {
					agree++
				} else {
					fmt.Printf("  differs: %s c=%d %s: whole %s %+.1f%% (±%.1f%%), merged %s %+.1f%% (±%.1f%%)\n",
						c.Config, c.Concurrency, m, w.Verdict, 100*w.Estimate, 100**w.Resolution, d.Verdict, 100*d.Estimate, 100**d.Resolution)
				}
			}
		}
	}
	fmt.Printf("comparisons beyond both runs' resolution: %d, same verdict: %d\n", beyond, agree)
	fmt.Printf("all comparisons: %d, same verdict: %d\n", all, agreeAll)
}
