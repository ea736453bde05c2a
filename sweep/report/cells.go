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
// spreadsheet or a plot of one's own. The columns are cellColumns'.
// Fractions are fractions (0.05 = 5%); absent figures are empty.
func CellsCSV(w io.Writer, s sweep.Summary) error {
	cells := append(append([]sweep.Cell{}, s.Cells...), s.Reference...)
	cols := cellColumns(s, cellAxes(cells))
	row := make([]string, len(cols))
	for i, col := range cols {
		row[i] = col.name
	}
	cw := csv.NewWriter(w)
	if err := cw.Write(row); err != nil {
		return fmt.Errorf("writing cells.csv: %w", err)
	}
	for _, c := range cells {
		for i, col := range cols {
			row[i] = col.value(c)
		}
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

// cellColumn is one column of cells.csv: its header and its value in a
// cell's row.
type cellColumn struct {
	name  string
	value func(sweep.Cell) string
}

// cellColumns are cells.csv's columns, in order, for summary s whose
// cells have the axes given: the config, one "point.<axis>" column per
// axis, the level and role, the medians, the user/kernel split, and for
// each metric its paired change against the baseline (estimate,
// interval, verdict, resolution, pairs; empty for the baseline and where
// there is none), then the warnings' codes joined by ";", then the
// memory columns (memoryCellColumns). New columns go at the end, so that
// the older ones keep their places.
func cellColumns(s sweep.Summary, axes []string) []cellColumn {
	cols := []cellColumn{{"config", func(c sweep.Cell) string { return c.Config }}}
	for _, a := range axes {
		cols = append(cols, cellColumn{"point." + a, func(c sweep.Cell) string { return c.Point[a] }})
	}
	cols = append(cols, []cellColumn{
		{"concurrency", func(c sweep.Cell) string { return strconv.Itoa(c.Concurrency) }},
		{"role", func(c sweep.Cell) string { return cellRole(c, s) }},
		{"rounds", func(c sweep.Cell) string { return strconv.Itoa(c.Rounds) }},
		{"rps", func(c sweep.Cell) string { return g(c.RPS) }},
		{"success_rps", func(c sweep.Cell) string { return g(c.SuccessRPS) }},
		{"cpu_us_per_req", func(c sweep.Cell) string { return g(c.CPUUsPerReq) }},
		{"cpu_us_per_req_q1", func(c sweep.Cell) string { return g(c.CPUUsQ1) }},
		{"cpu_us_per_req_q3", func(c sweep.Cell) string { return g(c.CPUUsQ3) }},
		{"p50_ms", func(c sweep.Cell) string { return g(c.P50Ms) }},
		{"p95_ms", func(c sweep.Cell) string { return g(c.P95Ms) }},
		{"p99_ms", func(c sweep.Cell) string { return g(c.P99Ms) }},
		{"error_rate", func(c sweep.Cell) string { return g(c.ErrorRate) }},
		{"errors_5xx", func(c sweep.Cell) string { return strconv.FormatInt(c.Errors5xx, 10) }},
		{"generator_bound_windows", func(c sweep.Cell) string { return strconv.Itoa(c.GeneratorBound) }},
		{"server_steal", func(c sweep.Cell) string { return g(c.ServerSteal) }},
		{"load_steal", func(c sweep.Cell) string { return g(c.LoadSteal) }},
		{"server_other", func(c sweep.Cell) string { return gp(c.ServerOther) }},
		{"load_other", func(c sweep.Cell) string { return gp(c.LoadOther) }},
		{"server_cpu_count", func(c sweep.Cell) string { return countOrEmpty(c.ServerCPUCount) }},
		{"parallel", func(c sweep.Cell) string { return boolp(c.Parallel) }},
		{"shares_cpus", func(c sweep.Cell) string { return strconv.FormatBool(c.SharesCPUs) }},
		{"tlb_shootdowns_per_req", func(c sweep.Cell) string { return gp(c.TLBShootdownsPerReq) }},
		{"call_ipis_per_req", func(c sweep.Cell) string { return gp(c.CallIPIsPerReq) }},
		{"user_us_per_req", func(c sweep.Cell) string { return gp(c.UserUsPerReq) }},
		{"kernel_us_per_req", func(c sweep.Cell) string { return gp(c.KernelUsPerReq) }},
		{"kernel_share", func(c sweep.Cell) string { return gp(c.KernelShare) }},
		{"user_us_per_req.change", splitChange(func(sc sweep.SplitChange) float64 { return sc.UserUs })},
		{"kernel_us_per_req.change", splitChange(func(sc sweep.SplitChange) float64 { return sc.KernelUs })},
	}...)
	for _, m := range sweep.Metrics {
		delta := func(field string, f func(sweep.Delta) string) cellColumn {
			return vsBaseline(string(m)+"."+field, func(c sweep.Cell) map[sweep.Metric]sweep.Delta { return c.VsBaseline }, m, f)
		}
		cols = append(cols,
			delta("change", func(d sweep.Delta) string { return g(d.Estimate) }),
			delta("ci_low", func(d sweep.Delta) string { return gp(d.CILow) }),
			delta("ci_high", func(d sweep.Delta) string { return gp(d.CIHigh) }),
			delta("verdict", func(d sweep.Delta) string { return string(d.Verdict) }),
			delta("resolution", func(d sweep.Delta) string { return gp(d.Resolution) }),
			delta("pairs", func(d sweep.Delta) string { return strconv.Itoa(d.Pairs) }))
	}
	cols = append(cols, cellColumn{"warnings", func(c sweep.Cell) string {
		codes := make([]string, len(c.Warnings))
		for i, w := range c.Warnings {
			codes[i] = string(w.Code)
		}
		return strings.Join(codes, ";")
	}})
	return append(cols, memoryCellColumns()...)
}

// cellAxes is the sorted union of the cells' point axes.
func cellAxes(cells []sweep.Cell) []string {
	ws := make([]sweep.Window, len(cells))
	for i, c := range cells {
		ws[i].Point = c.Point
	}
	return windowAxes(ws)
}

// vsBaseline is column name: f of metric m's change against the
// baseline in the cell's map changes, empty where the cell has none.
func vsBaseline[M comparable, C any](name string, changes func(sweep.Cell) map[M]C, m M, f func(C) string) cellColumn {
	return cellColumn{name, func(c sweep.Cell) string {
		if ch, ok := changes(c)[m]; ok {
			return f(ch)
		}
		return ""
	}}
}

// splitChange is a column of the cell's SplitVsBaseline, empty without one.
func splitChange(f func(sweep.SplitChange) float64) func(sweep.Cell) string {
	return func(c sweep.Cell) string {
		if c.SplitVsBaseline == nil {
			return ""
		}
		return g(f(*c.SplitVsBaseline))
	}
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
