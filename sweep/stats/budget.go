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

// rssChange is the median paired RSS change of cell c against the
// baseline, in MiB; nil without RSS pairs.
func rssChange(c sweep.Cell) *float64 {
	ch, ok := c.MemoryVsBaseline[sweep.MemRSS]
	if !ok {
		return nil
	}
	v := ch.MedianMiB
	return &v
}
