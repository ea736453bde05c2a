package report

import (
	"fmt"
	"strings"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/units"
)

// recommendation is summary.md's section "Recommendation": the config
// to use at the objective's level, or why the run keeps the baseline.
func (m *mdWriter) recommendation() {
	m.f("## Recommendation\n\n")
	r := m.s.Recommendation
	if r == nil {
		m.f("No recommendation: the run has no candidate config with a paired comparison against the baseline.\n\n")
		return
	}
	metric, words, _ := objective(r.Objective)
	detail := ""
	if d, ok := m.deltaOf(r.Config, r.Concurrency, metric); ok && d.CILow != nil && d.CIHigh != nil {
		detail = fmt.Sprintf(", interval %s at %s over %d paired rounds", interval(*d.CILow, *d.CIHigh), units.Share(d.Confidence), d.Pairs)
	}
	switch {
	case r.KeepBaseline && len(candidates(m.ss)) == 0:
		m.f("**Keep the baseline %s.** It is the only config in this run, so there is nothing to compare it with.", code(r.Config))
	case r.KeepBaseline && undecidedAt(m.ss, r.Concurrency, metric) != nil:
		d := undecidedAt(m.ss, r.Concurrency, metric)
		m.f("**Keep the baseline %s: this run decided nothing at c=%d.** Every candidate's %s is %s; run at least %d rounds (or `rounds = \"auto\"`).\n\n",
			code(r.Config), r.Concurrency, words, undecidedWords(*d), d.Needed)
		return // an older summary's reason would say "no config improved"
	case r.KeepBaseline:
		m.f("**Keep the baseline %s.** At c=%d no candidate improves %s for certain.", code(r.Config), r.Concurrency, words)
	default:
		m.f("**Use %s**: %s %s vs the baseline %s at c=%d (paired median%s), with the run's false-verdict risk controlled, with no errors.",
			code(r.Config), units.Change(r.Change), words, code(m.s.Baseline), r.Concurrency, detail)
		m.budgetLines(r)
		m.f("%s\n\n", m.peersLine(r, words))
		return // the stats reason says the same in other words
	}
	if reason := m.keepReason(r, metric); reason != "" {
		m.f(" %s", reason)
	}
	m.f("\n\n")
}

// keepReason says why the run keeps its baseline (Recommendation.Keep),
// with the run's error control and what a memory budget excluded;
// summaries written before Keep give their reason in words.
func (m *mdWriter) keepReason(r *sweep.Recommendation, metric sweep.Metric) string {
	var s string
	control := fmt.Sprintf("with family-wise confidence %s over the run's %d comparisons", units.Share(m.s.Plan.Confidence), m.s.Plan.Family)
	switch r.Keep {
	case sweep.KeepNoBaseline:
		s = fmt.Sprintf("No baseline measurements at c=%d.", r.Concurrency)
	case sweep.KeepErrors:
		var parts []string
		for _, d := range r.Dirty {
			var why []string
			if d.ErrorRate > 0 {
				why = append(why, "error rate "+units.Rate(d.ErrorRate))
			}
			if d.FailedWindows > 0 {
				why = append(why, map[bool]string{true: "1 failed window", false: fmt.Sprintf("%d failed windows", d.FailedWindows)}[d.FailedWindows == 1])
			}
			parts = append(parts, fmt.Sprintf("%s (%s)", code(d.Config), strings.Join(why, ", ")))
		}
		s = "All improving configs had errors: " + strings.Join(parts, ", ") + "."
	case sweep.KeepUndecided, sweep.KeepNoImprovement:
		s = fmt.Sprintf("No config improved %s at c=%d %s.", metric.Label(), r.Concurrency, control)
	default:
		if reason := strings.TrimSpace(r.Reason); reason != "" {
			return capitalize(strings.TrimSuffix(reason, ".")) + "."
		}
		return ""
	}
	if len(r.Excluded) > 0 {
		s += " Over the memory budget, not recommended: " + strings.Join(r.Excluded, ", ") + "."
	}
	if c, ok := m.cellOf(m.s.Baseline, r.Concurrency); ok && len(c.OverBudget) > 0 {
		s += " The baseline itself is over the memory budget (" + strings.Join(c.OverBudget, ", ") + ")."
	}
	return s
}

// cellOf is config's cell at level c.
func (m *mdWriter) cellOf(config string, c int) (sweep.Cell, bool) {
	for _, sr := range m.ss {
		if sr.Config == config {
			return sr.cell(c)
		}
	}
	return sweep.Cell{}, false
}
