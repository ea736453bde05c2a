package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/units"
)

// results is summary.md's section "Results": per concurrency level how
// the servers ran (parallel or queued), then a table of every config's
// medians, its paired changes against the baseline with their intervals,
// and its verdict, and notes on the columns that need them.
func (m *mdWriter) results() {
	m.f("## Results\n\n")
	if len(m.s.Cells) == 0 {
		m.f("No cells: nothing was measured.\n\n")
		return
	}
	m.f("Medians over rounds. \"vs baseline\" is the median of the per-round paired changes, with the confidence interval the verdict was decided on (%s).\n\n", m.decisionWords())
	ipis := hasIPIs(m.s.Cells)
	split := hasSplit(m.s.Cells)
	memHead, memRule := memoryColumns(m.s.Cells)
	for _, c := range m.lv {
		m.f("### c=%d\n\n", c)
		m.parallel(c)
		head := "| config | RPS | success RPS | CPU µs/req |"
		rule := "|---|---:|---:|---:|"
		if split {
			head += " user / kernel µs/req | user / kernel vs baseline |"
			rule += "---:|---:|"
		}
		if ipis {
			head += " TLB shootdowns/req | call IPIs/req |"
			rule += "---:|---:|"
		}
		m.f("%s p99 ms | errors | CPU/req vs baseline | RPS vs baseline | verdict |%s\n", head, memHead)
		m.f("%s---:|---:|---|---|---|%s\n", rule, memRule)
		cliff := false
		for _, sr := range m.ss {
			cell, ok := sr.cell(c)
			if !ok {
				continue
			}
			if cell.Cliff != nil {
				cliff = true
			}
			m.f("| %s |", cellText(code(sr.Config)))
			if !measured(cell) {
				if split {
					m.f(" — | — |")
				}
				if ipis {
					m.f(" — | — |")
				}
				m.f(" — | — | — | — | — | — | — | not measured |%s\n", strings.Repeat(" — |", strings.Count(memRule, "|")))
				continue
			}
			m.f(" %s | %s | %s |", rps(cell.RPS), rps(cell.SuccessRPS), us(cell.CPUUsPerReq))
			if split {
				m.f(" %s | %s |", splitText(cell), splitChangeText(cell.SplitVsBaseline))
			}
			if ipis {
				m.f(" %s | %s |", perReq(cell.TLBShootdownsPerReq), perReq(cell.CallIPIsPerReq))
			}
			m.f(" %s | %s | %s | %s | %s |", ms(cell.P99Ms), units.Rate(cell.ErrorRate),
				deltaText(cell, sweep.MetricCPUPerReq), deltaText(cell, sweep.MetricRPS), cellText(verdictText(cell)))
			m.f("%s\n", memoryRow(cell, memHead != ""))
		}
		if split {
			m.f("\nUser / kernel µs/req: the server's CPU per request split by where its time went (utime and stime of /proc/PID/stat, 10 ms ticks, summed over the window; the total is the precise process clock's). \"vs baseline\" is the median paired difference in µs per request; it describes, the verdict is on CPU/req.\n")
		}
		if ipis {
			m.f("\nTLB shootdowns and call IPIs per request: interrupts the server CPUs took over the window (/proc/interrupts), the whole machine's, not the server's alone.\n")
		}
		if cliff {
			m.f("\nAt or past a capacity cliff, RPS counts failed requests: it is not the config's saturation throughput.\n")
		}
		m.f("\n")
	}
}

// hasSplit reports whether any cell has the user/kernel split.
func hasSplit(cells []sweep.Cell) bool {
	for _, c := range cells {
		if c.KernelUsPerReq != nil {
			return true
		}
	}
	return false
}

// splitText is "30.1 / 12.4 (29% kernel)", "—" without the split.
func splitText(c sweep.Cell) string {
	if c.UserUsPerReq == nil || c.KernelUsPerReq == nil || c.KernelShare == nil {
		return "—"
	}
	return fmt.Sprintf("%s / %s (%.0f%% kernel)", us(*c.UserUsPerReq), us(*c.KernelUsPerReq), 100**c.KernelShare)
}

// splitChangeText is "−20.3 / −41.0", "—" without pairs.
func splitChangeText(sc *sweep.SplitChange) string {
	if sc == nil {
		return "—"
	}
	return signedUs(sc.UserUs) + " / " + signedUs(sc.KernelUs)
}

// parallel says whether level c was served in parallel (the server could
// run on more than one CPU) or queued on one CPU, per config when they
// differ; nothing when the cells do not record their server's CPUs. It
// names the configs whose servers shared CPUs with the load generator.
func (m *mdWriter) parallel(c int) {
	var par, one, shared []string
	for _, sr := range m.ss {
		cell, ok := sr.cell(c)
		if ok && cell.SharesCPUs {
			shared = append(shared, code(sr.Config))
		}
		if !ok || cell.Parallel == nil {
			continue
		}
		if *cell.Parallel {
			par = append(par, code(sr.Config))
		} else {
			one = append(one, code(sr.Config))
		}
	}
	switch {
	case len(par) == 0 && len(one) == 0:
	case c == 1 && len(par) == 0:
		m.f("One connection: requests one at a time.\n\n")
	case len(one) == 0:
		m.f("**Parallel**: the server's threads could run on more than one CPU.\n\n")
	case len(par) == 0:
		m.f("**Queued on one CPU**: every server ran on one CPU, so the %d connections waited in turn; nothing ran in parallel.\n\n", c)
	default:
		m.f("**Parallel** for %s; **queued on one CPU** for %s.\n\n", strings.Join(par, ", "), strings.Join(one, ", "))
	}
	if len(shared) > 0 {
		m.f("**Sharing CPUs with the load generator** (run.share_cpus): %s. The generator competed with those servers for CPU time, so their RPS and latency carry its load; CPU per request is the server's own.\n\n", strings.Join(shared, ", "))
	}
}

