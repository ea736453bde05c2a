package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/units"
)

// race is summary.md's section on a race (load.rounds = "race"): what it
// did in words, the field shrinking round by round, and every config's
// part in it. Nothing for other runs.
func (m *mdWriter) race() {
	r := m.s.Race
	if r == nil {
		return
	}
	m.f("## Race\n\n%s.\n\n", capitalize(strings.TrimSuffix(raceWords(r), ".")))
	m.f("- Error budget (1 − confidence): dropping the best %s, a false within-ε stop %s, the confirmation's verdicts %s; ε = %s (analysis.resolve), clip %s (analysis.race_clip), up to %d rounds.\n",
		units.Share(r.Alpha.Drop), units.Share(r.Alpha.Within), units.Share(r.Alpha.Confirm), units.Share(r.Epsilon), units.Share(r.Clip), r.MaxRounds)
	unconfirmed := ""
	if slices.ContainsFunc(r.Configs, func(e sweep.RaceConfig) bool { return e.Reason == sweep.RaceUnconfirmed }) {
		unconfirmed = fmt.Sprintf(", or `%s` for a survivor that was not a finalist (never shown worse: it may be as good as the pick)", sweep.VerdictUnconfirmed)
	}
	m.f("- The race's windows chose who went on, so they are selected data: a config the race left out keeps its c=%d cell from them with the verdict `%s`%s, never better or worse and with no interval; the finalists' verdicts use the confirmation rounds only.\n\n",
		r.Concurrency, sweep.VerdictEliminated, unconfirmed)
	m.raceBudget(r)
	if len(r.Survivors) > 1 {
		m.f("The field, configs left after each round:\n\n```\n%s```\n\n", fieldChart(r.Survivors))
	}
	m.f("| config | race | rounds | left after | E at drop | change at c=%d (race) | why |\n|---|---|---|---|---|---|---|\n", r.Concurrency)
	for _, e := range r.Configs {
		left, ev, why := "", "", e.Why
		if e.Reason == sweep.RaceEliminated || e.Reason == sweep.RaceInfeasible {
			left = fmt.Sprintf("round %d", e.DroppedAt)
		}
		if e.Reason == sweep.RaceEliminated {
			ev = fmt.Sprintf("%.0f", e.EAtDrop)
			why = "worse than " + e.WorseThan
		}
		ch := ""
		if e.Rounds > 0 {
			ch = units.Change(e.Change)
		}
		name := cellText(e.Config)
		if e.Config == m.s.Baseline && m.s.AAConfig != "" {
			// Its change is its A/A twin's against it: the baseline's
			// own slot is every block's reference.
			name += " (the baseline: raced as its A/A twin)"
		}
		m.f("| %s | %s | %d | %s | %s | %s | %s |\n", name, e.Reason, e.Rounds, left, ev, ch, cellText(why))
	}
	m.f("\n")
}

// fieldChart draws the survivors per round as bars, one line per round
// at which the field changed (and the last).
func fieldChart(survivors []int) string {
	var b strings.Builder
	most := 0
	for _, n := range survivors {
		most = max(most, n)
	}
	for k, n := range survivors {
		if k > 0 && k < len(survivors)-1 && n == survivors[k-1] {
			continue
		}
		label := "start"
		if k > 0 {
			label = fmt.Sprintf("round %d", k)
		}
		fmt.Fprintf(&b, "%-9s %s %d\n", label, strings.Repeat("█", n*40/max(most, 1)), n)
	}
	return b.String()
}

// raceBudget states the race's memory-budget rule, when the run had a
// budget, and names the configs it dropped with what they measured.
func (m *mdWriter) raceBudget(r *sweep.RaceSummary) {
	p := m.s.Plan
	var limits []string
	if p.MaxRSS > 0 {
		limits = append(limits, "RSS over `analysis.max_rss` = "+sweep.MiBText(p.MaxRSS))
	}
	if p.MaxReserved > 0 {
		limits = append(limits, "reserved address space over `analysis.max_reserved` = "+sweep.MiBText(p.MaxReserved))
	}
	if len(limits) == 0 {
		return
	}
	m.f("- Memory budget: a config whose race windows at c=%d have a median %s (over %d or more windows while the race goes on, over all it has when it stops) is infeasible: dropped outside the error budget, never a finalist.",
		r.Concurrency, strings.Join(limits, " or a median "), r.BudgetWindows)
	var over []string
	for _, e := range r.Configs {
		if ob := e.OverBudget; ob != nil {
			over = append(over, fmt.Sprintf("%s (%s %s, the median of %d windows)", cellText(e.Config), ob.Metric.Label(), sweep.MiBText(ob.Median), ob.Windows))
		}
	}
	if len(over) > 0 {
		m.f(" Over it: %s.", strings.Join(over, "; "))
	} else {
		m.f(" No config was over it.")
	}
	m.f("\n\n")
}
