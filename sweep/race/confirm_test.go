package race

import (
	"math"
	"testing"
)

// TestTDistribution: Student t quantiles against tables.
func TestTDistribution(t *testing.T) {
	for _, tc := range []struct{ p, df, want float64 }{
		{0.975, 1, 12.706}, {0.975, 2, 4.303}, {0.975, 10, 2.228}, {0.995, 5, 4.032},
		{0.9995, 6, 5.959}, {0.975, 1000, 1.962},
	} {
		if got := tQuantile(tc.p, tc.df); math.Abs(got-tc.want) > 1e-3*tc.want {
			t.Errorf("t quantile %g at df %g = %g, want %g", tc.p, tc.df, got, tc.want)
		}
	}
}

// TestConfirm: the paired t-test's p-value and interval by hand, and
// Holm's step-down over a family.
func TestConfirm(t *testing.T) {
	// Mean −0.1, SD 0.02, n 5: t = 0.1/(0.02/√5) = √125, df 4.
	clear := []float64{-0.12, -0.08, -0.1, -0.08, -0.12}
	for _, tc := range []struct {
		name  string
		cs    [][]float64
		alpha float64
		calls []Call
	}{
		{"one clear lower", [][]float64{clear}, 0.02, []Call{Lower}},
		{"higher", [][]float64{neg(clear)}, 0.02, []Call{Higher}},
		{"noise", [][]float64{{0.01, -0.01, 0.02, -0.015, 0.003}}, 0.02, []Call{Unresolved}},
		{"one pair", [][]float64{{-0.5}}, 0.02, []Call{Unresolved}},
		{"zero spread", [][]float64{{-0.1, -0.1, -0.1}}, 0.02, []Call{Unresolved}},
		// Holm: the clear one is rejected at α/2, then the noise is not.
		{"family", [][]float64{{0.01, -0.01, 0.02, -0.015, 0.003}, clear}, 0.02, []Call{Unresolved, Lower}},
	} {
		var cs []Comparison
		for k, r := range tc.cs {
			cs = append(cs, Comparison{Config: string(rune('a' + k)), Level: 16, Metric: "cpu", Ratios: r})
		}
		vs := Confirm(cs, tc.alpha)
		for k, v := range vs {
			if v.Call != tc.calls[k] {
				t.Errorf("%s: comparison %d called %s (p %g), want %s", tc.name, k, v.Call, v.P, tc.calls[k])
			}
			if v.Adjusted < v.P || v.Adjusted > 1 {
				t.Errorf("%s: adjusted p %g for p %g", tc.name, v.Adjusted, v.P)
			}
		}
	}
	v := Confirm([]Comparison{{Ratios: clear}}, 0.02)[0]
	// t₄'s closed form: the two-sided p of √125 is 3.6435e-4, and the
	// 99% quantile is 3.74695, so the 98% interval is −0.1 ± 3.74695·0.02/√5.
	if math.Abs(v.P-3.6435e-4) > 1e-8 {
		t.Errorf("p = %g, want 3.6435e-4", v.P)
	}
	if h := 3.74695 * 0.02 / math.Sqrt(5); math.Abs(v.Low-(-0.1-h)) > 1e-6 || math.Abs(v.High-(-0.1+h)) > 1e-6 || math.Abs(v.Estimate+0.1) > 1e-12 {
		t.Errorf("interval [%g, %g] estimate %g, want −0.1 ± %g", v.Low, v.High, v.Estimate, h)
	}
}

// TestTRounds: 7 rounds a level at sweep's defaults (4 finalists, 3
// levels, 95%), against the signed-rank test's 13; more comparisons need
// more rounds.
func TestTRounds(t *testing.T) {
	if got := TRounds(0.95, 4, 3); got != 7 {
		t.Errorf("TRounds(0.95, 4, 3) = %d, want 7", got)
	}
	if got := ConfirmRounds(0.95, 4, 3); got != 13 {
		t.Errorf("ConfirmRounds(0.95, 4, 3) = %d, want 13", got)
	}
	if a, b := TRounds(0.95, 1, 1), TRounds(0.99, 8, 3); a > b {
		t.Errorf("TRounds: %d rounds for 3 comparisons, %d for 72", a, b)
	}
}

func neg(xs []float64) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = -x
	}
	return out
}
