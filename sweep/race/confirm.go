package race

import (
	"cmp"
	"math"
	"slices"
)

// Comparison is one finalist at one concurrency level (and metric)
// against the baseline in the confirmation's fresh rounds: each round's
// paired log ratio ln(finalist/baseline), the two measured in the same
// block of the same round.
type Comparison struct {
	Config string
	Level  int    // the concurrency level
	Metric string // the metric the ratios are of (free text for the caller)
	Ratios []float64
}

// Call is a confirmation verdict's direction.
type Call string

// Calls.
const (
	// Lower: the finalist's metric is lower than the baseline's.
	Lower Call = "lower"
	// Higher: the finalist's metric is higher than the baseline's.
	Higher Call = "higher"
	// Unresolved: no change could be shown at the family's level.
	Unresolved Call = "unresolved"
)

// Verdict is what Confirm decided for one Comparison.
type Verdict struct {
	Comparison
	// Estimate is the mean log ratio; [Low, High] is its t interval at level
	// 1 − α/m (m comparisons: Bonferroni, so the intervals hold
	// simultaneously with chance ≥ 1 − α under the test's model).
	Estimate, Low, High float64
	// P is the two-sided paired t-test's p-value of "mean log ratio 0";
	// Adjusted is Holm's adjusted p-value over the family.
	P, Adjusted float64
	Call        Call
}

// Confirm decides the confirmation's verdicts from fresh rounds with a
// paired t-test on each comparison's log ratios and Holm's step-down
// procedure over all of cs at family-wise level alpha (Split(confidence).
// Confirm). cs must be the whole family (every finalist × level ×
// metric), as Holm's levels depend on all of them. A comparison with
// fewer than two ratios, or with ratios of no spread, is Unresolved
// (P = 1), and so is any at or after the first that Holm does not reject.
// Verdicts are in cs's order. It is pure.
//
// Unlike the exact signed-rank test it has no minimum number of pairs
// (that one needs 12 at the strictest level of a family of 36 at 2%).
// Its error rate is exact for normal log ratios; for the heavy-tailed,
// symmetric paired ratios of sweep's noise the t-test is conservative,
// measured in package racesim (BENCHMARKS.md, issue 41).
func Confirm(cs []Comparison, alpha float64) []Verdict {
	m := len(cs)
	out := make([]Verdict, m)
	for k, c := range cs {
		v := Verdict{Comparison: c, P: 1, Call: Unresolved, Low: math.Inf(-1), High: math.Inf(1)}
		n := len(c.Ratios)
		if n > 0 {
			v.Estimate = mean(c.Ratios)
		}
		if n >= 2 {
			s := math.Sqrt(variance(c.Ratios, v.Estimate))
			if s > 1e-12*math.Max(1, math.Abs(v.Estimate)) { // no spread: no test
				se := s / math.Sqrt(float64(n))
				df := float64(n - 1)
				v.P = 2 * tSurvival(math.Abs(v.Estimate)/se, df)
				h := tQuantile(1-alpha/float64(2*m), df) * se
				v.Low, v.High = v.Estimate-h, v.Estimate+h
			}
		}
		out[k] = v
	}
	order := make([]int, m)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(out[a].P, out[b].P) })
	adj, rejecting := 0.0, true
	for j, k := range order {
		adj = math.Max(adj, math.Min(1, float64(m-j)*out[k].P))
		out[k].Adjusted = adj
		if rejecting && out[k].P <= alpha/float64(m-j) {
			out[k].Call = Lower
			if out[k].Estimate > 0 {
				out[k].Call = Higher
			}
		} else {
			rejecting = false
		}
	}
	return out
}

// TRounds is the confirmation's fresh rounds per level for Confirm, for
// finalists configs other than the baseline at levels levels: the fewest
// (at least 3) with which a paired t-test at Holm's strictest level over
// finalists × levels × 3 metrics at the confirmation's share of
// 1 − confidence calls a difference of TEffect paired standard
// deviations with chance ½ (t₁₋α/2m,n−1/√n ≤ TEffect).
func TRounds(confidence float64, finalists, levels int) int {
	m := float64(max(1, finalists*levels*3))
	a := Split(confidence).Confirm / m
	for n := 3; ; n++ {
		if tQuantile(1-a/2, float64(n-1))/math.Sqrt(float64(n)) <= TEffect || n >= 1000 {
			return n
		}
	}
}

// TEffect is the difference, in paired standard deviations of one
// round's log ratio, that TRounds sizes the confirmation for.
const TEffect = 3

func mean(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

func variance(xs []float64, mu float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += (x - mu) * (x - mu)
	}
	return s / float64(len(xs)-1)
}

// tSurvival is P(T > t) for Student's t with df degrees of freedom, t ≥ 0.
func tSurvival(t, df float64) float64 {
	if math.IsInf(t, 1) {
		return 0
	}
	return 0.5 * betaInc(df/2, 0.5, df/(df+t*t))
}

// tQuantile is the p quantile (p > ½) of Student's t, by bisection on
// tSurvival.
func tQuantile(p, df float64) float64 {
	lo, hi := 0.0, 1.0
	for tSurvival(hi, df) > 1-p {
		hi *= 2
	}
	for range 200 {
		mid := (lo + hi) / 2
		if tSurvival(mid, df) > 1-p {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// betaInc is the regularised incomplete beta function I_x(a, b)
// (continued fraction, Numerical Recipes' betacf).
func betaInc(a, b, x float64) float64 {
	switch {
	case x <= 0:
		return 0
	case x >= 1:
		return 1
	}
	la, _ := math.Lgamma(a + b)
	lb, _ := math.Lgamma(a)
	lc, _ := math.Lgamma(b)
	front := math.Exp(la - lb - lc + a*math.Log(x) + b*math.Log1p(-x))
	if x < (a+1)/(a+b+2) {
		return front * betaCF(a, b, x) / a
	}
	return 1 - front*betaCF(b, a, 1-x)/b
}

func betaCF(a, b, x float64) float64 {
	const tiny = 1e-300
	c, d := 1.0, 1-(a+b)*x/(a+1)
	if math.Abs(d) < tiny {
		d = tiny
	}
	d = 1 / d
	h := d
	for m := 1; m <= 300; m++ {
		fm := float64(m)
		aa := fm * (b - fm) * x / ((a + 2*fm - 1) * (a + 2*fm))
		d = 1 + aa*d
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = 1 + aa/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		h *= d * c
		aa = -(a + fm) * (a + b + fm) * x / ((a + 2*fm) * (a + 2*fm + 1))
		d = 1 + aa*d
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = 1 + aa/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		del := d * c
		h *= del
		if math.Abs(del-1) < 1e-14 {
			break
		}
	}
	return h
}
