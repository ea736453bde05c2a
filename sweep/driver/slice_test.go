package driver

import (
	"testing"
)

// TestSlicedWindows: with load.slice, every window of a real builtin run
// is the sum of duration/slice pieces: the recorded slice count, a span
// under load of about the window's duration, requests, CPU per request;
// and the pool limit's 503s at c=8 still land in the right slot's window.
func TestSlicedWindows(t *testing.T) {
	_, s, ws := run(t, `
name = "sliced"
[workload]
touch = "16KiB"
io_wait = "5ms"
[grid]
total_memories = [1000, 2]
[load]
concurrency = [1, 8]
warmup = "300ms"
duration = "600ms"
slice = "100ms"
rounds = 2
[run]
restarts = "never" # written for one process per slot
keep_awake = false
`)
	if want := 3 * 2 * 2; len(ws) != want {
		t.Fatalf("results.jsonl has %d windows, want %d", len(ws), want)
	}
	for _, w := range ws {
		if w.Failed {
			t.Fatalf("window failed: %+v", w)
		}
		if w.Slices != 6 {
			t.Errorf("%s c=%d round %d: slices = %d, want 6", w.Config, w.Concurrency, w.Round, w.Slices)
		}
		if w.Seconds < 0.6 || w.Seconds > 0.9 {
			t.Errorf("%s c=%d: %.3f s under load, want 0.6 s plus the pieces' drain", w.Config, w.Concurrency, w.Seconds)
		}
		if w.Requests == 0 || w.CPUUsPerReq <= 0 {
			t.Errorf("%s c=%d: requests %d, cpu/req %.1f", w.Config, w.Concurrency, w.Requests, w.CPUUsPerReq)
		}
		if got := w.Errors5xx > 0; got != (w.Config == "total_memories=2" && w.Concurrency == 8) {
			t.Errorf("%s c=%d: %d 5xx; want 503s only for total_memories=2 at c=8", w.Config, w.Concurrency, w.Errors5xx)
		}
	}
	if c := cell(t, s, "total_memories=2", 8); c.Cliff == nil {
		t.Errorf("no cliff for total_memories=2 at c=8: %+v", c)
	}
	// The summary says how the windows were measured.
	if s.Plan.Slices != 6 {
		t.Errorf("summary.json plan.slices = %d, want 6", s.Plan.Slices)
	}
	checkAwake(t, s, false)
}
