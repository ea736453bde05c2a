package stats

import (
	"github.com/sweep-dev/sweep/sweep"
)

// recommend picks the run's verdict at the target concurrency: among the
// candidate configs (neither baseline nor A/A twin) whose objective
// metric improved for real (verdict "better") and that had no errors and
// no failed windows there, the one with the best median change; ties go
// to the first in cell order. Otherwise the baseline is kept, with the
// reason. It returns nil when the run has no baseline at all.
func (r *run) recommend() *sweep.Recommendation {
	base := firstCell(r, r.baseline)
	if base == nil {
		return nil
	}
	conc := r.o.TargetConcurrency
	metric := r.o.Objective.Metric()
	excluded := r.budgetExcluded(conc)
	keep := func(why sweep.KeepReason) *sweep.Recommendation {
		return &sweep.Recommendation{
			Objective: r.o.Objective, Concurrency: conc, Config: r.baseline, Point: base.cell.Point,
			KeepBaseline: true, Keep: why, Excluded: excluded,
		}
	}
	if r.cellAt(r.baseline, conc) == nil {
		return keep(sweep.KeepNoBaseline)
	}
	var best *group
	var dirty []sweep.Dirty
	undecided, candidates := 0, 0
	for _, c := range r.configs {
		g := r.cellAt(c, conc)
		if g == nil || c == r.baseline || c == r.aa {
			continue
		}
		candidates++
		if g.cell.VsBaseline[metric].Verdict == sweep.VerdictUndecided {
			undecided++
		}
		if g.cell.VsBaseline[metric].Verdict != sweep.VerdictBetter {
			continue
		}
		if !g.clean() {
			dirty = append(dirty, sweep.Dirty{Config: c, ErrorRate: g.cell.ErrorRate, FailedWindows: g.failed})
			continue
		}
		if len(g.cell.OverBudget) > 0 {
			continue
		}
		if best == nil || improves(g.cell.VsBaseline[metric].Median, best.cell.VsBaseline[metric].Median, metric) {
			best = g
		}
	}
	switch {
	case best != nil:
		d := best.cell.VsBaseline[metric]
		return &sweep.Recommendation{
			Objective: r.o.Objective, Concurrency: conc, Config: best.cell.Config, Point: best.cell.Point,
			Change: d.Median, RSSChangeMiB: rssChange(best.cell), Excluded: excluded, Peers: r.peers(best, conc, metric),
		}
	case len(dirty) > 0:
		k := keep(sweep.KeepErrors)
		k.Dirty = dirty
		return k
	case candidates > 0 && undecided == candidates:
		return keep(sweep.KeepUndecided)
	}
	return keep(sweep.KeepNoImprovement)
}

// improves reports whether change a is strictly better than b for metric.
func improves(a, b float64, metric sweep.Metric) bool {
	if metric.LowerIsBetter() {
		return a < b
	}
	return a > b
}

// firstCell is config's first cell in cell order, or nil.
func firstCell(r *run, config string) *group {
	for _, g := range r.order {
		if g.cell.Config == config {
			return g
		}
	}
	return nil
}

// peers are the configs not told apart from the pick (best) at conc
// (sweep.Recommendation.Peers): better, clean, within budget, with an
// interval that meets the pick's.
func (r *run) peers(best *group, conc int, metric sweep.Metric) []sweep.Peer {
	pick := best.cell.VsBaseline[metric]
	if pick.CILow == nil || pick.CIHigh == nil {
		return nil
	}
	var out []sweep.Peer
	for _, c := range r.configs {
		g := r.cellAt(c, conc)
		if g == nil || g == best || c == r.baseline || c == r.aa || !g.clean() || len(g.cell.OverBudget) > 0 {
			continue
		}
		d := g.cell.VsBaseline[metric]
		if d.Verdict != sweep.VerdictBetter || d.CILow == nil || d.CIHigh == nil {
			continue
		}
		if *d.CIHigh < *pick.CILow || *pick.CIHigh < *d.CILow {
			continue // told apart: the intervals do not meet
		}
		p := sweep.Peer{Config: c, Change: d.Median, CILow: *d.CILow, CIHigh: *d.CIHigh}
		if ch, ok := g.cell.MemoryVsBaseline[sweep.MemRSS]; ok {
			v := ch.MedianMiB
			p.RSSChangeMiB = &v
		}
		out = append(out, p)
	}
	return out
}
