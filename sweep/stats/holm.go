package stats

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/sweep-dev/sweep/sweep/units"
)

// holmStep is what Holm's step-down procedure decided for one comparison.
type holmStep struct {
	alpha    float64 // the level this comparison is decided at
	adjusted float64 // Holm-adjusted p-value
	words    string  // the correction, for summary.json
}

// holm runs Holm's step-down procedure over the family at family-wise
// level alpha and returns, in fam's order, each comparison's level: in
// ascending p order, comparison j (1-based) of m gets α/(m − j + 1) while
// all before it were rejected; from the first one not rejected on, every
// comparison gets that step's level (none of them is rejected). The
// adjusted p-value is maxᵢ≤ⱼ min(1, (m − i + 1)·p₍ᵢ₎). Holm holds the
// probability of any false verdict at alpha for any dependence between
// the comparisons; it is uniformly more powerful than Bonferroni.
func holm(fam []comparison, alpha float64) []holmStep {
	m := len(fam)
	out := make([]holmStep, m)
	if m == 0 {
		return out
	}
	ps := make([]float64, m)
	for i, c := range fam {
		ps[i] = c.g.cell.VsBaseline[c.metric].P
	}
	order := make([]int, m)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(ps[a], ps[b]) })
	stopped := false
	var stopAlpha float64
	running := 0.0
	for j, i := range order {
		left := m - j
		running = max(running, min(1, float64(left)*ps[i]))
		level := alpha / float64(left)
		if !stopped && ps[i] > level {
			stopped, stopAlpha = true, level
		}
		if stopped {
			level = stopAlpha
		}
		out[i] = holmStep{alpha: level, adjusted: running,
			words: fmt.Sprintf("holm: step %d of %d, family-wise %s", j+1, m, units.Share(1-alpha))}
	}
	return out
}
