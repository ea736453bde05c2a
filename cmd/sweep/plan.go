//go:build linux && cgo

package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/config"
	"github.com/sweep-dev/sweep/sweep/driver"
	"github.com/sweep-dev/sweep/sweep/schedule"
	"github.com/sweep-dev/sweep/sweep/shard"
)

// Rough costs used only for the wall-time estimate (measured on the
// default grid: the per-window overhead is a few milliseconds).
const (
	startOverhead = 300 * time.Millisecond // start + readiness check of one server
	// restartOverhead is the start of a fresh server per window with
	// restarts = "round", beyond the window's warmup and step overhead:
	// ~105 ms per window in grid.toml (289 s for 270 s of measuring and
	// warming over 180 windows, 2026-12-03), ~30–70 ms in
	// bench/blocks48.toml (103.7 s and 113.0 s for 96.8 s over 236
	// windows, 2026-12-06); 60 ms puts both within 10%.
	restartOverhead = 60 * time.Millisecond
	stepOverhead    = 10 * time.Millisecond // probes, generator setup, results append
	// profileOverhead is a profiled cell's time (analysis.profile) beyond
	// driver.ProfileCellTime: its server's start, perf's conversion of the
	// samples and the stop. reports/profile-example (2026-12-06) profiled
	// 4 cells in 19 s after its last window: 4.7 s each, 2.2 s of them
	// ProfileCellTime.
	profileOverhead = 2500 * time.Millisecond
)

// estimate is the expected wall time of shard sh of the run: every window
// of its blocks not in done (the windows a resumed run already has), plus
// with restarts = "round" a server start and a warmup before every
// measured window, otherwise one server start per slot; with
// analysis.profile, every profiled cell after them. (The 48-point
// bench/blocks48.toml took 113 s where the estimate, which then also
// added a start per slot to the restarts, said 138 s; BENCHMARKS.md.)
func estimate(c *config.Config, sh shard.Spec, done map[sweep.WindowKey]bool) time.Duration {
	steps := remaining(driver.ShardPlan(driver.Plan(c), sh), done)
	if len(steps) == 0 {
		return 0
	}
	var mine [][]schedule.Slot // the shard's blocks
	slots := 0
	for b, bs := range driver.Blocks(c) {
		if sh.Has(b) {
			mine = append(mine, bs)
			slots += len(bs)
		}
	}
	d := schedule.Estimate(steps, c.Load.Warmup, c.Load.Duration, stepOverhead)
	if c.Analysis.Profile {
		d += time.Duration(driver.ProfiledCells(c, mine)) * (driver.ProfileCellTime(c) + profileOverhead)
	}
	if c.Run.Restarts == sweep.RestartsRound {
		// Every server start is a window's restart: restartOverhead was
		// measured over whole runs, first starts included.
		return d + time.Duration(schedule.Measured(steps))*(restartOverhead+c.Load.Warmup)
	}
	return d + time.Duration(slots)*startOverhead
}

