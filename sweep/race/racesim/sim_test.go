package racesim

import (
	"flag"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/sweep-dev/sweep/sweep/race"
)

// -race.runs sets the simulated runs per case (default 1000, the issue's
// least; bench/race runs 2000 and prints the figures of BENCHMARKS.md).
var runs = flag.Int("race.runs", 1000, "simulated runs per case")

// bound is α plus 3 standard errors of a rate over n runs (at least the
// SE of a rate of 1/n, so that small α over few runs keeps some slack).
func bound(alpha float64, n int) float64 {
	p := math.Max(alpha, 1/float64(n))
	return alpha + 3*math.Sqrt(p*(1-p)/float64(n))
}

// rules are the rules the tests hold to the bounds: issue 32's (the
// driver's today), issue 41's (race.Mixture with the t confirmation),
// and issue 41's on halved windows with one A/A twin a round.
func rules() []struct {
	name string
	s    Settings
} {
	s := Defaults()
	return []struct {
		name string
		s    Settings
	}{{"issue32", s}, {"issue41", s.Mixture()}, {"issue41-halved", s.Mixture().Halved()}}
}

// TestBestRarelyDropped: over the issue's 64-config grid under each noise
// model and each rule, the unique best is eliminated in at most α_E + 3
// SE of runs, a within-ε stop is false in at most α_S + 3 SE, the
// confirmation's family-wise false rate is at most its share + 3 SE, the
// pick is within 2% of the best, and race + confirmation take at most
// half the windows of rounds = "auto" on the same field. Issue 41's rule
// takes at most 90% of issue 32's median windows, and on halved windows
// at most 52% (issue 41 asks 50%: BENCHMARKS.md has the 2000-run figures).
func TestBestRarelyDropped(t *testing.T) {
	for _, n := range []Noise{T3Slow(), T2Outliers(), OneNoisy(1)} {
		t.Run(n.Name, func(t *testing.T) {
			t.Parallel()
			f := Issue64()
			auto := 0
			const autoRuns = 3
			for k := range autoRuns {
				auto += Auto(rand.New(rand.NewPCG(uint64(k), 64)), f, n, Defaults())
			}
			autoMean := auto / autoRuns
			medians := map[string]int{}
			for _, rl := range rules() {
				s := rl.s
				b := race.Split(s.Confidence)
				var drop, within, conf, far int
				var ws []int
				for k := range *runs {
					r, err := Race(rand.New(rand.NewPCG(uint64(k), 32)), f, n, s)
					if err != nil {
						t.Fatal(err)
					}
					drop += b2i(r.BestDropped)
					within += b2i(r.FalseWithin)
					conf += b2i(r.ConfirmFalse)
					far += b2i(r.PickGap > 0.02)
					ws = append(ws, r.Windows())
				}
				rate := func(c int) float64 { return float64(c) / float64(*runs) }
				if rate(drop) > bound(b.Drop, *runs) {
					t.Errorf("%s: best dropped in %d of %d runs, above α_E %g + 3 SE", rl.name, drop, *runs, b.Drop)
				}
				if rate(within) > bound(b.Within, *runs) {
					t.Errorf("%s: false within-ε stop in %d of %d runs, above α_S %g + 3 SE", rl.name, within, *runs, b.Within)
				}
				if rate(conf) > bound(b.Confirm, *runs) {
					t.Errorf("%s: confirmation false verdict in %d of %d runs, above %g + 3 SE", rl.name, conf, *runs, b.Confirm)
				}
				if far > 0 {
					t.Errorf("%s: pick more than 2%% from the best in %d of %d runs", rl.name, far, *runs)
				}
				slices.Sort(ws)
				med := ws[len(ws)/2]
				medians[rl.name] = med
				t.Logf("%s, %s: best dropped %d/%d, false within %d, confirmation false %d; median windows %d race+confirm vs %d auto",
					rl.name, n.Name, drop, *runs, within, conf, med, autoMean)
				if 2*med > autoMean {
					t.Errorf("%s: race + confirmation took %d windows, auto %d: want at most half", rl.name, med, autoMean)
				}
			}
			if m, m32 := medians["issue41"], medians["issue32"]; 10*m > 9*m32 {
				t.Errorf("issue 41's rule took %d windows, issue 32's %d: want at most 90%%", m, m32)
			}
			if m, m32 := medians["issue41-halved"], medians["issue32"]; 100*m > 52*m32 {
				t.Errorf("issue 41's rule on halved windows took %d windows, issue 32's %d: want at most 52%%", m, m32)
			}
		})
	}
}

