// Package racesim simulates races (package race) and adaptive rounds
// under this project's noise, to measure what the race's rule does: how
// often it drops the best config, how often it makes a false within-ε
// stop, how often its confirmation calls a false verdict, and how many
// windows it takes against load.rounds = "auto". It is pure: seeded
// random numbers in, counts out.
package racesim

import (
	"math"
	"math/rand/v2"
)

// Noise is a model of one window's log cost around its config's true
// value. A pair of windows (a config and its block's baseline in the same
// round) then has the paired noise the issue describes.
type Noise struct {
	Name string
	// PairSD is the standard deviation of a pair's log ratio when both
	// windows are ordinary (2.2% here); one window's is PairSD/√2.
	PairSD float64
	// DF is the degrees of freedom of the Student t the windows' noise
	// follows, scaled so that its standard deviation would be that of
	// the normal with PairSD (for DF ≤ 2, where t has no variance, the
	// scale of DF = 3 is kept). 0 = normal.
	DF int
	// SlowP is the chance that a window is slow: its log cost goes up by
	// Slow (a hiccup of the machine inside one window).
	SlowP, Slow float64
	// OutlierP is the chance of an outlier window: its log cost goes up by
	// a uniform amount in [Outlier/3, Outlier].
	OutlierP, Outlier float64
	// Noisy is a config index whose windows have NoisyFactor times the
	// noise (−1: none).
	Noisy       int
	NoisyFactor float64
	// HalfCorr is the correlation of the two halves of one window
	// (Settings.Halves): 0, independent halves.
	HalfCorr float64
}

// T3Slow is the main model: paired SD 2.2%, t₃ tails, 2% of
// windows slow by 10%.
func T3Slow() Noise {
	return Noise{Name: "t3+slow", PairSD: 0.022, DF: 3, SlowP: 0.02, Slow: 0.10, Noisy: -1}
}

// T2Outliers has t₂ tails (no variance) and 5% outlier windows up to +30%.
func T2Outliers() Noise {
	return Noise{Name: "t2+outliers", PairSD: 0.022, DF: 2, OutlierP: 0.05, Outlier: 0.30, Noisy: -1}
}

// OneNoisy is T3Slow with config noisy's windows 2.5 times as noisy.
func OneNoisy(noisy int) Noise {
	n := T3Slow()
	n.Name, n.Noisy, n.NoisyFactor = "t3+slow, one ×2.5", noisy, 2.5
	return n
}

// halves draws the log-cost noise of one window's two halves: each half
// has half the requests, so its ordinary noise has √2 times a window's
// SD (correlated HalfCorr between the halves); a slow window's or an
// outlier's excess falls on one half, doubled, so that the window's mean
// is as in window.
func (n Noise) halves(rng *rand.Rand, config int) (float64, float64) {
	a, b := n.ordinary(rng, config), n.ordinary(rng, config)
	rho := n.HalfCorr
	h := [2]float64{math.Sqrt2 * a, math.Sqrt2 * (rho*a + math.Sqrt(1-rho*rho)*b)}
	if n.SlowP > 0 && rng.Float64() < n.SlowP {
		h[rng.IntN(2)] += 2 * n.Slow
	}
	if n.OutlierP > 0 && rng.Float64() < n.OutlierP {
		h[rng.IntN(2)] += 2 * n.Outlier * (1 + 2*rng.Float64()) / 3
	}
	return h[0], h[1]
}

// window draws one window's log-cost noise for config (−1 for a slot
// that is no config of the field: the baseline's own window).
func (n Noise) window(rng *rand.Rand, config int) float64 {
	e := n.ordinary(rng, config)
	if n.SlowP > 0 && rng.Float64() < n.SlowP {
		e += n.Slow
	}
	if n.OutlierP > 0 && rng.Float64() < n.OutlierP {
		e += n.Outlier * (1 + 2*rng.Float64()) / 3
	}
	return e
}

// ordinary draws a window's noise without its slow or outlier excess.
func (n Noise) ordinary(rng *rand.Rand, config int) float64 {
	sd := n.PairSD / math.Sqrt2
	if config >= 0 && config == n.Noisy {
		sd *= n.NoisyFactor
	}
	var e float64
	switch {
	case n.DF <= 0:
		e = sd * rng.NormFloat64()
	default:
		df := n.DF
		scaleDF := math.Max(float64(df), 3)
		scale := sd * math.Sqrt((scaleDF-2)/scaleDF)
		chi := 0.0
		for range df {
			z := rng.NormFloat64()
			chi += z * z
		}
		e = scale * rng.NormFloat64() / math.Sqrt(chi/float64(df))
	}
	return e
}
