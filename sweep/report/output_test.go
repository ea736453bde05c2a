package report

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/rundir"
	"github.com/sweep-dev/sweep/sweep/units"
)

func TestBenchName(t *testing.T) {
	tests := []struct {
		w    sweep.Window
		want string
	}{
		{sweep.Window{Point: sweep.Point{"linear_memory_keep_resident": "64KiB"}, Concurrency: 16}, "BenchmarkSweep/linear_memory_keep_resident=64KiB/c=16"},
		{sweep.Window{Point: sweep.Point{"b": "2", "a": "1"}, Concurrency: 1}, "BenchmarkSweep/a=1/b=2/c=1"},
		{sweep.Window{Point: sweep.Point{"a": "0"}, AA: true, Concurrency: 4}, "BenchmarkSweep/a=0/role=aa/c=4"},
		{sweep.Window{Reference: true, Concurrency: 16}, "BenchmarkSweep/role=reference/c=16"},
		{sweep.Window{Point: sweep.Point{}, Concurrency: 2}, "BenchmarkSweep/c=2"},
		{sweep.Window{Point: sweep.Point{"plugin": "/opt/x y.wasm"}, Concurrency: 8}, "BenchmarkSweep/plugin=∕opt∕x_y.wasm/c=8"},
	}
	for _, tt := range tests {
		if got := BenchName(tt.w); got != tt.want {
			t.Errorf("BenchName(%v) = %q, want %q", tt.w.Point, got, tt.want)
		}
	}
}

func TestBenchValues(t *testing.T) {
	a1 := sweep.Point{"a": "1"}
	ws := []sweep.Window{
		{Config: "a=1", Point: a1, Concurrency: 16, Seconds: 2, Requests: 8000, RPS: 4000, SuccessRPS: 3990, CPUUsPerReq: 370.25, P99Ms: 4.5},
		{Config: "a=1", Point: a1, Concurrency: 16, Failed: true, FailReason: "server exited"},
		{Config: "a=1", Point: a1, Concurrency: 32, Seconds: 2, Requests: 0},
		{Config: "a=0", Point: sweep.Point{"a": "0"}, Baseline: true, Concurrency: 16, Seconds: 1, Requests: 100, RPS: 100, SuccessRPS: 100, CPUUsPerReq: 300, P99Ms: 1},
	}
	var buf bytes.Buffer
	if err := Bench(&buf, sweep.Summary{Environment: sweep.Environment{CPUModel: "Some  CPU\n@ 2GHz"}}, ws); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{
		"pkg: sweep\n",
		"cpu: Some CPU @ 2GHz\n",
		"Unit req/s better=higher\n",
		"Unit success-req/s better=higher\n",
		"BenchmarkSweep/a=1/c=16 8000 370250 cpu-ns/req 4000 req/s 3990 success-req/s 4500000 p99-ns\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("results.bench lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "\nBenchmark"); n != 2 {
		t.Errorf("%d result lines, want 2 (failed and empty windows have no per-request figures):\n%s", n, out)
	}
	if i, j := strings.Index(out, "BenchmarkSweep/a=0/"), strings.Index(out, "BenchmarkSweep/a=1/"); i < 0 || i > j {
		t.Errorf("the baseline's line is not first:\n%s", out)
	}
}

func TestCSVFields(t *testing.T) {
	w := sweep.Window{
		Config: "a=1 b=x", Point: sweep.Point{"a": "1", "b": "x"}, Concurrency: 4, Round: 2,
		Start:    time.Date(2026, 12, 1, 10, 0, 0, 5, time.UTC),
		Requests: 100, Success: 90,
		StatusCodes: map[string]int64{"502": 7, "200": 90}, TransportErrors: map[string]int64{"timeout": 1, "eof": 2},
		StderrTail: "panic: \"x\",\nline two",
	}
	other := sweep.Window{Config: "c=2", Point: sweep.Point{"c": "2"}}
	var buf bytes.Buffer
	if err := CSV(&buf, []sweep.Window{w, other}); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 3 {
		t.Fatalf("%d rows, want 3", len(rows))
	}
	get := func(row int, col string) string {
		for i, h := range rows[0] {
			if h == col {
				return rows[row][i]
			}
		}
		t.Fatalf("no column %q in %v", col, rows[0])
		return ""
	}
	for _, tt := range []struct {
		row       int
		col, want string
	}{
		{1, "config", "a=1 b=x"},
		{1, "point.a", "1"},
		{1, "point.b", "x"},
		{1, "point.c", ""},
		{2, "point.c", "2"},
		{1, "concurrency", "4"},
		{1, "start", "2026-12-01T10:00:00.000000005Z"},
		{1, "status_codes", "200:90;502:7"},
		{1, "transport_errors", "eof:2;timeout:1"},
		{1, "stderr_tail", "panic: \"x\",\nline two"},
		{1, "failed", "false"},
		{2, "start", ""},
	} {
		if got := get(tt.row, tt.col); got != tt.want {
			t.Errorf("row %d %s = %q, want %q", tt.row, tt.col, got, tt.want)
		}
	}
}

