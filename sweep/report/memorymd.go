package report

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/units"
)

// hasRSS reports whether any cell has an RSS figure.
func hasRSS(cells []sweep.Cell) bool {
	for _, c := range cells {
		if c.RSSBytes > 0 {
			return true
		}
	}
	return false
}

// hasMemoryFigures reports whether any cell has a memory figure beyond
// RSS (peak, settled, reserved) or a paired memory change.
func hasMemoryFigures(cells []sweep.Cell) bool {
	for _, c := range cells {
		if c.RSSPeakBytes != nil || c.RSSSettledBytes != nil || c.VMSizeBytes != nil || len(c.MemoryVsBaseline) > 0 {
			return true
		}
	}
	return false
}

// mibCell is a memory figure in MiB for a table cell ("98.6"; "4035 GiB"
// from 10 GiB on), "—" when the cell lacks it.
func mibCell(b int64, ok bool) string {
	if !ok {
		return "—"
	}
	if b >= 10<<30 {
		return sweep.MiBText(b)
	}
	return strconv.FormatFloat(float64(b)/sweep.MiB, 'f', 1, 64)
}

// memChangeText is a cell's paired change of memory metric mt against
// the baseline with its interval: "+66.7 MiB [+66.5, +67.0]"; "—" for the
// baseline or without pairs.
func memChangeText(c sweep.Cell, mt sweep.MemoryMetric) string {
	ch, ok := c.MemoryVsBaseline[mt]
	if c.Baseline || !ok {
		return "—"
	}
	s := sweep.MiBChange(ch.MedianMiB)
	if c.VsBaseline[sweep.MetricCPUPerReq].Verdict.RaceOnly() {
		return s + " [race data: no interval]"
	}
	if ch.CILowMiB == nil || ch.CIHighMiB == nil {
		return s + " [no interval: too few pairs]"
	}
	trim := func(x float64) string { return strings.TrimSuffix(sweep.MiBChange(x), " MiB") }
	return s + " [" + trim(*ch.CILowMiB) + ", " + trim(*ch.CIHighMiB) + "]"
}

// memory writes summary.md's Memory section: per level and config the
// RSS at the window's end, its peak, the settled RSS and the reserved
// address space, the paired RSS and settled-RSS changes against the
// baseline, and for the built-in host the warm-slot estimate beside the
// measurement with the gap explained. Nothing for a run recorded before
// these figures existed (no cell has any of them).
func (m *mdWriter) memory() {
	if !hasMemoryFigures(m.s.Cells) {
		return
	}
	m.f("## Memory\n\n")
	conf := ""
	for _, c := range m.s.Cells {
		if ch, ok := c.MemoryVsBaseline[sweep.MemRSS]; ok && ch.CILowMiB != nil {
			conf = fmt.Sprintf(" at %s each (%s)", units.Share(ch.Confidence), ch.Correction)
			break
		}
	}
	m.f("Medians over rounds, in MiB. RSS: the server's resident set at the end of the window, read as its load stops; peak: the most it reached during the window (VmHWM, reset as the window starts); settled: %s after the load stopped, when the warm slots keep what keep_resident lets them; reserved: the address space (VmSize) the pool reserved. \"vs baseline\" is the median of the per-round paired differences in MiB with its exact interval%s; they describe, they decide no verdict.\n\n",
		"100 ms", conf)
	m.f("| c | config | RSS | peak | settled | reserved | RSS vs baseline | settled vs baseline | warm-slot estimate |\n")
	m.f("|---:|---|---:|---:|---:|---:|---:|---:|---|\n")
	var gaps []string
	for _, c := range m.lv {
		for _, sr := range m.ss {
			cell, ok := sr.cell(c)
			if !ok || !measured(cell) {
				continue
			}
			est := "—"
			if e := cell.Estimate; e != nil {
				est = fmt.Sprintf("%s × %d = %s", sweep.MiBText(e.KeepResidentBytes), e.WarmSlots, sweep.MiBText(e.Bytes))
				if e.ChangeMiB != nil && e.MeasuredMiB != nil && !sr.AA {
					gaps = append(gaps, fmt.Sprintf("- %s at c=%d: estimate %s vs the baseline, settled RSS measured %s: %s.",
						code(sr.Config), c, sweep.MiBChange(*e.ChangeMiB), sweep.MiBChange(*e.MeasuredMiB), e.Gap))
				}
			}
			over := ""
			if len(cell.OverBudget) > 0 {
				over = " (over budget: " + strings.Join(cell.OverBudget, ", ") + ")"
			}
			m.f("| %d | %s%s | %s | %s | %s | %s | %s | %s | %s |\n", c, cellText(code(sr.Config)), cellText(over),
				mibCell(cell.Memory(sweep.MemRSS)), mibCell(cell.Memory(sweep.MemRSSPeak)), mibCell(cell.Memory(sweep.MemRSSSettled)),
				mibCell(cell.Memory(sweep.MemReserved)), memChangeText(cell, sweep.MemRSS), memChangeText(cell, sweep.MemRSSSettled), est)
		}
	}
	m.f("\n")
	if len(gaps) > 0 {
		m.f("Warm-slot estimate (built-in host): linear_memory_keep_resident × the slots that stay warm (the host's live-instance high-water mark, up to max_unused_warm_slots), beside the measured change of the settled RSS:\n\n%s\n\n", strings.Join(gaps, "\n"))
	}
}

