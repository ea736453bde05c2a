package stats

import (
	"math"
	"slices"
)

// Quartiles returns the first quartile, the median and the third quartile
// of xs by linear interpolation between order statistics (Hyndman & Fan
// type 7, the default of R's quantile and NumPy's percentile): with xs
// sorted ascending and n values, the p-quantile sits at 0-based rank
// h = (n−1)·p and is x[⌊h⌋] + (h−⌊h⌋)·(x[⌊h⌋+1] − x[⌊h⌋]).
//
// So [1 2 3 4] gives 1.75, 2.5, 3.25 and a single value x gives x, x, x.
// xs is not modified. An empty xs gives 0, 0, 0; callers that must tell
// "no data" from zero check the length themselves (every Delta carries
// its Pairs).
func Quartiles(xs []float64) (q1, median, q3 float64) {
	if len(xs) == 0 {
		return 0, 0, 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return quantile(s, 0.25), quantile(s, 0.5), quantile(s, 0.75)
}

// quantile is the type 7 p-quantile of the sorted, non-empty s.
func quantile(s []float64, p float64) float64 {
	h := float64(len(s)-1) * p
	lo := math.Floor(h)
	i := int(lo)
	if i+1 >= len(s) {
		return s[len(s)-1]
	}
	return s[i] + (h-lo)*(s[i+1]-s[i])
}

// median is the type 7 median of xs (0 for none).
func median(xs []float64) float64 {
	_, m, _ := Quartiles(xs)
	return m
}