// printPlan is -dry-run: the blocks and their slots, the windows and the
// estimated time, of the whole plan and of shard sh.
func printPlan(w io.Writer, c *config.Config, sh shard.Spec) {
	blocks := driver.Blocks(c)
	steps := driver.ShardPlan(driver.Plan(c), sh)
	fmt.Fprintf(w, "sweep %q (%s target)\n", c.Name, c.Target.Kind)
	slots := driver.Slots(c)
	if len(blocks) == 1 {
		fmt.Fprintf(w, "slots (%d server processes):\n", len(slots))
	} else {
		fmt.Fprintf(w, "slots (%d server processes in %d blocks of up to %d points besides the baseline, run.block_size; one block's servers alive at a time, every comparison paired within its block):\n", len(slots), len(blocks), c.Run.BlockSize)
	}
	for b, bs := range blocks {
		if len(blocks) > 1 {
			mark := ""
			if !sh.Whole() && sh.Has(b) {
				mark = fmt.Sprintf("  [shard %s]", sh)
			}
			fmt.Fprintf(w, "  block %d (%d slots)%s\n", b, len(bs), mark)
		}
		for _, s := range bs {
			printSlot(w, c, s)
		}
	}
	levels := make([]string, len(c.Load.Concurrency))
	for i, n := range c.Load.Concurrency {
		levels[i] = fmt.Sprint(n)
	}
	fmt.Fprintf(w, "concurrency: %s\n", strings.Join(levels, ", "))
	window := c.Load.Duration.String()
	if n := c.Load.Slices(); n > 1 {
		window += fmt.Sprintf(" (interleaved: %d pieces of %s)", n, c.Load.Piece())
	}
	rounds := fmt.Sprint(c.Load.Rounds)
	if c.Load.Auto {
		rounds = fmt.Sprintf("auto (%d to %d per level, added only where the objective is not resolved to ±%g%%", driver.AutoMin(c), c.Load.MaxRounds, 100*c.Analysis.Resolve)
		if c.Run.Budget > 0 {
			rounds += fmt.Sprintf(", within run.budget %s", c.Run.Budget)
		}
		rounds += "; the estimate below is the most it can take)"
	}
	if c.Load.Race {
		rounds = fmt.Sprintf("race at c=%d, up to %d rounds of every surviving config, then %d finalists confirmed at every level in %d fresh rounds (the estimate below is the most it can take)",
			c.Analysis.TargetConcurrency, c.Load.MaxRounds, c.Analysis.Finalists, driver.ConfirmRounds(c, c.Analysis.Finalists))
	}
	fmt.Fprintf(w, "rounds: %s, warmup %s, window %s, restarts %s\n", rounds, c.Load.Warmup, window, c.Run.Restarts)
	fmt.Fprintf(w, "windows: %d measured + %d warmups\n", schedule.Measured(steps), len(steps)-schedule.Measured(steps))
	expected := 0
	if c.Load.Race {
		if expected = driver.RaceExpected(c); expected > 0 {
			fmt.Fprintf(w, "  a race's expected windows: about %d, race and confirmation (the median of simulated races of %d configs: the best −10%%, up to 4 within 2%% of it, the rest 3–30%% worse, paired noise 2.2%% with t₃ tails; a grid of ties takes the most above)\n",
				expected, len(c.Points))
		}
	}
	awake := ""
	if c.Run.KeepAwake && len(c.Run.ServerCPUs) > 0 && len(c.Run.LoadCPUs) > 0 {
		awake = ", both kept awake (run.keep_awake)"
	}
	servers := fmt.Sprintf("server CPUs %q", c.Run.ServerCPUs.String())
	if c.Run.PointCPUs != nil {
		servers = fmt.Sprintf("server CPUs per config (grid.server_cpus, together %q)", c.Run.ServerCPUs.String())
	}
	fmt.Fprintf(w, "pinning: %s, load CPUs %q%s\n", servers, c.Run.LoadCPUs.String(), awake)
	if c.Run.CPURule != "" {
		fmt.Fprintf(w, "  chosen by default: %s\n", c.Run.CPURule)
	}
	if c.Run.ServerSched != sweep.SchedOther {
		fmt.Fprintf(w, "servers at SCHED_%s (run.server_sched)\n", strings.ToUpper(string(c.Run.ServerSched)))
	}
	if sh.Whole() {
		most := estimate(c, sh, nil)
		if m := schedule.Measured(steps); expected > 0 && m > 0 {
			fmt.Fprintf(w, "estimated wall time: %s at most, about %s expected\n", most.Round(time.Second), (most * time.Duration(min(expected, m)) / time.Duration(m)).Round(time.Second))
			return
		}
		fmt.Fprintf(w, "estimated wall time: %s\n", most.Round(time.Second))
		return
	}
	fmt.Fprintf(w, "shard %s: blocks %s\n", sh, intList(sh.Blocks(len(blocks))))
	fmt.Fprintf(w, "estimated wall time: %s for the whole plan on one machine; per shard:", estimate(c, shard.Spec{}, nil).Round(time.Second))
	for i := range sh.Count {
		o := shard.Spec{Index: i, Count: sh.Count}
		mark := ""
		if o == sh {
			mark = " (this one)"
		}
		fmt.Fprintf(w, " %s %s%s", o, estimate(c, o, nil).Round(time.Second), mark)
		if i < sh.Count-1 {
			fmt.Fprint(w, ",")
		}
	}
	fmt.Fprintln(w)
}

// printSlot is one slot's line of -dry-run.
func printSlot(w io.Writer, c *config.Config, s schedule.Slot) {
	role := ""
	switch {
	case s.Baseline:
		role = "  (baseline)"
	case s.AA:
		role = "  (A/A twin of the baseline)"
	case s.Reference:
		role = "  (reference server: the built-in host with a fixed workload, the anchor of cross-run checks; run.reference)"
	}
	if set := driver.SlotCPUs(c, s); c.SharesCPUs(set) {
		role += fmt.Sprintf("  [CPUs %s: shares CPUs with the load generator, run.share_cpus]", set)
	} else if c.Run.PointCPUs != nil {
		role += fmt.Sprintf("  [CPUs %s]", set)
	}
	fmt.Fprintf(w, "  %2d  %s%s\n", s.Index, s.Config, role)
}

// intList is "0, 3, 6" ("none" when empty).
func intList(xs []int) string {
	if len(xs) == 0 {
		return "none (more shards than blocks)"
	}
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = fmt.Sprint(x)
	}
	return strings.Join(parts, ", ")
}

// remaining drops the measured steps in done, and the warmups of a
// block's levels with nothing left to measure (as schedule.Execute does).
func remaining(steps []schedule.Step, done map[sweep.WindowKey]bool) []schedule.Step {
	type level struct{ block, conc int }
	left := map[level]bool{}
	for _, s := range steps {
		if !s.Warmup && !done[s.Key()] {
			left[level{s.Slot.Block, s.Concurrency}] = true
		}
	}
	var out []schedule.Step
	for _, s := range steps {
		if (s.Warmup && left[level{s.Slot.Block, s.Concurrency}]) || (!s.Warmup && !done[s.Key()]) {
			out = append(out, s)
		}
	}
	return out
}
