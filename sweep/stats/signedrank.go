package stats

import (
	"math"
	"slices"
)

// This file is the decision statistic: the Wilcoxon signed-rank test and
// its Hodges–Lehmann confidence interval, exact for any number of pairs.
//
// Why this one: the paired changes of a cell are few (5–20 rounds) and
// not normal (p99 is heavy-tailed, a stolen window is an outlier), so the
// interval must not lean on a distribution. Under the null hypothesis of
// an identical config with its windows interleaved and its process fresh
// each round, candidate and baseline are exchangeable within a round, so
// each log ratio is symmetric about zero — exactly the assumption under
// which the signed-rank test is exact. It is far more efficient than the
// sign test (95% of the t-test's efficiency on normal data against 64%)
// and, unlike a bootstrap, keeps its coverage at 5 pairs.

// SignedRankCDF returns F(t) = P(T ≤ t) for the Wilcoxon signed-rank
// statistic T of n pairs under the null hypothesis (each rank's sign a
// fair coin): the number of subsets of {1..n} with sum ≤ t, over 2ⁿ.
func SignedRankCDF(n int) []float64 {
	total := n * (n + 1) / 2
	counts := make([]float64, total+1)
	counts[0] = 1
	for k := 1; k <= n; k++ {
		for s := total; s >= k; s-- {
			counts[s] += counts[s-k]
		}
	}
	all := math.Ldexp(1, n)
	cdf := make([]float64, total+1)
	acc := 0.0
	for s, c := range counts {
		acc += c
		cdf[s] = acc / all
	}
	return cdf
}

// walsh returns the n(n+1)/2 Walsh averages (xᵢ + xⱼ)/2, i ≤ j, sorted.
func walsh(xs []float64) []float64 {
	w := make([]float64, 0, len(xs)*(len(xs)+1)/2)
	for i := range xs {
		for j := i; j < len(xs); j++ {
			w = append(w, (xs[i]+xs[j])/2)
		}
	}
	slices.Sort(w)
	return w
}

// Interval is a two-sided confidence interval of the centre of paired
// log ratios: the Hodges–Lehmann estimate and the exact signed-rank
// interval [Low, High] at confidence Level (≥ the level asked for: the
// statistic is discrete). OK is false when there are too few pairs for
// any interval at that level (Low and High are then ∓Inf).
type Interval struct {
	Estimate  float64
	Low, High float64
	Level     float64 // achieved coverage of [Low, High]
	OK        bool
}

// SignedRankInterval is the Hodges–Lehmann estimate (the median of the
// Walsh averages) and the exact interval [W₍ₖ₎, W₍ₘ₋ₖ₊₁₎] of the m sorted
// Walsh averages, with k − 1 the largest t such that P(T ≤ t) ≤ α/2,
// α = 1 − level. Its coverage is 1 − 2·P(T ≤ k−1) ≥ level, exactly for
// continuous data symmetric about its centre.
func SignedRankInterval(xs []float64, level float64) Interval {
	n := len(xs)
	if n == 0 {
		return Interval{Low: math.Inf(-1), High: math.Inf(1)}
	}
	w := walsh(xs)
	iv := Interval{Estimate: median(w), Low: math.Inf(-1), High: math.Inf(1)}
	cdf := SignedRankCDF(n)
	alpha := 1 - level
	k := 0 // the interval is [w[k-1], w[m-k]] (1-based k)
	for t := 0; t < len(cdf) && cdf[t] <= alpha/2; t++ {
		k = t + 1
	}
	if k == 0 {
		return iv
	}
	iv.Low, iv.High = w[k-1], w[len(w)-k]
	iv.Level = 1 - 2*cdf[k-1]
	iv.OK = true
	return iv
}

// SignedRankP is the exact two-sided p-value of the signed-rank test of
// centre 0, by inverting the interval: the smallest α at which the
// interval excludes 0, 2·P(T ≤ min(#W ≤ 0, #W ≥ 0)), capped at 1. Without
// ties or zeros it is the textbook test; a Walsh average of exactly 0
// counts on both sides, which only makes it conservative.
func SignedRankP(xs []float64) float64 {
	n := len(xs)
	if n == 0 {
		return 1
	}
	w := walsh(xs)
	le, ge := 0, 0
	for _, v := range w {
		if v <= 0 {
			le++
		}
		if v >= 0 {
			ge++
		}
	}
	t := min(le, ge)
	cdf := SignedRankCDF(n)
	if t >= len(cdf) {
		return 1
	}
	return min(1, 2*cdf[t])
}

// MinPairs is the fewest pairs with which the signed-rank test can reach
// two-sided level alpha at all: 2·2⁻ⁿ ≤ alpha.
func MinPairs(alpha float64) int {
	n := 1
	for 2*math.Ldexp(1, -n) > alpha {
		n++
	}
	return n
}