// budgetLines are the recommendation's sentences on memory: what the
// pick costs, and which configs a budget excluded.
func (m *mdWriter) budgetLines(r *sweep.Recommendation) {
	if cost := m.cost(r); cost != "" {
		m.f(" Memory: %s.", cost)
	}
	if len(r.Excluded) > 0 {
		m.f(" Over the memory budget (%s), not recommended: %s.", budgetWords(m.s.Plan), strings.Join(r.Excluded, "; "))
	}
}

// cost is what the pick costs in memory: "−62.0% CPU/req for +2.1 MiB RSS
// at c=16 (RSS change +1.8 MiB … +2.4 MiB at 99.66%)", "" without RSS pairs.
func (m *mdWriter) cost(r *sweep.Recommendation) string {
	if r.RSSChangeMiB == nil {
		return ""
	}
	metric, _, _ := objective(r.Objective)
	s := fmt.Sprintf("%s %s for %s RSS at c=%d", units.Change(r.Change), metric.Label(), sweep.MiBChange(*r.RSSChangeMiB), r.Concurrency)
	if c, ok := m.cellOf(r.Config, r.Concurrency); ok {
		if ch, ok := c.MemoryVsBaseline[sweep.MemRSS]; ok && ch.CILowMiB != nil && ch.CIHighMiB != nil {
			s += fmt.Sprintf(" (RSS change %s … %s at %s)", sweep.MiBChange(*ch.CILowMiB), sweep.MiBChange(*ch.CIHighMiB), units.Share(ch.Confidence))
		}
	}
	return s
}

// budgetWords names the run's budgets: "analysis.max_rss = 64.0 MiB".
func budgetWords(p sweep.Plan) string {
	var out []string
	if p.MaxRSS > 0 {
		out = append(out, "analysis.max_rss = "+sweep.MiBText(p.MaxRSS))
	}
	if p.MaxReserved > 0 {
		out = append(out, "analysis.max_reserved = "+sweep.MiBText(p.MaxReserved))
	}
	return strings.Join(out, ", ")
}

// memoryColumns are the RSS columns of the results tables, header and
// rule ("" for both when no cell has RSS).
func memoryColumns(cells []sweep.Cell) (head, rule string) {
	if !hasRSS(cells) {
		return "", ""
	}
	return " RSS MiB | RSS vs baseline |", "---:|---:|"
}

// memoryRow is a cell's RSS columns, "" when the table has none.
func memoryRow(c sweep.Cell, on bool) string {
	if !on {
		return ""
	}
	return fmt.Sprintf(" %s | %s |", mibCell(c.Memory(sweep.MemRSS)), memChangeText(c, sweep.MemRSS))
}
