package schedule

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/sweep-dev/sweep/sweep"
)

// fakeRunner records every call as a line; it measures nothing. Measure
// returns a window whose Requests encode the step, and Failed for the
// slots in fail. hook, when set, runs at the start of each Measure.
type fakeRunner struct {
	log     []string
	fail    map[int]bool
	errAt   string // a call line at which to return errBoom
	hook    func(s Step)
	emitted []sweep.Window
	rounds  *[]string // when set, MeasureRound logs each round's slots
}

var errBoom = errors.New("boom")

func (f *fakeRunner) call(line string) error {
	f.log = append(f.log, line)
	if line == f.errAt {
		return errBoom
	}
	return nil
}

func (f *fakeRunner) RoundStart(_ context.Context, _, c, r int) error {
	return f.call(fmt.Sprintf("start c=%d r=%d", c, r))
}

func (f *fakeRunner) Warmup(_ context.Context, s Step) error {
	return f.call(fmt.Sprintf("warm %s c=%d", s.Slot.Config, s.Concurrency))
}

func (f *fakeRunner) Measure(_ context.Context, s Step) (sweep.Window, error) {
	if f.hook != nil {
		f.hook(s)
	}
	// Identity fields are left wrong on purpose: Execute must stamp them.
	w := sweep.Window{Config: "wrong", Slot: -1, Round: 99, Requests: int64(1000*s.Concurrency + 10*s.Round + s.Slot.Index)}
	if f.fail[s.Slot.Index] {
		w.Failed, w.FailReason = true, "server exited"
	}
	return w, f.call(fmt.Sprintf("measure %s c=%d r=%d", s.Slot.Config, s.Concurrency, s.Round))
}

// MeasureRound measures the round's steps one after the other, as a
// runner with unsliced windows does, and logs the round when it has more
// than one step.
func (f *fakeRunner) MeasureRound(ctx context.Context, steps []Step, emit func(int, sweep.Window) error) error {
	if f.rounds != nil {
		var names []string
		for _, s := range steps {
			names = append(names, s.Slot.Config)
		}
		*f.rounds = append(*f.rounds, fmt.Sprintf("c=%d r=%d %s", steps[0].Concurrency, steps[0].Round, strings.Join(names, "")))
	}
	for i, s := range steps {
		w, err := f.Measure(ctx, s)
		if err != nil {
			return err
		}
		if err := emit(i, w); err != nil {
			return err
		}
	}
	return nil
}

func (f *fakeRunner) emit(w sweep.Window) error {
	f.emitted = append(f.emitted, w)
	return nil
}

func TestExecuteOrder(t *testing.T) {
	steps := Steps(abc, []int{1, 4}, 2, 2)
	f := &fakeRunner{fail: map[int]bool{1: true}}
	if err := Execute(context.Background(), steps, nil, f, f.emit); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"start c=1 r=-1", "warm A c=1", "warm C c=1", "warm B c=1",
		"start c=1 r=0", "measure A c=1 r=0", "measure C c=1 r=0", "measure B c=1 r=0",
		"start c=1 r=1", "measure C c=1 r=1", "measure B c=1 r=1", "measure A c=1 r=1",
		"start c=4 r=-1", "warm B c=4", "warm A c=4", "warm C c=4",
		"start c=4 r=0", "measure B c=4 r=0", "measure A c=4 r=0", "measure C c=4 r=0",
		"start c=4 r=1", "measure A c=4 r=1", "measure C c=4 r=1", "measure B c=4 r=1",
	}
	if !reflect.DeepEqual(f.log, want) {
		t.Fatalf("calls:\n got %q\nwant %q", f.log, want)
	}
	if len(f.emitted) != 12 {
		t.Fatalf("emitted %d windows, want 12 (failed windows included)", len(f.emitted))
	}
	// Window 8 is c=4 round 0 position 1: slot A, the baseline.
	w := f.emitted[7]
	if w.Config != "A" || w.Slot != 0 || !w.Baseline || w.AA || w.Concurrency != 4 || w.Round != 0 || w.Position != 1 {
		t.Errorf("window 8 identity = %q slot %d base %v aa %v c=%d r=%d pos %d, want A slot 0 baseline c=4 r=0 pos 1",
			w.Config, w.Slot, w.Baseline, w.AA, w.Concurrency, w.Round, w.Position)
	}
	if w.Requests != 4000 {
		t.Errorf("window 8 Requests = %d, want the runner's 4000", w.Requests)
	}
	failed := 0
	for _, w := range f.emitted {
		if w.Failed {
			failed++
			if w.Config != "B" {
				t.Errorf("failed window for %s, want only B", w.Config)
			}
		}
	}
	if failed != 4 {
		t.Errorf("%d failed windows emitted, want 4 (B at 2 levels × 2 rounds)", failed)
	}
}

