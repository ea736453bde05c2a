package report

import (
	"bytes"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/rundir"
)

// raceOnlySummary is testdata/memory as a race run: keep_resident=1MiB
// eliminated and 4MiB left unconfirmed at c=16 (their cells race data,
// with no interval, as driver.RaceSummary leaves them), the verdicts of
// the rest decided at the confirmation's 2% share.
func raceOnlySummary(t *testing.T) sweep.Summary {
	t.Helper()
	s, err := rundir.ReadSummaryFile(filepath.Join("testdata", "memory", rundir.SummaryFile))
	if err != nil {
		t.Fatal(err)
	}
	verdicts := map[string]sweep.Verdict{
		"linear_memory_keep_resident=1MiB": sweep.VerdictEliminated,
		"linear_memory_keep_resident=4MiB": sweep.VerdictUnconfirmed,
	}
	var cells []sweep.Cell
	for _, c := range s.Cells {
		v, raced := verdicts[c.Config]
		switch {
		case raced && c.Concurrency != 16:
			continue // not confirmed: no cell below the race's level
		case raced:
			for m, d := range c.VsBaseline {
				d.Verdict, d.CILow, d.CIHigh = v, nil, nil
				c.VsBaseline[m] = d
			}
			for m, ch := range c.MemoryVsBaseline {
				ch.CILowMiB, ch.CIHighMiB = nil, nil
				c.MemoryVsBaseline[m] = ch
			}
		}
		cells = append(cells, c)
	}
	s.Cells = cells
	s.Race = &sweep.RaceSummary{
		Concurrency: 16, Alpha: sweep.RaceAlpha{Drop: 0.02, Within: 0.01, Confirm: 0.02},
		Epsilon: 0.02, Clip: 0.05, MaxRounds: 20, FinalistsWanted: 1, Rounds: 20,
		Survivors: []int{3, 3, 2}, Stop: "max_rounds",
		Finalists: []string{"linear_memory_keep_resident=0"}, ConfirmRounds: 12,
		Configs: []sweep.RaceConfig{
			{Config: "linear_memory_keep_resident=0", Rounds: 20, Reason: "finalist"},
			{Config: "linear_memory_keep_resident=1MiB", Rounds: 2, Reason: "eliminated", DroppedAt: 2, EAtDrop: 51, WorseThan: "linear_memory_keep_resident=0"},
			{Config: "linear_memory_keep_resident=4MiB", Rounds: 20, Reason: sweep.RaceUnconfirmed},
		},
	}
	return s
}

// TestRaceOnlyCells: the cells a race did not confirm say so everywhere
// summary.md and tradeoff.png show them. An eliminated config reads
// "eliminated", a survivor left out of the finalists "unconfirmed" (never
// "eliminated": nothing showed it worse), neither has an interval (not
// even for memory), tradeoff.png draws them apart from "no detectable
// change", and the verdicts' words give the confirmation's share.
func TestRaceOnlyCells(t *testing.T) {
	s := raceOnlySummary(t)
	var buf bytes.Buffer
	if err := Markdown(&buf, s, nil); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	row := func(config string, c int) string {
		_, section, _ := strings.Cut(md, "### c="+strconv.Itoa(c)+"\n")
		section, _, _ = strings.Cut(section, "\n#")
		for _, line := range strings.Split(section, "\n") {
			if strings.HasPrefix(line, "| `"+config+"` |") {
				return line
			}
		}
		t.Fatalf("summary.md has no row for %s at c=%d:\n%s", config, c, md)
		return ""
	}
	elim := row("linear_memory_keep_resident=1MiB", 16)
	unconf := row("linear_memory_keep_resident=4MiB", 16)
	for _, tc := range []struct{ line, want, not string }{
		{elim, "eliminated by the race (see Race)", "unconfirmed"},
		{elim, "[race data: no interval]", "no detectable change"},
		{unconf, "unconfirmed: survived the race, not a finalist (see Race)", "eliminated"},
		{unconf, "[race data: no interval]", "no detectable change"},
	} {
		if !strings.Contains(tc.line, tc.want) || strings.Contains(tc.line, tc.not) {
			t.Errorf("row %q: want %q and not %q", tc.line, tc.want, tc.not)
		}
	}
	for _, want := range []string{
		"exact signed-rank intervals of the log ratios of the confirmation rounds only; Holm's correction over the confirmation's",
		"holds the chance of any false verdict to 2%, its share of the error budget (see Race)",
		"with the verdict `eliminated`, or `unconfirmed` for a survivor that was not a finalist",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("summary.md lacks %q", want)
		}
	}
	if strings.Contains(md, "false verdict to 5%") {
		t.Error("summary.md gives the whole run's 5% for verdicts decided at the confirmation's 2%")
	}
	// The memory table: no interval for race data.
	for _, config := range []string{"linear_memory_keep_resident=1MiB", "linear_memory_keep_resident=4MiB"} {
		for _, line := range strings.Split(md, "\n") {
			if strings.HasPrefix(line, "| 16 | `"+config+"` |") && !strings.Contains(line, "[race data: no interval]") {
				t.Errorf("memory row %q does not say it is race data without an interval", line)
			}
		}
	}

	lv := levels(s)
	ch, err := tradeoffChart(s, buildSeries(s), lv)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, e := range ch.legend {
		if e.key {
			keys = append(keys, e.text)
		}
	}
	for _, want := range []string{"white bar: race data", "whiskers on a white bar: q1..q3 of the race's"} {
		if !slices.ContainsFunc(keys, func(k string) bool { return strings.HasPrefix(k, want) }) {
			t.Errorf("tradeoff.png's legend keys %q have none for %q", keys, want)
		}
	}
	if slices.ContainsFunc(keys, func(k string) bool { return strings.Contains(k, "too few pairs") }) {
		t.Errorf("tradeoff.png's legend keys %q say race data had too few pairs", keys)
	}
}

// TestRaceWordsWithoutSurvivors: a race whose left-out configs were all
// eliminated does not mention "unconfirmed".
func TestRaceWordsWithoutSurvivors(t *testing.T) {
	s := raceOnlySummary(t)
	s.Race.Configs[2].Reason = "eliminated"
	var buf bytes.Buffer
	m := &mdWriter{s: s}
	m.w = newBuf(&buf)
	m.race()
	m.w.Flush()
	if strings.Contains(buf.String(), "unconfirmed") {
		t.Errorf("a race without survivors left out speaks of unconfirmed configs:\n%s", buf.String())
	}
}
