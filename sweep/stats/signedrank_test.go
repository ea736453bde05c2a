package stats

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sweep-dev/sweep/sweep"
)

func TestSignedRankCDF(t *testing.T) {
	// n = 5: 32 sign patterns; sums 0, 1, 2, 3 are reached by 1, 1, 1, 2.
	cdf := SignedRankCDF(5)
	for tc, want := range map[int]float64{0: 1.0 / 32, 1: 2.0 / 32, 2: 3.0 / 32, 3: 5.0 / 32, 15: 1} {
		if !near(cdf[tc], want) {
			t.Errorf("n=5: P(T ≤ %d) = %v, want %v", tc, cdf[tc], want)
		}
	}
	if len(cdf) != 16 {
		t.Errorf("n=5: %d CDF entries, want 16", len(cdf))
	}
}

func TestSignedRankIntervalAndP(t *testing.T) {
	xs := []float64{-0.1, -0.2, -0.15, -0.05, -0.12, -0.08}
	// 6 pairs, 95%: P(T ≤ 0) = 1/64 ≤ 0.025 < P(T ≤ 1) = 2/64, so k = 1:
	// the interval is the smallest and largest Walsh average (−0.2, −0.05),
	// at coverage 1 − 2/64.
	iv := SignedRankInterval(xs, 0.95)
	if !iv.OK || !near(iv.Low, -0.2) || !near(iv.High, -0.05) || !near(iv.Level, 1-2.0/64) {
		t.Errorf("interval %+v, want [−0.2, −0.05] at %v", iv, 1-2.0/64)
	}
	if p := SignedRankP(xs); !near(p, 2.0/64) {
		t.Errorf("p = %v, want 2/64 (all negative)", p)
	}
	if iv := SignedRankInterval(xs[:5], 0.95); iv.OK || !math.IsInf(iv.Low, -1) {
		t.Errorf("5 pairs at 95%%: %+v, want no interval", iv)
	}
	if p := SignedRankP([]float64{0.1, -0.1, 0.2, -0.2}); p != 1 {
		t.Errorf("symmetric sample: p = %v, want 1", p)
	}
	for alpha, want := range map[float64]int{0.05: 6, 0.01: 8, 0.05 / 36: 11} {
		if got := MinPairs(alpha); got != want {
			t.Errorf("MinPairs(%v) = %d, want %d", alpha, got, want)
		}
	}
}

// TestSignedRankCoverage simulates the interval's coverage on symmetric
// noise (normal, Laplace, Student t with 2 degrees of freedom: no
// variance) shifted by a true centre, for several numbers of pairs, and
// wants it within one point of the coverage the interval states.
func TestSignedRankCoverage(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	noises := map[string]func() float64{
		"normal":  rng.NormFloat64,
		"laplace": func() float64 { return rng.ExpFloat64() * float64(1-2*rng.IntN(2)) },
		"t2": func() float64 {
			z, c := rng.NormFloat64(), rng.NormFloat64()*rng.NormFloat64()+rng.NormFloat64()*rng.NormFloat64()
			return z / math.Sqrt(c*c/2+1e-12) // heavy-tailed, symmetric
		},
	}
	const reps = 20000
	for name, noise := range noises {
		for _, n := range []int{6, 10, 15} {
			covered, level := 0, 0.0
			xs := make([]float64, n)
			for range reps {
				for i := range xs {
					xs[i] = 0.03 + 0.01*noise()
				}
				iv := SignedRankInterval(xs, 0.95)
				level = iv.Level
				if iv.Low <= 0.03 && 0.03 <= iv.High {
					covered++
				}
			}
			got := float64(covered) / reps
			if math.Abs(got-level) > 0.01 {
				t.Errorf("%s, %d pairs: coverage %.4f, stated %.4f", name, n, got, level)
			}
			t.Logf("%s, %d pairs: coverage %.4f, stated %.4f", name, n, got, level)
		}
	}
}

