package stats

import (
	"math"
	"slices"

	"github.com/sweep-dev/sweep/sweep"
)

// This file is the stopping rule of adaptive rounds (load.rounds =
// "auto"). Looking at the data to decide whether to measure more is valid
// only if the decision cannot favour a verdict. The rule here looks at the
// magnitudes |dᵢ| of a config's paired log ratios only, never at their
// signs: under the null hypothesis of an identical config a round's pair
// is exchangeable, so its sign is a fair coin independent of every
// magnitude, of this config or any other metric of the same pair. Given
// the magnitudes, the signed-rank test is therefore exact whatever the
// rule decided, and the false-verdict rate of Holm's correction holds at
// the stopping time (the same argument that makes the signed-rank test
// exact conditionally on the |dᵢ|).

// Pending is one config at one level that adaptive rounds have not yet
// resolved, with its current sign-free resolution.
type Pending struct {
	Config     string
	Resolution float64 // +Inf while there are too few pairs for any interval
	Pairs      int
}

// Unresolved returns the configs (candidates and the A/A twin) at level
// conc whose paired comparison of metric with the baseline is not yet
// resolved to resolve at two-sided level alpha (the correction's
// strictest, α/m). A config is resolved when either
//   - the interval it would have if its changes were pure noise — the
//     signed-rank interval of the magnitudes with signs alternating by
//     rank — is at most ±resolve wide: no change larger than resolve
//     could hide in it; or
//   - its magnitudes look like one effect beyond resolve rather than
//     noise: their own signed-rank interval [lo, hi] has lo > resolve and
//     hi ≤ 2·lo (for pure noise, half-normal magnitudes, hi/lo is about
//     2.5 at 14 pairs). A large effect, whose signs then decide it one
//     way or the other, needs no more rounds.
//
// Both look only at |dᵢ|.
func Unresolved(ws []sweep.Window, o Options, conc int, metric sweep.Metric, resolve, alpha float64) []Pending {
	r := &run{o: o, groups: map[cellKey]*group{}}
	r.identify(ws)
	r.o = withDefaults(r.o, r.levels)
	r.group(ws)
	base := r.cellAt(r.baseline, conc)
	if base == nil {
		return nil
	}
	var out []Pending
	for _, c := range r.configs[1:] {
		g := r.cellAt(c, conc)
		if g == nil {
			continue
		}
		mags := logs(ratios(g, base, metric))
		for i := range mags {
			mags[i] = math.Abs(mags[i])
		}
		res, ok := signFreeResolution(mags, alpha, resolve)
		if !ok || res > resolve {
			out = append(out, Pending{Config: c, Resolution: res, Pairs: len(mags)})
		}
	}
	return out
}

// signFreeResolution is the resolution the stopping rule reads from the
// magnitudes: the half-width, as a fraction, of the alternating-sign
// interval, or 0 when the magnitudes alone clear resolve. ok is false with
// too few pairs for any interval.
func signFreeResolution(mags []float64, alpha, resolve float64) (float64, bool) {
	if len(mags) < MinPairs(alpha) {
		return math.Inf(1), false
	}
	s := slices.Clone(mags)
	slices.Sort(s)
	alt := make([]float64, len(s))
	for i, m := range s {
		alt[i] = m
		if i%2 == 1 {
			alt[i] = -m
		}
	}
	noise := SignedRankInterval(alt, 1-alpha)
	same := SignedRankInterval(s, 1-alpha)
	half := (math.Expm1(noise.High) - math.Expm1(noise.Low)) / 2
	lo, hi := math.Expm1(same.Low), math.Expm1(same.High)
	if lo > resolve && hi <= 2*lo {
		return 0, true // one consistent magnitude, beyond resolve
	}
	return half, true
}
