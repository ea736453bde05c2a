package schedule

import (
	"context"
	"errors"
	"fmt"

	"github.com/sweep-dev/sweep/sweep"
)

// Runner performs the steps of a plan; the driver implements it.
//
// A failure of one window (the server crashed, never became ready, the
// load failed) is not an error: Measure returns a Window with Failed set
// and a nil error, and the run goes on. An error from any method is fatal
// and stops Execute.
type Runner interface {
	// Warmup runs the discarded warmup window of a step.
	Warmup(ctx context.Context, s Step) error
	// MeasureRound runs the measured windows of one round: steps are the
	// round's steps still to measure (same concurrency and round, never
	// empty), in position order. It calls emit(i, w) with the window of
	// steps[i] as soon as that window is complete, once per step; windows
	// measured in interleaved slices are all complete only at the end of
	// the round. When a step's window failed, the runner may emit one
	// more window for it, its re-measure (Remeasured set), before it
	// returns. An error from emit must stop it and be returned.
	MeasureRound(ctx context.Context, steps []Step, emit func(i int, w sweep.Window) error) error
	// RoundStart is called before the first executed step of each
	// (block, concurrency, round), the warmup "round" -1 included. The
	// driver restarts its servers there when restarts = "round", and
	// stops the previous block's when the block changes.
	RoundStart(ctx context.Context, block, concurrency, round int) error
}

// Execute runs steps in order through r and calls emit with every
// measured window as soon as it ends (the driver appends it to
// results.jsonl), before the next step starts.
//
// Measured steps whose key is in done are skipped (-resume); the warmup
// steps of a concurrency level are skipped when every measured step of
// that level is done, and RoundStart is not called for a round with
// nothing left to run.
//
// Execute stamps the step's identity (config, point, slot, baseline, A/A,
// concurrency, round, position) onto each window, so that a resumed run
// finds exactly the keys this plan asks for. It stops when ctx is
// cancelled and returns an error wrapping ctx.Err(); a window that ends
// after cancellation is discarded, so -resume measures it again. Errors
// from r or emit stop the run and are returned wrapped with the step.
func Execute(ctx context.Context, steps []Step, done map[sweep.WindowKey]bool, r Runner, emit func(sweep.Window) error) error {
	type level struct{ block, conc int }
	left := make(map[level]int) // measured steps still to run
	for _, s := range steps {
		if !s.Warmup && !done[s.Key()] {
			left[level{s.Slot.Block, s.Concurrency}]++
		}
	}
	type round struct{ block, conc, round int }
	var cur round
	started := false
	for i := 0; i < len(steps); i++ {
		s := steps[i]
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("schedule: stopped before step %d of %d (%s): %w", i+1, len(steps), describe(s), err)
		}
		if s.Warmup && left[level{s.Slot.Block, s.Concurrency}] == 0 || !s.Warmup && done[s.Key()] {
			continue
		}
		if k := (round{s.Slot.Block, s.Concurrency, s.Round}); !started || k != cur {
			if err := r.RoundStart(ctx, s.Slot.Block, s.Concurrency, s.Round); err != nil {
				return stepError(ctx, "starting round", s, err)
			}
			cur, started = k, true
		}
		if s.Warmup {
			if err := r.Warmup(ctx, s); err != nil {
				return stepError(ctx, "running", s, err)
			}
			continue
		}
		// The rest of this round: consecutive measured steps of the same
		// level and round, minus those already done.
		var group []Step
		j := i
		for ; j < len(steps) && !steps[j].Warmup && steps[j].Slot.Block == s.Slot.Block && steps[j].Concurrency == s.Concurrency && steps[j].Round == s.Round; j++ {
			if !done[steps[j].Key()] {
				group = append(group, steps[j])
			}
		}
		i = j - 1
		emitted := make([]emission, len(group))
		var emitErr error // returned as it is, not wrapped again
		err := r.MeasureRound(ctx, group, func(k int, w sweep.Window) error {
			emitErr = emitOne(ctx, group, emitted, k, w, emit)
			return emitErr
		})
		if err != nil && emitErr != nil && errors.Is(err, emitErr) {
			return emitErr
		}
		if err != nil {
			return wrapStop(ctx, fmt.Sprintf("schedule: measuring round %d at c=%d", s.Round, s.Concurrency), err)
		}
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("schedule: stopped during round %d at c=%d: %w", s.Round, s.Concurrency, err)
		}
		for k, e := range emitted {
			if e == notEmitted {
				return fmt.Errorf("schedule: runner returned without a window for %s", describe(group[k]))
			}
		}
	}
	return nil
}

// emission is what emitOne has seen of one step's windows.
type emission int

const (
	notEmitted    emission = iota
	emittedGood            // a good window, or a re-measure: no more
	emittedFailed          // a failed window: its re-measure may follow
)

// emitOne stamps and emits the window of group[k], unless ctx was
// cancelled (the window is then discarded, so -resume measures it again).
// A step takes one window, or a failed one followed by one re-measure.
func emitOne(ctx context.Context, group []Step, emitted []emission, k int, w sweep.Window, emit func(sweep.Window) error) error {
	if k < 0 || k >= len(group) {
		return fmt.Errorf("schedule: runner emitted window %d of a round of %d: out of range", k, len(group))
	}
	switch {
	case emitted[k] == notEmitted && !w.Remeasured:
	case emitted[k] == emittedFailed && w.Remeasured:
	default:
		return fmt.Errorf("schedule: runner emitted a window for %s twice (only a failed window may be re-measured, once)", describe(group[k]))
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("schedule: stopped during %s, window discarded: %w", describe(group[k]), err)
	}
	emitted[k] = emittedGood
	if w.Failed && !w.Remeasured {
		emitted[k] = emittedFailed
	}
	stamp(&w, group[k])
	if err := emit(w); err != nil {
		return fmt.Errorf("schedule: recording %s: %w", describe(group[k]), err)
	}
	return nil
}

// stamp writes the step's identity onto its window.
func stamp(w *sweep.Window, s Step) {
	w.Config = s.Slot.Config
	w.Point = s.Slot.Point
	w.Slot = s.Slot.Index
	w.Baseline = s.Slot.Baseline
	w.AA = s.Slot.AA
	w.Reference = s.Slot.Reference
	w.Block = s.Slot.Block
	w.Concurrency = s.Concurrency
	w.Round = s.Round
	w.Position = s.Position
}

// stepError wraps a runner error with its step; when the context was
// cancelled meanwhile the result also wraps ctx.Err().
func stepError(ctx context.Context, verb string, s Step, err error) error {
	return wrapStop(ctx, "schedule: "+verb+" "+describe(s), err)
}

// wrapStop prefixes err; when the context was cancelled meanwhile the
// result also wraps ctx.Err().
func wrapStop(ctx context.Context, prefix string, err error) error {
	if cerr := ctx.Err(); cerr != nil && !errors.Is(err, cerr) {
		return fmt.Errorf("%s: %w (stopped: %w)", prefix, err, cerr)
	}
	return fmt.Errorf("%s: %w", prefix, err)
}

// describe names a step for error messages.
func describe(s Step) string {
	if s.Warmup {
		return fmt.Sprintf("warmup of slot %d (%s) at c=%d", s.Slot.Index, s.Slot.Config, s.Concurrency)
	}
	return fmt.Sprintf("slot %d (%s) at c=%d round %d", s.Slot.Index, s.Slot.Config, s.Concurrency, s.Round)
}
