package racesim

import (
	"cmp"
	"math/rand/v2"
	"slices"

	"github.com/sweep-dev/sweep/sweep/race"
	"github.com/sweep-dev/sweep/sweep/stats"
)

// confirm simulates the confirmation of the finalists: fresh rounds at
// every level of the finalists other than the baseline, the baseline and
// its A/A twin, ConfirmRounds each; every finalist's paired log ratios
// get the exact signed-rank p-value, and Holm at the confirmation's share
// decides. It returns the windows and whether any verdict was false (a
// change called where the true costs are equal, or the wrong way).
func confirm(rng *rand.Rand, f Field, n Noise, s Settings, finalists []int) (int, bool) {
	var cands []int
	for _, i := range finalists {
		if i != 0 {
			cands = append(cands, i)
		}
	}
	rounds := s.ConfirmRounds(len(cands))
	windows := s.Levels * rounds * (len(cands) + 2)
	type test struct {
		p     float64
		truth float64
		sign  float64
	}
	var fam []test
	for range s.Levels {
		ds := make([][]float64, len(cands))
		for range rounds {
			base := f[0] + n.window(rng, 0)
			_ = n.window(rng, 0) // the A/A twin's window
			for k, i := range cands {
				ds[k] = append(ds[k], f[i]+n.window(rng, i)-base)
			}
		}
		for k, i := range cands {
			hl := stats.SignedRankInterval(ds[k], 0.5).Estimate
			fam = append(fam, test{p: stats.SignedRankP(ds[k]), truth: f[i] - f[0], sign: hl})
		}
	}
	alpha := race.Split(s.Confidence).Confirm
	slices.SortFunc(fam, func(a, b test) int { return cmp.Compare(a.p, b.p) })
	for j, c := range fam {
		if c.p > alpha/float64(len(fam)-j) {
			break
		}
		if c.truth == 0 || (c.truth < 0) != (c.sign < 0) {
			return windows, true
		}
	}
	return windows, false
}