func TestExecuteResume(t *testing.T) {
	steps := Steps(abc, []int{1, 4}, 2, 2)
	key := func(slot, c, r int) sweep.WindowKey { return sweep.WindowKey{Slot: slot, Concurrency: c, Round: r} }
	level1 := map[sweep.WindowKey]bool{}
	for _, s := range steps {
		if !s.Warmup && s.Concurrency == 1 {
			level1[s.Key()] = true
		}
	}
	all := map[sweep.WindowKey]bool{}
	for _, s := range steps {
		if !s.Warmup {
			all[s.Key()] = true
		}
	}
	for _, tc := range []struct {
		name string
		done map[sweep.WindowKey]bool
		want string // the calls, joined by "; "
	}{
		{"all done", all, ""},
		{"level 1 done, c=4 round 1 partly", union(level1, key(2, 4, 1), key(0, 4, 1)),
			"start c=4 r=-1; warm B c=4; warm A c=4; warm C c=4; " +
				"start c=4 r=0; measure B c=4 r=0; measure A c=4 r=0; measure C c=4 r=0; " +
				"start c=4 r=1; measure B c=4 r=1"},
		{"c=1 round 0 done and one of round 1", union(nil, key(0, 1, 0), key(1, 1, 0), key(2, 1, 0), key(2, 1, 1), key(0, 4, 0), key(1, 4, 0), key(2, 4, 0), key(0, 4, 1), key(1, 4, 1), key(2, 4, 1)),
			"start c=1 r=-1; warm A c=1; warm C c=1; warm B c=1; " +
				"start c=1 r=1; measure B c=1 r=1; measure A c=1 r=1"},
		{"keys of another run ignored", union(nil, key(7, 1, 0), key(0, 2, 0), key(0, 1, 5)),
			strings.Join(fullLog(t, steps), "; ")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &fakeRunner{}
			if err := Execute(context.Background(), steps, tc.done, f, f.emit); err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(f.log, "; "); got != tc.want {
				t.Errorf("calls:\n got %s\nwant %s", got, tc.want)
			}
			for _, w := range f.emitted {
				if tc.done[w.Key()] {
					t.Errorf("window %+v measured again although done", w.Key())
				}
			}
			if got, want := len(f.emitted), Measured(steps)-countIn(steps, tc.done); got != want {
				t.Errorf("emitted %d windows, want %d", got, want)
			}
		})
	}
}

func union(m map[sweep.WindowKey]bool, keys ...sweep.WindowKey) map[sweep.WindowKey]bool {
	out := map[sweep.WindowKey]bool{}
	for k := range m {
		out[k] = true
	}
	for _, k := range keys {
		out[k] = true
	}
	return out
}

func countIn(steps []Step, done map[sweep.WindowKey]bool) int {
	n := 0
	for _, s := range steps {
		if !s.Warmup && done[s.Key()] {
			n++
		}
	}
	return n
}

func fullLog(t *testing.T, steps []Step) []string {
	t.Helper()
	f := &fakeRunner{}
	if err := Execute(context.Background(), steps, nil, f, f.emit); err != nil {
		t.Fatal(err)
	}
	return f.log
}

func TestExecuteCancel(t *testing.T) {
	steps := Steps(abc, []int{1}, 2, 2) // round 0: A C B
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	f := &fakeRunner{}
	f.hook = func(s Step) {
		if s.Round == 0 && s.Slot.Config == "C" {
			cancel() // Ctrl-C while C's window runs
		}
	}
	err := Execute(ctx, steps, nil, f, f.emit)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled wrapped", err)
	}
	if want := "schedule: stopped during slot 2 (C) at c=1 round 0, window discarded: context canceled"; err.Error() != want {
		t.Errorf("err = %q, want %q", err, want)
	}
	if len(f.emitted) != 1 || f.emitted[0].Config != "A" {
		t.Errorf("emitted %d windows, want only A's (C's was cut short)", len(f.emitted))
	}
	if last := f.log[len(f.log)-1]; last != "measure C c=1 r=0" {
		t.Errorf("last call %q, want nothing after C's window", last)
	}

	// Already cancelled: nothing runs.
	f = &fakeRunner{}
	err = Execute(ctx, steps, nil, f, f.emit)
	if !errors.Is(err, context.Canceled) || len(f.log) != 0 {
		t.Errorf("cancelled before start: err %v, %d calls; want Canceled and none", err, len(f.log))
	}
	if want := "schedule: stopped before step 1 of 9 (warmup of slot 0 (A) at c=1): context canceled"; err.Error() != want {
		t.Errorf("err = %q, want %q", err, want)
	}
}

