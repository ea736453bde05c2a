package driver

import (
	"testing"
	"time"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/config"
	"github.com/sweep-dev/sweep/sweep/schedule"
	"github.com/sweep-dev/sweep/sweep/shard"
)

// TestRemaining checks what a resumed run still has to do: finished
// windows drop out, and so does the warmup of a level with nothing left.
func TestRemaining(t *testing.T) {
	slots := []schedule.Slot{{Index: 0, Config: "a"}, {Index: 1, Config: "b"}}
	steps := schedule.Steps(slots, []int{1, 4}, 2, 1)
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

// TestEstimateProfile: with analysis.profile the estimate adds every
// profiled cell (each level of every slot but the A/A twin): its
// warmup, window, perf's settling and profileOverhead.
func TestEstimateProfile(t *testing.T) {
	c, err := config.Load("../../configs/profile.toml")
	if err != nil {
		t.Fatal(err)
	}
	c.Analysis.Profile = false
	without := Estimate(c, shard.Spec{}, nil)
	c.Analysis.Profile = true
	with := Estimate(c, shard.Spec{}, nil)
	cells := 2 * 2 // keep_resident 0 and 64KiB (no A/A twin) × c = 1, 16
	want := time.Duration(cells) * (c.Load.Warmup + c.Load.Duration + time.Second + profileOverhead)
	if got := with - without; got != want {
		t.Errorf("profiling adds %v to the estimate, want %v (%d cells)", got, want, cells)
	}
	c.Load.AA = true
	c.Analysis.Profile = false
	without = Estimate(c, shard.Spec{}, nil)
	c.Analysis.Profile = true
	if got := Estimate(c, shard.Spec{}, nil) - without; got != want {
		t.Errorf("with an A/A twin, profiling adds %v, want %v: the twin is not profiled", got, want)
	}
}
