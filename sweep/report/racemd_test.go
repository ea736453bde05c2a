package report

import (
	"bufio"
	"bytes"
	"strings"
	"testing"

	"github.com/sweep-dev/sweep/sweep"
)

// TestRaceMarkdown: a race run's summary.md says what the race did, draws
// the field shrinking and lists every config's part; other runs have no
// race section.
func TestRaceMarkdown(t *testing.T) {
	s := sweep.Summary{Baseline: "keep=0", AAConfig: "keep=0 [A/A]", Race: &sweep.RaceSummary{
		Concurrency: 16, Alpha: sweep.RaceAlpha{Drop: 0.02, Within: 0.01, Confirm: 0.02},
		Epsilon: 0.02, Clip: 0.05, MaxRounds: 30, FinalistsWanted: 2, Rounds: 9,
		Survivors: []int{4, 4, 4, 3, 3, 3, 3, 3, 3, 2}, Stop: "field", Leader: "keep=64KiB",
		Finalists: []string{"keep=64KiB", "keep=256KiB"}, ConfirmRounds: 12,
		Configs: []sweep.RaceConfig{
			{Config: "keep=0", Rounds: 9, Reason: "eliminated", DroppedAt: 9, EAtDrop: 61, WorseThan: "keep=64KiB", Change: 0},
			{Config: "keep=64KiB", Rounds: 9, Reason: "finalist", Change: -0.62},
			{Config: "keep=256KiB", Rounds: 9, Reason: "finalist", Change: -0.58},
			{Config: "keep=1MiB", Rounds: 3, Reason: "infeasible", DroppedAt: 3, Why: "past the capacity cliff at c=16"},
		},
	}}
	var b bytes.Buffer
	m := &mdWriter{s: s}
	m.w = newBuf(&b)
	m.race()
	m.w.Flush()
	out := b.String()
	for _, want := range []string{
		"## Race", "Raced 4 configs at c=16 for 9 rounds",
		"dropping the best 2%, a false within-ε stop 1%, the confirmation's verdicts 2%",
		"verdict `eliminated`",
		"start     ████████████████████████████████████████ 4", "round 3", "round 9   ████████████████████ 2",
		"| keep=0 (the baseline: raced as its A/A twin) | eliminated | 9 | round 9 | 61 |", "worse than keep=64KiB",
		"| keep=1MiB | infeasible | 3 | round 3 |", "| keep=64KiB | finalist |", "past the capacity cliff at c=16",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("summary.md lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "round 4 ") {
		t.Errorf("a round at which the field did not change is drawn:\n%s", out)
	}
	b.Reset()
	m = &mdWriter{s: sweep.Summary{}}
	m.w = newBuf(&b)
	m.race()
	m.w.Flush()
	if b.Len() != 0 {
		t.Errorf("a run without a race got %q", b.String())
	}
}

// TestRaceBudgetMarkdown: with a memory budget the race section states
// the rule and names the configs it dropped with what they measured, or
// says that none was over it; without one it says nothing of budgets.
func TestRaceBudgetMarkdown(t *testing.T) {
	race := func(configs ...sweep.RaceConfig) *sweep.RaceSummary {
		return &sweep.RaceSummary{Concurrency: 16, MaxRounds: 30, Rounds: 9, Stop: "field", BudgetWindows: 3, Configs: configs}
	}
	over := sweep.RaceConfig{Config: "keep=16MiB", Rounds: 3, Reason: sweep.RaceInfeasible, DroppedAt: 3, Why: "over the memory budget",
		OverBudget: &sweep.RaceOverBudget{Metric: sweep.MemRSS, Median: 268 * sweep.MiB, Windows: 3, Key: "max_rss", Limit: 220 * sweep.MiB}}
	ok := sweep.RaceConfig{Config: "keep=4MiB", Rounds: 9, Reason: sweep.RaceFinalist}
	md := func(s sweep.Summary) string {
		var b bytes.Buffer
		m := &mdWriter{s: s}
		m.w = newBuf(&b)
		m.race()
		m.w.Flush()
		return b.String()
	}
	budget := sweep.Plan{MaxRSS: 220 * sweep.MiB}
	out := md(sweep.Summary{Plan: budget, Race: race(over, ok)})
	for _, want := range []string{
		"- Memory budget: a config whose race windows at c=16 have a median RSS over `analysis.max_rss` = 220.0 MiB (over 3 or more windows while the race goes on, over all it has when it stops) is infeasible: dropped outside the error budget, never a finalist.",
		"Over it: keep=16MiB (RSS 268.0 MiB, the median of 3 windows).",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("summary.md lacks %q:\n%s", want, out)
		}
	}
	if out := md(sweep.Summary{Plan: budget, Race: race(ok)}); !strings.Contains(out, "No config was over it.") {
		t.Errorf("a budget nobody exceeded:\n%s", out)
	}
	if out := md(sweep.Summary{Race: race(ok)}); strings.Contains(out, "Memory budget") {
		t.Errorf("a race without a budget states one:\n%s", out)
	}
}

func newBuf(b *bytes.Buffer) *bufio.Writer { return bufio.NewWriter(b) }
