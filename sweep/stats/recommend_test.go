package stats

import (
	"slices"
	"testing"

	"github.com/sweep-dev/sweep/sweep"
)

// at16 is 12 rounds of config at c=16 with the given CPU µs/req, and
// 12 neutral rounds at c=1.
func at16(config string, cpu float64, opts ...func(*sweep.Window)) []sweep.Window {
	ws := join(flat(config, 1, 12, 100), flat(config, 16, 12, cpu))
	for i := 12; i < 24; i++ {
		for _, o := range opts {
			o(&ws[i])
		}
	}
	return ws
}

func TestRecommendation(t *testing.T) {
	// The A/A twin's ratios are −2% −1% 0 +1% +2%: band −1% … +1%.
	control := join(flat(base, 1, 12, 100), flat(base, 16, 12, 100),
		series(aa, 1, 98, 99, 100, 101, 102), series(aa, 16, 98, 99, 100, 101, 102))
	noAA := join(flat(base, 1, 12, 100), flat(base, 16, 12, 100))
	oneFailed := join(at16("kr=1MiB", 70), []sweep.Window{win("kr=1MiB", 16, 12, 0, failed("signal: killed"))})
	for _, tc := range []struct {
		name   string
		ws     []sweep.Window
		opts   Options
		keep   bool
		config string
		change float64
		why    sweep.KeepReason
	}{
		{"all equal", join(control, at16("kr=64KiB", 100), at16("kr=1MiB", 100)), Options{},
			true, base, 0, "no_improvement"},
		// The A/A spread is no margin: a change the same in all 12 rounds is
		// real, however small.
		{"a small steady improvement", join(control, at16("kr=64KiB", 99.5)), Options{},
			false, "kr=64KiB", -0.005, ""},
		{"one winner", join(control, at16("kr=64KiB", 80), at16("kr=1MiB", 100)), Options{},
			false, "kr=64KiB", -0.2,
			""},
		{"best median wins", join(control, at16("kr=64KiB", 80), at16("kr=1MiB", 70)), Options{},
			false, "kr=1MiB", -0.3, ""},
		{"ties go to the first in cell order", join(control, at16("kr=1MiB", 80), at16("kr=64KiB", 80)), Options{},
			false, "kr=1MiB", -0.2, ""},
		{"", join(control, at16("kr=64KiB", 80, errs5xx(50)), oneFailed, at16("kr=2MiB", 100)), Options{},
			true, base, 0, "errors"},
		{"clean beats a bigger erroring gain", join(control, at16("kr=1MiB", 70, errs5xx(1)), at16("kr=64KiB", 80)), Options{},
			false, "kr=64KiB", -0.2, ""},
		{"errors at another level do not count", join(control, withErrors(500, flat("kr=64KiB", 1, 12, 100)), flat("kr=64KiB", 16, 12, 80)), Options{},
			false, "kr=64KiB", -0.2, ""},
		{"objective success_rps", join(control, at16("kr=64KiB", 120, rps(11000)), at16("kr=1MiB", 80)), Options{Objective: sweep.ObjectiveSuccessRPS},
			false, "kr=64KiB", 0.1,
			""},
		{"target concurrency 1", join(control, at16("kr=64KiB", 80)), Options{TargetConcurrency: 1},
			true, base, 0, "no_improvement"},
		// 5 rounds and 3 comparisons: 7 pairs are needed for any
		// interval, so a steady −20% is not a finding.
		{"too few rounds", join(flat(base, 16, 5, 100), flat("kr=64KiB", 16, 5, 80)), Options{},
			true, base, 0, "undecided"},
		{"target not measured", join(control, at16("kr=64KiB", 80)), Options{TargetConcurrency: 99},
			true, base, 0, "no_baseline"},
		{"the A/A twin is never recommended", join(noAA, flat(aa, 16, 12, 80)), Options{},
			true, base, 0, "no_improvement"},
		{"no A/A twin", join(noAA, at16("kr=64KiB", 80)), Options{},
			false, "kr=64KiB", -0.2,
			""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := tc.opts
			opts.Baseline = base
			a := Analyze(tc.ws, opts)
			r := a.Recommendation
			if r == nil {
				t.Fatal("no recommendation")
			}
			if r.KeepBaseline != tc.keep || r.Config != tc.config || !near(r.Change, tc.change) {
				t.Errorf("got keep=%v %q change %v; want keep=%v %q change %v (keep %q)",
					r.KeepBaseline, r.Config, r.Change, tc.keep, tc.config, tc.change, r.Keep)
			}
			if r.Keep != tc.why {
				t.Errorf("keep %q, want %q", r.Keep, tc.why)
			}
			if tc.why == sweep.KeepErrors {
				want := []sweep.Dirty{{Config: "kr=64KiB", ErrorRate: 0.005}, {Config: "kr=1MiB", FailedWindows: 1}}
				if !slices.Equal(r.Dirty, want) {
					t.Errorf("dirty %+v, want %+v", r.Dirty, want)
				}
			}
			if want := pointOf(tc.config); !r.Point.Equal(want) {
				t.Errorf("point %v, want %v", r.Point, want)
			}
			wantObj, wantConc := sweep.ObjectiveCPUPerReq, 16
			if tc.opts.Objective != "" {
				wantObj = tc.opts.Objective
			}
			if tc.opts.TargetConcurrency != 0 {
				wantConc = tc.opts.TargetConcurrency
			}
			if r.Objective != wantObj || r.Concurrency != wantConc {
				t.Errorf("objective %q at c=%d, want %q at c=%d", r.Objective, r.Concurrency, wantObj, wantConc)
			}
		})
	}
}

