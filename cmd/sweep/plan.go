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
	"github.com/sweep-dev/sweep/sweep/policy"
	"github.com/sweep-dev/sweep/sweep/policy/expect"
	"github.com/sweep-dev/sweep/sweep/schedule"
	"github.com/sweep-dev/sweep/sweep/shard"
)

// printPlan is -dry-run: the blocks and their slots, the windows and the
// estimated time, of the whole plan and of shard sh.
func printPlan(w io.Writer, c *config.Config, sh shard.Spec) {
	blocks := driver.Blocks(c)
	steps := driver.Worst(c, sh)
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
			c.Analysis.TargetConcurrency, c.Load.MaxRounds, c.Analysis.Finalists, policy.ConfirmRounds(driver.Head(c, sweep.Environment{}, sh).Plan, c.Analysis.Finalists))
	}
	fmt.Fprintf(w, "rounds: %s, warmup %s, window %s, restarts %s\n", rounds, c.Load.Warmup, window, c.Run.Restarts)
	fmt.Fprintf(w, "windows: %d measured + %d warmups\n", schedule.Measured(steps), len(steps)-schedule.Measured(steps))
	fmt.Fprintf(w, "server starts: %d%s (only one block's servers alive at a time%s)\n", schedule.Starts(steps, c.Run.Restarts == sweep.RestartsRound),
		map[bool]string{true: " at most"}[c.Load.Race || c.Load.Auto], map[bool]string{true: "; restarts = \"round\": every measured window's server is fresh"}[c.Run.Restarts == sweep.RestartsRound])
	expected := 0
	if c.Load.Race {
		if n, ok := expect.Windows(driver.Head(c, sweep.Environment{}, sh).Plan, steps); ok && n > 0 {
			expected = n
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
		most := driver.Estimate(c, sh, nil)
		if m := schedule.Measured(steps); expected > 0 && m > 0 {
			fmt.Fprintf(w, "estimated wall time: %s at most, about %s expected\n", most.Round(time.Second), (most * time.Duration(min(expected, m)) / time.Duration(m)).Round(time.Second))
			return
		}
		fmt.Fprintf(w, "estimated wall time: %s\n", most.Round(time.Second))
		return
	}
	fmt.Fprintf(w, "shard %s: blocks %s\n", sh, intList(sh.Blocks(len(blocks))))
	fmt.Fprintf(w, "estimated wall time: %s for the whole plan on one machine; per shard:", driver.Estimate(c, shard.Spec{}, nil).Round(time.Second))
	for i := range sh.Count {
		o := shard.Spec{Index: i, Count: sh.Count}
		mark := ""
		if o == sh {
			mark = " (this one)"
		}
		fmt.Fprintf(w, " %s %s%s", o, driver.Estimate(c, o, nil).Round(time.Second), mark)
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
