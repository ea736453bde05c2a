package driver

import (
	"encoding/json"
	"fmt"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/config"
	"github.com/sweep-dev/sweep/sweep/cpuset"
	"github.com/sweep-dev/sweep/sweep/schedule"
	"github.com/sweep-dev/sweep/sweep/shard"
	"github.com/sweep-dev/sweep/sweep/target"
)

// AASuffix marks the A/A twin's config label.
const AASuffix = " [A/A]"

// ReferenceLabel is the reference slot's config label (run.reference). No
// grid point's label can be it: those are "axis=value ..." or "(default)".
const ReferenceLabel = "[reference]"

// Slots returns the run's server slots, block after block (Blocks).
func Slots(c *config.Config) []schedule.Slot {
	var all []schedule.Slot
	for _, b := range Blocks(c) {
		all = append(all, b...)
	}
	return all
}

// Blocks splits the grid into blocks: the points other than the baseline,
// in grid order, run.block_size at a time, and in every block the
// baseline at its grid position, its A/A twin right after it (when aa =
// true) and the reference server last (when run.reference = true). Slot
// indices run on over the blocks, so that they are unique in the run and
// in any shard of it. A grid of at most block_size points besides the
// baseline is one block: one slot per grid point, in grid order.
func Blocks(c *config.Config) [][]schedule.Slot {
	size := max(c.Run.BlockSize, 1)
	var chunks [][]sweep.Point
	n := 0 // candidates so far
	for _, p := range c.Points {
		if p.Equal(c.Baseline) {
			continue
		}
		if n%size == 0 {
			chunks = append(chunks, nil)
		}
		chunks[len(chunks)-1] = append(chunks[len(chunks)-1], p)
		n++
	}
	if len(chunks) == 0 {
		chunks = [][]sweep.Point{nil} // the baseline alone
	}
	var blocks [][]schedule.Slot
	next := 0
	for b, chunk := range chunks {
		var slots []schedule.Slot
		add := func(s schedule.Slot) {
			s.Index, s.Block = next, b
			next++
			slots = append(slots, s)
		}
		for _, p := range c.Points {
			base := p.Equal(c.Baseline)
			if !base && !slices.ContainsFunc(chunk, p.Equal) {
				continue
			}
			add(schedule.Slot{Config: p.Label(), Point: p, Baseline: base})
			if base && c.Load.AA {
				add(schedule.Slot{Config: p.Label() + AASuffix, Point: p, AA: true})
			}
		}
		if c.Run.Reference {
			add(schedule.Slot{Config: ReferenceLabel, Point: sweep.Point{}, Reference: true})
		}
		blocks = append(blocks, slots)
	}
	return blocks
}

// ReferenceCompute is the reference server's work per request (the
// workload's compute knob): about 200 µs of CPU on this project's VM,
// the order of a real handler's, so that a slower machine makes it
// dearer as it does a build under test, and so that 16 connections
// keep it busy without the load generator running out of CPU first
// (at the workload's default, ~30 µs, it did).
const ReferenceCompute = 40

// ReferenceArgv is the reference server's command line: the built-in
// host with a fixed workload (the "workload" plugin, ReferenceCompute,
// the other knobs and Wasmtime's pooling options at their defaults),
// whatever the run's target. Its cost is fixed by the sweep build alone,
// which summary.json records.
func ReferenceArgv(exe string) []string {
	return []string{exe, "serve", "-listen", "127.0.0.1:0", "-plugin", config.BuiltinPlugin, "-compute", strconv.Itoa(ReferenceCompute)}
}

// BaselineLabel and AALabel name the baseline and its twin.
func BaselineLabel(c *config.Config) string { return c.Baseline.Label() }

// AALabel is "" when the run has no A/A twin.
func AALabel(c *config.Config) string {
	if !c.Load.AA {
		return ""
	}
	return c.Baseline.Label() + AASuffix
}

// commandSlot reports whether the slot's server is the run's command
// target (the reference server is always the built-in host).
func commandSlot(c *config.Config, s schedule.Slot) bool {
	return c.Target.Kind == sweep.TargetCommand && !s.Reference
}

