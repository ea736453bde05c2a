package stats

import (
	"math"
	"testing"

	"github.com/sweep-dev/sweep/sweep"
)

// inBlock moves a window to block b.
func inBlock(b int) func(*sweep.Window) {
	return func(w *sweep.Window) { w.Block = b }
}

// TestBlocksPairWithinBlock: a candidate is paired with the baseline of
// its own block, so a machine that got 30% slower between two blocks does
// not show up as a change of the second block's candidate, and the drift
// is reported as the baseline's block-to-block spread.
func TestBlocksPairWithinBlock(t *testing.T) {
	const n = 12
	var ws []sweep.Window
	for r := range n {
		jit := 1 + 0.001*float64(r%3) // tiny noise, so that the intervals are proper
		// Block 0: baseline 100 µs, kr=a 10% cheaper.
		ws = append(ws, win(base, 1, r, 100*jit), win("kr=a", 1, r, 90*jit))
		// Block 1: the machine is 30% slower; kr=b costs the same as the
		// baseline, kr=c 10% more.
		ws = append(ws, win(base, 1, r, 130*jit, inBlock(1)), win("kr=b", 1, r, 130*jit, inBlock(1)),
			win("kr=c", 1, r, 143*jit, inBlock(1)))
	}
	a := Analyze(ws, Options{Baseline: base})
	for _, tt := range []struct {
		config  string
		change  float64
		verdict sweep.Verdict
	}{
		{"kr=a", -0.10, sweep.VerdictBetter},
		{"kr=b", 0, sweep.VerdictNoChange},
		{"kr=c", +0.10, sweep.VerdictWorse},
	} {
		d := cellOf(t, a, tt.config, 1).VsBaseline[sweep.MetricCPUPerReq]
		if math.Abs(d.Median-tt.change) > 0.005 || d.Pairs != n || d.Verdict != tt.verdict {
			t.Errorf("%s: median %+.3f over %d pairs, %s; want %+.3f over %d pairs, %s", tt.config, d.Median, d.Pairs, d.Verdict, tt.change, n, tt.verdict)
		}
	}
	if got := cellOf(t, a, base, 1).Rounds; got != 2*n {
		t.Errorf("baseline rounds = %d, want %d (both blocks)", got, 2*n)
	}
	if len(a.BlockDrift) != 1 {
		t.Fatalf("BlockDrift = %+v, want one level", a.BlockDrift)
	}
	d := a.BlockDrift[0]
	if d.Blocks != 2 || d.Concurrency != 1 || d.Metric != sweep.MetricCPUPerReq || math.Abs(d.Spread-0.30) > 0.001 {
		t.Errorf("BlockDrift = %+v, want 2 blocks at c=1, CPU/req spread +30%%", d)
	}
}

// TestOneBlockNoDrift: a run of one block reports no drift.
func TestOneBlockNoDrift(t *testing.T) {
	ws := append(flat(base, 1, 6, 100), flat("kr=a", 1, 6, 90)...)
	if a := Analyze(ws, Options{Baseline: base}); a.BlockDrift != nil {
		t.Errorf("BlockDrift = %+v, want none", a.BlockDrift)
	}
}