// hasIPIs reports whether any cell has interrupt figures (runs recorded
// before they existed, or on a kernel without them, have none).
func hasIPIs(cells []sweep.Cell) bool {
	for _, c := range cells {
		if c.TLBShootdownsPerReq != nil {
			return true
		}
	}
	return false
}

// perReq is a per-request interrupt count, "—" when not measured.
func perReq(v *float64) string {
	if v == nil {
		return "—"
	}
	return strconv.FormatFloat(*v, 'f', 3, 64)
}

// deltaText is a table cell for a paired change: "-12.3% [-14.1%, -10.2%]".
func deltaText(c sweep.Cell, metric sweep.Metric) string {
	if c.Baseline {
		return "—"
	}
	d, ok := c.VsBaseline[metric]
	if !ok {
		return "—"
	}
	if d.Verdict.RaceOnly() {
		return units.Change(d.Median) + " [race data: no interval]"
	}
	if d.CILow == nil || d.CIHigh == nil {
		return units.Change(d.Median) + " [no interval]"
	}
	return units.Change(d.Median) + " " + interval(*d.CILow, *d.CIHigh)
}

// decisionWords says how the run's verdicts were decided: the family
// the plan records (schema 4) or, in older summaries, the comparisons
// its cells hold, at the plan's family-wise confidence.
func (m *mdWriter) decisionWords() string {
	n := m.s.Plan.Family
	if n == 0 {
		for _, c := range m.s.Cells {
			for m, d := range c.VsBaseline {
				if c.AA || d.Correction == "" || (m == sweep.MetricSuccessRPS && d.Correction == c.VsBaseline[sweep.MetricRPS].Correction) {
					continue // the control, or success RPS decided with RPS
				}
				n++
			}
		}
	}
	if n == 0 {
		return "none were made"
	}
	if r := m.s.Race; r != nil {
		return fmt.Sprintf("exact signed-rank intervals of the log ratios of the confirmation rounds only; Holm's correction over the confirmation's %d comparisons holds the chance of any false verdict to %s, its share of the error budget (see Race)", n, units.Share(r.Alpha.Confirm))
	}
	return fmt.Sprintf("exact signed-rank intervals of the log ratios; Holm's correction over the run's %d comparisons holds the chance of any false verdict to %s", n, familyRisk(m.s.Plan.Confidence))
}

// familyRisk is the risk a family-wise confidence such as 0.95 leaves:
// "5%" ("the stated level" when the summary does not record it).
func familyRisk(conf float64) string {
	if conf <= 0 || conf >= 1 {
		return "the stated level"
	}
	return fmt.Sprintf("%g%%", math.Round((1-conf)*1e4)/100)
}

// verdictText sums up a cell: its role, or the detected effects on CPU
// per request and RPS, plus cliff and generator caveats. At or past a
// capacity cliff failed requests are fast and cheap, so the cell's
// effects are not reported as improvements.
func verdictText(c sweep.Cell) string {
	var parts []string
	switch {
	case c.Baseline:
		parts = append(parts, "baseline")
	case c.AA:
		parts = append(parts, "A/A control")
	case c.VsBaseline[sweep.MetricCPUPerReq].Verdict == sweep.VerdictEliminated:
		parts = append(parts, "eliminated by the race (see Race)")
	case c.VsBaseline[sweep.MetricCPUPerReq].Verdict == sweep.VerdictUnconfirmed:
		parts = append(parts, "unconfirmed: survived the race, not a finalist (see Race)")
	case c.Cliff != nil:
	default:
		for _, m := range []sweep.Metric{sweep.MetricCPUPerReq, sweep.MetricRPS} {
			if d, ok := c.VsBaseline[m]; ok && detected(d) {
				parts = append(parts, m.Label()+" "+string(d.Verdict))
			}
		}
		cpu, ok := c.VsBaseline[sweep.MetricCPUPerReq]
		switch {
		case len(parts) > 0:
		case ok && cpu.Verdict == sweep.VerdictUndecided:
			parts = append(parts, undecidedWords(cpu))
		case ok && cpu.Resolution != nil:
			parts = append(parts, fmt.Sprintf("%s (CPU/req within ±%.1f%%)", string(sweep.VerdictNoChange), 100**cpu.Resolution))
		case ok:
			parts = append(parts, string(cpu.Verdict))
		default:
			parts = append(parts, "no comparison")
		}
	}
	if c.Cliff != nil {
		at := "at its capacity cliff"
		if c.Cliff.Past {
			at = fmt.Sprintf("past its capacity cliff (c=%d)", c.Cliff.At)
		}
		parts = append(parts, at+": errors distort CPU/req and RPS")
	}
	if c.GeneratorBound > 0 {
		parts = append(parts, fmt.Sprintf("generator-bound in %d of %d windows", c.GeneratorBound, c.Rounds))
	}
	return strings.Join(parts, "; ")
}
