package racesim

import "math"

// Field is the configs' true log costs relative to the baseline: config 0
// is the baseline (0), lower is better.
type Field []float64

// Issue64 is the issue's 64-config grid: the best at −10%, four more
// within 2% of it (−9.6, −9.2, −8.8, −8.4%), and the other 58 besides
// the baseline spread evenly from 3% to 30% worse than the best.
func Issue64() Field {
	f := Field{0}
	best := math.Log(0.90)
	f = append(f, best)
	for k := 1; k <= 4; k++ {
		f = append(f, best+0.004*float64(k))
	}
	for k := range 58 {
		f = append(f, best+0.03+0.27*float64(k)/57)
	}
	return f
}

// Tied is k identical configs (the baseline among them).
func Tied(k int) Field { return make(Field, k) }

// Best returns the index of the lowest true cost (the first among ties).
func (f Field) Best() int {
	b := 0
	for i, v := range f {
		if v < f[b] {
			b = i
		}
	}
	return b
}

// Typical is a grid of k configs (the baseline among them) shaped like
// the issue's: the best at −10%, up to four more within 2% of it (at most
// a quarter of the others), and the rest spread evenly from 3% to 30%
// worse than the best. It is what -dry-run's expected windows assume.
func Typical(k int) Field {
	if k < 2 {
		return make(Field, max(k, 0))
	}
	f := Field{0}
	best := math.Log(0.90)
	f = append(f, best)
	near := min(4, (k-2)/4)
	for j := 1; j <= near; j++ {
		f = append(f, best+0.004*float64(j))
	}
	rest := k - len(f)
	for j := range rest {
		f = append(f, best+0.03+0.27*float64(j)/float64(max(rest-1, 1)))
	}
	return f
}