func TestExecuteFatal(t *testing.T) {
	steps := Steps(abc, []int{1}, 2, 2)
	for _, tc := range []struct {
		errAt   string
		want    string
		emitted int
	}{
		{"start c=1 r=-1", "schedule: starting round warmup of slot 0 (A) at c=1: boom", 0},
		{"warm C c=1", "schedule: running warmup of slot 2 (C) at c=1: boom", 0},
		{"measure B c=1 r=1", "schedule: measuring round 1 at c=1: boom", 4},
		{"start c=1 r=1", "schedule: starting round slot 2 (C) at c=1 round 1: boom", 3},
	} {
		f := &fakeRunner{errAt: tc.errAt}
		err := Execute(context.Background(), steps, nil, f, f.emit)
		if !errors.Is(err, errBoom) || err.Error() != tc.want {
			t.Errorf("error at %q: err = %v, want %q wrapping errBoom", tc.errAt, err, tc.want)
		}
		if f.log[len(f.log)-1] != tc.errAt || len(f.emitted) != tc.emitted {
			t.Errorf("error at %q: last call %q, %d emitted; want the run stopped there with %d emitted",
				tc.errAt, f.log[len(f.log)-1], len(f.emitted), tc.emitted)
		}
	}

	// An emit error (results.jsonl not writable) stops the run too.
	f := &fakeRunner{}
	n := 0
	err := Execute(context.Background(), steps, nil, f, func(sweep.Window) error {
		if n++; n == 2 {
			return errBoom
		}
		return nil
	})
	if !errors.Is(err, errBoom) || err.Error() != "schedule: recording slot 2 (C) at c=1 round 0: boom" {
		t.Errorf("emit error: err = %v", err)
	}
	if got := len(f.log); got != 7 { // start, 3 warmups, start, A, C
		t.Errorf("emit error: %d calls, want 7", got)
	}
}

// scriptRunner emits, for every step of a round, the windows script
// gives for it, in order.
type scriptRunner struct {
	fakeRunner
	script []sweep.Window
}

func (f *scriptRunner) MeasureRound(_ context.Context, steps []Step, emit func(int, sweep.Window) error) error {
	for i := range steps {
		for _, w := range f.script {
			if err := emit(i, w); err != nil {
				return err
			}
		}
	}
	return nil
}

// TestExecuteRemeasure: a step takes one window, or a failed window and
// then one re-measure; any other second window is the runner's bug and
// stops the run.
func TestExecuteRemeasure(t *testing.T) {
	failed := sweep.Window{Failed: true, FailReason: "server exited during the window"}
	good := sweep.Window{Requests: 10}
	re := sweep.Window{Requests: 10, Remeasured: true}
	reFailed := sweep.Window{Failed: true, Remeasured: true}
	for _, tc := range []struct {
		name    string
		script  []sweep.Window
		windows int // emitted per step, when no error
		err     string
	}{
		{"one good window", []sweep.Window{good}, 1, ""},
		{"failed, then its re-measure", []sweep.Window{failed, re}, 2, ""},
		{"failed, then a failed re-measure", []sweep.Window{failed, reFailed}, 2, ""},
		{"good, then a re-measure", []sweep.Window{good, re}, 0, "twice"},
		{"failed twice, no re-measure", []sweep.Window{failed, failed}, 0, "twice"},
		{"two re-measures", []sweep.Window{failed, re, re}, 0, "twice"},
		{"a re-measure first", []sweep.Window{re}, 0, "twice"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			steps := Steps(abc[:1], []int{1}, 2, 0)
			f := &scriptRunner{script: tc.script}
			err := Execute(context.Background(), steps, nil, f, f.emit)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want one saying %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got, want := len(f.emitted), tc.windows*Measured(steps); got != want {
				t.Fatalf("emitted %d windows, want %d", got, want)
			}
			for _, w := range f.emitted {
				if w.Config != abc[0].Config {
					t.Errorf("window not stamped: %+v", w)
				}
			}
		})
	}
}
