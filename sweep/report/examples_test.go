package report_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/report"
	"github.com/sweep-dev/sweep/sweep/results"
	"github.com/sweep-dev/sweep/sweep/rundir"
	"github.com/sweep-dev/sweep/sweep/summarize"
)

// reportsDir holds the run directories checked into the repository.
const reportsDir = "../../reports"

// regenerate says how to bring reports/example up to date.
const regenerate = "regenerate it with `make example` (a real run of configs/grid.toml, about 6 minutes), then commit reports/example"

// rerender says how to bring reports/example's rendered files up to date
// when its summary.json still holds.
const rerender = "when only the rendering changed, `make build && ./bin/sweep report reports/example` renders it again from its data; otherwise " + regenerate

// revision matches a sweep_version that names the build's commit
// (version.Sweep: "(devel) 34a1c78", "v0.0.0-… 34a1c78+dirty").
var revision = regexp.MustCompile(`(^| )[0-9a-f]{7}(\+dirty)?$`)

// rendered are the files Render makes from a run's data, besides the
// PNG charts (every *.png of the run, compared too: they render byte for
// byte the same).
var rendered = []string{rundir.SummaryMD, rundir.ResultsCSV, rundir.CellsCSV, rundir.ResultsBench}

// TestExampleCurrent keeps reports/example, the run README.md shows, in
// step with the code: its summary.json has the current schema and names
// the build that wrote it, and summarising its results.jsonl again and
// rendering it with this build gives the files checked in, byte for byte.
func TestExampleCurrent(t *testing.T) {
	dir := filepath.Join(reportsDir, "example")
	b, err := os.ReadFile(filepath.Join(dir, rundir.SummaryFile))
	if err != nil {
		t.Fatal(err)
	}
	var head struct {
		SchemaVersion int `json:"schema_version"`
		Environment   struct {
			SweepVersion string `json:"sweep_version"`
		} `json:"environment"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		t.Fatal(err)
	}
	if head.SchemaVersion != sweep.SchemaVersion {
		t.Fatalf("reports/example/summary.json has schema_version %d, the code writes %d: %s", head.SchemaVersion, sweep.SchemaVersion, regenerate)
	}
	if v := head.Environment.SweepVersion; !revision.MatchString(v) {
		t.Errorf("reports/example/summary.json's environment.sweep_version is %q, which names no commit: build with make build (it records the commit), then %s", v, regenerate)
	}

	out := t.TempDir()
	copyDir(t, dir, out)
	s, err := rundir.ReadSummary(out)
	if err != nil {
		t.Fatal(err)
	}
	ws, err := results.Read(rundir.Dir(out).Results())
	if err != nil {
		t.Fatal(err)
	}
	if s.Race != nil || len(s.Plan.Merged) > 0 || s.Plan.Shard != "" {
		t.Fatal("reports/example is a race, a shard or a merge; this test re-summarises a plain run only")
	}
	h := summarize.Head(s)
	if err := rundir.WriteSummary(out, summarize.Summary(h, ws)); err != nil {
		t.Fatal(err)
	}
	if err := report.Render(out); err != nil {
		t.Fatal(err)
	}
	if !sameFile(t, dir, out, rundir.SummaryFile) {
		t.Fatalf("reports/example/summary.json differs from the summary this build makes of its results.jsonl: %s", regenerate)
	}
	pngs, err := filepath.Glob(filepath.Join(dir, "*.png"))
	if err != nil {
		t.Fatal(err)
	}
	if len(pngs) == 0 {
		t.Error("reports/example has no charts: " + regenerate)
	}
	names := slices.Clone(rendered)
	for _, p := range pngs {
		names = append(names, filepath.Base(p))
	}
	for _, name := range names {
		if !sameFile(t, dir, out, name) {
			t.Errorf("reports/example/%s differs from what this build renders from its data: %s", name, rerender)
		}
	}
}

// sameFile says whether file name is byte for byte the same in dirs a
// and b; when it differs, it logs the first line that does.
func sameFile(t *testing.T, a, b, name string) bool {
	t.Helper()
	want, err := os.ReadFile(filepath.Join(a, name))
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(b, name))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(got, want) {
		return true
	}
	t.Logf("%s: first difference at line %d", name, firstDiffLine(got, want))
	return false
}

// TestExamplesReadable renders every checked-in example run again with
// this build: each must still be readable (its schema not too new, its
// windows decodable) and renderable, and its rendered files (summary.md,
// the CSVs, results.bench, the charts) must be what this build renders
// from its summary.json, byte for byte, so that no example shows an old
// rendering. Only reports/example is held to the current schema and
// summary too (TestExampleCurrent); the others document what they were
// run to show.
func TestExamplesReadable(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join(reportsDir, "*example"))
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) < 2 {
		t.Fatalf("found %d example runs in %s", len(dirs), reportsDir)
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			out := t.TempDir()
			copyDir(t, dir, out)
			if err := report.Render(out); err != nil {
				t.Fatalf("sweep report %s: %v", dir, err)
			}
			pngs, err := filepath.Glob(filepath.Join(dir, "*.png"))
			if err != nil {
				t.Fatal(err)
			}
			names := slices.Clone(rendered)
			for _, p := range pngs {
				names = append(names, filepath.Base(p))
			}
			for _, name := range names {
				if !sameFile(t, dir, out, name) {
					t.Errorf("reports/%s/%s differs from what this build renders from its data: `make build && ./bin/sweep report reports/%[1]s` renders it again", filepath.Base(dir), name)
				}
			}
		})
	}
}

// copyDir copies the regular files of src, and of its subdirectories,
// into dst.
func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// firstDiffLine is the 1-based line at which a and b first differ.
func firstDiffLine(a, b []byte) int {
	line := 1
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return line
		}
		if a[i] == '\n' {
			line++
		}
	}
	return line
}
