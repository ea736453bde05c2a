package driver

import (
	"fmt"
	"testing"

	"github.com/sweep-dev/sweep/sweep"
)

// TestReferenceSlot runs a command target with run.reference: the
// reference slot is sweep's built-in host (far cheaper per request than
// the 1 ms burners), measured every round, kept out of the cells and the
// verdicts.
func TestReferenceSlot(t *testing.T) {
	_, s, ws := run(t, fmt.Sprintf(`
name = "reference"
[target]
kind = "command"
command = [%q, "-port", "{{port}}", "-burn", "{{burn}}"]
url = "http://127.0.0.1:{{port}}/"
[grid]
burn = ["1ms", "2ms"]
[load]
concurrency = [1]
warmup = "200ms"
duration = "600ms"
rounds = 2
aa = false
[run]
reference = true
`, bins.burner))
	var refs []sweep.Window
	for _, w := range ws {
		if w.Reference {
			refs = append(refs, w)
			if w.Config != ReferenceLabel || len(w.Point) != 0 || w.Baseline || w.AA || w.Failed {
				t.Errorf("reference window %+v: want config %q, no point, not baseline/A-A, not failed", w, ReferenceLabel)
			}
		} else if w.Config == ReferenceLabel {
			t.Errorf("window of %q without reference = true", w.Config)
		}
	}
	if len(refs) != 2 {
		t.Fatalf("%d reference windows, want 2 (one per round)", len(refs))
	}
	if len(s.Reference) != 1 || s.Reference[0].Rounds != 2 {
		t.Fatalf("summary reference = %+v, want one cell with 2 rounds", s.Reference)
	}
	ref := s.Reference[0].CPUUsPerReq
	if ref <= 0 || ref >= 800 {
		t.Errorf("reference CPU/req = %.0f µs: want the built-in host's (under 800), not a 1 ms burner's", ref)
	}
	if len(s.Cells) != 2 {
		t.Fatalf("%d cells, want the 2 grid points only", len(s.Cells))
	}
	for _, c := range s.Cells {
		if c.CPUUsPerReq < 1.25*ref {
			t.Errorf("%s: CPU/req %.0f µs, want a 1 ms burner far dearer than the reference's %.0f", c.Config, c.CPUUsPerReq, ref)
		}
	}
	if s.Plan.Slots != 3 {
		t.Errorf("plan.slots = %d, want 3 (two points and the reference)", s.Plan.Slots)
	}
}
