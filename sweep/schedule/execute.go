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
	// Measure runs one measured window and returns its measurement.
	Measure(ctx context.Context, s Step) (sweep.Window, error)
	// RoundStart is called before the first executed step of each
	// (concurrency, round), the warmup "round" -1 included. The driver
	// restarts its servers there when restarts = "round".
	RoundStart(ctx context.Context, concurrency, round int) error
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
	left := make(map[int]int) // concurrency → measured steps still to run
	for _, s := range steps {
		if !s.Warmup && !done[s.Key()] {
			left[s.Concurrency]++
		}
	}
	type round struct{ conc, round int }
	var cur round
	started := false
	for i, s := range steps {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("schedule: stopped before step %d of %d (%s): %w", i+1, len(steps), describe(s), err)
		}
		if s.Warmup && left[s.Concurrency] == 0 || !s.Warmup && done[s.Key()] {
			continue
		}
		if k := (round{s.Concurrency, s.Round}); !started || k != cur {
			if err := r.RoundStart(ctx, s.Concurrency, s.Round); err != nil {
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
		w, err := r.Measure(ctx, s)
		if err != nil {
			return stepError(ctx, "running", s, err)
		}
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("schedule: stopped during %s, window discarded: %w", describe(s), err)
		}
		stamp(&w, s)
		if err := emit(w); err != nil {
			return fmt.Errorf("schedule: recording %s: %w", describe(s), err)
		}
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
	w.Concurrency = s.Concurrency
	w.Round = s.Round
	w.Position = s.Position
}

// stepError wraps a runner error with its step; when the context was
// cancelled meanwhile the result also wraps ctx.Err().
func stepError(ctx context.Context, verb string, s Step, err error) error {
	if cerr := ctx.Err(); cerr != nil && !errors.Is(err, cerr) {
		return fmt.Errorf("schedule: %s %s: %w (stopped: %w)", verb, describe(s), err, cerr)
	}
	return fmt.Errorf("schedule: %s %s: %w", verb, describe(s), err)
}

// describe names a step for error messages.
func describe(s Step) string {
	if s.Warmup {
		return fmt.Sprintf("warmup of slot %d (%s) at c=%d", s.Slot.Index, s.Slot.Config, s.Concurrency)
	}
	return fmt.Sprintf("slot %d (%s) at c=%d round %d", s.Slot.Index, s.Slot.Config, s.Concurrency, s.Round)
}
