package stats

import (
	"slices"

	"github.com/sweep-dev/sweep/sweep"
)

// blockDrift is, for each level of a run of several blocks, the spread of
// the baseline's per-block medians of the objective's metric: how far the
// machine moved between blocks. Every comparison is paired within its
// block, so this drift cancels from the verdicts; it is reported so that
// a reader can see how much the absolute levels of different blocks (and
// of the cells' medians, which pool blocks) may differ. Nil for one block.
func (r *run) blockDrift() []sweep.BlockDrift {
	metric := r.o.Objective.Metric()
	var out []sweep.BlockDrift
	for _, l := range r.levels {
		g := r.cellAt(r.baseline, l)
		if g == nil {
			continue
		}
		per := map[int][]float64{}
		for k, w := range g.byRound {
			per[k.block] = append(per[k.block], w.Metric(metric))
		}
		if len(per) < 2 {
			continue
		}
		var meds []float64
		for _, xs := range per {
			meds = append(meds, median(xs))
		}
		lo, hi := slices.Min(meds), slices.Max(meds)
		d := sweep.BlockDrift{Concurrency: l, Metric: metric, Blocks: len(meds), Min: lo, Max: hi}
		if lo > 0 {
			d.Spread = hi/lo - 1
		}
		out = append(out, d)
	}
	return out
}
