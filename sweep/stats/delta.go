package stats

import (
	"maps"
	"math"

	"github.com/sweep-dev/sweep/sweep"
)

// Ratios pairs candidate and baseline windows by round and returns, for
// each round present in both with a non-zero baseline value, the signed
// change candidate/baseline − 1 of metric, in ascending round order.
func ratios(cand, base *group, metric string) []float64 {
	var out []float64
	for _, round := range cand.rounds() {
		b, ok := base.byRound[round]
		if !ok {
			continue
		}
		bv := b.Metric(metric)
		if bv == 0 {
			continue // no defined ratio; the pair count shows the gap
		}
		out = append(out, cand.byRound[round].Metric(metric)/bv-1)
	}
	return out
}

// delta summarises paired ratios; the verdict is filled in later.
func delta(rs []float64) sweep.Delta {
	q1, m, q3 := Quartiles(rs)
	return sweep.Delta{Median: m, Q1: q1, Q3: q3, Pairs: len(rs), Verdict: sweep.VerdictNoChange}
}

// verdict judges d. An effect is real only when the whole central
// interval [Q1, Q3] lies on one side of zero and, when a band is given,
// also beyond the band's reach max(|Q1|, |Q3|) on that side.
func verdict(d sweep.Delta, band *sweep.Band, lowerBetter bool) string {
	if d.Pairs == 0 {
		return sweep.VerdictNoChange
	}
	// The band counts in both directions: which of two identical
	// processes is "the baseline" is arbitrary, so an A/A offset of +x
	// says a candidate's process may sit x away on either side.
	reach := 0.0
	if band != nil {
		reach = max(math.Abs(band.Q1), math.Abs(band.Q3))
	}
	down := d.Q3 < 0 && d.Q3 < -reach
	up := d.Q1 > 0 && d.Q1 > reach
	switch {
	case down && lowerBetter, up && !lowerBetter:
		return sweep.VerdictBetter
	case down, up:
		return sweep.VerdictWorse
	}
	return sweep.VerdictNoChange
}

// compare fills VsBaseline, AABand and the verdicts of every cell.
func (r *run) compare() {
	for _, l := range r.levels {
		base := r.cellAt(r.baseline, l)
		if base == nil {
			continue
		}
		for _, c := range r.configs[1:] {
			if g := r.cellAt(c, l); g != nil {
				g.cell.VsBaseline = map[string]sweep.Delta{}
				for _, m := range sweep.Metrics {
					g.cell.VsBaseline[m] = delta(ratios(g, base, m))
				}
			}
		}
		bands := map[string]sweep.Band{}
		if aa := r.cellAt(r.aa, l); r.aa != "" && aa != nil {
			for m, d := range aa.cell.VsBaseline {
				if d.Pairs > 0 {
					bands[m] = sweep.Band{Median: d.Median, Q1: d.Q1, Q3: d.Q3}
				}
			}
		}
		for _, c := range r.configs {
			g := r.cellAt(c, l)
			if g == nil {
				continue
			}
			if len(bands) > 0 {
				g.cell.AABand = maps.Clone(bands)
			}
			for m, d := range g.cell.VsBaseline {
				var band *sweep.Band
				if b, ok := bands[m]; ok && !g.cell.AA {
					band = &b
				}
				d.Verdict = verdict(d, band, sweep.LowerIsBetter(m))
				g.cell.VsBaseline[m] = d
			}
		}
	}
}
