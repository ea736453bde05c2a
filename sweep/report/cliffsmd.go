package report

import "github.com/sweep-dev/sweep/sweep/units"

// cliffs is summary.md's section "Capacity cliffs": each config's
// lowest level with errors above the plan's cliff rate.
func (m *mdWriter) cliffs() {
	m.f("## Capacity cliffs\n\n")
	if len(m.s.Cliffs) == 0 {
		m.f("None: every config stayed at or below %s errors at every level.\n\n", units.Rate(m.s.Plan.CliffRate))
		return
	}
	for _, c := range m.s.Cliffs {
		m.f("- %s fails from c=%d on: %s errors; RPS there is not saturation.\n", code(c.Config), c.Concurrency, units.Rate(c.ErrorRate))
	}
	m.f("\n")
}
