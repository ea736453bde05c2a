package driver

import (
	"context"
	"fmt"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/awake"
	"github.com/sweep-dev/sweep/sweep/config"
	"github.com/sweep-dev/sweep/sweep/cpuset"
	"github.com/sweep-dev/sweep/sweep/load"
	"github.com/sweep-dev/sweep/sweep/schedule"
)

// runner implements schedule.Runner against real server processes.
type runner struct {
	c      *config.Config
	o      Options
	slots  []*slotState
	gens   map[genKey]*load.Generator
	pinned cpuset.Set      // affinity read back from a server
	awake  *awake.Spinners // nil: CPUs not kept awake
	failed int
	block  int // the block of the current round
	onStep func(schedule.Step)
}

// newRunner returns a runner for slots, with no server started yet.
func newRunner(c *config.Config, o Options, slots []schedule.Slot) *runner {
	r := &runner{c: c, o: o, gens: map[genKey]*load.Generator{}}
	for _, s := range slots {
		r.slots = append(r.slots, &slotState{slot: s, cpus: SlotCPUs(c, s)})
	}
	return r
}

// RoundStart restarts every server when restarts = "round"; otherwise the
// servers started for a block's first round live until its last. When
// the block changes, the previous block's servers are stopped: only one
// block's servers are alive at a time.
func (r *runner) RoundStart(ctx context.Context, block, conc, round int) error {
	if block != r.block || r.c.Run.Restarts == sweep.RestartsRound && round >= 0 {
		r.stopAll()
	}
	r.block = block
	return nil
}

// Warmup runs one discarded window on the slot.
func (r *runner) Warmup(ctx context.Context, s schedule.Step) error {
	if r.onStep != nil {
		r.onStep(s)
	}
	st := r.slots[s.Slot.Index]
	if st.givenUp {
		return nil
	}
	if _, err := r.ensure(ctx, st); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		r.startFailed(st, err)
		return nil
	}
	if st.givenUp {
		return nil
	}
	g, err := r.generator(st, s.Concurrency)
	if err != nil {
		return err
	}
	_, err = g.Run(ctx, r.c.Load.Warmup)
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if err != nil {
		return fmt.Errorf("warmup of %s at c=%d: %w", st.slot.Config, s.Concurrency, err)
	}
	return nil
}
