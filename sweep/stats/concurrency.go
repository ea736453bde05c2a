package stats

import (
	"github.com/sweep-dev/sweep/sweep"
)

// This file covers how effects change along the concurrency axis: the
// capacity cliff of each config and the tradeoff between its effect at
// the lowest level and at every higher one.

// cliffs finds each config's capacity cliff — the first concurrency,
// ascending, whose pooled error rate (5xx + transport errors over the
// requests of its good windows) exceeds CliffRate — and marks that cell
// and every later cell of the config. A failed window (a crashed or
// vanished server) has no error rate and is no cliff: it is reported as
// a failed window (warning "failed_windows"), never as a property of the
// settings. Configs without a cliff are absent from the result.
func (r *run) cliffs() []sweep.Cliff {
	var out []sweep.Cliff
	for _, c := range r.configs {
		var mark *sweep.CellCliff
		for _, l := range r.levels {
			g := r.cellAt(c, l)
			if g == nil {
				continue
			}
			if mark == nil && g.cell.ErrorRate > r.o.CliffRate {
				mark = &sweep.CellCliff{At: l}
				out = append(out, sweep.Cliff{Config: c, Concurrency: l, ErrorRate: g.cell.ErrorRate})
			}
			if mark != nil {
				g.cell.Cliff = &sweep.CellCliff{At: mark.At, Past: l > mark.At}
			}
		}
	}
	return out
}

// tradeoffMetrics are the metrics whose low-vs-high effects are reported.
var tradeoffMetrics = []sweep.Metric{sweep.MetricCPUPerReq, sweep.MetricRPS, sweep.MetricSuccessRPS}

// tradeoffs puts each candidate config's median change at its lowest
// compared concurrency beside its change at every higher one. The A/A
// twin is a control, not a setting, and gets none. Flip is set when both
// effects are real (a verdict other than "no detectable change") and
// their medians have opposite signs: faster single-threaded, slower under
// concurrency, or the reverse.
func (r *run) tradeoffs() []sweep.Tradeoff {
	var out []sweep.Tradeoff
	for _, c := range r.configs {
		if c == r.baseline || c == r.aa {
			continue
		}
		for _, m := range tradeoffMetrics {
			var low *group
			for _, l := range r.levels {
				g := r.cellAt(c, l)
				if g == nil || g.cell.VsBaseline[m].Pairs == 0 {
					continue
				}
				if low == nil {
					low = g
					continue
				}
				lo, hi := low.cell.VsBaseline[m], g.cell.VsBaseline[m]
				out = append(out, sweep.Tradeoff{
					Config:   c,
					Metric:   m,
					LowConc:  low.cell.Concurrency,
					Low:      lo.Median,
					HighConc: l,
					High:     hi.Median,
					Flip:     called(lo) && called(hi) && lo.Median*hi.Median < 0,
				})
			}
		}
	}
	return out
}

// called reports whether d called an effect: better or worse (not no
// detectable change, undecided or the control).
func called(d sweep.Delta) bool {
	return d.Verdict == sweep.VerdictBetter || d.Verdict == sweep.VerdictWorse
}
