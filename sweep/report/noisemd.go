package report

import "github.com/sweep-dev/sweep/sweep"

// noise is summary.md's section "Noise (A/A)": the spread of the A/A
// twin's paired changes per level and metric, or that the run had none.
func (m *mdWriter) noise() {
	m.f("## Noise (A/A)\n\n")
	if m.s.AAConfig == "" {
		m.f("This run had no A/A control: nothing shows what the bench calls a change where there is none.\n\n")
		return
	}
	m.f("The baseline %s was also run as %s in its own process slot and analysed like a candidate: it is the bench's alibi and gets no verdict. "+
		"Below, the [q1, q3] spread of its paired changes; when its confidence interval excludes zero the cell carries an `aa_effect` warning.\n\n",
		code(m.s.Baseline), code(m.s.AAConfig))
	m.f("| c | CPU/req | RPS | success RPS | p99 |\n|---:|---|---|---|---|\n")
	for _, c := range m.lv {
		m.f("| %d |", c)
		for _, metric := range sweep.Metrics {
			if b, ok := aaBand(m.s, c, metric); ok {
				m.f(" %s |", interval(b.Q1, b.Q3))
			} else {
				m.f(" — |")
			}
		}
		m.f("\n")
	}
	m.f("\n")
}
