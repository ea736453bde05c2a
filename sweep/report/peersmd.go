package report

import (
	"fmt"
	"strings"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/units"
)

// peers are the recommendation's peers (sweep.Recommendation.Peers, as
// stats decided them), each with its change, its interval and, when
// measured, its RSS change.
func peers(r *sweep.Recommendation) []string {
	var out []string
	for _, p := range r.Peers {
		s := fmt.Sprintf("%s %s %s", code(p.Config), units.Change(p.Change), interval(p.CILow, p.CIHigh))
		if p.RSSChangeMiB != nil {
			s += ", RSS " + sweep.MiBChange(*p.RSSChangeMiB)
		}
		out = append(out, s)
	}
	return out
}

// peersLine is the recommendation's sentence on its peers, "" when it
// has none; words names the objective ("CPU per request").
func (m *mdWriter) peersLine(r *sweep.Recommendation, words string) string {
	p := peers(r)
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
