package report

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/rundir"
	"gonum.org/v1/plot/cmpimg"
)

// goldenDelta is the cmpimg.EqualApprox tolerance: loose enough for font
// rasterisation differences, tight enough to catch a moved line or bar.
const goldenDelta = 0.1

// copyRun copies a fixture's input files into a fresh directory.
func copyRun(t *testing.T, fixture string) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range []string{rundir.SummaryFile, rundir.ResultsFile} {
		b, err := os.ReadFile(filepath.Join("testdata", fixture, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// benchLine is the shape of a results.bench result line.
var benchLine = regexp.MustCompile(`^BenchmarkSweep(/[^/\s=]+=[^/\s]*)*/c=[0-9]+ [0-9]+ [0-9.]+ cpu-ns/req [0-9.]+ req/s [0-9.]+ success-req/s [0-9.]+ p99-ns$`)

// configLine is a benchfmt file configuration line.
var configLine = regexp.MustCompile(`^[a-z][^\sA-Z:]*: \S.*$`)

func TestRender(t *testing.T) {
	lines := []string{ChartCPU, ChartThroughput, ChartErrors, ChartLatency}
	tests := []struct {
		fixture string
		charts  []string
		windows int // results.jsonl lines that decode
	}{
		{"one-config", lines, 3},
		{"five-by-four", append([]string{ChartTradeoff}, lines...), 120},
		{"two-axis", append(append([]string{ChartTradeoff}, lines...), ChartHeatmap), 70},
		{"cliff", append([]string{ChartTradeoff}, lines...), 77},
		{"twelve-configs", append(append([]string{ChartTradeoff}, lines...), ChartHeatmap), 312},
		// A real 5-round run (schema 3, 2026-12-06): every comparison
		// undecided, 5 of the 8 rounds needed.
		{"split", append([]string{ChartTradeoff, ChartSplit}, lines...), 30},
	}
	for _, tt := range tests {
		t.Run(tt.fixture, func(t *testing.T) {
			dir := copyRun(t, tt.fixture)
			if err := Render(dir); err != nil {
				t.Fatal(err)
			}
			entries, err := os.ReadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range entries {
				got = append(got, e.Name())
			}
			want := append([]string{rundir.SummaryFile, rundir.ResultsFile, rundir.SummaryMD, rundir.ResultsCSV, rundir.CellsCSV, rundir.ResultsBench}, tt.charts...)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Fatalf("files in run dir:\n got %v\nwant %v", got, want)
			}
			golden := filepath.Join("testdata", "golden", tt.fixture)
			for _, name := range tt.charts {
				checkPNG(t, filepath.Join(dir, name), filepath.Join(golden, name))
			}
			checkGoldenText(t, filepath.Join(dir, rundir.SummaryMD), filepath.Join(golden, rundir.SummaryMD))
			checkGoldenText(t, filepath.Join(dir, rundir.CellsCSV), filepath.Join(golden, rundir.CellsCSV))
			checkCSV(t, filepath.Join(dir, rundir.ResultsCSV), tt.windows)
			checkBench(t, filepath.Join(dir, rundir.ResultsBench), tt.windows)
			checkCells(t, dir)
		})
	}
}

func checkPNG(t *testing.T, path, golden string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if sz := img.Bounds().Size(); sz.X != chartWidthPx || sz.Y != chartHeightPx {
		t.Errorf("%s: %dx%d pixels, want %dx%d", path, sz.X, sz.Y, chartWidthPx, chartHeightPx)
	}
	if *update {
		writeGolden(t, golden, b)
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (regenerate with -update)", err)
	}
	ok, err := cmpimg.EqualApprox("png", b, want, goldenDelta)
	if err != nil {
		t.Fatal(err)
	}
	if !ok {
		// Keep the image for a look; only a failing test leaves it behind.
		out := filepath.Join(os.TempDir(), "sweep-report-"+filepath.Base(filepath.Dir(golden))+"-"+filepath.Base(golden))
		if err := os.WriteFile(out, b, 0o644); err != nil {
			out = "(not saved: " + err.Error() + ")"
		}
		t.Errorf("%s differs from %s; got %s; regenerate with -update", filepath.Base(path), golden, out)
	}
}

func checkGoldenText(t *testing.T, path, golden string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		writeGolden(t, golden, b)
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (regenerate with -update)", err)
	}
	if !bytes.Equal(b, want) {
		t.Errorf("%s differs from %s:\n%s", filepath.Base(path), golden, firstDiff(string(want), string(b)))
	}
}

// firstDiff shows the first differing line of two texts.
func firstDiff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(wl), len(gl)); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return "line " + strconv.Itoa(i+1) + ":\nwant: " + w + "\n got: " + g
		}
	}
	return "(no line differs)"
}

func writeGolden(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func checkCSV(t *testing.T, path string, windows int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if len(rows) != windows+1 {
		t.Errorf("%s: %d rows, want header + %d windows", path, len(rows), windows)
	}
	for _, col := range []string{"config", "concurrency", "round", "requests", "cpu_us_per_req", "status_codes", "transport_errors", "p99_ms", "generator_bound"} {
		if !slices.Contains(rows[0], col) {
			t.Errorf("%s: header lacks %q: %v", path, col, rows[0])
		}
	}
}

func checkBench(t *testing.T, path string, windows int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	results, header := 0, true
	for n := 1; sc.Scan(); n++ {
		l := sc.Text()
		switch {
		case strings.HasPrefix(l, "Benchmark"):
			header = false
			if !benchLine.MatchString(l) {
				t.Errorf("%s:%d: not a benchmark result line: %q", path, n, l)
			}
			results++
		case header && (configLine.MatchString(l) || strings.HasPrefix(l, "Unit ")):
		default:
			t.Errorf("%s:%d: unexpected line %q", path, n, l)
		}
	}
	if results != windows {
		t.Errorf("%s: %d result lines, want %d", path, results, windows)
	}
}

// checkCells: cells.csv has a row per cell of summary.json (and of the
// reference), every row as wide as the header, and the baseline's row
// has no paired change.
func checkCells(t *testing.T, dir string) {
	t.Helper()
	s, err := rundir.ReadSummaryFile(filepath.Join(dir, rundir.SummaryFile))
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(dir, rundir.CellsCSV))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatalf("cells.csv: %v", err)
	}
	if len(rows) != 1+len(s.Cells)+len(s.Reference) {
		t.Fatalf("cells.csv: %d rows, want a header and %d cells", len(rows), len(s.Cells)+len(s.Reference))
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	for i, c := range s.Cells {
		r := rows[1+i]
		if r[col["config"]] != c.Config || r[col["concurrency"]] != strconv.Itoa(c.Concurrency) {
			t.Errorf("cells.csv row %d: %s c=%s, want %s c=%d", i+1, r[col["config"]], r[col["concurrency"]], c.Config, c.Concurrency)
		}
		d, ok := c.VsBaseline[sweep.MetricCPUPerReq]
		if got := r[col["cpu_us_per_req.verdict"]]; ok && got != string(d.Verdict) || !ok && got != "" {
			t.Errorf("cells.csv row %d (%s c=%d): cpu verdict %q, want %q", i+1, c.Config, c.Concurrency, got, d.Verdict)
		}
	}
}