// TestFamilyWiseRate simulates whole runs of identical configs — a
// baseline, its A/A twin and 3 candidates at 2 levels, 12 rounds, CPU/req,
// RPS and p99 correlated as a real server's are, fresh noise per window —
// and counts the runs in which any candidate is called better or worse.
// Holm holds that at most at 1 − confidence; the test wants it at most
// one point above nominal, and reports the rate.
func TestFamilyWiseRate(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	configs := []string{base, aa, "kr=a", "kr=b", "kr=c"}
	const runs = 2000
	bad := 0
	for range runs {
		var ws []sweep.Window
		for _, conc := range []int{1, 16} {
			for round := range 12 {
				drift := 0.05 * rng.NormFloat64() // the machine moves the whole round
				for _, c := range configs {
					e := drift + 0.015*rng.NormFloat64()
					lat := math.Exp(0.3 * rng.NormFloat64() * rng.NormFloat64())
					ws = append(ws, win(c, conc, round, 100*math.Exp(e), rps(10000*math.Exp(-e+0.005*rng.NormFloat64())), func(w *sweep.Window) { w.P99Ms = 10 * lat }))
				}
			}
		}
		a := Analyze(ws, Options{Baseline: base, AA: aa})
		for _, c := range a.Cells {
			if c.AA || c.Baseline {
				continue
			}
			for _, d := range c.VsBaseline {
				if d.Verdict == sweep.VerdictBetter || d.Verdict == sweep.VerdictWorse {
					bad++
					goto next
				}
			}
		}
	next:
	}
	rate := float64(bad) / runs
	t.Logf("runs with a false verdict: %d of %d (%.2f%%)", bad, runs, 100*rate)
	if rate > 0.06 {
		t.Errorf("family-wise false-verdict rate %.2f%% > 6%%", 100*rate)
	}
}

func TestSignFreeResolution(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	sample := func(n int, centre, sd float64) []float64 {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = math.Abs(centre + sd*rng.NormFloat64())
		}
		return xs
	}
	const alpha = 0.01
	if _, ok := signFreeResolution(sample(5, 0, 0.01), alpha, 0.02); ok {
		t.Error("5 pairs at 1%: want no resolution (too few pairs)")
	}
	// Noise of 0.5%: resolved to 2% with 12 pairs.
	if r, ok := signFreeResolution(sample(12, 0, 0.005), alpha, 0.02); !ok || r > 0.02 {
		t.Errorf("small noise: resolution %v, %v; want ≤ 2%%", r, ok)
	}
	// Noise of 5%: not resolved to 2%.
	if r, ok := signFreeResolution(sample(12, 0, 0.05), alpha, 0.02); !ok || r <= 0.02 {
		t.Errorf("large noise: resolution %v, %v; want > 2%%", r, ok)
	}
	// A consistent +6% with 1% noise: decided by its magnitudes.
	if r, ok := signFreeResolution(sample(12, 0.06, 0.01), alpha, 0.02); !ok || r != 0 {
		t.Errorf("a large consistent effect: resolution %v, %v; want 0 (decided)", r, ok)
	}
}

// TestAdaptiveFamilyWiseRate simulates adaptive runs of identical
// configs — rounds added one at a time to the configs Unresolved names —
// and wants the false-verdict rate of the final analysis within one point
// of nominal, as for a fixed number of rounds.
func TestAdaptiveFamilyWiseRate(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 17))
	configs := []string{base, aa, "kr=a", "kr=b", "kr=c"}
	const runs = 400
	bad := 0
	for range runs {
		var ws []sweep.Window
		add := func(conc, round int, cs []string) {
			drift := 0.05 * rng.NormFloat64()
			for _, c := range cs {
				sd := 0.01
				if c == "kr=c" {
					sd = 0.04 // one config far noisier: it takes more rounds
				}
				e := drift + sd*rng.NormFloat64()
				ws = append(ws, win(c, conc, round, 100*math.Exp(e), rps(10000*math.Exp(-e))))
			}
		}
		for _, conc := range []int{1, 16} {
			for round := range 8 {
				add(conc, round, configs)
			}
			for round := 8; round < 30; round++ {
				p := Unresolved(ws, Options{Baseline: base, AA: aa}, conc, sweep.MetricCPUPerReq, 0.02, 0.05/12)
				if len(p) == 0 {
					break
				}
				cs := []string{base}
				for _, x := range p {
					cs = append(cs, x.Config)
				}
				add(conc, round, cs)
			}
		}
		a := Analyze(ws, Options{Baseline: base, AA: aa})
		for _, c := range a.Cells {
			for _, d := range c.VsBaseline {
				if !c.AA && (d.Verdict == sweep.VerdictBetter || d.Verdict == sweep.VerdictWorse) {
					bad++
					goto next
				}
			}
		}
	next:
	}
	rate := float64(bad) / runs
	t.Logf("adaptive runs with a false verdict: %d of %d (%.1f%%)", bad, runs, 100*rate)
	if rate > 0.06 {
		t.Errorf("adaptive family-wise false-verdict rate %.1f%% > 6%%", 100*rate)
	}
}
