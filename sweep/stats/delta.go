package stats

import (
	"maps"
	"math"

	"github.com/sweep-dev/sweep/sweep"
)

// ratios pairs candidate and baseline windows by round and returns, for
// each round present in both with non-zero values on both sides, the
// signed change candidate/baseline − 1 of metric, in ascending round order.
func ratios(cand, base *group, metric sweep.Metric) []float64 {
	var out []float64
	for _, round := range cand.rounds() {
		b, ok := base.byRound[round]
		if !ok {
			continue
		}
		bv, cv := b.Metric(metric), cand.byRound[round].Metric(metric)
		if bv == 0 || cv == 0 {
			continue // no defined (log) ratio; the pair count shows the gap
		}
		out = append(out, cv/bv-1)
	}
	return out
}

// logs is ln(1 + r) of every change r: ratios are compared on the log
// scale, where +x% and its inverse are symmetric.
func logs(rs []float64) []float64 {
	out := make([]float64, len(rs))
	for i, r := range rs {
		out[i] = math.Log1p(r)
	}
	return out
}

// describe summarises paired changes; the decision fields come later
// (until then nothing is decided).
func describe(rs []float64) sweep.Delta {
	q1, m, q3 := Quartiles(rs)
	d := sweep.Delta{Median: m, Q1: q1, Q3: q3, Pairs: len(rs), Verdict: sweep.VerdictUndecided, P: 1, PAdjusted: 1}
	if len(rs) > 0 {
		d.P = SignedRankP(logs(rs))
		d.PAdjusted = d.P
	}
	return d
}

// decide fills d's interval at confidence level and its verdict: better
// or worse when the whole interval lies on one side of zero, in the
// metric's direction, no detectable change when it contains zero, and
// undecided, with the pairs an interval needs, when there are too few
// pairs for any interval at that level.
func decide(d *sweep.Delta, rs []float64, level float64, lowerBetter bool) {
	iv := SignedRankInterval(logs(rs), level)
	d.Estimate = math.Expm1(iv.Estimate)
	d.Confidence = iv.Level
	d.CILow, d.CIHigh, d.Resolution = nil, nil, nil
	d.Verdict, d.Needed = sweep.VerdictNoChange, 0
	if !iv.OK {
		d.Confidence = level
		d.Verdict, d.Needed = sweep.VerdictUndecided, MinPairs(1-level)
		return
	}
	lo, hi := math.Expm1(iv.Low), math.Expm1(iv.High)
	res := (hi - lo) / 2
	d.CILow, d.CIHigh, d.Resolution = &lo, &hi, &res
	down, up := hi < 0, lo > 0
	switch {
	case down && lowerBetter, up && !lowerBetter:
		d.Verdict = sweep.VerdictBetter
	case down, up:
		d.Verdict = sweep.VerdictWorse
	}
}

// comparison is one member of the run's family of comparisons.
type comparison struct {
	g      *group
	metric sweep.Metric
	rs     []float64
}

// compare fills VsBaseline, AABand and the verdicts of every cell. The
// candidates' comparisons (every config but the baseline and its A/A
// twin, every level, every metric) form one family whose false-verdict
// rate Holm's step-down procedure holds at 1 − Confidence: comparison j
// in ascending p order is decided at level α/(m − j + 1) while every
// earlier one was called, and the rest at the level where the procedure
// stopped. A success-RPS series identical to the RPS series (no errors on
// either side) is the same test and is decided with it, not counted
// twice. The A/A twin is decided outside the family at the procedure's
// first (strictest) level and never gets a verdict: it is the control.
func (r *run) compare() {
	var fam []comparison
	dup := map[*group]bool{} // success_rps ≡ rps for this group
	for _, l := range r.levels {
		base := r.cellAt(r.baseline, l)
		if base == nil {
			continue
		}
		for _, c := range r.configs[1:] {
			g := r.cellAt(c, l)
			if g == nil {
				continue
			}
			g.cell.VsBaseline = map[sweep.Metric]sweep.Delta{}
			g.cell.SplitVsBaseline = splitChange(g, base)
			series := map[sweep.Metric][]float64{}
			for _, m := range sweep.Metrics {
				series[m] = ratios(g, base, m)
				g.cell.VsBaseline[m] = describe(series[m])
			}
			dup[g] = equalSeries(series[sweep.MetricRPS], series[sweep.MetricSuccessRPS])
			if g.cell.AA {
				continue
			}
			for _, m := range sweep.Metrics {
				if len(series[m]) == 0 || (m == sweep.MetricSuccessRPS && dup[g]) {
					continue
				}
				fam = append(fam, comparison{g, m, series[m]})
			}
		}
	}
	alpha := 1 - r.o.Confidence
	steps := holm(fam, alpha)
	for i, cmp := range fam {
		d := cmp.g.cell.VsBaseline[cmp.metric]
		d.PAdjusted = steps[i].adjusted
		d.Correction = steps[i].words
		decide(&d, cmp.rs, 1-steps[i].alpha, cmp.metric.LowerIsBetter())
		cmp.g.cell.VsBaseline[cmp.metric] = d
		if cmp.metric == sweep.MetricRPS && dup[cmp.g] {
			cmp.g.cell.VsBaseline[sweep.MetricSuccessRPS] = d
		}
	}
	first := alpha
	if len(fam) > 0 {
		first = alpha / float64(len(fam))
	}
	// Comparisons outside the family for want of pairs decided nothing.
	for _, g := range r.order {
		for m, d := range g.cell.VsBaseline {
			if d.Verdict == sweep.VerdictUndecided && d.Needed == 0 {
				d.Needed = MinPairs(first)
				g.cell.VsBaseline[m] = d
			}
		}
	}
	for _, l := range r.levels {
		aa, base := r.cellAt(r.aa, l), r.cellAt(r.baseline, l)
		if r.aa == "" || aa == nil || base == nil {
			continue
		}
		bands := map[sweep.Metric]sweep.Band{}
		for _, m := range sweep.Metrics {
			d := aa.cell.VsBaseline[m]
			if d.Pairs > 0 {
				bands[m] = sweep.Band{Median: d.Median, Q1: d.Q1, Q3: d.Q3}
			}
			rs := ratios(aa, base, m)
			decide(&d, rs, 1-first, m.LowerIsBetter())
			d.Verdict = sweep.VerdictControl
			d.Correction = "control: the family's first level"
			aa.cell.VsBaseline[m] = d
		}
		for _, c := range r.configs {
			if g := r.cellAt(c, l); g != nil && len(bands) > 0 {
				g.cell.AABand = maps.Clone(bands)
			}
		}
	}
	r.familySize = len(fam)
	r.firstAlpha = first
}

// equalSeries reports whether a and b are the same series.
func equalSeries(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
