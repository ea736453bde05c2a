package gate

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"text/tabwriter"
)

// WriteTable writes r as an aligned text table, one row per compared
// metric and cell, followed by the run notes and a one-line verdict.
func (r Result) WriteTable(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "config\tc\tmetric\told\tnew\tchange\tnoise\tstatus\tnote")
	for _, row := range r.Rows {
		status := "ok"
		if row.Regressed {
			status = "REGRESSED"
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n",
			row.Config, row.Concurrency, row.Metric, num(row.Metric, row.Old), num(row.Metric, row.New),
			signed(row.Change), "±"+pct(width(row.Band)), status, row.Note)
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("writing comparison table: %w", err)
	}
	for _, n := range r.Notes {
		if _, err := fmt.Fprintf(w, "note: %s\n", n); err != nil {
			return fmt.Errorf("writing comparison table: %w", err)
		}
	}
	n := 0
	for _, row := range r.Rows {
		if row.Regressed {
			n++
		}
	}
	verdict := "no regression beyond noise"
	if r.Regressed {
		verdict = fmt.Sprintf("REGRESSED: %d of %d comparisons worse beyond noise", n, len(r.Rows))
	}
	if _, err := fmt.Fprintln(w, verdict); err != nil {
		return fmt.Errorf("writing comparison table: %w", err)
	}
	return nil
}

// num formats a metric value.
func num(metric string, v float64) string {
	switch {
	case math.IsNaN(v):
		return "n/a"
	case metric == MetricErrorRate:
		return strconv.FormatFloat(100*v, 'f', 2, 64) + "%"
	case math.Abs(v) >= 100:
		return strconv.FormatFloat(v, 'f', 0, 64)
	default:
		return strconv.FormatFloat(v, 'f', 2, 64)
	}
}

// signed formats a change with its sign.
func signed(f float64) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "n/a"
	}
	return fmt.Sprintf("%+.1f%%", 100*f)
}
