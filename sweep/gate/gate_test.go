package gate

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sweep-dev/sweep/sweep"
)

func load(t *testing.T, name string) sweep.Summary {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s sweep.Summary
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return s
}

// regressed lists the regressed rows as "config c=N metric".
func regressed(r Result) []string {
	var out []string
	for _, row := range r.Rows {
		if row.Regressed {
			out = append(out, row.Config+" c="+itoa(row.Concurrency)+" "+row.Metric)
		}
	}
	return out
}

func itoa(i int) string { return strconv.Itoa(i) }

func TestCompare(t *testing.T) {
	tests := []struct {
		old, new string
		th       Thresholds
		want     []string // regressed rows
	}{
		{"base", "base", nil, nil},
		{"base", "aa", nil, nil},
		{"base", "regressed", nil, []string{"linear_memory_keep_resident=64KiB c=16 cpu_us_per_req"}},
		// Against the reversed pair the regression is an improvement.
		{"regressed", "base", nil, nil},
		{"base", "new-errors", nil, []string{"linear_memory_keep_resident=1MiB c=64 error_rate"}},
		// The errors were there before: not new.
		{"new-errors", "new-errors", nil, nil},
		// A threshold above the change lets it pass.
		{"base", "regressed", Thresholds{sweep.MetricCPUPerReq: 0.25}, nil},
		// A 0.5% threshold is below the ±1% jitter, but the drift allowed
		// between runs (7% CPU, 30% RPS, 200% p99) covers it.
		{"base", "aa", Thresholds{sweep.MetricCPUPerReq: 0.005, sweep.MetricRPS: 0.005, sweep.MetricP99: 0.005}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.old+"→"+tt.new, func(t *testing.T) {
			r, err := Compare(load(t, tt.old), load(t, tt.new), tt.th, nil)
			if err != nil {
				t.Fatal(err)
			}
			got := regressed(r)
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("regressed rows:\n got %q\nwant %q", got, tt.want)
			}
			if r.Regressed != (len(tt.want) > 0) {
				t.Errorf("Regressed = %v with regressed rows %q", r.Regressed, got)
			}
			// Every cell of the 3-config × 3-level grid (A/A excluded) is compared.
			perCell := len(tt.th)
			if perCell == 0 {
				perCell = len(DefaultThresholds())
			}
			if n := countAbsolute(r); n != 9*perCell {
				t.Errorf("%d metric rows, want %d", n, 9*perCell)
			}
		})
	}
}

func countAbsolute(r Result) int {
	n := 0
	for _, row := range r.Rows {
		if row.Metric != MetricErrorRate && !strings.HasSuffix(row.Metric, " vs baseline") {
			n++
		}
	}
	return n
}

