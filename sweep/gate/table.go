package gate

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/sweep-dev/sweep/sweep/units"
)

// WriteTable writes r as an aligned text table, one row per compared
// metric and cell, followed by the notes and a one-line verdict.
func (r Result) WriteTable(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, r.header("\t"))
	for _, row := range r.Rows {
		fmt.Fprintln(tw, strings.Join(r.cells(row), "\t"))
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("writing comparison table: %w", err)
	}
	for _, n := range r.Notes {
		if _, err := fmt.Fprintf(w, "note: %s\n", n); err != nil {
			return fmt.Errorf("writing comparison table: %w", err)
		}
	}
	if _, err := fmt.Fprintln(w, r.Verdict()); err != nil {
		return fmt.Errorf("writing comparison table: %w", err)
	}
	return nil
}

// WriteMarkdown writes r as a Markdown table for a pull-request comment.
func (r Result) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	title := "sweep check (across two runs, unpaired)"
	if len(r.Outcomes) > 1 {
		title = fmt.Sprintf("sweep check (across runs, unpaired: against %d baseline runs)", len(r.Outcomes))
	}
	if r.Paired {
		title = fmt.Sprintf("sweep check: `%s` vs `%s` (one run, paired)", r.Candidate, r.Baseline)
	}
	fmt.Fprintf(&b, "### %s\n\n**%s**\n\n", title, r.Verdict())
	h := strings.Split(r.header("|"), "|")
	fmt.Fprintf(&b, "| %s |\n|%s\n", strings.Join(h, " | "), strings.Repeat("---|", len(h)))
	for _, row := range r.Rows {
		cs := r.cells(row)
		for i := range cs {
			cs[i] = strings.ReplaceAll(cs[i], "|", `\|`)
		}
		fmt.Fprintf(&b, "| %s |\n", strings.Join(cs, " | "))
	}
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "\n> %s\n", n)
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("writing markdown: %w", err)
	}
	return nil
}

// jsonRow is a Row for JSON: NaN and infinite numbers become null.
type jsonRow struct {
	Config      string   `json:"config"`
	Concurrency int      `json:"concurrency"`
	Metric      string   `json:"metric"`
	Old         *float64 `json:"old"`
	New         *float64 `json:"new"`
	Change      *float64 `json:"change"`
	Threshold   float64  `json:"threshold"`
	CILow       *float64 `json:"ci_low,omitempty"`
	CIHigh      *float64 `json:"ci_high,omitempty"`
	Confidence  float64  `json:"confidence,omitempty"`
	Regressed   bool     `json:"regressed"`
	Undecided   bool     `json:"undecided,omitempty"` // too few rounds for an interval: the gate cannot pass it
	Shown       bool     `json:"shown,omitempty"`     // shown, not judged (a cross-run absolute level beside its judged row against the reference)
	Note        string   `json:"note"`
}

// WriteJSON writes r as one JSON object (for CI).
func (r Result) WriteJSON(w io.Writer) error {
	num := func(f float64) *float64 {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil
		}
		return &f
	}
	out := struct {
		Paired    bool              `json:"paired"`
		Baseline  string            `json:"baseline,omitempty"`
		Candidate string            `json:"candidate,omitempty"`
		Regressed bool              `json:"regressed"`
		Undecided bool              `json:"undecided"`
		Verdict   string            `json:"verdict"`
		Rows      []jsonRow         `json:"rows"`
		Notes     []string          `json:"notes"`
		Against   string            `json:"against,omitempty"`
		Outcomes  []AcceptedOutcome `json:"outcomes,omitempty"`
	}{Paired: r.Paired, Baseline: r.Baseline, Candidate: r.Candidate, Regressed: r.Regressed, Undecided: r.Undecided, Verdict: r.Verdict(), Notes: r.Notes, Rows: []jsonRow{},
		Against: r.Against, Outcomes: r.Outcomes}
	for _, row := range r.Rows {
		j := jsonRow{Config: row.Config, Concurrency: row.Concurrency, Metric: row.Metric,
			Old: num(row.Old), New: num(row.New), Change: num(row.Change), Threshold: row.Threshold,
			Confidence: row.Confidence, Regressed: row.Regressed, Undecided: row.Undecided, Shown: row.Shown, Note: row.Note}
		if row.Confidence > 0 && !row.Undecided {
			j.CILow, j.CIHigh = num(row.CILow), num(row.CIHigh)
		}
		out.Rows = append(out.Rows, j)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return fmt.Errorf("writing json: %w", err)
	}
	return nil
}

// Verdict is the one-line outcome.
func (r Result) Verdict() string {
	n := regressedRows(r)
	switch {
	case r.Regressed && len(r.Outcomes) > 1:
		return fmt.Sprintf("REGRESSED against every one of %d baseline runs: %d of %d comparisons worse than %s beyond what an unchanged build moves between runs", len(r.Outcomes), n, len(r.Rows), r.Against)
	case r.Regressed && r.Paired:
		return fmt.Sprintf("REGRESSED: %d of %d comparisons worse than the baseline beyond their threshold", n, len(r.Rows))
	case r.Regressed:
		return fmt.Sprintf("REGRESSED: %d of %d comparisons worse beyond what an unchanged build moves between runs", n, len(r.Rows))
	case r.Undecided:
		return fmt.Sprintf("UNDECIDED: %d of %d comparisons had too few rounds for an interval at the gate's level, so the gate cannot pass them; run more rounds (load.rounds, or \"auto\")", undecidedRows(r), len(r.Rows))
	case r.Paired:
		return "no regression beyond the thresholds"
	}
	if len(r.Outcomes) > 1 {
		return fmt.Sprintf("no regression beyond the drift between runs against %s (of %d baseline runs)", r.Against, len(r.Outcomes))
	}
	return "no regression beyond the drift between runs"
}

// header names the columns, joined by sep.
func (r Result) header(sep string) string {
	if r.Paired {
		return strings.Join([]string{"c", "metric", "baseline", "candidate", "change", "interval", "threshold", "status", "note"}, sep)
	}
	return strings.Join([]string{"config", "c", "metric", "old", "new", "change", "allowed", "status", "note"}, sep)
}

// cells formats a row's columns.
func (r Result) cells(row Row) []string {
	status := "ok"
	switch {
	case row.Regressed:
		status = "REGRESSED"
	case row.Undecided:
		status = "UNDECIDED"
	}
	iv := "—"
	if row.Confidence > 0 && !row.Undecided {
		iv = fmt.Sprintf("[%s, %s] at %s", units.Change(row.CILow), units.Change(row.CIHigh), units.Share(row.Confidence))
	}
	if r.Paired {
		return []string{strconv.Itoa(row.Concurrency), row.Metric, num(row.Metric, row.Old), num(row.Metric, row.New),
			units.Change(row.Change), iv, units.Share(row.Threshold), status, row.Note}
	}
	old, nw := num(row.Metric, row.Old), num(row.Metric, row.New)
	if strings.Contains(row.Metric, " vs ") {
		old, nw = units.Change(row.Old), units.Change(row.New)
	}
	allowed := units.Share(row.Threshold)
	if row.Shown {
		allowed, status = "—", "shown"
	}
	return []string{row.Config, strconv.Itoa(row.Concurrency), row.Metric, old, nw, units.Change(row.Change), allowed, status, row.Note}
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
