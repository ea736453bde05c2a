// Package driver runs a sweep: it turns a config into server slots and a
// schedule, starts and pins the servers, drives closed-loop load window by
// window, reads the server-side probes over exactly each window, appends
// every window to results.jsonl as it ends, and finally writes
// summary.json from what was measured. It never renders reports.
package driver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/awake"
	"github.com/sweep-dev/sweep/sweep/config"
	"github.com/sweep-dev/sweep/sweep/cpuset"
	"github.com/sweep-dev/sweep/sweep/policy"
	"github.com/sweep-dev/sweep/sweep/results"
	"github.com/sweep-dev/sweep/sweep/rundir"
	"github.com/sweep-dev/sweep/sweep/schedule"
	"github.com/sweep-dev/sweep/sweep/shard"
)

// Options configure a run.
type Options struct {
	Config   *config.Config
	Dir      string       // run directory (created if missing)
	Resume   bool         // continue the run in Dir without redoing finished windows
	Shard    shard.Spec   // the part of the plan's blocks to measure; the zero Spec = all
	Exe      string       // the sweep binary, for builtin targets (`Exe serve ...`)
	Progress io.Writer    // progress output (nil = none)
	Log      *slog.Logger // nil = discard
	// Plugins are the plugins a builtin target serves
	// (wasmhost.Preflight), recorded in the summary's environment.
	Plugins []sweep.Plugin
}

// Outcome is what a run did.
type Outcome struct {
	Dir      string
	Planned  int // measured windows in the plan
	Measured int // windows in results.jsonl at the end
	Failed   int // failed windows among them
	Complete bool
}

// A window is flagged generator-bound when the driver's CPU utilisation is
// above GeneratorBoundUtil, or when load CPUs of their own were busy for
// more than GeneratorBoundBusy of the time the hypervisor gave them (on
// this project's VM a no-op Go server at c=16 kept them 78–92% busy, the
// built-in host 47–70%; BENCHMARKS.md, item 2).
const (
	GeneratorBoundUtil = 0.90
	GeneratorBoundBusy = 0.80
)

// Run executes the sweep described by o. On ctx cancellation it stops the
// current window, stops every server, writes summary.json for what was
// finished and returns an error wrapping context.Canceled.
func Run(ctx context.Context, o Options) (Outcome, error) {
	c := o.Config
	out := Outcome{Dir: o.Dir}
	if c.Load.Race && !o.Shard.Whole() {
		return out, fmt.Errorf("%w: -shard with load.rounds = \"race\": a race's decisions are global, its configs cannot be split between machines", ErrRaceShard)
	}
	if o.Log == nil {
		o.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if err := os.MkdirAll(o.Dir, 0o755); err != nil {
		return out, fmt.Errorf("creating run directory: %w", err)
	}
	if err := writeConfigCopy(o.Dir, c, o.Resume, o.Shard); err != nil {
		return out, err
	}
	slots := Slots(c)
	env := Environment(c)
	env.Plugins = o.Plugins
	head := Head(c, env, o.Shard)
	pol, err := Policy(c, head, o.Shard)
	if err != nil {
		return out, err
	}
	worst := pol.Worst()
	out.Planned = schedule.Measured(worst)

	resPath := rundir.Dir(o.Dir).Results()
	done := map[sweep.WindowKey]bool{}
	var seen []sweep.Window // every window on disk, for the policy
	if o.Resume {
		prev, err := results.Read(resPath)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return out, err
		}
		for _, w := range prev {
			done[w.Key()] = true
		}
		seen = prev
	}
	wr, err := results.Create(resPath)
	if err != nil {
		return out, err
	}
	defer wr.Close()

	if len(c.Run.LoadCPUs) > 0 {
		// The affinity is given back when the run ends, so that a process
		// that runs sweeps one after another (a test binary) reads the
		// machine's usable CPUs each time, not the last run's load CPUs.
		if before, err := cpuset.Allowed(0); err == nil {
			defer func() { _ = cpuset.PinProcess(0, before) }()
		}
	}
	if err := cpuset.PinProcess(0, c.Run.LoadCPUs); err != nil {
		return out, fmt.Errorf("pinning the driver to load CPUs: %w", err)
	}
	if n := len(c.Run.LoadCPUs); n > 0 {
		// The runtime sized GOMAXPROCS from the affinity it started with
		// and does not follow a later sched_setaffinity: more Ps than
		// pinned CPUs only adds idle-P spinning and hand-offs to the
		// generator's cost per request (BENCHMARKS.md, item 2).
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(n))
	}

	r := newRunner(c, o, slots)
	defer r.stopAll()
	if c.Run.KeepAwake && len(c.Run.ServerCPUs) > 0 && len(c.Run.LoadCPUs) > 0 {
		spin, err := awake.Start(o.Exe, c.Run.ServerCPUs, c.Run.LoadCPUs)
		if err != nil {
			return out, fmt.Errorf("run.keep_awake: %w (set keep_awake = false in [run] to run without spinners)", err)
		}
		defer spin.Stop()
		r.awake = spin
		head.Environment.AwakeCPUs = spin.CPUs().String()
	}

	// An adaptive run's plan grows as it decides; the progress shows
	// the most it can take.
	prog := newProgress(o.Progress, worst, done, c.Load.Warmup, c.Load.Duration, c.Load.Slices() > 1)
	r.onStep = prog.step
	steps, runErr := measure(ctx, pol, seen, done, r, func(w sweep.Window) error {
		if err := wr.Append(w); err != nil {
			return err
		}
		prog.window(w)
		return nil
	}, prog)
	prog.finish()
	r.stopAll()
	var profWarns []sweep.Warning
	if c.Analysis.Profile && runErr == nil {
		blocks := shardBlocks(c, o.Shard)
		if o.Progress != nil {
			fmt.Fprintf(o.Progress, "profiling each cell (analysis.profile): one more window of %s per cell, with perf on the server CPUs\n", c.Load.Duration)
		}
		var ps []sweep.CellProfile
		ps, profWarns = r.profileCells(ctx, blocks)
		r.stopAll()
		if o.Progress != nil {
			fmt.Fprintf(o.Progress, "profiles: %d cells in %s\n", len(ps), rundir.Dir(o.Dir).ProfilesDir())
		}
		for _, w := range profWarns {
			o.Log.Warn(w.Message)
		}
	}
	if r.pinned != nil {
		head.Environment.ServerPinned = r.pinned.String()
	}
	head.Warnings = append(head.Warnings, profWarns...)
	head.Plan.Windows = schedule.Measured(steps)
	out.Planned = head.Plan.Windows
	// Whatever happened, summarise what is on disk.
	s, sumErr := WriteSummary(o.Dir, head)
	if sumErr != nil && runErr == nil {
		runErr = sumErr
	}
	for _, w := range s.Warnings {
		if w.Code == sweep.WarnOneCPU {
			o.Log.Warn(w.Message)
		}
	}
	out.Measured = s.Plan.Measured
	out.Complete = s.Complete
	out.Failed = r.failed
	return out, runErr
}

