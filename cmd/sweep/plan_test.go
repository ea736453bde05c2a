//go:build linux && cgo

package main

import (
	"testing"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/schedule"
)

// TestRemaining checks what a resumed run still has to do: finished
// windows drop out, and so does the warmup of a level with nothing left.
func TestRemaining(t *testing.T) {
	slots := []schedule.Slot{{Index: 0, Config: "a"}, {Index: 1, Config: "b"}}
	steps := schedule.Plan(slots, []int{1, 4}, 2, 1)
	done := map[sweep.WindowKey]bool{}
	for _, s := range steps {
		if !s.Warmup && (s.Concurrency == 1 || s.Round == 0) {
			done[s.Key()] = true
		}
	}
	got := remaining(steps, done)
	var warm, measured int
	for _, s := range got {
		if s.Concurrency == 1 {
			t.Errorf("level 1 is finished but %+v is still planned", s)
		}
		if s.Warmup {
			warm++
		} else {
			measured++
			if s.Round != 1 {
				t.Errorf("finished window %+v planned again", s.Key())
			}
		}
	}
	if warm != 2 || measured != 2 {
		t.Errorf("remaining: %d warmups, %d windows; want 2 and 2", warm, measured)
	}
	if n := len(remaining(steps, nil)); n != len(steps) {
		t.Errorf("nothing done: %d of %d steps remain", n, len(steps))
	}
}
