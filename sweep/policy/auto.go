package policy

import (
	"slices"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/schedule"
	"github.com/sweep-dev/sweep/sweep/stats"
)

// auto is load.rounds = "auto": block after block, at each level
// min_rounds rounds of every slot, then one round at a time of the
// baseline, its reference and the configs stats.Unresolved still names
// (the stopping rule reads only the magnitudes of the paired changes, so
// the verdicts' error rate holds), until none is left, max_rounds is
// reached, or the next round would overrun run.budget (the minimum
// rounds of the levels and blocks still to come are reserved).
//
// Each added round is decided from the windows the run had when it
// decided it: those of the earlier blocks and levels, and of this level's
// earlier rounds. A resumed run whose windows go on past a level that
// this process would extend (the interrupted process stopped it there,
// at run.budget) moves on as it did.
type auto struct {
	d      Design
	plan   sweep.Plan
	opts   stats.Options
	metric sweep.Metric
	alpha  float64 // each comparison's level, for the stopping rule
	bi, li int     // the current block and level
	round  int     // the next round of the current level; -1 before its first
	note   *BudgetStop
}

func newAuto(d Design) *auto {
	p := d.Head.Plan
	return &auto{
		d: d, plan: p,
		opts:   stats.Options{Baseline: d.Head.Baseline, AA: d.Head.AAConfig},
		metric: p.Objective.Metric(),
		alpha:  (1 - p.Confidence) / float64(stats.Family(len(p.Points)-1, len(p.Concurrency))),
		round:  -1,
	}
}

func (a *auto) Next(ws []sweep.Window, clk Clock) (Batch, error) {
	p := a.plan
	for a.bi < len(a.d.Blocks) {
		slots := a.d.Blocks[a.bi]
		conc := p.Concurrency[a.li]
		if a.round < 0 {
			a.round = p.MinRounds
			b := Batch{Steps: blockSteps(slots, []int{conc}, p.MinRounds, p.Seed, p.Restarts), Note: Note{Concurrency: conc, Resolve: p.Resolve, BudgetStop: a.note}}
			a.note = nil
			return b, nil
		}
		if a.round < p.Rounds {
			pending := a.pending(ws, slots, conc)
			if len(pending) > 0 && !a.movedOn(ws) {
				steps := schedule.Round(subset(slots, pending), conc, a.round, p.Seed+int64(slots[0].Block))
				if !clk.over(a.d.Budget, len(steps), a.reserve(len(slots))) {
					a.round++
					return Batch{Steps: steps, Note: Note{Concurrency: conc, Pending: pending, Resolve: p.Resolve}}, nil
				}
				a.note = &BudgetStop{Budget: a.d.Budget, Concurrency: conc, Rounds: a.round, Pending: pending}
			}
		}
		a.round = -1
		if a.li++; a.li == len(p.Concurrency) {
			a.li, a.bi = 0, a.bi+1
		}
	}
	return Batch{Stop: sweep.StopPlanned, Note: Note{Resolve: p.Resolve, BudgetStop: a.note}}, nil
}

// pending is the configs of slots still unresolved at conc, from the
// windows the run had when it decided the current round.
func (a *auto) pending(ws []sweep.Window, slots []schedule.Slot, conc int) []Pending {
	block := slots[0].Block
	var seen []sweep.Window
	for _, w := range ws {
		if a.before(w) || w.Block == block && w.Concurrency == conc && w.Round < a.round {
			seen = append(seen, w)
		}
	}
	var out []Pending
	for _, u := range stats.Unresolved(seen, a.opts, conc, a.metric, a.plan.Resolve, a.alpha) {
		// Configs of other blocks are not this block's to resolve.
		if slices.ContainsFunc(slots, func(s schedule.Slot) bool { return s.Config == u.Config }) {
			out = append(out, Pending{Config: u.Config, Resolution: u.Resolution, Pairs: u.Pairs})
		}
	}
	return out
}

// position is where (block, level) comes in the run's order, -1 for
// neither of this policy's.
func (a *auto) position(block, conc int) int {
	li := slices.Index(a.plan.Concurrency, conc)
	bi := slices.IndexFunc(a.d.Blocks, func(b []schedule.Slot) bool { return b[0].Block == block })
	if li < 0 || bi < 0 {
		return -1
	}
	return bi*len(a.plan.Concurrency) + li
}

// before reports whether w is of a block and level before the current.
func (a *auto) before(w sweep.Window) bool {
	pos := a.position(w.Block, w.Concurrency)
	return pos >= 0 && pos < a.bi*len(a.plan.Concurrency)+a.li
}

// movedOn reports whether ws hold a window of a block or level after the
// current one: the run that measured them left this level before the
// current round.
func (a *auto) movedOn(ws []sweep.Window) bool {
	cur := a.bi*len(a.plan.Concurrency) + a.li
	return slices.ContainsFunc(ws, func(w sweep.Window) bool { return a.position(w.Block, w.Concurrency) > cur })
}

// reserve is the windows of the minimum rounds of the levels and blocks
// still to come after the current level (n slots a block).
func (a *auto) reserve(n int) int {
	levels := len(a.plan.Concurrency)
	later := len(a.d.Blocks) - a.bi - 1
	return ((levels - a.li - 1) + later*levels) * n * a.plan.MinRounds
}

// subset is the baseline's slot, the reference's (every added round keeps
// the cells' pairs with it) and the pending configs' slots, in slot order.
func subset(slots []schedule.Slot, pending []Pending) []schedule.Slot {
	var out []schedule.Slot
	for _, s := range slots {
		if s.Baseline || s.Reference || slices.ContainsFunc(pending, func(p Pending) bool { return p.Config == s.Config }) {
			out = append(out, s)
		}
	}
	return out
}

func (a *auto) Worst() []schedule.Step {
	var steps []schedule.Step
	for _, b := range a.d.Blocks {
		steps = append(steps, blockSteps(b, a.plan.Concurrency, a.plan.Rounds, a.plan.Seed, a.plan.Restarts)...)
	}
	return steps
}