func TestRunWarnings(t *testing.T) {
	for _, tc := range []struct {
		name string
		ws   []sweep.Window
		opts Options
		want []string
	}{
		{"no baseline", flat("kr=64KiB", 1, 12, 80), Options{Baseline: base}, []string{"no_baseline"}},
		{"no A/A", join(flat(base, 1, 12, 100), flat("kr=64KiB", 1, 12, 80)), Options{Baseline: base}, []string{"no_aa"}},
		{"A/A label given but absent", flat(base, 1, 12, 100), Options{Baseline: base, AA: aa}, []string{"no_aa"}},
		{"unknown objective", join(flat(base, 1, 12, 100), flat(aa, 1, 12, 100)), Options{Baseline: base, Objective: "latency"}, []string{"objective"}},
		{"nothing at all", nil, Options{Baseline: base}, nil},
	} {
		a := Analyze(tc.ws, tc.opts)
		if got := codes(a.Warnings); !slices.Equal(got, tc.want) {
			t.Errorf("%s: warnings %v, want %v", tc.name, got, tc.want)
		}
		if tc.name == "no baseline" || tc.name == "nothing at all" {
			if a.Recommendation != nil {
				t.Errorf("%s: recommendation %+v, want none without a baseline", tc.name, *a.Recommendation)
			}
		}
		if tc.name == "unknown objective" && a.Recommendation.Objective != sweep.ObjectiveCPUPerReq {
			t.Errorf("unknown objective: recommendation objective %q, want the default", a.Recommendation.Objective)
		}
	}
}

// TestRecommendationPeers: the recommendation carries the other configs
// that also improved for certain at its level, cleanly and within
// budget, with an interval that meets the pick's, and no others.
func TestRecommendationPeers(t *testing.T) {
	around := func(config string, mid float64, opts ...func(*sweep.Window)) []sweep.Window {
		var cpus []float64
		for r := range 12 {
			cpus = append(cpus, mid+float64(r%5-2)) // mid−2 … mid+2
		}
		ws := join(flat(config, 1, 12, 100), series(config, 16, cpus...))
		for i := 12; i < 24; i++ {
			for _, o := range opts {
				o(&ws[i])
			}
		}
		return ws
	}
	control := join(flat(base, 1, 12, 100), flat(base, 16, 12, 100),
		series(aa, 1, 98, 99, 100, 101, 102), series(aa, 16, 98, 99, 100, 101, 102))
	ws := join(control,
		around("kr=pick", 50),
		around("kr=near", 51),
		around("kr=apart", 70),                 // told apart: its interval is far from the pick's
		around("kr=errors", 50.5, errs5xx(10)), // errors at the target
		around("kr=fat", 51, func(w *sweep.Window) { w.RSSBytes = 900 << 20 }), // over max_rss
		around("kr=same", 100), // no change
	)
	a := Analyze(ws, Options{Baseline: base, AA: aa, MaxRSS: 500 << 20})
	r := a.Recommendation
	if r == nil || r.Config != "kr=pick" {
		t.Fatalf("recommendation %+v, want kr=pick", r)
	}
	var got []string
	for _, p := range r.Peers {
		got = append(got, p.Config)
		d := cellOf(t, a, p.Config, 16).VsBaseline[sweep.MetricCPUPerReq]
		if p.Change != d.Median || p.CILow != *d.CILow || p.CIHigh != *d.CIHigh {
			t.Errorf("peer %s: %+v, want its cell's change %v [%v, %v]", p.Config, p, d.Median, *d.CILow, *d.CIHigh)
		}
		if p.RSSChangeMiB == nil {
			t.Errorf("peer %s: no RSS change, though RSS was measured", p.Config)
		}
	}
	if !slices.Equal(got, []string{"kr=near"}) {
		t.Errorf("peers %v, want [kr=near]", got)
	}
}
