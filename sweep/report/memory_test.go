package report

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/rundir"
)

// TestMemoryReport renders a real run of configs/memory.toml
// (testdata/memory, a copy of reports/memory-example: the built-in host,
// 4 MiB dirtied per request, keep_resident 0 / 1MiB / 4MiB at c = 1 and
// 16): memory.png against its golden file, summary.md against its golden
// file, with the RSS columns, the Memory section with the warm-slot
// estimate and the recommendation's memory cost.
func TestMemoryReport(t *testing.T) {
	dir := copyRun(t, "memory")
	if err := Render(dir); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "golden", "memory")
	checkPNG(t, filepath.Join(dir, ChartMemory), filepath.Join(golden, ChartMemory))
	checkGoldenText(t, filepath.Join(dir, rundir.SummaryMD), filepath.Join(golden, rundir.SummaryMD))
	checkGoldenText(t, filepath.Join(dir, rundir.CellsCSV), filepath.Join(golden, rundir.CellsCSV))
	md, err := os.ReadFile(filepath.Join(dir, rundir.SummaryMD))
	if err != nil {
		t.Fatal(err)
	}
	for _, re := range []string{
		`\| verdict \| RSS MiB \| RSS vs baseline \|`,
		"`linear_memory_keep_resident=4MiB` \\|.* \\| [0-9.]+ \\| \\+[0-9.]+ MiB \\[\\+[0-9.]+, \\+[0-9.]+\\] \\|",
		`## Memory`,
		`Memory: −[0-9.]+% CPU/req for \+[0-9.]+ MiB RSS at c=16`,
		"`linear_memory_keep_resident=4MiB` at c=16: estimate \\+[0-9.]+ MiB vs the baseline, settled RSS measured \\+[0-9.]+ MiB: ",
		`!\[[^]]*\]\(memory.png\)`,
	} {
		if !regexp.MustCompile(re).Match(md) {
			t.Errorf("summary.md does not match %s", re)
		}
	}
}

// TestMemoryBudgetReport renders the same grid run with analysis.max_rss
// = "56MiB" (testdata/memory-budget, a copy of
// reports/memory-budget-example): memory.png draws the budget line, and
// summary.md recommends 1MiB and names 4MiB as over the budget.
func TestMemoryBudgetReport(t *testing.T) {
	dir := copyRun(t, "memory-budget")
	if err := Render(dir); err != nil {
		t.Fatal(err)
	}
	checkPNG(t, filepath.Join(dir, ChartMemory), filepath.Join("testdata", "golden", "memory-budget", ChartMemory))
	checkGoldenText(t, filepath.Join(dir, rundir.CellsCSV), filepath.Join("testdata", "golden", "memory-budget", rundir.CellsCSV))
	md, err := os.ReadFile(filepath.Join(dir, rundir.SummaryMD))
	if err != nil {
		t.Fatal(err)
	}
	for _, re := range []string{
		"\\*\\*Use `linear_memory_keep_resident=1MiB`\\*\\*",
		`Over the memory budget \(analysis.max_rss = 56.0 MiB\), not recommended: linear_memory_keep_resident=4MiB \(RSS [0-9.]+ MiB > max_rss 56.0 MiB\)`,
		"`linear_memory_keep_resident=4MiB` \\(over budget: RSS [0-9.]+ MiB > max_rss 56.0 MiB\\) \\|",
	} {
		if !regexp.MustCompile(re).Match(md) {
			t.Errorf("summary.md does not match %s", re)
		}
	}
}

// TestMemoryPoints checks the Pareto front of memory.png: a config is on
// it unless another one is at most as costly in both CPU and RSS and
// cheaper in one; the A/A twin is no point of its own.
func TestMemoryPoints(t *testing.T) {
	cell := func(config string, base, aa bool, cpu float64, rssMiB int64) sweep.Cell {
		return sweep.Cell{Config: config, Baseline: base, AA: aa, Concurrency: 16, Rounds: 5, CPUUsPerReq: cpu, RSSBytes: rssMiB << 20}
	}
	s := sweep.Summary{Cells: []sweep.Cell{
		cell("kr=0", true, false, 100, 30),
		cell("kr=0 [A/A]", true, true, 99, 29),
		cell("kr=64KiB", false, false, 60, 31),  // front
		cell("kr=256KiB", false, false, 70, 35), // dominated by 64KiB
		cell("kr=1MiB", false, false, 40, 50),   // front
		cell("kr=2MiB", false, false, 40, 60),   // dominated by 1MiB (same CPU, more RSS)
	}}
	var front []string
	for _, p := range memoryPoints(buildSeries(s), 16) {
		if p.sr.AA {
			t.Errorf("the A/A twin is a point")
		}
		if p.front {
			front = append(front, p.sr.Config)
		}
	}
	if want := []string{"kr=0", "kr=64KiB", "kr=1MiB"}; !slices.Equal(front, want) {
		t.Errorf("Pareto front %q, want %q", front, want)
	}
}