func TestShortLabels(t *testing.T) {
	long := []series{
		{Config: "linear_memory_keep_resident=256KiB table_keep_resident=256KiB", Cells: []sweep.Cell{{Point: sweep.Point{"linear_memory_keep_resident": "256KiB", "table_keep_resident": "256KiB"}}}},
		{Config: "linear_memory_keep_resident=0 table_keep_resident=0 [A/A]", AA: true, Cells: []sweep.Cell{{Point: sweep.Point{"linear_memory_keep_resident": "0", "table_keep_resident": "0"}}}},
	}
	got := shortLabels(long)
	want := []string{"memory_keep_resident=256KiB table_keep_resident=256KiB", "memory_keep_resident=0 table_keep_resident=0 [A/A]"}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("shortLabels[%d] = %q, want %q", i, got[i], want[i])
		}
	}
	short := []series{{Config: "total_memories=16"}}
	if got := shortLabels(short); got[0] != "total_memories=16" {
		t.Errorf("short label changed to %q", got[0])
	}
	if got := cutMiddle(strings.Repeat("x", 100), 11); len([]rune(got)) != 11 || !strings.Contains(got, "…") {
		t.Errorf("cutMiddle = %q", got)
	}
}

func TestFormat(t *testing.T) {
	tests := []struct{ got, want string }{
		{units.Rate(0), "0%"},
		{units.Rate(0.042), "4.20%"},
		{units.Rate(0.00001), "<0.01%"},
		{units.Change(-0.123), "−12.3%"},
		{units.Change(0.5), "+50.0%"},
		{units.Change(-0.00001), "0.0%"},
		{interval(-0.1, 0.02), "[−10.0%, +2.0%]"},
		{thousands(1234567.4), "1,234,567"},
		{thousands(999), "999"},
		{rps(45.25), "45.2"},
		{ms(0.4567), "0.46"},
		{ms(123.4), "123"},
		{human(12500), "12.5k"},
		{human(2.5e6), "2.5M"},
		{human(250), "250"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}

func TestHumanTicks(t *testing.T) {
	tests := []struct {
		min, max float64
		labels   string
	}{
		{0, 1000, "0 200 400 600 800 1000"},
		{0, 33000, "0 10k 20k 30k"},
		{-30, 150, "0 50 100 150"},
		{-4, 4, "−4 −2 0 2 4"},
		{0, 1.15, "0 0.25 0.5 0.75 1"},
	}
	for _, tt := range tests {
		var ls []string
		for _, tk := range (humanTicks{}).Ticks(tt.min, tt.max) {
			if tk.Label != "" {
				ls = append(ls, tk.Label)
			}
		}
		if got := strings.Join(ls, " "); got != tt.labels {
			t.Errorf("ticks on [%g, %g] = %q, want %q", tt.min, tt.max, got, tt.labels)
		}
	}
}

// TestMarkdownContent checks the sentences a reader acts on, beyond the
// golden comparison.
func TestMarkdownContent(t *testing.T) {
	tests := []struct {
		fixture string
		want    []string
		notWant []string
	}{
		{"cliff", []string{
			"> **Incomplete run.** Only 77 of 80 planned windows were measured",
			"- `total_memories=16` fails from c=32 on: 4.20% errors; RPS there is not saturation.",
			"past its capacity cliff (c=32): errors distort CPU/req and RPS",
			"**Keep the baseline `total_memories=1000`.**",
		}, []string{"CPU/req better"}},
		{"five-by-four", []string{
			"- `linear_memory_keep_resident=2MiB`: −21.4% CPU/req at c=1, +85.9% at c=4 — cheaper single-threaded, costlier at c=4",
			"![Effect of each setting on CPU per request",
			"| `linear_memory_keep_resident=2MiB` |",
		}, []string{"Incomplete run", "heatmap.png"}},
		{"one-config", []string{
			"This run had no A/A control",
			"**Keep the baseline `linear_memory_keep_resident=0`.** It is the only config in this run",
			"- Grid: 1 config over `linear_memory_keep_resident`",
			"**few_rounds**",
		}, []string{"tradeoff.png"}},
		{"twelve-configs", []string{
			"**Use `linear_memory_keep_resident=0 max_unused_warm_slots=1000`**: −1.3% CPU per request vs the baseline",
			"![Objective vs baseline over both grid axes at the target concurrency](heatmap.png)",
			"- **generator_bound** in 26 cells (at c=64, 128)",
		}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.fixture, func(t *testing.T) {
			s, err := rundir.ReadSummaryFile(filepath.Join("testdata", tt.fixture, rundir.SummaryFile))
			if err != nil {
				t.Fatal(err)
			}
			cs, err := drawCharts(s)
			if err != nil {
				t.Fatal(err)
			}
			var files []string
			for _, c := range cs {
				files = append(files, c.File)
			}
			var buf bytes.Buffer
			if err := Markdown(&buf, s, files); err != nil {
				t.Fatal(err)
			}
			md := buf.String()
			for _, w := range tt.want {
				if !strings.Contains(md, w) {
					t.Errorf("summary.md lacks %q", w)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(md, w) {
					t.Errorf("summary.md contains %q", w)
				}
			}
		})
	}
}

func TestChartsEmptyRun(t *testing.T) {
	dir := t.TempDir()
	files, err := Charts(dir, sweep.Summary{Name: "empty"})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 0 {
		t.Errorf("charts for a run without cells: %v", files)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 0 {
		t.Errorf("files written: %d", len(entries))
	}
}

func ExampleBenchName() {
	w := sweep.Window{Point: sweep.Point{"linear_memory_keep_resident": "0", "touch": "4KiB"}, AA: true, Concurrency: 16}
	fmt.Println(BenchName(w))
	// Output: BenchmarkSweep/linear_memory_keep_resident=0/touch=4KiB/role=aa/c=16
}

// TestChartsUnmeasured draws a run whose cells have no windows yet (the
// run was interrupted before the first level finished): charts still
// render, with every config in the legend and no data drawn.
func TestChartsUnmeasured(t *testing.T) {
	s, err := rundir.ReadSummaryFile(filepath.Join("testdata", "two-axis", rundir.SummaryFile))
	if err != nil {
		t.Fatal(err)
	}
	for i := range s.Cells {
		s.Cells[i] = sweep.Cell{Config: s.Cells[i].Config, Point: s.Cells[i].Point, Baseline: s.Cells[i].Baseline,
			AA: s.Cells[i].AA, Concurrency: s.Cells[i].Concurrency}
	}
	s.Cliffs, s.Tradeoffs, s.Recommendation = nil, nil, nil
	cs, err := drawCharts(s)
	if err != nil {
		t.Fatal(err)
	}
	// All but cpu_split.png, which has nothing to split without windows,
	// and memory.png, which has no RSS to place.
	if len(cs) != len(chartSpecs)-2 {
		t.Errorf("%d charts, want %d", len(cs), len(chartSpecs)-2)
	}
	var buf bytes.Buffer
	if err := Markdown(&buf, s, nil); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "not measured") {
		t.Error("summary.md does not say the cells were not measured")
	}
}

// TestMarkdownPlanSlices: the plan says when windows were measured
// interleaved, and says nothing of pieces when they were not.
func TestMarkdownPlanSlices(t *testing.T) {
	s, err := rundir.ReadSummaryFile(filepath.Join("testdata", "five-by-four", rundir.SummaryFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		slices int
		want   string
	}{
		{0, " warmup, slot order rotated.\n"},
		{1, " warmup, slot order rotated.\n"},
		{40, fmt.Sprintf(" warmup, slot order rotated; the round's windows measured interleaved, each in 40 pieces of %s taken from the slots in turn (paired changes",
			s.Plan.Duration/40)},
		{40, "at high concurrency: `slice = \"0\"` measures that).\n"},
	} {
		s.Plan.Slices = tc.slices
		var buf bytes.Buffer
		if err := Markdown(&buf, s, nil); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(buf.String(), tc.want) {
			t.Errorf("slices %d: summary.md lacks %q", tc.slices, tc.want)
		}
	}
}

// TestMarkdownAwake: summary.md says whether the run kept its CPUs awake.
// TestMarkdownServerSched: summary.md names a server policy other than
// the default, and says nothing of the default.
func TestMarkdownServerSched(t *testing.T) {
	s, err := rundir.ReadSummaryFile(filepath.Join("testdata", "five-by-four", rundir.SummaryFile))
	if err != nil {
		t.Fatal(err)
	}
	const line = "- Servers ran at SCHED_BATCH (run.server_sched), not the default SCHED_OTHER\n"
	for _, tc := range []struct {
		sched sweep.Sched
		want  bool
	}{{"batch", true}, {"", false}} {
		s.Environment.ServerSched = tc.sched
		var buf bytes.Buffer
		if err := Markdown(&buf, s, nil); err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(buf.String(), line); got != tc.want {
			t.Errorf("server_sched %q: summary.md has the line: %v, want %v", tc.sched, got, tc.want)
		}
	}
}

func TestMarkdownAwake(t *testing.T) {
	s, err := rundir.ReadSummaryFile(filepath.Join("testdata", "five-by-four", rundir.SummaryFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ cpus, want string }{
		{"0-1", "- CPUs 0-1 kept awake (run.keep_awake: an idle-priority spinner on each"},
		{"", "- No CPUs kept awake (run.keep_awake off, or CPUs not pinned)"},
	} {
		s.Environment.AwakeCPUs = tc.cpus
		var buf bytes.Buffer
		if err := Markdown(&buf, s, nil); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(buf.String(), tc.want) {
			t.Errorf("awake_cpus %q: summary.md lacks %q", tc.cpus, tc.want)
		}
	}
}

func TestMarkdownReference(t *testing.T) {
	s, err := rundir.ReadSummaryFile(filepath.Join("testdata", "five-by-four", rundir.SummaryFile))
	if err != nil {
		t.Fatal(err)
	}
	const line = "- Reference server (the built-in host with a fixed workload, in every round, never judged; what `sweep check -baseline` compares two runs through): c=1 95.2 µs CPU/req, 7,410 RPS; c=16 31.0 µs CPU/req, 25,100 RPS.\n"
	for _, tc := range []struct {
		ref  []sweep.Cell
		want bool
	}{
		{[]sweep.Cell{{Concurrency: 1, CPUUsPerReq: 95.2, RPS: 7410}, {Concurrency: 16, CPUUsPerReq: 31, RPS: 25100}}, true},
		{nil, false},
	} {
		s.Reference = tc.ref
		var buf bytes.Buffer
		if err := Markdown(&buf, s, nil); err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(buf.String(), line); got != tc.want {
			t.Errorf("reference %v: summary.md has the line: %v, want %v\n%s", tc.ref, got, tc.want, buf.String())
		}
	}
}

// TestMarkdownIPIs: summary.md has TLB and call-IPI columns beside CPU/req
// when the cells carry them ("—" for a cell without), and none otherwise.
func TestMarkdownIPIs(t *testing.T) {
	s, err := rundir.ReadSummaryFile(filepath.Join("testdata", "five-by-four", rundir.SummaryFile))
	if err != nil {
		t.Fatal(err)
	}
	const head = "| config | RPS | success RPS | CPU µs/req | TLB shootdowns/req | call IPIs/req | p99 ms |"
	render := func() string {
		var buf bytes.Buffer
		if err := Markdown(&buf, s, nil); err != nil {
			t.Fatal(err)
		}
		return buf.String()
	}
	if md := render(); strings.Contains(md, "TLB shootdowns") {
		t.Errorf("summary.md without interrupt figures has a TLB column")
	}
	tlb, cal := 0.25, 1.5
	s.Cells[0].TLBShootdownsPerReq, s.Cells[0].CallIPIsPerReq = &tlb, &cal
	md := render()
	want := fmt.Sprintf("| %s | %s | %s | %s | 0.250 | 1.500 |", cellText(code(s.Cells[0].Config)),
		rps(s.Cells[0].RPS), rps(s.Cells[0].SuccessRPS), us(s.Cells[0].CPUUsPerReq))
	for _, w := range []string{head, want, " | — | — | ", "the whole machine's, not the server's alone"} {
		if !strings.Contains(md, w) {
			t.Errorf("summary.md lacks %q", w)
		}
	}
}

// TestMarkdownParallel: each level's section says whether it ran in
// parallel or queued on one CPU, per config when they differ, and nothing
// when the cells do not record their server's CPUs.
func TestMarkdownParallel(t *testing.T) {
	s, err := rundir.ReadSummaryFile(filepath.Join("testdata", "five-by-four", rundir.SummaryFile))
	if err != nil {
		t.Fatal(err)
	}
	render := func() string {
		var buf bytes.Buffer
		if err := Markdown(&buf, s, nil); err != nil {
			t.Fatal(err)
		}
		return buf.String()
	}
	if md := render(); strings.Contains(md, "arallel") || strings.Contains(md, "Queued") {
		t.Errorf("summary.md without server CPU counts speaks of parallelism")
	}
	top := s.Plan.Concurrency[len(s.Plan.Concurrency)-1]
	set := func(n func(sweep.Cell) int) {
		for i := range s.Cells {
			s.Cells[i].ServerCPUCount = n(s.Cells[i])
			par := s.Cells[i].ServerCPUCount > 1 && s.Cells[i].Concurrency > 1
			s.Cells[i].Parallel = &par
		}
	}
	set(func(sweep.Cell) int { return 1 })
	if md := render(); !strings.Contains(md, fmt.Sprintf("### c=%d\n\n**Queued on one CPU**: every server ran on one CPU, so the %d connections", top, top)) ||
		!strings.Contains(md, "### c=1\n\nOne connection: requests one at a time.") {
		t.Errorf("one-CPU run: summary.md lacks the queued line at c=%d or the c=1 line", top)
	}
	set(func(sweep.Cell) int { return 2 })
	if md := render(); !strings.Contains(md, fmt.Sprintf("### c=%d\n\n**Parallel**: the server's threads could run on more than one CPU.", top)) {
		t.Errorf("two-CPU run: summary.md lacks the parallel line at c=%d", top)
	}
	set(func(c sweep.Cell) int {
		if c.Baseline {
			return 2
		}
		return 1
	})
	if md := render(); !strings.Contains(md, fmt.Sprintf("**Parallel** for %s; **queued on one CPU** for ", code(s.Baseline))) {
		t.Errorf("mixed run: summary.md lacks the per-config line")
	}
}

// TestMarkdownSharesCPUs: a level names the configs whose servers shared
// CPUs with the load generator (run.share_cpus), and the environment says
// when each config had CPUs of its own (grid.server_cpus).
func TestMarkdownSharesCPUs(t *testing.T) {
	s, err := rundir.ReadSummaryFile(filepath.Join("testdata", "five-by-four", rundir.SummaryFile))
	if err != nil {
		t.Fatal(err)
	}
	render := func() string {
		var buf bytes.Buffer
		if err := Markdown(&buf, s, nil); err != nil {
			t.Fatal(err)
		}
		return buf.String()
	}
	if md := render(); strings.Contains(md, "Sharing CPUs") || strings.Contains(md, "share_cpus") || strings.Contains(md, "grid.server_cpus") {
		t.Errorf("a run without sharing or the axis speaks of them")
	}
	top := s.Plan.Concurrency[len(s.Plan.Concurrency)-1]
	for i := range s.Cells {
		s.Cells[i].SharesCPUs = s.Cells[i].Baseline && s.Cells[i].Concurrency == top
	}
	s.Environment.ShareCPUs, s.Environment.ServerCPUsAxis = true, true
	md := render()
	level := md[strings.Index(md, fmt.Sprintf("### c=%d\n", top)):]
	want := fmt.Sprintf("**Sharing CPUs with the load generator** (run.share_cpus): %s. ", code(s.Baseline))
	if !strings.Contains(level, want) {
		t.Errorf("c=%d lacks %q", top, want)
	}
	if first := md[strings.Index(md, "### c="):]; strings.Count(first, "Sharing CPUs") != 1 {
		t.Errorf("sharing named %d times, want once (only c=%d shared)", strings.Count(first, "Sharing CPUs"), top)
	}
	for _, w := range []string{"(grid.server_cpus; the server CPUs above are their union)", "(run.share_cpus); each level names the configs that did"} {
		if !strings.Contains(md, w) {
			t.Errorf("environment lacks %q", w)
		}
	}
}

// TestSmallMultiples: past maxOverlaid configs under test the CPU and
// throughput charts are one panel per config; up to it, one plot.
func TestSmallMultiples(t *testing.T) {
	for _, tt := range []struct {
		fixture string
		panels  int
	}{{"twelve-configs", 11}, {"five-by-four", 0}} {
		s, err := rundir.ReadSummaryFile(filepath.Join("testdata", tt.fixture, rundir.SummaryFile))
		if err != nil {
			t.Fatal(err)
		}
		ss, lv := buildSeries(s), levels(s)
		for name, f := range map[string]func(sweep.Summary, []series, []int) (*chart, error){"cpu": cpuChart, "throughput": throughputChart} {
			ch, err := f(s, ss, lv)
			if err != nil {
				t.Fatal(err)
			}
			if len(ch.panels) != tt.panels {
				t.Errorf("%s %s: %d panels, want %d", tt.fixture, name, len(ch.panels), tt.panels)
			}
		}
	}
}
