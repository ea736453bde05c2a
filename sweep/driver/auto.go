package driver

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/config"
	"github.com/sweep-dev/sweep/sweep/schedule"
	"github.com/sweep-dev/sweep/sweep/stats"
)

// auto runs an adaptive plan (load.rounds = "auto"): at each level
// min_rounds rounds of every slot, then one round at a time of the
// baseline and the configs stats.Unresolved still names (the stopping
// rule reads only the magnitudes of the paired changes, so the verdicts'
// error rate holds), until none is left, max_rounds is reached, or the
// next round would overrun run.budget (the minimum rounds of the levels
// still to come are reserved). A run of several blocks does so block
// after block, each block's slot order seeded like Plan's. It returns the
// steps it ran.
type auto struct {
	c      *config.Config
	blocks [][]schedule.Slot // the blocks to run
	slots  []schedule.Slot   // the current block's
	seed   int64             // the current block's seed
	done   map[sweep.WindowKey]bool
	r      schedule.Runner
	emit   func(sweep.Window) error
	ws     *[]sweep.Window // every window so far, this run's and a resumed run's
	prog   *progress
	start  time.Time
}

// AutoMin is an adaptive run's rounds per level before any is added:
// load.min_rounds, or when unset one more than the fewest pairs with which
// the signed-rank test can reach the correction's strictest level.
func AutoMin(c *config.Config) int {
	if c.Load.MinRounds > 0 {
		return c.Load.MinRounds
	}
	return min(roundsNeeded(c)+1, c.Load.MaxRounds)
}

func (a *auto) run(ctx context.Context) ([]schedule.Step, error) {
	var all []schedule.Step
	windows := 0 // windows measured by this process, for the budget's rate
	for bi, slots := range a.blocks {
		a.slots, a.seed = slots, a.c.Run.Seed+int64(slots[0].Block)
		var err error
		all, err = a.block(ctx, all, &windows, len(a.blocks)-bi-1)
		if err != nil {
			return all, err
		}
	}
	return all, nil
}

// block runs the current block, appending its steps to all; later is the
// number of blocks still to come (their minimum rounds are reserved from
// the budget).
func (a *auto) block(ctx context.Context, all []schedule.Step, windows *int, later int) ([]schedule.Step, error) {
	c := a.c
	alpha := (1 - c.Analysis.Confidence) / float64(family(c))
	metric := c.Analysis.Objective.Metric()
	opts := stats.Options{Baseline: BaselineLabel(c), AA: AALabel(c)}
	for li, conc := range c.Load.Concurrency {
		minRounds := AutoMin(c)
		first := schedule.Plan(a.slots, []int{conc}, minRounds, a.seed)
		if c.Run.Restarts == sweep.RestartsRound {
			first = slices.DeleteFunc(first, func(s schedule.Step) bool { return s.Warmup })
		}
		all = append(all, first...) // before running: an interrupted round leaves the run incomplete
		if err := a.exec(ctx, first, windows); err != nil {
			return all, err
		}
		for round := minRounds; round < c.Load.MaxRounds; round++ {
			// Configs of other blocks are not this block's to resolve.
			pending := slices.DeleteFunc(stats.Unresolved(*a.ws, opts, conc, metric, c.Analysis.Resolve, alpha), func(p stats.Pending) bool {
				return !slices.ContainsFunc(a.slots, func(s schedule.Slot) bool { return s.Config == p.Config })
			})
			if len(pending) == 0 {
				break
			}
			next := a.subset(pending)
			steps := schedule.Round(next, conc, round, a.seed)
			if c.Run.Budget > 0 && *windows > 0 {
				per := time.Since(a.start) / time.Duration(*windows)
				reserve := time.Duration(((len(c.Load.Concurrency)-li-1)+later*len(c.Load.Concurrency))*len(a.slots)*minRounds) * per
				if time.Since(a.start)+time.Duration(len(steps))*per+reserve > c.Run.Budget {
					a.prog.note("", fmt.Sprintf("c=%d: run.budget %s reached after %d rounds; still unresolved: %s", conc, c.Run.Budget, round, pendingText(pending, c.Analysis.Resolve)))
					break
				}
			}
			a.prog.note(pendingText(pending, c.Analysis.Resolve), "")
			all = append(all, steps...)
			if err := a.exec(ctx, steps, windows); err != nil {
				return all, err
			}
		}
		a.prog.note("", "")
	}
	return all, nil
}

// exec runs steps, counting the windows this process measured.
func (a *auto) exec(ctx context.Context, steps []schedule.Step, windows *int) error {
	return schedule.Execute(ctx, steps, a.done, a.r, func(w sweep.Window) error {
		*windows++
		return a.emit(w)
	})
}

// subset is the baseline's slot, the reference's (every added round keeps
// the cells' pairs with it) and the pending configs' slots, in slot order.
func (a *auto) subset(pending []stats.Pending) []schedule.Slot {
	var out []schedule.Slot
	for _, s := range a.slots {
		if s.Baseline || s.Reference || slices.ContainsFunc(pending, func(p stats.Pending) bool { return p.Config == s.Config }) {
			out = append(out, s)
		}
	}
	return out
}

// pendingText names the unresolved configs: "64KiB ±3.1% (9 pairs)".
func pendingText(ps []stats.Pending, resolve float64) string {
	var parts []string
	for _, p := range ps {
		res := "no interval yet"
		if p.Resolution < 1e9 {
			res = fmt.Sprintf("±%.1f%%", 100*p.Resolution)
		}
		parts = append(parts, fmt.Sprintf("%s %s (%d pairs)", p.Config, res, p.Pairs))
	}
	return fmt.Sprintf("%d to ±%.1f%%: %s", len(ps), 100*resolve, strings.Join(parts, ", "))
}
