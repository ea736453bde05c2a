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