// writeConfigCopy stores the config as run (config.toml) and its origin in
// the run directory; on resume existing copies are kept.
func writeConfigCopy(dir string, c *config.Config, resume bool, sh shard.Spec) error {
	p := rundir.Dir(dir).Config()
	if resume {
		if _, err := os.Stat(p); err == nil {
			return nil
		}
	}
	if err := rundir.WriteFile(p, c.Raw); err != nil {
		return err
	}
	abs, err := filepath.Abs(c.Path)
	if err != nil {
		return fmt.Errorf("resolving config path: %w", err)
	}
	return rundir.WriteOrigin(dir, rundir.Origin{ConfigPath: abs, Shard: sh.String()})
}

// shardBlocks is the slots of the blocks in shard sh.
func shardBlocks(c *config.Config, sh shard.Spec) [][]schedule.Slot {
	var out [][]schedule.Slot
	for b, slots := range Blocks(c) {
		if sh.Has(b) {
			out = append(out, slots)
		}
	}
	return out
}

// measure runs pol's batches through r until it stops: each batch's steps
// not yet in done are measured and emitted (their windows join ws, which
// the policy decides from), race rounds' windows marked as such. It
// returns every step handed out, the run's plan as it grew.
func measure(ctx context.Context, pol policy.Policy, ws []sweep.Window, done map[sweep.WindowKey]bool, r schedule.Runner, emit func(sweep.Window) error, prog *progress) ([]schedule.Step, error) {
	var all []schedule.Step
	start := time.Now()
	windows := 0 // measured by this process, for run.budget's rate
	for {
		b, err := pol.Next(ws, policy.Clock{Elapsed: time.Since(start), Windows: windows})
		if err != nil {
			return all, err
		}
		prog.policyNote(b.Note)
		if b.Stop != "" {
			return all, nil
		}
		all = append(all, b.Steps...) // before running: an interrupted batch leaves the run incomplete
		err = schedule.Execute(ctx, b.Steps, done, r, func(w sweep.Window) error {
			w.Race = b.Race
			if err := emit(w); err != nil {
				return err
			}
			windows++
			ws = append(ws, w)
			return nil
		})
		if err != nil {
			return all, err
		}
	}
}
