package driver

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/config"
	"github.com/sweep-dev/sweep/sweep/race"
	"github.com/sweep-dev/sweep/sweep/schedule"
)

// racer runs load.rounds = "race": race rounds at the target level, each
// block with surviving configs measured with its baseline, A/A twin (and
// reference), its slot order rotated like Plan's; after each round the
// race (package race) drops the configs shown worse and the infeasible
// ones. Then the finalists are confirmed: fresh rounds at every level,
// numbered from load.max_rounds on, in one block with the baseline and
// its twin. Windows already in results.jsonl are not measured again and
// the decisions are replayed from them, so -resume makes the same ones.
type racer struct {
	c      *config.Config
	blocks [][]schedule.Slot
	done   map[sweep.WindowKey]bool
	r      schedule.Runner
	emit   func(sweep.Window) error
	ws     *[]sweep.Window
	prog   *progress
	start  time.Time
}

// ConfirmRounds is the confirmation's rounds per level for n finalists
// other than the baseline (race.ConfirmRounds at c's confidence and levels).
func ConfirmRounds(c *config.Config, n int) int {
	return race.ConfirmRounds(c.Analysis.Confidence, n, len(c.Load.Concurrency))
}

func (a *racer) run(ctx context.Context) ([]schedule.Step, error) {
	c := a.c
	s, err := newRaceState(c)
	if err != nil {
		return nil, err
	}
	var all []schedule.Step
	windows := 0
	measured := func(w sweep.Window) error { windows++; return a.emit(w) }
	raceEmit := func(w sweep.Window) error { w.Race = true; return measured(w) }
	confirmSlots := len(a.confirmSlots(c.Analysis.Finalists)) // at most
	reserve := len(c.Load.Concurrency) * ConfirmRounds(c, c.Analysis.Finalists) * confirmSlots
	for k := 0; s.r.Stop().Reason == ""; k++ {
		if !raceRoundOnDisk(*a.ws, k) && len(confirmWindows(*a.ws)) > 0 {
			s.r.Halt(race.StopBudget) // resumed after a budget stop: the confirmation had begun
			break
		}
		steps := a.round(s.r, k)
		if c.Run.Budget > 0 && windows > 0 {
			per := time.Since(a.start) / time.Duration(windows)
			if time.Since(a.start)+time.Duration(len(steps)+reserve)*per > c.Run.Budget {
				s.r.Halt(race.StopBudget)
				break
			}
		}
		all = append(all, steps...)
		if err := schedule.Execute(ctx, steps, a.done, a.r, raceEmit); err != nil {
			return all, err
		}
		if _, err := s.advance(c, *a.ws, k); err != nil {
			return all, err
		}
		a.prog.note(raceText(s.r), "")
	}
	st := s.r.Stop()
	a.prog.note("", fmt.Sprintf("race at c=%d stopped after %d rounds (%s): %s", c.Analysis.TargetConcurrency, st.Round, st.Reason, raceText(s.r)))
	fin := a.confirmSlots(0, s.r.Finalists()...)
	n := 0
	for _, sl := range fin {
		if !sl.Baseline && !sl.AA && !sl.Reference {
			n++
		}
	}
	steps := confirmPlan(c, fin, ConfirmRounds(c, n), len(a.blocks))
	all = append(all, steps...)
	err = schedule.Execute(ctx, steps, a.done, a.r, measured)
	a.prog.note("", "")
	return all, err
}

