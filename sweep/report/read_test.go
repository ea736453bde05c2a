package report

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadWindows(t *testing.T) {
	good := `{"config":"a","concurrency":1,"round":0,"requests":10}`
	tests := []struct {
		name    string
		content string
		want    int    // windows read
		wantErr string // substring of the error, "" for none
	}{
		{"empty", "", 0, ""},
		{"two lines", good + "\n" + good + "\n", 2, ""},
		{"blank lines", "\n" + good + "\n\n  \n" + good + "\n", 2, ""},
		{"last line without newline", good + "\n" + good, 2, ""},
		{"torn last line", good + "\n" + `{"config":"a","concu`, 1, ""},
		{"corrupt middle line", good + "\n{not json}\n" + good + "\n", 0, "results.jsonl:2: corrupt window record"},
		{"corrupt complete last line", good + "\n" + `{"config":"a",` + "\n", 0, "results.jsonl:2: corrupt window record"},
		{"wrong type", `{"config":"a","requests":"many"}` + "\n", 0, "results.jsonl:1: corrupt window record"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), ResultsJSONL)
			if err := os.WriteFile(path, []byte(tt.content), 0o644); err != nil {
				t.Fatal(err)
			}
			ws, err := ReadWindows(path)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want it to contain %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(ws) != tt.want {
				t.Fatalf("read %d windows, want %d", len(ws), tt.want)
			}
			for _, w := range ws {
				if w.Config != "a" || w.Requests != 10 {
					t.Errorf("window decoded as %+v", w)
				}
			}
		})
	}
}

func TestReadWindowsTornFixture(t *testing.T) {
	ws, err := ReadWindows(filepath.Join("testdata", "cliff", ResultsJSONL))
	if err != nil {
		t.Fatal(err)
	}
	s, err := ReadSummary(filepath.Join("testdata", "cliff", SummaryJSON))
	if err != nil {
		t.Fatal(err)
	}
	if len(ws) != s.Plan.Measured || s.Complete {
		t.Errorf("read %d windows, summary says %d measured (complete=%v)", len(ws), s.Plan.Measured, s.Complete)
	}
}

func TestReadMissing(t *testing.T) {
	dir := t.TempDir()
	if _, err := ReadWindows(filepath.Join(dir, ResultsJSONL)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadWindows: err = %v, want not exist", err)
	}
	if _, err := ReadSummary(filepath.Join(dir, SummaryJSON)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadSummary: err = %v, want not exist", err)
	}
}

func TestReadSummaryCorrupt(t *testing.T) {
	tests := []struct{ content, want string }{
		{"{\n  \"name\": \"x\",\n  \"cells\": [\n    {\"config\": 3}\n  ]\n}\n", "summary.json:4"},
		{"{\n  \"name\": \"x\",\n  oops\n}\n", "summary.json:3"},
	}
	for _, tt := range tests {
		path := filepath.Join(t.TempDir(), SummaryJSON)
		if err := os.WriteFile(path, []byte(tt.content), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := ReadSummary(path)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("err = %v, want it to name %s", err, tt.want)
		}
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
		{"no summary", func(dir string) error { return os.Remove(filepath.Join(dir, SummaryJSON)) }, "reading summary"},
		{"no results", func(dir string) error { return os.Remove(filepath.Join(dir, ResultsJSONL)) }, "reading results"},
		{"corrupt results", func(dir string) error {
			return os.WriteFile(filepath.Join(dir, ResultsJSONL), []byte("{}\n[\n{}\n"), 0o644)
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
