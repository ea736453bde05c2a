package report

import (
	"strconv"
	"strings"

	"github.com/sweep-dev/sweep/sweep"
)

// memoryCellColumns are cells.csv's memory columns (after "warnings", so
// that the older columns keep their places): each memory metric's median
// in bytes, its paired change against the baseline in MiB with the
// interval and the pairs, the warm-slot estimate and the budgets
// exceeded. A cell without a figure has an empty field.
func memoryCellColumns() []cellColumn {
	var cols []cellColumn
	for _, m := range sweep.MemoryMetrics {
		cols = append(cols, cellColumn{string(m), func(c sweep.Cell) string {
			if v, ok := c.Memory(m); ok {
				return strconv.FormatInt(v, 10)
			}
			return ""
		}})
	}
	for _, m := range sweep.MemoryMetrics {
		change := func(field string, f func(sweep.MemoryChange) string) cellColumn {
			return vsBaseline(string(m)+"."+field, func(c sweep.Cell) map[sweep.MemoryMetric]sweep.MemoryChange { return c.MemoryVsBaseline }, m, f)
		}
		cols = append(cols,
			change("change_mib", func(ch sweep.MemoryChange) string { return g(ch.MedianMiB) }),
			change("ci_low_mib", func(ch sweep.MemoryChange) string { return gp(ch.CILowMiB) }),
			change("ci_high_mib", func(ch sweep.MemoryChange) string { return gp(ch.CIHighMiB) }),
			change("pairs", func(ch sweep.MemoryChange) string { return strconv.Itoa(ch.Pairs) }))
	}
	estimate := func(f func(sweep.MemoryEstimate) int64) func(sweep.Cell) string {
		return func(c sweep.Cell) string {
			if c.Estimate == nil {
				return ""
			}
			return strconv.FormatInt(f(*c.Estimate), 10)
		}
	}
	return append(cols,
		cellColumn{"warm_slots", estimate(func(e sweep.MemoryEstimate) int64 { return e.WarmSlots })},
		cellColumn{"warm_estimate_bytes", estimate(func(e sweep.MemoryEstimate) int64 { return e.Bytes })},
		cellColumn{"over_budget", func(c sweep.Cell) string { return strings.Join(c.OverBudget, ";") }})
}
