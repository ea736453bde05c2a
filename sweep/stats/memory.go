package stats

import (
	"fmt"
	"math"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/units"
)

// summarizeMemory fills the cell's memory medians (peak, settled and
// reserved) from its good windows; a figure no window has stays absent.
func (g *group) summarizeMemory() {
	c := &g.cell
	med := func(m sweep.MemoryMetric) *int64 {
		var xs []float64
		for _, k := range g.rounds() {
			if v, ok := g.byRound[k].Memory(m); ok {
				xs = append(xs, float64(v))
			}
		}
		if len(xs) == 0 {
			return nil
		}
		v := int64(median(xs))
		return &v
	}
	c.RSSPeakBytes = med(sweep.MemRSSPeak)
	c.RSSSettledBytes = med(sweep.MemRSSSettled)
	c.VMSizeBytes = med(sweep.MemReserved)
}

// memoryDiffs pairs cand's windows with base's (same block and round) and
// returns, for the pairs that have metric on both sides, candidate −
// baseline in MiB, and the baseline's values in MiB.
func memoryDiffs(cand, base *group, metric sweep.MemoryMetric) (diffs, bases []float64) {
	for _, k := range cand.rounds() {
		b, ok := base.byRound[k]
		if !ok {
			continue
		}
		bv, bok := b.Memory(metric)
		cv, cok := cand.byRound[k].Memory(metric)
		if !bok || !cok {
			continue
		}
		diffs = append(diffs, float64(cv-bv)/sweep.MiB)
		bases = append(bases, float64(bv)/sweep.MiB)
	}
	return diffs, bases
}

// compareMemory fills every non-baseline cell's MemoryVsBaseline and the
// built-in host's warm-slot estimates. The changes describe, they decide
// no verdict; their intervals are the exact signed-rank intervals of the
// paired differences, each metric's at the run's confidence with a
// Bonferroni correction over that metric's comparisons (every config but
// the baseline, A/A twin included, at every level), so that a memory gate
// (sweep check -rss) holds its false-fail rate per metric.
func (r *run) compareMemory() {
	type cmp struct {
		g     *group
		diffs []float64
		bases []float64
	}
	for _, m := range sweep.MemoryMetrics {
		var cmps []cmp
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
				if d, b := memoryDiffs(g, base, m); len(d) > 0 {
					cmps = append(cmps, cmp{g, d, b})
				}
			}
		}
		alpha := (1 - r.o.Confidence) / float64(max(len(cmps), 1))
		words := fmt.Sprintf("bonferroni over %d %s comparisons, family-wise %s", len(cmps), m.Label(), units.Share(r.o.Confidence))
		for _, c := range cmps {
			ch := sweep.MemoryChange{MedianMiB: median(c.diffs), Pairs: len(c.diffs), BaselineMiB: median(c.bases), Correction: words, Confidence: 1 - alpha}
			iv := SignedRankInterval(c.diffs, 1-alpha)
			ch.EstimateMiB = iv.Estimate
			if iv.OK {
				lo, hi := iv.Low, iv.High
				ch.CILowMiB, ch.CIHighMiB, ch.Confidence = &lo, &hi, iv.Level
			}
			if c.g.cell.MemoryVsBaseline == nil {
				c.g.cell.MemoryVsBaseline = map[sweep.MemoryMetric]sweep.MemoryChange{}
			}
			c.g.cell.MemoryVsBaseline[m] = ch
		}
	}
	for _, l := range r.levels {
		base := r.cellAt(r.baseline, l)
		for _, c := range r.configs {
			if g := r.cellAt(c, l); g != nil {
				g.cell.Estimate = warmEstimate(g, base)
			}
		}
	}
	r.markBudgets()
}

// warmEstimate is the cell's warm-slot estimate (medians over the windows
// that have the host's counters): keep_resident × warm slots, its paired
// difference from the baseline's estimate beside the measured change of
// the settled RSS, and the gap between the two in words; nil when no
// window has the counters.
func warmEstimate(g, base *group) *sweep.MemoryEstimate {
	var kr, warm, est []float64
	for _, k := range g.rounds() {
		w := g.byRound[k]
		if w.WarmEstimateBytes == nil || w.WarmSlots == nil || w.KeepResidentBytes == nil {
			continue
		}
		kr = append(kr, float64(*w.KeepResidentBytes))
		warm = append(warm, float64(*w.WarmSlots))
		est = append(est, float64(*w.WarmEstimateBytes))
	}
	if len(est) == 0 {
		return nil
	}
	e := &sweep.MemoryEstimate{KeepResidentBytes: int64(median(kr)), WarmSlots: int64(math.Round(median(warm))), Bytes: int64(median(est))}
	if base == nil || g == base {
		return e
	}
	var d []float64
	for _, k := range g.rounds() {
		b, ok := base.byRound[k]
		w := g.byRound[k]
		if !ok || b.WarmEstimateBytes == nil || w.WarmEstimateBytes == nil {
			continue
		}
		d = append(d, float64(*w.WarmEstimateBytes-*b.WarmEstimateBytes)/sweep.MiB)
	}
	if len(d) == 0 {
		return e
	}
	change := median(d)
	e.ChangeMiB = &change
	if ch, ok := g.cell.MemoryVsBaseline[sweep.MemRSSSettled]; ok {
		measured := ch.MedianMiB
		e.MeasuredMiB = &measured
		e.Gap = gapWords(change, measured)
	}
	return e
}

// gapWords explains how the measured change of the settled RSS differs
// from the estimated change of the warm slots' resident memory.
func gapWords(est, measured float64) string {
	gap := measured - est
	if math.Abs(gap) <= math.Max(1, 0.2*math.Abs(est)) {
		return fmt.Sprintf("as estimated, %.1f MiB apart", math.Abs(gap))
	}
	if gap > 0 {
		return fmt.Sprintf("%.1f MiB more than keep_resident × warm slots: memory outside the warm slots' linear memories (e.g. the host's Go heap, which grows with the request rate; tables, stacks), or more slots kept warm than the high-water mark", gap)
	}
	return fmt.Sprintf("%.1f MiB less than keep_resident × warm slots: a warm slot keeps only the pages requests dirtied within keep_resident (touch plus the plugin's own), and slots past max_unused_warm_slots are decommitted", -gap)
}
