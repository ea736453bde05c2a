package policy

import (
	"slices"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/schedule"
)

// racer is load.rounds = "race": race rounds at the target level, each
// block with surviving configs measured with its baseline, A/A twin (and
// reference), its slot order rotated like Steps'; after each round the
// race (package race) drops the configs shown worse and the infeasible
// ones. Then the finalists are confirmed: fresh rounds at every level,
// numbered from load.max_rounds on, in one block with the baseline and
// its twin. A race round already on disk is not measured again (the
// driver skips its windows) and its decisions are replayed from it.
type racer struct {
	d      Design
	plan   sweep.Plan
	s      *raceState
	k      int  // the next race round
	handed bool // race round k − 1 was handed out and is not yet observed
	done   bool // the confirmation was handed out
}

func newRacer(d Design) (*racer, error) {
	s, err := newRaceState(d.Head)
	if err != nil {
		return nil, err
	}
	return &racer{d: d, plan: d.Head.Plan, s: s}, nil
}

func (a *racer) Next(ws []sweep.Window, clk Clock) (Batch, error) {
	if a.done {
		return Batch{Stop: a.s.r.Stop().Reason}, nil
	}
	r := a.s.r
	if a.handed {
		a.handed = false
		if _, err := a.s.advance(ws, a.k-1); err != nil {
			return Batch{}, err
		}
	}
	if r.Stop().Reason == "" {
		steps := a.round(a.k)
		reserve := len(a.plan.Concurrency) * ConfirmRounds(a.plan, a.plan.Race.Finalists) * len(a.confirmSlots(a.plan.Race.Finalists))
		switch {
		case !raceRoundOnDisk(ws, a.k) && len(VerdictWindows(a.plan, ws)) > 0:
			a.s.halt(ws) // resumed after a budget stop: the confirmation had begun
		case clk.over(a.d.Budget, len(steps), reserve):
			a.s.halt(ws)
		default:
			a.k++
			a.handed = true
			return Batch{Steps: steps, Race: true, Note: Note{Concurrency: a.plan.TargetConc, Race: a.status()}}, nil
		}
	}
	a.done = true
	fin := a.confirmSlots(0, r.Finalists()...)
	n := 0
	for _, sl := range fin {
		if !sl.Baseline && !sl.AA && !sl.Reference {
			n++
		}
	}
	return Batch{Steps: a.confirmPlan(fin, ConfirmRounds(a.plan, n)), Note: Note{Concurrency: a.plan.TargetConc, RaceStop: a.status()}}, nil
}

// status is the race's state now.
func (a *racer) status() *RaceStatus {
	r := a.s.r
	st := r.Stop()
	out := &RaceStatus{Round: r.Round(), Left: len(r.Survivors()), Configs: len(r.Entries()), Leader: r.Leader(), Stop: st.Reason}
	if st.Reason != "" {
		out.Finalists = r.Finalists()
	}
	return out
}

// round is race round k's steps. The surviving configs other than the
// baseline are dealt again, in slot order, into as few blocks of at most
// run.block_size as hold them, of sizes differing by at most one; block
// b keeps the grid's block b's baseline, A/A twin and reference slots
// (the baseline config races through the first block's twin). The
// layout depends only on who survived round k − 1, so it is fixed before
// the round and a replay deals the same. Each block's order is rotated
// like Steps'.
func (a *racer) round(k int) []schedule.Step {
	alive := map[string]bool{}
	for _, l := range a.s.r.Survivors() {
		alive[l] = true
	}
	var cands []schedule.Slot
	for _, blk := range a.d.Blocks {
		for _, sl := range blk {
			if !sl.Baseline && !sl.AA && !sl.Reference && alive[sl.Config] {
				cands = append(cands, sl)
			}
		}
	}
	size := max(a.plan.BlockSize, 1)
	nb := (len(cands) + size - 1) / size
	if nb == 0 && alive[a.d.Head.Baseline] {
		nb = 1
	}
	var steps []schedule.Step
	next := 0
	for b := range nb {
		var slots []schedule.Slot
		for _, sl := range a.d.Blocks[b] {
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
		steps = append(steps, schedule.Round(slots, a.plan.TargetConc, k, a.plan.Seed+int64(b))...)
	}
	return steps
}

// confirmSlots is the confirmation block: the first block's baseline,
// A/A twin and reference slots and the finalists' slots, in slot order,
// all marked as one block after the grid's. With no finalists named it is
// the largest such block (most placeholder slots, with negative indices,
// only counted), for the budget and the worst case.
func (a *racer) confirmSlots(most int, finalists ...string) []schedule.Slot {
	var out []schedule.Slot
	for bi, blk := range a.d.Blocks {
		for _, sl := range blk {
			fixed := sl.Baseline || sl.AA || sl.Reference
			if (fixed && bi == 0) || (!fixed && slices.Contains(finalists, sl.Config)) {
				sl.Block = len(a.d.Blocks)
				out = append(out, sl)
			}
		}
	}
	for k := range most {
		out = append(out, schedule.Slot{Index: -1 - k, Block: len(a.d.Blocks)})
	}
	return out
}

// confirmPlan is the confirmation's steps: rounds fresh rounds of slots
// at every level, numbered from load.max_rounds on so that they never
// meet a race round's key, seeded for the confirmation's block.
func (a *racer) confirmPlan(slots []schedule.Slot, rounds int) []schedule.Step {
	steps := schedule.Steps(slots, a.plan.Concurrency, rounds, a.plan.Seed+int64(len(a.d.Blocks)))
	out := steps[:0]
	for _, s := range steps {
		if s.Warmup && a.plan.Restarts == sweep.RestartsRound {
			continue
		}
		if !s.Warmup {
			s.Round += a.plan.Race.MaxRounds
		}
		out = append(out, s)
	}
	return out
}

// Worst is the most a race can measure: load.max_rounds rounds of every
// slot at the target level, then the confirmation of analysis.finalists
// configs at every level.
func (a *racer) Worst() []schedule.Step {
	var steps []schedule.Step
	for _, blk := range a.d.Blocks {
		steps = append(steps, blockSteps(blk, []int{a.plan.TargetConc}, a.plan.Race.MaxRounds, a.plan.Seed, a.plan.Restarts)...)
	}
	fin := a.confirmSlots(a.plan.Race.Finalists)
	return append(steps, a.confirmPlan(fin, ConfirmRounds(a.plan, a.plan.Race.Finalists))...)
}

// raceRoundOnDisk reports whether ws hold a window of race round k.
func raceRoundOnDisk(ws []sweep.Window, k int) bool {
	return slices.ContainsFunc(ws, func(w sweep.Window) bool { return w.Race && w.Round == k })
}
