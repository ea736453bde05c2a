package report

import (
	"fmt"
	"strings"
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
		detail = fmt.Sprintf(", interval %s at %s over %d paired rounds", interval(*d.CILow, *d.CIHigh), confidence(d.Confidence), d.Pairs)
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
			code(r.Config), change(r.Change), words, code(m.s.Baseline), r.Concurrency, detail)
		m.budgetLines(r)
		m.f("%s\n\n", m.peersLine(r, words))
		return // the stats reason says the same in other words
	}
	if reason := strings.TrimSpace(r.Reason); reason != "" {
		if !strings.HasSuffix(reason, ".") {
			reason += "."
		}
		m.f(" %s", capitalize(reason))
	}
	m.f("\n\n")
}
