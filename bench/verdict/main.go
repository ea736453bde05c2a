// Command bench-verdict prints issue 16's figures from repeated runs of
// bench/verdict.toml (and, for the cross-run check against a slower
// build, of bench/verdict10.toml): how often an identical config was
// called better or worse (runs with any false verdict), how often the
// planted +5% build was called worse per level, how the in-run gate
// judged an unchanged and the +5% build, and how the cross-run check
// judged consecutive pairs of unchanged runs and unchanged-vs-+10% pairs.
//
//	bench-verdict [-identical LABEL,...] [-slow LABEL] [-slow10 DIR,...] [-history K] [-all-metrics] RUN_DIR...
package main

import (
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/gate"
	"github.com/sweep-dev/sweep/sweep/results"
	"github.com/sweep-dev/sweep/sweep/rundir"
)

func main() {
	slow10 := flag.String("slow10", "", "comma-separated run directories of bench/verdict10.toml (every build 10% slower)")
	identicalFlag := flag.String("identical", "build=same1,build=same2,build=same3", "comma-separated config labels that are the baseline's server under another name: any verdict on them is false")
	slowFlag := flag.String("slow", "build=plus5", "the config label of the planted slower build (\"\" for none)")
	allMetrics := flag.Bool("all-metrics", false, "judge all four metrics across runs (sweep check -baseline with -rps, -success-rps and -p99 given), not only gate.CrossRun's")
	history := flag.Int("history", 3, "the number of accepted runs the several-baseline cross-run check compares against (sweep check -baseline given that many times)")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: bench-verdict [-identical LABEL,...] [-slow LABEL] [-slow10 DIR,...] RUN_DIR...")
		os.Exit(2)
	}
	var identical []string // none with -identical ""
	if *identicalFlag != "" {
		identical = strings.Split(*identicalFlag, ",")
	}
	gateUnchanged := ""
	if len(identical) > 0 {
		gateUnchanged = identical[0]
	}
	slow := *slowFlag
	var runs []sweep.Summary
	var dirs []string
	falseRuns, falseCalls, calls := 0, 0, 0
	power := map[int]int{}
	var resolution = map[int][]float64{}
	gateSame, gateSlow := 0, 0
	for _, dir := range flag.Args() {
		s, err := rundir.ReadSummary(dir)
		if err != nil || !s.Complete {
			fmt.Fprintf(os.Stderr, "skipping %s: incomplete or unreadable (%v)\n", dir, err)
			continue
		}
		ws, err := results.Read(filepath.Join(dir, rundir.ResultsFile))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		runs, dirs = append(runs, s), append(dirs, dir)
		bad := false
		for _, c := range s.Cells {
			if slices.Contains(identical, c.Config) {
				for _, d := range c.VsBaseline {
					calls++
					if d.Verdict == sweep.VerdictBetter || d.Verdict == sweep.VerdictWorse {
						falseCalls++
						bad = true
						fmt.Printf("false verdict: %s %s c=%d %+.1f%% [%+.1f%%, %+.1f%%]\n", filepath.Base(dir), c.Config, c.Concurrency,
							100*d.Estimate, 100**d.CILow, 100**d.CIHigh)
					}
				}
				if r := c.VsBaseline[sweep.MetricCPUPerReq].Resolution; r != nil {
					resolution[c.Concurrency] = append(resolution[c.Concurrency], *r)
				}
			}
			if c.Config == slow && c.VsBaseline[sweep.MetricCPUPerReq].Verdict == sweep.VerdictWorse {
				power[c.Concurrency]++
			}
		}
		if bad {
			falseRuns++
		}
		for sel, n := range map[string]*int{gateUnchanged: &gateSame, slow: &gateSlow} {
			if sel == "" {
				continue
			}
			g, err := gate.Check(s, ws, sel, gate.DefaultThresholds())
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			if g.Regressed {
				*n++
			}
		}
	}
	n := len(runs)
	fmt.Printf("runs: %d (%s … %s)\n", n, filepath.Base(dirs[0]), filepath.Base(dirs[n-1]))
	if len(identical) > 0 {
		fmt.Printf("runs with a false verdict (%d identical configs × %d levels × their metrics): %d of %d; false calls %d of %d\n", len(identical), len(runs[0].Plan.Concurrency), falseRuns, n, falseCalls, calls)
	}
	for _, l := range runs[0].Plan.Concurrency {
		if slow != "" {
			fmt.Printf("%s called worse (CPU/req) at c=%d: %d of %d\n", slow, l, power[l], n)
		}
		r := resolution[l]
		slices.Sort(r)
		if len(r) > 0 {
			fmt.Printf("resolution of an identical config's CPU/req at c=%d: median ±%.1f%% (range ±%.1f … ±%.1f%%)\n", l, 100*r[len(r)/2], 100*r[0], 100*r[len(r)-1])
		}
	}
	if gateUnchanged != "" {
		fmt.Printf("in-run gate, unchanged (%s): passed %d of %d\n", gateUnchanged, n-gateSame, n)
	}
	if slow != "" {
		fmt.Printf("in-run gate, slower build (%s): failed %d of %d\n", slow, gateSlow, n)
	}
	// The cross-run check as `sweep check -baseline` runs it: the metrics
	// of gate.CrossRun, or all four with -all-metrics.
	cross := gate.CrossRun()
	if *allMetrics {
		cross = gate.DefaultThresholds()
	}
	fmt.Printf("cross-run metrics judged: %s\n", metricNames(cross))
	pass := 0
	for i := 1; i < n; i++ {
		r, err := gate.Compare(runs[i-1], runs[i], cross, nil)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		if !r.Regressed {
			pass++
		} else {
			fmt.Printf("cross-run fail: %s → %s:%s\n", filepath.Base(dirs[i-1]), filepath.Base(dirs[i]), regressedRows(r))
		}
	}
	fmt.Printf("cross-run check, consecutive unchanged runs: passed %d of %d pairs\n", pass, n-1)
	// Every ordered pair (older → newer) of unchanged runs: not independent
	// of one another, but a steadier estimate of the false-fail rate than
	// the n-1 consecutive pairs, and pairs hours apart test larger drift.
	allPass, all := 0, 0
	why := map[string]int{}
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			r, err := gate.Compare(runs[i], runs[j], cross, nil)
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			all++
			if !r.Regressed {
				allPass++
			}
			for _, row := range r.Rows {
				if row.Regressed {
					why[fmt.Sprintf("%s c=%d %s", row.Config, row.Concurrency, row.Metric)]++
				}
			}
		}
	}
	fmt.Printf("cross-run check, every pair of unchanged runs (older → newer): passed %d of %d pairs\n", allPass, all)
	for _, k := range slices.Sorted(maps.Keys(why)) {
		fmt.Printf("  regressed row in %d of those pairs: %s\n", why[k], k)
	}
	// Against several accepted runs (gate.CompareAny): the K runs just
	// before each run, and every window of K consecutive runs older than it.
	if k := *history; k > 1 && n > k {
		base := func(i int) []gate.Accepted {
			var bs []gate.Accepted
			for j := i; j < i+k; j++ {
				bs = append(bs, gate.Accepted{Name: filepath.Base(dirs[j]), Summary: runs[j]})
			}
			return bs
		}
		prevPass, prev, winPass, win := 0, 0, 0, 0
		for j := k; j < n; j++ {
			for i := 0; i+k <= j; i++ {
				r, err := gate.CompareAny(base(i), runs[j], cross, nil)
				if err != nil {
					fmt.Fprintln(os.Stderr, err)
					os.Exit(1)
				}
				win++
				if !r.Regressed {
					winPass++
				}
				if i+k == j {
					prev++
					if !r.Regressed {
						prevPass++
					} else {
						fmt.Printf("cross-run fail against the %d runs before %s:%s\n", k, filepath.Base(dirs[j]), regressedRows(r))
					}
				}
			}
		}
		fmt.Printf("cross-run check against the %d previous unchanged runs: passed %d of %d\n", k, prevPass, prev)
		fmt.Printf("cross-run check against every %d consecutive older unchanged runs: passed %d of %d\n", k, winPass, win)
	}
	if *slow10 != "" {
		fails, pairs := 0, 0
		for i, d := range strings.Split(*slow10, ",") {
			s, err := rundir.ReadSummary(d)
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			old := runs[(n-1-i+n)%n] // the latest unchanged runs
			r, err := gate.Compare(old, s, cross, nil)
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			pairs++
			if r.Regressed {
				fails++
			} else {
				fmt.Printf("cross-run pass against the +10%% build: %s → %s\n", filepath.Base(dirs[(n-1-i+n)%n]), filepath.Base(d))
			}
		}
		fmt.Printf("cross-run check, unchanged → +10%% build: failed %d of %d pairs\n", fails, pairs)
		if k := *history; k > 1 && n >= k {
			fails = 0
			for _, d := range strings.Split(*slow10, ",") {
				s, err := rundir.ReadSummary(d)
				if err != nil {
					fmt.Fprintln(os.Stderr, err)
					os.Exit(1)
				}
				var bs []gate.Accepted
				for j := n - k; j < n; j++ {
					bs = append(bs, gate.Accepted{Name: filepath.Base(dirs[j]), Summary: runs[j]})
				}
				r, err := gate.CompareAny(bs, s, cross, nil)
				if err != nil {
					fmt.Fprintln(os.Stderr, err)
					os.Exit(1)
				}
				if r.Regressed {
					fails++
				}
			}
			fmt.Printf("cross-run check, the last %d unchanged runs → +10%% build: failed %d of %d\n", k, fails, pairs)
		}
	}
}

// metricNames lists th's metrics in report order.
func metricNames(th gate.Thresholds) string {
	var out []string
	for _, m := range sweep.Metrics {
		if _, ok := th[m]; ok {
			out = append(out, string(m))
		}
	}
	return strings.Join(out, ", ")
}

// regressedRows lists a cross-run check's regressed rows, one per line.
func regressedRows(r gate.Result) string {
	var b strings.Builder
	for _, row := range r.Rows {
		if row.Regressed {
			fmt.Fprintf(&b, "\n  %s c=%d %s: %+.1f%% (allowed %.1f%%)", row.Config, row.Concurrency, row.Metric, 100*row.Change, 100*row.Threshold)
		}
	}
	return b.String()
}
