package rundir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/sweep-dev/sweep/sweep"
)

// TestWriteFile: the file replaces any previous one, has FileMode, and no
// temporary file is left behind.
func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, SummaryMD)
	for _, content := range []string{"first\n", "second\n"} {
		if err := WriteFile(p, []byte(content)); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(p)
		if err != nil || string(b) != content {
			t.Fatalf("read back %q, %v; want %q", b, err, content)
		}
	}
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != FileMode {
		t.Errorf("mode %v, want %v", fi.Mode().Perm(), FileMode)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Errorf("%d entries in the directory, want only %s: %v", len(ents), SummaryMD, ents)
	}
	if err := WriteFile(filepath.Join(dir, "missing", "x"), nil); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("writing into a missing directory: err = %v, want it to name the path", err)
	}
}

// TestWriteFileReplaces: moved here with the writer from sweep/report.
func TestWriteFileReplaces(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	for _, content := range []string{"first version, longer", "second"} {
		if err := WriteFile(path, []byte(content)); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != content {
			t.Errorf("file holds %q, want %q", b, content)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("directory holds %d entries, want only out.txt", len(entries))
	}
	if err := WriteFile(filepath.Join(dir, "missing", "x"), []byte("x")); err == nil {
		t.Error("writing into a missing directory succeeded")
	}
}

// TestSummaryRoundTrip: WriteSummary then ReadSummary gives the summary
// back; a missing file is fs.ErrNotExist; a corrupt one names its line.
func TestSummaryRoundTrip(t *testing.T) {
	dir := t.TempDir()
	if _, err := ReadSummary(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadSummary of an empty dir: err = %v, want not exist", err)
	}
	want := sweep.Summary{SchemaVersion: sweep.SchemaVersion, Name: "x", Baseline: "(default)", Complete: true}
	if err := WriteSummary(dir, want); err != nil {
		t.Fatal(err)
	}
	got, err := ReadSummary(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("read back %+v, want %+v", got, want)
	}
	p := filepath.Join(dir, SummaryFile)
	if err := os.WriteFile(p, []byte("{\n  \"name\": \"x\",\n  oops\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadSummaryFile(p); err == nil || !strings.Contains(err.Error(), SummaryFile+":3") {
		t.Errorf("corrupt summary: err = %v, want it to name %s:3", err, SummaryFile)
	}
}

// TestReadSummaryCorrupt: a summary.json that does not decode is an
// error naming the file and the line.
func TestReadSummaryCorrupt(t *testing.T) {
	tests := []struct{ content, want string }{
		{"{\n  \"name\": \"x\",\n  \"cells\": [\n    {\"config\": 3}\n  ]\n}\n", "summary.json:4"},
		{"{\n  \"name\": \"x\",\n  oops\n}\n", "summary.json:3"},
	}
	for _, tt := range tests {
		path := filepath.Join(t.TempDir(), SummaryFile)
		if err := os.WriteFile(path, []byte(tt.content), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := ReadSummaryFile(path)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("err = %v, want it to name %s", err, tt.want)
		}
	}
}

// TestSummarySchema: a summary.json without a schema_version or with a
// newer one than this build knows is a *SchemaError naming the file; an
// older one is read.
func TestSummarySchema(t *testing.T) {
	for _, tt := range []struct {
		schema int
		want   string // "" = read
	}{
		{0, "no schema_version: not a summary.json written by sweep"},
		{1, ""},
		{sweep.SchemaVersion, ""},
		{sweep.SchemaVersion + 1, fmt.Sprintf("schema_version %d is newer than this sweep reads (up to %d): use a newer sweep", sweep.SchemaVersion+1, sweep.SchemaVersion)},
	} {
		p := filepath.Join(t.TempDir(), SummaryFile)
		if err := os.WriteFile(p, fmt.Appendf(nil, `{"schema_version": %d, "name": "x"}`, tt.schema), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := ReadSummaryFile(p)
		var se *SchemaError
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("schema %d: %v", tt.schema, err)
		case tt.want != "" && (!errors.As(err, &se) || err.Error() != p+": "+tt.want):
			t.Errorf("schema %d: err = %v, want %q", tt.schema, err, p+": "+tt.want)
		}
	}
}

// TestOrigin: WriteOrigin then ReadOrigin gives it back; a run without
// origin.json has the zero Origin.
func TestOrigin(t *testing.T) {
	dir := t.TempDir()
	if o, err := ReadOrigin(dir); err != nil || o != (Origin{}) {
		t.Errorf("ReadOrigin without the file = %+v, %v; want the zero Origin", o, err)
	}
	want := Origin{ConfigPath: "/etc/grid.toml"}
	if err := WriteOrigin(dir, want); err != nil {
		t.Fatal(err)
	}
	if o, err := ReadOrigin(dir); err != nil || o != want {
		t.Errorf("ReadOrigin = %+v, %v; want %+v", o, err, want)
	}
}

// TestOlderUndecided: a schema 3 summary said "no detectable change"
// where a comparison had no interval; read, it is undecided with the
// pairs its recorded level needed, and comparisons with an interval and
// the A/A control keep their verdicts.
func TestOlderUndecided(t *testing.T) {
	// A real 5-round run (sweep/report/testdata/split): 6 comparisons,
	// every candidate's interval at 1 − 0.05/6 needs 8 pairs.
	s, err := ReadSummary("../report/testdata/split")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range s.Cells {
		for m, d := range c.VsBaseline {
			switch {
			case c.AA:
				if d.Verdict != sweep.VerdictControl {
					t.Errorf("%s c=%d %s: verdict %q, want control", c.Config, c.Concurrency, m, d.Verdict)
				}
			case d.CILow == nil:
				n++
				if d.Verdict != sweep.VerdictUndecided || d.Needed != 8 || d.Pairs != 5 {
					t.Errorf("%s c=%d %s: verdict %q, %d of %d needed; want undecided, 5 of 8", c.Config, c.Concurrency, m, d.Verdict, d.Pairs, d.Needed)
				}
			case d.Verdict == sweep.VerdictUndecided:
				t.Errorf("%s c=%d %s: undecided with an interval", c.Config, c.Concurrency, m)
			}
		}
	}
	if n == 0 {
		t.Fatal("no comparison without an interval in the fixture")
	}
}

func TestDirPaths(t *testing.T) {
	d := Dir(filepath.Join("reports", "x"))
	for _, tt := range []struct{ got, want string }{
		{d.Config(), "reports/x/config.toml"},
		{d.Origin(), "reports/x/origin.json"},
		{d.Results(), "reports/x/results.jsonl"},
		{d.Summary(), "reports/x/summary.json"},
		{d.SummaryMD(), "reports/x/summary.md"},
		{d.Profiles(), "reports/x/profiles.json"},
		{d.ProfilesDir(), "reports/x/profiles"},
	} {
		if tt.got != filepath.FromSlash(tt.want) {
			t.Errorf("got %s, want %s", tt.got, tt.want)
		}
	}
}