func TestCompareRegressionRow(t *testing.T) {
	r, err := Compare(load(t, "base"), load(t, "regressed"), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range r.Rows {
		if !row.Regressed {
			continue
		}
		if d := row.Change - 0.2; d > 1e-9 || d < -1e-9 {
			t.Errorf("change = %v, want 0.2", row.Change)
		}
		if want := "worse by 20% > 7% allowed between runs"; row.Note != want {
			t.Errorf("note = %q, want %q", row.Note, want)
		}
	}
	if len(r.Notes) == 0 || !strings.HasPrefix(r.Notes[0], "unpaired: ") {
		t.Errorf("notes %q, want the unpaired note first", r.Notes)
	}
}

// TestCompareDrift checks that the drift allowance, not the runs' A/A
// bands, sets the bar across runs.
func TestCompareDrift(t *testing.T) {
	old, new := load(t, "base"), load(t, "regressed")
	r, err := Compare(old, new, Thresholds{sweep.MetricCPUPerReq: 0.05}, Thresholds{sweep.MetricCPUPerReq: 0.25})
	if err != nil {
		t.Fatal(err)
	}
	if r.Regressed {
		t.Errorf("a +20%% change inside a 25%% drift allowance regressed: %q", regressed(r))
	}
	r, err = Compare(load(t, "base"), load(t, "aa"), Thresholds{sweep.MetricCPUPerReq: 0.005}, Thresholds{sweep.MetricCPUPerReq: 0.001})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Regressed {
		t.Error("±1% changes with a 0.5% threshold and 0.1% drift did not regress")
	}
}

func TestCompareEnvironment(t *testing.T) {
	old, new := load(t, "base"), load(t, "base")
	old.Environment.Kernel, new.Environment.Kernel = "Linux 6.8.0", "Linux 6.9.0"
	old.Environment.SweepVersion, new.Environment.SweepVersion = "(devel) 34a1c78", "(devel) 34a1c78+dirty"
	r, err := Compare(old, new, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`kernel "Linux 6.8.0" (old) vs "Linux 6.9.0" (new)`, `sweep "(devel) 34a1c78" (old) vs "(devel) 34a1c78+dirty" (new)`} {
		if !slices.ContainsFunc(r.Notes, func(n string) bool { return strings.Contains(n, want) }) {
			t.Errorf("notes %q, want %s", r.Notes, want)
		}
	}
}

func TestCompareMismatch(t *testing.T) {
	_, err := Compare(load(t, "base"), load(t, "mismatch"), nil, nil)
	if !errors.Is(err, ErrMismatch) {
		t.Fatalf("err = %v, want ErrMismatch", err)
	}
	for _, want := range []string{
		`configs only in the old run: "linear_memory_keep_resident=1MiB"`,
		`configs only in the new run: "linear_memory_keep_resident=256KiB"`,
		"concurrency levels [1 16 64] (old) vs [1 16] (new)",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if _, err := Compare(sweep.Summary{}, sweep.Summary{}, nil, nil); !errors.Is(err, ErrMismatch) {
		t.Errorf("two empty runs: err = %v, want ErrMismatch", err)
	}
}

func TestCompareBadThresholds(t *testing.T) {
	base := load(t, "base")
	for _, th := range []Thresholds{{"latency": 0.1}, {sweep.MetricRPS: -0.1}, {sweep.MetricRPS: 10}} {
		_, err := Compare(base, base, th, nil)
		if !errors.Is(err, ErrThreshold) {
			t.Errorf("thresholds %v: err = %v, want a threshold error", th, err)
		}
	}
	_, err := Compare(base, base, Thresholds{"latency": 0.1}, nil)
	var unknown *sweep.UnknownMetricError
	if !errors.As(err, &unknown) || unknown.Name != "latency" {
		t.Errorf("unknown metric: err = %v, want a *sweep.UnknownMetricError naming it", err)
	}
	if want := `bad threshold: unknown metric "latency" (allowed: cpu_us_per_req, p99_ms, rps, success_rps)`; err == nil || err.Error() != want {
		t.Errorf("unknown metric: err = %v, want %q", err, want)
	}
}

func TestWriteTable(t *testing.T) {
	r, err := Compare(load(t, "base"), load(t, "regressed"), Thresholds{sweep.MetricCPUPerReq: 0.05}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := r.WriteTable(&buf); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "regressed.golden")
	if *update {
		if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), want) {
		t.Errorf("table differs from %s:\n%s", golden, buf.String())
	}
}

// TestCompareBusyMachine: a run whose cells had other work on their CPUs
// (busy_machine) is named in the notes; a quiet pair gets no such note.
func TestCompareBusyMachine(t *testing.T) {
	old, new := load(t, "base"), load(t, "base")
	has := func(r Result) bool {
		return slices.ContainsFunc(r.Notes, func(n string) bool { return strings.Contains(n, "busy_machine") })
	}
	r, err := Compare(old, new, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if has(r) {
		t.Errorf("quiet runs: notes %q speak of busy_machine", r.Notes)
	}
	new.Cells = slices.Clone(new.Cells)
	new.Cells[0].Warnings = append(slices.Clone(new.Cells[0].Warnings), sweep.Warning{Code: "busy_machine", Message: "other work took 40.0%"})
	if r, err = Compare(old, new, nil, nil); err != nil {
		t.Fatal(err)
	}
	want := "the new run had other work on its pinned CPUs in 1 of " + itoa(len(new.Cells)+len(new.Reference)) + " cells (busy_machine)"
	if !slices.ContainsFunc(r.Notes, func(n string) bool { return strings.Contains(n, want) }) {
		t.Errorf("notes %q, want %q", r.Notes, want)
	}
}