// round is race round k's steps. The surviving configs other than the
// baseline are dealt again, in slot order, into as few blocks of at most
// run.block_size as hold them, of sizes differing by at most one; block
// b keeps the grid's block b's baseline, A/A twin and reference slots
// (the baseline config races through the first block's twin). The
// layout depends only on who survived round k − 1, so it is fixed before
// the round and a replay deals the same. Each block's order is rotated
// like Plan's.
func (a *racer) round(r *race.Race, k int) []schedule.Step {
	alive := map[string]bool{}
	for _, l := range r.Survivors() {
		alive[l] = true
	}
	var cands []schedule.Slot
	for _, blk := range a.blocks {
		for _, sl := range blk {
			if !sl.Baseline && !sl.AA && !sl.Reference && alive[sl.Config] {
				cands = append(cands, sl)
			}
		}
	}
	size := max(a.c.Run.BlockSize, 1)
	nb := (len(cands) + size - 1) / size
	if nb == 0 && alive[BaselineLabel(a.c)] {
		nb = 1
	}
	var steps []schedule.Step
	next := 0
	for b := range nb {
		var slots []schedule.Slot
		for _, sl := range a.blocks[b] {
			if sl.Baseline || sl.AA || sl.Reference {
				slots = append(slots, sl)
			}
		}
		n := len(cands) / nb
		if b < len(cands)%nb {
			n++
		}
		for _, sl := range cands[next : next+n] {
			sl.Block = b
			slots = append(slots, sl)
		}
		next += n
		steps = append(steps, schedule.Round(slots, a.c.Analysis.TargetConcurrency, k, a.c.Run.Seed+int64(b))...)
	}
	return steps
}

// confirmSlots is the confirmation block: the first block's baseline,
// A/A twin and reference slots and the finalists' slots, in slot order,
// all marked as one block after the grid's. With no finalists named it is
// the largest such block (analysis.finalists configs), for the budget.
func (a *racer) confirmSlots(most int, finalists ...string) []schedule.Slot {
	var out []schedule.Slot
	for bi, blk := range a.blocks {
		for _, sl := range blk {
			fixed := sl.Baseline || sl.AA || sl.Reference
			if (fixed && bi == 0) || (!fixed && slices.Contains(finalists, sl.Config)) {
				sl.Block = len(a.blocks)
				out = append(out, sl)
			}
		}
	}
	for k := range most {
		out = append(out, schedule.Slot{Index: -1 - k, Block: len(a.blocks)}) // placeholders: only counted
	}
	return out
}

// confirmPlan is the confirmation's steps: rounds fresh rounds of slots
// at every level, numbered from load.max_rounds on so that they never
// meet a race round's key, seeded for block.
func confirmPlan(c *config.Config, slots []schedule.Slot, rounds, block int) []schedule.Step {
	steps := schedule.Plan(slots, c.Load.Concurrency, rounds, c.Run.Seed+int64(block))
	out := steps[:0]
	for _, s := range steps {
		if s.Warmup && c.Run.Restarts == sweep.RestartsRound {
			continue
		}
		if !s.Warmup {
			s.Round += c.Load.MaxRounds
		}
		out = append(out, s)
	}
	return out
}

// raceText is the progress line's race part: "race round 7: 5 of 16
// left, leader keep=64KiB".
func raceText(r *race.Race) string {
	return fmt.Sprintf("race round %d: %d of %d left, leader %s", r.Round(), len(r.Survivors()), len(r.Entries()), r.Leader())
}

// RaceWorstPlan is the most a race can measure: load.max_rounds rounds of
// every slot at the target level, then the confirmation of
// analysis.finalists configs (placeholder slots with negative indices)
// at every level. -dry-run estimates it; the progress shows it as the
// upper bound.
func RaceWorstPlan(c *config.Config) []schedule.Step {
	a := &racer{c: c, blocks: Blocks(c)}
	var steps []schedule.Step
	for bi, blk := range a.blocks {
		steps = append(steps, schedule.Plan(blk, []int{c.Analysis.TargetConcurrency}, c.Load.MaxRounds, c.Run.Seed+int64(bi))...)
	}
	if c.Run.Restarts == sweep.RestartsRound {
		steps = slices.DeleteFunc(steps, func(s schedule.Step) bool { return s.Warmup })
	}
	fin := a.confirmSlots(c.Analysis.Finalists)
	return append(steps, confirmPlan(c, fin, ConfirmRounds(c, c.Analysis.Finalists), len(a.blocks))...)
}

// raceRoundOnDisk reports whether ws hold a window of race round k.
func raceRoundOnDisk(ws []sweep.Window, k int) bool {
	return slices.ContainsFunc(ws, func(w sweep.Window) bool { return w.Race && w.Round == k })
}
