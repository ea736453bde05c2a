package report

import (
	"fmt"
	"strings"

	"github.com/sweep-dev/sweep/sweep"
)

// peers are the recommendation's near rivals at its level: the other
// candidates that also improved the objective for certain, with no errors,
// no failed windows and within any memory budget, whose interval against
// the baseline overlaps the pick's. The run compares every config with
// the baseline, never with one another, so it does not order these: the
// pick has the best median only. Each is written with its change, its
// interval and, when measured, its RSS change.
func (m *mdWriter) peers(r *sweep.Recommendation, metric sweep.Metric) []string {
	pick, ok := m.deltaOf(r.Config, r.Concurrency, metric)
	if !ok || pick.CILow == nil || pick.CIHigh == nil {
		return nil
	}
	var out []string
	for _, sr := range candidates(m.ss) {
		if sr.Config == r.Config {
			continue
		}
		c, ok := sr.cell(r.Concurrency)
		if !ok || c.ErrorRate > 0 || len(c.OverBudget) > 0 || m.failedAt(sr.Config, r.Concurrency) {
			continue
		}
		d := c.VsBaseline[metric]
		if d.Verdict != sweep.VerdictBetter || d.CILow == nil || d.CIHigh == nil {
			continue
		}
		if *d.CIHigh < *pick.CILow || *pick.CIHigh < *d.CILow {
			continue // told apart: the intervals do not meet
		}
		s := fmt.Sprintf("%s %s %s", code(sr.Config), change(d.Median), interval(*d.CILow, *d.CIHigh))
		if ch, ok := c.MemoryVsBaseline[sweep.MemRSS]; ok {
			s += ", RSS " + sweep.MiBChange(ch.MedianMiB)
		}
		out = append(out, s)
	}
	return out
}

// peersLine is the recommendation's sentence on its peers, "" when it
// has none; words names the objective ("CPU per request").
func (m *mdWriter) peersLine(r *sweep.Recommendation, metric sweep.Metric, words string) string {
	p := m.peers(r, metric)
	if len(p) == 0 {
		return ""
	}
	which := "another config improves " + words + " at c=%d too, with an interval that overlaps"
	if len(p) > 1 {
		which = fmt.Sprintf("%d other configs improve %s at c=%%d too, with intervals that overlap", len(p), words)
	}
	return fmt.Sprintf(" Not told apart from it: "+which+" its own (the run compares each config with the baseline, not with one another, so the pick has only the best median): %s.",
		r.Concurrency, strings.Join(p, "; "))
}

// deltaOf is config's change of metric against the baseline at level c.
func (m *mdWriter) deltaOf(config string, c int, metric sweep.Metric) (sweep.Delta, bool) {
	for _, sr := range m.ss {
		if sr.Config != config {
			continue
		}
		if cell, ok := sr.cell(c); ok {
			d, ok := cell.VsBaseline[metric]
			return d, ok
		}
	}
	return sweep.Delta{}, false
}

// failedAt reports whether the run warned of failed windows in config's
// cell at level c.
func (m *mdWriter) failedAt(config string, c int) bool {
	for _, w := range m.s.Warnings {
		if w.Code == sweep.WarnFailedWindows && w.Config == config && w.Conc == c {
			return true
		}
	}
	return false
}
