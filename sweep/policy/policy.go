package policy

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/schedule"
)

// Design is what a policy decides over: the run's head (its plan,
// baseline and A/A twin, as summary.json records them before any
// window), the blocks of slots it measures (a shard's only, for fixed
// and auto rounds) and run.budget (0 for none).
type Design struct {
	Head   sweep.Summary
	Blocks [][]schedule.Slot
	Budget time.Duration
}

// Clock is the driver's account of time: the wall time since this
// process began measuring and the windows it measured in it. A policy
// reads it only for run.budget.
type Clock struct {
	Elapsed time.Duration
	Windows int
}

// perWindow is the wall time a window has taken this process, false
// before its first.
func (c Clock) perWindow() (time.Duration, bool) {
	if c.Windows <= 0 {
		return 0, false
	}
	return c.Elapsed / time.Duration(c.Windows), true
}

// over reports whether measuring windows more, and reserving reserve
// more after them, would overrun budget at the clock's rate so far.
func (c Clock) over(budget time.Duration, windows, reserve int) bool {
	per, ok := c.perWindow()
	return budget > 0 && ok && c.Elapsed+time.Duration(windows+reserve)*per > budget
}

// Batch is what a policy hands the driver: steps to measure in order, or,
// with Stop set, nothing more.
type Batch struct {
	Steps []schedule.Step
	// Race marks race rounds' windows (sweep.Window.Race).
	Race bool
	// Stop is why the policy measures nothing more ("" while it goes on).
	Stop sweep.StopReason
	// Note is what the batch is for, for the progress line.
	Note Note
}

// Note tells the progress line what a batch is for, as data.
type Note struct {
	// Concurrency is the level of an auto or race batch.
	Concurrency int
	// Pending are the configs an added auto round is to resolve, to
	// Resolve (analysis.resolve); none for a level's first rounds.
	Pending []Pending
	Resolve float64
	// BudgetStop is set on the first batch after run.budget ended a
	// level's added rounds: the level, the rounds it got and what was
	// left unresolved.
	BudgetStop *BudgetStop
	// Race is the race's state after the rounds so far; RaceStop is set
	// on the confirmation's batch.
	Race     *RaceStatus
	RaceStop *RaceStatus
}

// Pending is a config an added round is to resolve: its resolution so
// far (+Inf with no interval yet) and its pairs.
type Pending struct {
	Config     string
	Resolution float64
	Pairs      int
}

// BudgetStop is where run.budget ended an auto level.
type BudgetStop struct {
	Budget      time.Duration
	Concurrency int
	Rounds      int
	Pending     []Pending
}

// RaceStatus is a race's state: the rounds observed, the configs left
// of those raced, the leader, and, once it stopped, why.
type RaceStatus struct {
	Round     int
	Left      int
	Configs   int
	Leader    string
	Stop      sweep.StopReason
	Finalists []string
}

// Policy decides a run's batches.
type Policy interface {
	// Next is the next batch, decided from every window measured so far
	// (the windows of the batches handed before, a resumed run's
	// included) and the clock. After a batch with Stop set it returns
	// that batch again. An error is a broken invariant, never a property
	// of the settings.
	Next(ws []sweep.Window, clk Clock) (Batch, error)
	// Worst is every step the policy can hand out at most: -dry-run's
	// upper bound and the progress bar's total. (What a run can be
	// expected to take is package expect's: it simulates.)
	Worst() []schedule.Step
}

// Kind is a run's kind of policy, from its plan.
type Kind string

// The kinds.
const (
	KindFixed Kind = "fixed"
	KindAuto  Kind = "auto"
	KindRace  Kind = "race"
)

// KindOf is the kind of policy plan p runs.
func KindOf(p sweep.Plan) Kind {
	switch {
	case p.Race != nil:
		return KindRace
	case p.RoundsAuto:
		return KindAuto
	}
	return KindFixed
}

// ErrDesign is wrapped by New's errors: a design no policy can run.
var ErrDesign = errors.New("policy: bad design")

// New is the policy of d's plan.
func New(d Design) (Policy, error) {
	if len(d.Blocks) == 0 {
		return nil, fmt.Errorf("%w: no blocks", ErrDesign)
	}
	for _, b := range d.Blocks {
		if len(b) == 0 {
			return nil, fmt.Errorf("%w: an empty block", ErrDesign)
		}
	}
	switch KindOf(d.Head.Plan) {
	case KindRace:
		return newRacer(d)
	case KindAuto:
		return newAuto(d), nil
	}
	return newFixed(d), nil
}

// blockSteps is the plan of one block: rounds rounds of slots at each
// level of levels, seeded with seed + the block's number (so that a
// block's order is the same in every shard), without the level warmups
// when restarts = "round" (each window's server is fresh and warmed when
// it starts).
func blockSteps(slots []schedule.Slot, levels []int, rounds int, seed int64, restarts sweep.Restarts) []schedule.Step {
	steps := schedule.Steps(slots, levels, rounds, seed+int64(slots[0].Block))
	if restarts == sweep.RestartsRound {
		steps = slices.DeleteFunc(steps, func(s schedule.Step) bool { return s.Warmup })
	}
	return steps
}

// fixed is load.rounds = N: the whole plan in one batch.
type fixed struct {
	steps  []schedule.Step
	handed bool
}

func newFixed(d Design) *fixed {
	p := d.Head.Plan
	f := &fixed{}
	for _, b := range d.Blocks {
		f.steps = append(f.steps, blockSteps(b, p.Concurrency, p.Rounds, p.Seed, p.Restarts)...)
	}
	return f
}

func (f *fixed) Next([]sweep.Window, Clock) (Batch, error) {
	if f.handed {
		return Batch{Stop: sweep.StopPlanned}, nil
	}
	f.handed = true
	return Batch{Steps: f.steps}, nil
}

func (f *fixed) Worst() []schedule.Step { return f.steps }