// serverSpec builds the process spec and the request URL template for a
// slot. For command targets the port is chosen by the caller.
func serverSpec(c *config.Config, exe string, slot schedule.Slot, port int) (target.Spec, error) {
	p := slot.Point
	spec := target.Spec{CPUs: SlotCPUs(c, slot), Batch: c.Run.ServerSched == sweep.SchedBatch, ReadyTimeout: c.Target.ReadyTimeout, TailLines: 20}
	switch {
	case slot.Reference:
		spec.Argv = ReferenceArgv(exe)
		spec.ReadyLine = true
	case c.Target.Kind == sweep.TargetCommand:
		vars := c.Vars(p, port)
		for i, a := range c.Target.Command {
			s, err := config.Render(a, vars)
			if err != nil {
				return spec, fmt.Errorf("target.command: %w", err)
			}
			if found, ok := c.Target.Programs[s]; ok && i == 0 {
				s = found // a templated program, resolved by config
			}
			spec.Argv = append(spec.Argv, s)
		}
		for k, v := range c.Target.Env {
			s, err := config.Render(v, vars)
			if err != nil {
				return spec, fmt.Errorf("target.env.%s: %w", k, err)
			}
			spec.Env = append(spec.Env, k+"="+s)
		}
		ready, err := c.ReadyURL(p, port)
		if err != nil {
			return spec, err
		}
		spec.ReadyURL = ready
		spec.Dir = filepath.Dir(c.Path)
	default:
		js, err := json.Marshal(c.Settings(p))
		if err != nil {
			return spec, fmt.Errorf("encoding settings: %w", err)
		}
		spec.Argv = []string{exe, "serve", "-listen", "127.0.0.1:0", "-plugin", c.Target.Plugin,
			"-settings-json", string(js), "-timeout", c.Load.Timeout.String()}
		if c.Target.GOMAXPROCS > 0 {
			spec.Argv = append(spec.Argv, "-gomaxprocs", strconv.Itoa(c.Target.GOMAXPROCS))
		}
		spec.ReadyLine = true
	}
	return spec, nil
}

// SlotCPUs returns the CPUs a slot's servers run on: its point's
// (config.ServerCPUsOf); the reference server runs on the baseline's.
func SlotCPUs(c *config.Config, s schedule.Slot) cpuset.Set {
	if s.Reference {
		return c.ServerCPUsOf(c.Baseline)
	}
	return c.ServerCPUsOf(s.Point)
}

// requestURL is where the load goes for a started server. The reference
// server takes its requests at "/".
func requestURL(c *config.Config, s schedule.Slot, port int, addr string) (string, error) {
	switch {
	case s.Reference:
		return (&url.URL{Scheme: "http", Host: addr, Path: "/"}).String(), nil
	case c.Target.Kind == sweep.TargetCommand:
		return c.RequestURL(s.Point, port)
	}
	u := url.URL{Scheme: "http", Host: addr, Path: c.Load.Path}
	return u.String(), nil
}

// Plan is the run's schedule: the plans of its blocks one after another,
// block b's slot order seeded with run.seed + b (so a run of one block
// keeps the order of run.seed). With restarts = "round" every measured
// window's server is fresh and is warmed up when it starts (at that
// window's concurrency), so the level warmups of schedule.Plan would only
// warm processes about to be replaced, and are left out. A race
// (load.rounds = "race") decides its plan as it goes: Plan is then the
// most it can take (RaceWorstPlan).
func Plan(c *config.Config) []schedule.Step {
	if c.Load.Race {
		return RaceWorstPlan(c)
	}
	var steps []schedule.Step
	for b, slots := range Blocks(c) {
		steps = append(steps, schedule.Plan(slots, c.Load.Concurrency, c.Load.Rounds, c.Run.Seed+int64(b))...)
	}
	if c.Run.Restarts != sweep.RestartsRound {
		return steps
	}
	out := steps[:0]
	for _, s := range steps {
		if !s.Warmup {
			out = append(out, s)
		}
	}
	return out
}

// ShardPlan is the steps of plan in blocks of shard sh.
func ShardPlan(plan []schedule.Step, sh shard.Spec) []schedule.Step {
	if sh.Whole() {
		return plan
	}
	var out []schedule.Step
	for _, s := range plan {
		if sh.Has(s.Slot.Block) {
			out = append(out, s)
		}
	}
	return out
}
