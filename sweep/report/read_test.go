package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sweep-dev/sweep/sweep/results"
	"github.com/sweep-dev/sweep/sweep/rundir"
)

func TestReadWindowsTornFixture(t *testing.T) {
	ws, err := results.Read(filepath.Join("testdata", "cliff", rundir.ResultsFile))
	if err != nil {
		t.Fatal(err)
	}
	s, err := rundir.ReadSummaryFile(filepath.Join("testdata", "cliff", rundir.SummaryFile))
	if err != nil {
		t.Fatal(err)
	}
	if len(ws) != s.Plan.Measured || s.Complete {
		t.Errorf("read %d windows, summary says %d measured (complete=%v)", len(ws), s.Plan.Measured, s.Complete)
	}
}

// TestRenderBadInput checks that Render refuses a run it cannot read and
// writes nothing in that case.
func TestRenderBadInput(t *testing.T) {
	tests := []struct {
		name    string
		prepare func(dir string) error
		wantErr string
	}{
		{"no summary", func(dir string) error { return os.Remove(filepath.Join(dir, rundir.SummaryFile)) }, "reading summary"},
		{"no results", func(dir string) error { return os.Remove(filepath.Join(dir, rundir.ResultsFile)) }, "reading results"},
		{"corrupt results", func(dir string) error {
			return os.WriteFile(filepath.Join(dir, rundir.ResultsFile), []byte("{}\n[\n{}\n"), 0o644)
		}, "results.jsonl:2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := copyRun(t, "five-by-four")
			if err := tt.prepare(dir); err != nil {
				t.Fatal(err)
			}
			before, _ := os.ReadDir(dir)
			err := Render(dir)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("err = %v, want it to contain %q", err, tt.wantErr)
			}
			after, _ := os.ReadDir(dir)
			if len(after) != len(before) {
				t.Errorf("Render wrote files despite the error: %d entries before, %d after", len(before), len(after))
			}
		})
	}
}