// TestTiedDropRate: with 24 identical configs every drop is false; each
// config's drop rate must be at most α_E + 3 SE, under each noise model
// (with one config ×2.5 as noisy as the others in the third) and rule.
func TestTiedDropRate(t *testing.T) {
	for _, n := range []Noise{T3Slow(), T2Outliers(), OneNoisy(1)} {
		t.Run(n.Name, func(t *testing.T) {
			t.Parallel()
			for _, rl := range rules() {
				s := rl.s
				b := race.Split(s.Confidence)
				f := Tied(24)
				per := make([]int, len(f))
				anyDrop, conf := 0, 0
				for k := range *runs {
					r, err := Race(rand.New(rand.NewPCG(uint64(k), 32)), f, n, s)
					if err != nil {
						t.Fatal(err)
					}
					anyDrop += b2i(len(r.Dropped) > 0)
					conf += b2i(r.ConfirmFalse)
					for _, i := range r.Dropped {
						per[i]++
					}
				}
				for i, c := range per {
					if float64(c)/float64(*runs) > bound(b.Drop, *runs) {
						t.Errorf("%s: config %d dropped in %d of %d runs, above α_E %g + 3 SE", rl.name, i, c, *runs, b.Drop)
					}
				}
				if float64(conf)/float64(*runs) > bound(b.Confirm, *runs) {
					t.Errorf("%s: confirmation false verdict in %d of %d runs", rl.name, conf, *runs)
				}
				t.Logf("%s, %s: %d of %d runs dropped any config, the most-dropped %d; confirmation false %d", rl.name, n.Name, anyDrop, *runs, slices.Max(per), conf)
			}
		})
	}
}

// TestHalvesNeedIndependence: the halved rule's guarantee needs a
// window's two halves to be independent. With halves correlated 0.3 a
// tied config is dropped far above α_E: so the tests above can see it,
// and the driver must measure the halves' correlation before using them.
func TestHalvesNeedIndependence(t *testing.T) {
	s := Defaults().Mixture().Halved()
	n := T3Slow()
	n.HalfCorr = 0.3
	const runs = 300
	per := make([]int, 24)
	for k := range runs {
		r, err := Race(rand.New(rand.NewPCG(uint64(k), 32)), Tied(24), n, s)
		if err != nil {
			t.Fatal(err)
		}
		for _, i := range r.Dropped {
			per[i]++
		}
	}
	if worst := float64(slices.Max(per)) / runs; worst < 2*race.Split(s.Confidence).Drop {
		t.Errorf("halves correlated 0.3: the most-dropped tied config in %d of %d runs, want well above α_E", slices.Max(per), runs)
	}
}

// TestRuleCanFail: the tests above can fail. A rule without the
// correction for looking every round — dropping at E ≥ 1, i.e. α_E = 1 in
// effect — loses the best in many runs.
func TestRuleCanFail(t *testing.T) {
	s := Defaults()
	s.Confidence = 0 // Split gives α_E = 0.4: E ≥ 2.5 drops
	drop := 0
	const n = 100
	for k := range n {
		r, err := Race(rand.New(rand.NewPCG(uint64(k), 32)), Tied(24), T3Slow(), s)
		if err != nil {
			t.Fatal(err)
		}
		drop += b2i(len(r.Dropped) > 0)
	}
	if drop < 10 {
		t.Errorf("a lax rule dropped a tied config in %d of %d runs: the tests would not notice a broken rule", drop, n)
	}
}

// TestFriedmanControl documents why an irace-style race is not used: with
// 24 identical configs it drops one that is as good as the best in far
// more runs than any α (the issue measured 52%), and the quantile
// approximations it uses are close to the tables.
func TestFriedmanControl(t *testing.T) {
	for _, tc := range []struct{ got, want float64 }{
		{chi2Quantile(0.95, 3), 7.815}, {chi2Quantile(0.95, 23), 35.172},
		{tQuantile(0.975, 10), 2.228}, {tQuantile(0.975, 100), 1.984},
	} {
		if math.Abs(tc.got-tc.want) > 0.01*tc.want {
			t.Errorf("quantile %g, want %g", tc.got, tc.want)
		}
	}
	s := Defaults()
	anyDrop := 0
	n := *runs
	for k := range n {
		d, _ := FriedmanRace(rand.New(rand.NewPCG(uint64(k), 32)), Tied(24), T3Slow(), s)
		anyDrop += b2i(len(d) > 0)
	}
	t.Logf("F-Race dropped a tied config in %d of %d runs", anyDrop, n)
	if float64(anyDrop)/float64(n) < 0.2 {
		t.Errorf("F-Race dropped a tied config in only %d of %d runs: the control does not show the problem", anyDrop, n)
	}
}
