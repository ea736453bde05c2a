package stats

import (
	"fmt"
	"strings"

	"github.com/sweep-dev/sweep/sweep"
)

// markBudgets records in every cell the memory budgets it exceeds
// (Options.MaxRSS on its RSS, Options.MaxReserved on its reserved
// address space); a cell without the figure exceeds nothing.
func (r *run) markBudgets() {
	for _, g := range r.order {
		g.cell.OverBudget = overBudget(g.cell, r.o.MaxRSS, r.o.MaxReserved)
	}
}

// overBudget lists the budgets c exceeds, e.g. "RSS 41.2 MiB > max_rss 40.0 MiB".
func overBudget(c sweep.Cell, maxRSS, maxReserved int64) []string {
	var out []string
	for _, b := range []struct {
		metric sweep.MemoryMetric
		key    string
		limit  int64
	}{{sweep.MemRSS, "max_rss", maxRSS}, {sweep.MemReserved, "max_reserved", maxReserved}} {
		if b.limit <= 0 {
			continue
		}
		if v, ok := c.Memory(b.metric); ok && v > b.limit {
			out = append(out, fmt.Sprintf("%s %s > %s %s", b.metric.Label(), sweep.MiBText(v), b.key, sweep.MiBText(b.limit)))
		}
	}
	return out
}

// budgetExcluded names the configs over a budget at level conc (neither
// the baseline nor the A/A twin), with what they exceed.
func (r *run) budgetExcluded(conc int) []string {
	var out []string
	for _, c := range r.configs {
		g := r.cellAt(c, conc)
		if g == nil || c == r.baseline || c == r.aa || len(g.cell.OverBudget) == 0 {
			continue
		}
		out = append(out, c+" ("+strings.Join(g.cell.OverBudget, ", ")+")")
	}
	return out
}

// memoryCost says what the recommended cell costs in RSS against the
// baseline: "−62% CPU/req for +2.1 MiB RSS at c=16"; with the interval of
// the RSS change when there is one. It also returns the change in MiB
// (nil without RSS pairs).
func memoryCost(c sweep.Cell, metric sweep.Metric, change float64) (string, *float64) {
	ch, ok := c.MemoryVsBaseline[sweep.MemRSS]
	if !ok {
		return "", nil
	}
	s := fmt.Sprintf("%s %s for %s RSS at c=%d", Percent(change), metric.Label(), sweep.MiBChange(ch.MedianMiB), c.Concurrency)
	if ch.CILowMiB != nil && ch.CIHighMiB != nil {
		s += fmt.Sprintf(" (RSS change %s … %s at %s)", sweep.MiBChange(*ch.CILowMiB), sweep.MiBChange(*ch.CIHighMiB), confidenceText(ch.Confidence))
	}
	v := ch.MedianMiB
	return s, &v
}

// budgetNote is the recommendation's sentence on the budgets: the configs
// they excluded, and whether the baseline (base, when given) is itself
// over one.
func budgetNote(excluded []string, base *group) string {
	var s string
	if len(excluded) > 0 {
		s = "; over the memory budget, not recommended: " + strings.Join(excluded, ", ")
	}
	if base != nil && len(base.cell.OverBudget) > 0 {
		s += "; the baseline itself is over the memory budget (" + strings.Join(base.cell.OverBudget, ", ") + ")"
	}
	return s
}
