package stats

import (
	"testing"

	"github.com/sweep-dev/sweep/sweep"
)

// refWindows is n rounds of the reference server at conc, its CPU per
// request moving with the round as the machine's level would.
func refWindows(conc, n int, cpu func(round int) float64) []sweep.Window {
	var ws []sweep.Window
	for r := range n {
		w := win("[reference]", conc, r, cpu(r))
		w.Point, w.Baseline, w.Slot, w.Reference = sweep.Point{}, false, 9, true
		ws = append(ws, w)
	}
	return ws
}

func TestReference(t *testing.T) {
	const n = 12
	drift := func(r int) float64 { return 1 + 0.02*float64(r%4) } // the machine's level, round by round
	var ws []sweep.Window
	for r := range n {
		ws = append(ws, win(base, 1, r, 100*drift(r)), win(aa, 1, r, 100*drift(r)), win("kr=64KiB", 1, r, 130*drift(r)))
	}
	with := join(ws, refWindows(1, n, func(r int) float64 { return 50 * drift(r) }))
	a, plain := Analyze(with, Options{}), Analyze(ws, Options{})

	if len(a.Cells) != len(plain.Cells) {
		t.Fatalf("cells with a reference = %d, without = %d: the reference must not be a cell", len(a.Cells), len(plain.Cells))
	}
	for _, c := range a.Cells {
		if c.Config == "[reference]" {
			t.Fatalf("the reference is among the cells: %+v", c)
		}
	}
	if len(a.Reference) != 1 || a.Reference[0].Concurrency != 1 || a.Reference[0].Rounds != n {
		t.Fatalf("Reference = %+v, want one cell at c=1 with %d rounds", a.Reference, n)
	}
	if got := a.Reference[0].CPUUsPerReq; got < 50 || got > 50*1.06 {
		t.Errorf("reference CPU/req median = %v, want within the reference's 50…53 µs", got)
	}
	// The verdicts are those of the run without a reference: same family.
	got, want := cellOf(t, a, "kr=64KiB", 1).VsBaseline[sweep.MetricCPUPerReq], cellOf(t, plain, "kr=64KiB", 1).VsBaseline[sweep.MetricCPUPerReq]
	if got.Verdict != want.Verdict || got.Correction != want.Correction || got.PAdjusted != want.PAdjusted {
		t.Errorf("vs baseline with a reference = %q %q p=%v, without = %q %q p=%v", got.Verdict, got.Correction, got.PAdjusted, want.Verdict, want.Correction, want.PAdjusted)
	}
	if plain.Reference != nil {
		t.Errorf("a run without a reference has Reference %v", plain.Reference)
	}
}
