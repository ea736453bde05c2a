package racesim

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/sweep-dev/sweep/sweep/stats"
)

// Auto simulates load.rounds = "auto" on the same field and returns its
// windows: at each level, block by block (the configs other than the
// baseline in blocks of BlockSize, each with the baseline and its A/A
// twin), min_rounds rounds of every slot, then one round at a time of the
// baseline and the configs (the A/A twin among them) not yet resolved to
// Resolve by the sign-free rule of sweep/stats/resolve.go, up to
// MaxRounds. min_rounds and α are the driver's (AutoMin, familySize).
func Auto(rng *rand.Rand, f Field, n Noise, s Settings) int {
	m := max(1, (len(f)-1)*s.Levels*s.Metrics)
	alpha := (1 - s.Confidence) / float64(m)
	minRounds := min(stats.MinPairs(alpha)+1, s.MaxRounds)
	windows := 0
	for range s.Levels {
		for b := 1; b < len(f); b += s.BlockSize {
			// The block's configs; -1 is the A/A twin (true cost 0).
			cfg := []int{-1}
			for i := b; i < min(len(f), b+s.BlockSize); i++ {
				cfg = append(cfg, i)
			}
			ds := make([][]float64, len(cfg))
			pending := make([]bool, len(cfg))
			for k := range pending {
				pending[k] = true
			}
			for round := 0; round < s.MaxRounds; round++ {
				if round >= minRounds {
					for k := range cfg {
						if pending[k] && resolved(ds[k], alpha, s.Resolve) {
							pending[k] = false
						}
					}
				}
				if !slices.Contains(pending, true) {
					break
				}
				base := f[0] + n.window(rng, 0)
				windows++
				for k, i := range cfg {
					if !pending[k] {
						continue
					}
					c := 0.0
					if i >= 0 {
						c = f[i]
					}
					ds[k] = append(ds[k], c+n.window(rng, i)-base)
					windows++
				}
			}
		}
	}
	return windows
}

// resolved is sweep/stats/resolve.go's signFreeResolution ≤ resolve, on
// the magnitudes of the log ratios ds.
func resolved(ds []float64, alpha, resolve float64) bool {
	if len(ds) < stats.MinPairs(alpha) {
		return false
	}
	s := make([]float64, len(ds))
	for i, d := range ds {
		s[i] = math.Abs(d)
	}
	slices.Sort(s)
	alt := make([]float64, len(s))
	for i, v := range s {
		alt[i] = v
		if i%2 == 1 {
			alt[i] = -v
		}
	}
	noise := stats.SignedRankInterval(alt, 1-alpha)
	same := stats.SignedRankInterval(s, 1-alpha)
	lo, hi := math.Expm1(same.Low), math.Expm1(same.High)
	if lo > resolve && hi <= 2*lo {
		return true
	}
	return (math.Expm1(noise.High)-math.Expm1(noise.Low))/2 <= resolve
}
