package report

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/sweep-dev/sweep/sweep"
)

// CellsCSV writes cells.csv: a header and one row per cell of
// summary.json (the grid's cells, then the reference's), for a
// spreadsheet or a plot of one's own. Columns: the config, one
// "point.<axis>" column per axis, the level and role, the medians, and
// for each metric its paired change against the baseline (estimate,
// interval, verdict, resolution; empty for the baseline and where there
// is none), then the warnings' codes joined by ";". Fractions are
// fractions (0.05 = 5%); absent figures are empty.
func CellsCSV(w io.Writer, s sweep.Summary) error {
	cells := append(append([]sweep.Cell{}, s.Cells...), s.Reference...)
	var axes []string
	{
		ws := make([]sweep.Window, len(cells))
		for i, c := range cells {
			ws[i].Point = c.Point
		}
		axes = windowAxes(ws)
	}
	header := []string{"config"}
	for _, a := range axes {
		header = append(header, "point."+a)
	}
	header = append(header, "concurrency", "role", "rounds", "rps", "success_rps", "cpu_us_per_req", "cpu_us_per_req_q1", "cpu_us_per_req_q3",
		"p50_ms", "p95_ms", "p99_ms", "error_rate", "errors_5xx", "generator_bound_windows", "server_steal", "load_steal",
		"server_other", "load_other", "server_cpu_count", "parallel", "shares_cpus", "tlb_shootdowns_per_req", "call_ipis_per_req",
		"user_us_per_req", "kernel_us_per_req", "kernel_share", "user_us_per_req.change", "kernel_us_per_req.change")
	for _, m := range sweep.Metrics {
		for _, f := range []string{"change", "ci_low", "ci_high", "verdict", "resolution", "pairs"} {
			header = append(header, string(m)+"."+f)
		}
	}
	header = append(header, "warnings")
	header = append(header, memoryHeader()...)
	cw := csv.NewWriter(w)
	if err := cw.Write(header); err != nil {
		return fmt.Errorf("writing cells.csv: %w", err)
	}
	for _, c := range cells {
		row := []string{c.Config}
		for _, a := range axes {
			row = append(row, c.Point[a])
		}
		row = append(row, strconv.Itoa(c.Concurrency), cellRole(c, s), strconv.Itoa(c.Rounds),
			g(c.RPS), g(c.SuccessRPS), g(c.CPUUsPerReq), g(c.CPUUsQ1), g(c.CPUUsQ3),
			g(c.P50Ms), g(c.P95Ms), g(c.P99Ms), g(c.ErrorRate), strconv.FormatInt(c.Errors5xx, 10), strconv.Itoa(c.GeneratorBound),
			g(c.ServerSteal), g(c.LoadSteal), gp(c.ServerOther), gp(c.LoadOther), countOrEmpty(c.ServerCPUCount), boolp(c.Parallel),
			strconv.FormatBool(c.SharesCPUs), gp(c.TLBShootdownsPerReq), gp(c.CallIPIsPerReq),
			gp(c.UserUsPerReq), gp(c.KernelUsPerReq), gp(c.KernelShare))
		if sc := c.SplitVsBaseline; sc != nil {
			row = append(row, g(sc.UserUs), g(sc.KernelUs))
		} else {
			row = append(row, "", "")
		}
		for _, m := range sweep.Metrics {
			d, ok := c.VsBaseline[m]
			if !ok {
				row = append(row, "", "", "", "", "", "")
				continue
			}
			row = append(row, g(d.Estimate), gp(d.CILow), gp(d.CIHigh), d.Verdict, gp(d.Resolution), strconv.Itoa(d.Pairs))
		}
		var codes []string
		for _, w := range c.Warnings {
			codes = append(codes, string(w.Code))
		}
		row = append(row, strings.Join(codes, ";"))
		row = append(row, memoryFields(c)...)
		if err := cw.Write(row); err != nil {
			return fmt.Errorf("writing cells.csv: %w", err)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("writing cells.csv: %w", err)
	}
	return nil
}

// cellRole is "baseline", "aa", "reference" or "" (a config under test).
func cellRole(c sweep.Cell, s sweep.Summary) string {
	switch {
	case c.Baseline:
		return "baseline"
	case c.AA:
		return "aa"
	}
	for _, r := range s.Reference {
		if r.Config == c.Config {
			return "reference"
		}
	}
	return ""
}

func g(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

func gp(f *float64) string {
	if f == nil {
		return ""
	}
	return g(*f)
}

func boolp(b *bool) string {
	if b == nil {
		return ""
	}
	return strconv.FormatBool(*b)
}

func countOrEmpty(n int) string {
	if n == 0 {
		return ""
	}
	return strconv.Itoa(n)
}
