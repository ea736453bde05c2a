package driver

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sweep-dev/sweep/sweep"
)

// TestAutoRounds: with rounds = "auto" a large effect (the burner at 2×
// its baseline's CPU) stops at the minimum rounds, its verdict made; the
// run is complete with the rounds it took; the plan's windows are the ones
// measured; and run.budget stops the added rounds with a note.
func TestAutoRounds(t *testing.T) {
	cfg := func(extra string) string {
		return fmt.Sprintf(`
name = "auto"
[target]
kind = "command"
command = [%q, "-port", "{{port}}", "-burn", "{{burn}}"]
[grid]
burn = ["200us", "400us"]
[load]
concurrency = [1]
warmup = "100ms"
duration = "300ms"
rounds = "auto"
max_rounds = 14
[analysis]
resolve = "0.1%%"
%s`, bins.burner, extra)
	}
	_, s, ws := run(t, cfg(""))
	big := cell(t, s, "burn=400us", 1)
	min := AutoMin(loadConfig(t, t.TempDir(), cfg("")))
	if big.Rounds != min {
		t.Errorf("the 2× config took %d rounds, want the minimum %d (its magnitudes decide it)", big.Rounds, min)
	}
	if d := big.VsBaseline[sweep.MetricCPUPerReq]; d.Verdict != sweep.VerdictWorse {
		t.Errorf("2× CPU: verdict %q, want worse (%+v)", d.Verdict, d)
	}
	// The A/A twin cannot be resolved to ±0.1% here: it runs to max_rounds.
	if aa := cell(t, s, "burn=200us [A/A]", 1); aa.Rounds != 14 {
		t.Errorf("A/A twin took %d rounds, want max_rounds = 14", aa.Rounds)
	}
	if !s.Complete || s.Plan.Windows != len(ws) || s.Plan.Measured != len(ws) {
		t.Errorf("complete %v, planned %d, measured %d, windows %d: want a complete run whose plan is what it measured", s.Complete, s.Plan.Windows, s.Plan.Measured, len(ws))
	}

	fr := runDriver(t, "", "", cfg("[run]\nbudget = \"1s\"\n"))
	if fr.err != nil {
		t.Fatal(fr.err)
	}
	if !strings.Contains(fr.progress.String(), "c=1: run.budget 1s reached after") {
		t.Errorf("no budget note in the progress:\n%s", fr.progress.String())
	}
	for cfg, w := range bySlot(t, fr.windows(t)) {
		if len(w) != min {
			t.Errorf("%s: %d windows with a budget already spent, want the minimum %d", cfg, len(w), min)
		}
	}
}

// TestAutoBlocks: an adaptive run of two blocks adds rounds block by
// block: each block's large effect stops at the minimum, each block's A/A
// twin (unresolvable to ±0.1%) runs to max_rounds within its block, and
// no round of block 0 comes after block 1 has started.
func TestAutoBlocks(t *testing.T) {
	grid := fmt.Sprintf(`
name = "auto-blocks"
[target]
kind = "command"
command = [%q, "-port", "{{port}}", "-burn", "{{burn}}"]
[grid]
burn = ["200us", "400us", "600us"]
[load]
concurrency = [1]
warmup = "100ms"
duration = "300ms"
rounds = "auto"
max_rounds = 10
[analysis]
resolve = "0.1%%"
[run]
block_size = 1
`, bins.burner)
	min := AutoMin(loadConfig(t, t.TempDir(), grid))
	_, s, ws := run(t, grid)
	for _, c := range []string{"burn=400us", "burn=600us"} {
		if got := cell(t, s, c, 1); got.Rounds != min || got.VsBaseline[sweep.MetricCPUPerReq].Verdict != sweep.VerdictWorse {
			t.Errorf("%s: %d rounds, verdict %q; want the minimum %d and worse", c, got.Rounds, got.VsBaseline[sweep.MetricCPUPerReq].Verdict, min)
		}
	}
	if aa := cell(t, s, "burn=200us [A/A]", 1); aa.Rounds != 20 {
		t.Errorf("A/A twin: %d rounds, want max_rounds 10 in each of the 2 blocks", aa.Rounds)
	}
	last := 0
	for _, w := range ws {
		if w.Block < last {
			t.Fatalf("a window of block %d after block %d had started", w.Block, last)
		}
		last = w.Block
		if w.Config == "burn=400us" && w.Block != 0 || w.Config == "burn=600us" && w.Block != 1 {
			t.Errorf("%s measured in block %d", w.Config, w.Block)
		}
	}
	if !s.Complete || s.Plan.Blocks != 2 {
		t.Errorf("complete %v, %d blocks: want a complete run of 2 blocks", s.Complete, s.Plan.Blocks)
	}
}
