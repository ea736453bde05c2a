package stats

import (
	"fmt"
	"slices"
	"testing"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/units"
)

// withErrors gives every window of ws n 502s out of its 10000 requests.
func withErrors(n int64, ws []sweep.Window) []sweep.Window {
	for i := range ws {
		errs5xx(n)(&ws[i])
	}
	return ws
}

func TestCliffs(t *testing.T) {
	levels := []int{1, 4, 16, 64}
	// mk builds 5 rounds at every level; errsAt gives 502s per window by level.
	mk := func(config string, errsAt map[int]int64) []sweep.Window {
		var ws []sweep.Window
		for _, l := range levels {
			ws = append(ws, withErrors(errsAt[l], flat(config, l, 5, 100))...)
		}
		return ws
	}
	for _, tc := range []struct {
		name   string
		ws     []sweep.Window
		opts   Options
		cliffs []string // "config@c rate"
		marks  string   // per level of the candidate: "-" none, "A" at, "P" past
	}{
		{"none", mk("kr=1MiB", nil), Options{}, nil, "----"},
		{"rate equal to the threshold is not a cliff", mk("kr=1MiB", map[int]int64{64: 10}), Options{}, nil, "----"},
		{"just above the threshold", mk("kr=1MiB", map[int]int64{64: 11}), Options{}, []string{"kr=1MiB@64 0.0011"}, "---A"},
		{"at the first level", mk("kr=1MiB", map[int]int64{1: 500, 4: 500, 16: 500, 64: 500}), Options{}, []string{"kr=1MiB@1 0.0500"}, "APPP"},
		{"in the middle, errors vanish later", mk("kr=1MiB", map[int]int64{16: 200, 64: 0}), Options{}, []string{"kr=1MiB@16 0.0200"}, "--AP"},
		{"custom threshold", mk("kr=1MiB", map[int]int64{4: 30, 16: 60}), Options{CliffRate: 0.005}, []string{"kr=1MiB@16 0.0060"}, "--AP"},
		// A crashed server is a failed window, not a property of the
		// settings: no cliff.
		{"failed window without errors", join(mk("kr=1MiB", nil), []sweep.Window{win("kr=1MiB", 4, 5, 0, failed("exit status 2"))}),
			Options{}, nil, "----"},
		{"baseline has its own", join(mk("kr=1MiB", nil), withErrors(100, flat(base, 64, 1, 100))), Options{},
			[]string{"kr=0@64 0.0020"}, "----"}, // a re-measured round 0 replaces the first: 100 of 5·10000
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.opts.Baseline = base
			a := Analyze(join(mk(base, nil), tc.ws), tc.opts)
			var got []string
			for _, c := range a.Cliffs {
				got = append(got, fmt.Sprintf("%s@%d %.4f", c.Config, c.Concurrency, c.ErrorRate))
			}
			if !slices.Equal(got, tc.cliffs) {
				t.Errorf("cliffs %q, want %q", got, tc.cliffs)
			}
			marks := ""
			for _, l := range levels {
				c := cellOf(t, a, "kr=1MiB", l)
				switch {
				case c.Cliff == nil:
					marks += "-"
				case c.Cliff.Past:
					marks += "P"
				default:
					marks += "A"
				}
				if c.Cliff != nil && (c.Cliff.At > l || c.Cliff.Past != (l > c.Cliff.At)) {
					t.Errorf("c=%d: cliff %+v inconsistent", l, *c.Cliff)
				}
			}
			if marks != tc.marks {
				t.Errorf("candidate cliff marks %q, want %q", marks, tc.marks)
			}
		})
	}
}

func TestTradeoffs(t *testing.T) {
	ws := join(
		flat(base, 1, 12, 100), flat(base, 4, 12, 100), flat(base, 16, 12, 100),
		flat(aa, 1, 12, 100), flat(aa, 4, 12, 100), flat(aa, 16, 12, 100),
		// kr=1MiB: −23% at c=1 (real), +110% at c=16 (real): a flip.
		// At c=4 ratios −5% −1% +2% +3% +5% (twice) and +2% +2%: median +2% but the interval
		// straddles zero, so no flip despite the opposite sign.
		series("kr=1MiB", 1, 77, 76, 78, 77, 77, 77, 76, 78, 77, 77, 77, 76),
		series("kr=1MiB", 4, 95, 99, 102, 103, 105, 95, 99, 102, 103, 105, 102, 102),
		flat("kr=1MiB", 16, 12, 210),
		// kr=64KiB: −10% at both ends — real, same sign, no flip.
		flat("kr=64KiB", 1, 12, 90), flat("kr=64KiB", 16, 12, 90),
	)
	a := Analyze(ws, Options{Baseline: base, AA: aa})
	var got []string
	for _, tr := range a.Tradeoffs {
		got = append(got, fmt.Sprintf("%s %s %d→%d flip=%v: %s %s at c=%d, %s at c=%d", tr.Config, tr.Metric, tr.LowConc, tr.HighConc, tr.Flip, units.Change(tr.Low), tr.Metric.Label(), tr.LowConc, units.Change(tr.High), tr.HighConc))
	}
	want := []string{
		"kr=1MiB cpu_us_per_req 1→4 flip=false: \u221223.0% CPU/req at c=1, +2.0% at c=4",
		"kr=1MiB cpu_us_per_req 1→16 flip=true: \u221223.0% CPU/req at c=1, +110.0% at c=16",
		"kr=1MiB rps 1→4 flip=false: 0.0% RPS at c=1, 0.0% at c=4",
		"kr=1MiB rps 1→16 flip=false: 0.0% RPS at c=1, 0.0% at c=16",
		"kr=1MiB success_rps 1→4 flip=false: 0.0% success RPS at c=1, 0.0% at c=4",
		"kr=1MiB success_rps 1→16 flip=false: 0.0% success RPS at c=1, 0.0% at c=16",
		"kr=64KiB cpu_us_per_req 1→16 flip=false: \u221210.0% CPU/req at c=1, \u221210.0% at c=16",
		"kr=64KiB rps 1→16 flip=false: 0.0% RPS at c=1, 0.0% at c=16",
		"kr=64KiB success_rps 1→16 flip=false: 0.0% success RPS at c=1, 0.0% at c=16",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("tradeoffs\n got %q\nwant %q", got, want)
	}
	if tr := a.Tradeoffs[1]; !near(tr.Low, -0.23) || !near(tr.High, 1.1) {
		t.Errorf("flip numbers low %v high %v, want −0.23 and +1.10", tr.Low, tr.High)
	}
}
