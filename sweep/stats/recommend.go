package stats

import (
	"fmt"
	"strings"

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
	keep := func(reason string) *sweep.Recommendation {
		return &sweep.Recommendation{
			Objective: r.o.Objective, Concurrency: conc, Config: r.baseline, Point: base.cell.Point,
			KeepBaseline: true, Reason: reason + budgetNote(excluded, r.cellAt(r.baseline, conc)), Excluded: excluded,
		}
	}
	if r.cellAt(r.baseline, conc) == nil {
		return keep(fmt.Sprintf("no baseline measurements at c=%d", conc))
	}
	var best *group
	var dirty []string
	undecided, candidates := []sweep.Delta{}, 0
	for _, c := range r.configs {
		g := r.cellAt(c, conc)
		if g == nil || c == r.baseline || c == r.aa {
			continue
		}
		candidates++
		if d := g.cell.VsBaseline[metric]; d.Verdict == sweep.VerdictUndecided {
			undecided = append(undecided, d)
		}
		if g.cell.VsBaseline[metric].Verdict != sweep.VerdictBetter {
			continue
		}
		if !g.clean() {
			dirty = append(dirty, c+" ("+problem(g)+")")
			continue
		}
		if len(g.cell.OverBudget) > 0 {
			continue
		}
		if best == nil || improves(g.cell.VsBaseline[metric].Median, best.cell.VsBaseline[metric].Median, metric) {
			best = g
		}
	}
	noise := fmt.Sprintf("with family-wise confidence %s over the run's %d comparisons", confidenceText(r.o.Confidence), r.familySize)
	switch {
	case best != nil:
		d := best.cell.VsBaseline[metric]
		cost, rss := memoryCost(best.cell, metric, d.Median)
		return &sweep.Recommendation{
			Objective: r.o.Objective, Concurrency: conc, Config: best.cell.Config, Point: best.cell.Point,
			Change: d.Median, Cost: cost, RSSChangeMiB: rss, Excluded: excluded, Peers: r.peers(best, conc, metric),
			Reason: fmt.Sprintf("%s %s vs the baseline at c=%d (interval %s … %s at %s over %d paired rounds), %s, with no errors",
				Percent(d.Median), metric, conc, Percent(*d.CILow), Percent(*d.CIHigh), confidenceText(d.Confidence), d.Pairs, noise) +
				budgetNote(excluded, nil),
		}
	case len(dirty) > 0:
		return keep("all improving configs had errors: " + strings.Join(dirty, ", "))
	case candidates > 0 && len(undecided) == candidates:
		d := undecided[0]
		return keep(fmt.Sprintf("nothing was decided at c=%d: %d paired rounds, %d needed for any verdict on %s %s",
			conc, d.Pairs, d.Needed, metric, noise))
	}
	return keep(fmt.Sprintf("no config improved %s at c=%d %s", metric, conc, noise))
}

// improves reports whether change a is strictly better than b for metric.
func improves(a, b float64, metric sweep.Metric) bool {
	if metric.LowerIsBetter() {
		return a < b
	}
	return a > b
}

// problem describes why a cell is not clean.
func problem(g *group) string {
	var parts []string
	if g.errors > 0 {
		parts = append(parts, fmt.Sprintf("error rate %.2f%%", 100*g.cell.ErrorRate))
	}
	if g.failed == 1 {
		parts = append(parts, "1 failed window")
	} else if g.failed > 1 {
		parts = append(parts, fmt.Sprintf("%d failed windows", g.failed))
	}
	return strings.Join(parts, ", ")
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
