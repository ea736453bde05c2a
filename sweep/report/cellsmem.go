package report

import (
	"strconv"
	"strings"

	"github.com/sweep-dev/sweep/sweep"
)

// memoryHeader names cells.csv's memory columns (after "warnings", so
// that the older columns keep their places): each memory metric's median
// in bytes, its paired change against the baseline in MiB with the
// interval and the pairs, the warm-slot estimate and the budgets exceeded.
func memoryHeader() []string {
	var h []string
	for _, m := range sweep.MemoryMetrics {
		h = append(h, string(m))
	}
	for _, m := range sweep.MemoryMetrics {
		for _, f := range []string{"change_mib", "ci_low_mib", "ci_high_mib", "pairs"} {
			h = append(h, string(m)+"."+f)
		}
	}
	return append(h, "warm_slots", "warm_estimate_bytes", "over_budget")
}

// memoryFields are cell c's memory columns, empty where it lacks a figure.
func memoryFields(c sweep.Cell) []string {
	var row []string
	for _, m := range sweep.MemoryMetrics {
		if v, ok := c.Memory(m); ok {
			row = append(row, strconv.FormatInt(v, 10))
		} else {
			row = append(row, "")
		}
	}
	for _, m := range sweep.MemoryMetrics {
		ch, ok := c.MemoryVsBaseline[m]
		if !ok {
			row = append(row, "", "", "", "")
			continue
		}
		row = append(row, g(ch.MedianMiB), gp(ch.CILowMiB), gp(ch.CIHighMiB), strconv.Itoa(ch.Pairs))
	}
	if e := c.Estimate; e != nil {
		row = append(row, strconv.FormatInt(e.WarmSlots, 10), strconv.FormatInt(e.Bytes, 10))
	} else {
		row = append(row, "", "")
	}
	return append(row, strings.Join(c.OverBudget, ";"))
}
