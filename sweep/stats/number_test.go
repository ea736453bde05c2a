package stats

import (
	"slices"
	"testing"
)

func TestQuartiles(t *testing.T) {
	for _, tc := range []struct {
		xs        []float64
		q1, m, q3 float64
	}{
		// h = (n−1)p; q = x[⌊h⌋] + frac(h)·(x[⌊h⌋+1] − x[⌊h⌋]).
		{nil, 0, 0, 0},
		{[]float64{7}, 7, 7, 7},
		{[]float64{3, 1}, 1.5, 2, 2.5},                      // h = .25, .5, .75
		{[]float64{1, 2, 3, 4}, 1.75, 2.5, 3.25},            // h = .75, 1.5, 2.25
		{[]float64{5, 1, 4, 2, 3}, 2, 3, 4},                 // h = 1, 2, 3: exact order statistics
		{[]float64{60, 10, 50, 20, 40, 30}, 22.5, 35, 47.5}, // h = 1.25, 2.5, 3.75
		{[]float64{-0.2, -0.15, -0.1, -0.05, 0.1}, -0.15, -0.1, -0.05},
		{[]float64{2, 2, 2, 9}, 2, 2, 3.75}, // h = .75, 1.5, 2.25 → 2 + .25·7
	} {
		orig := slices.Clone(tc.xs)
		q1, m, q3 := Quartiles(tc.xs)
		if !near(q1, tc.q1) || !near(m, tc.m) || !near(q3, tc.q3) {
			t.Errorf("Quartiles(%v) = %v, %v, %v; want %v, %v, %v", tc.xs, q1, m, q3, tc.q1, tc.m, tc.q3)
		}
		if !slices.Equal(tc.xs, orig) {
			t.Errorf("Quartiles modified its input: %v, was %v", tc.xs, orig)
		}
	}
}
