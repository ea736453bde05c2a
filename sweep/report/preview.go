package report

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/sweep-dev/sweep/sweep"
)

// Preview writes -dry-run's account of a run before it starts (p, as the
// driver laid it out): the blocks and their slots, the rounds, the
// windows and server starts at most, what a race can be expected to
// take, the pinning and the estimated wall time, of the whole plan and
// of p's shard.
func Preview(w io.Writer, p sweep.Preview) error {
	b := &strings.Builder{}
	f := func(format string, a ...any) { fmt.Fprintf(b, format, a...) }
	f("sweep %q (%s target)\n", p.Name, p.Target)
	slots := 0
	for _, bs := range p.Blocks {
		slots += len(bs)
	}
	if len(p.Blocks) == 1 {
		f("slots (%d server processes):\n", slots)
	} else {
		f("slots (%d server processes in %d blocks of up to %d points besides the baseline, run.block_size; one block's servers alive at a time, every comparison paired within its block):\n", slots, len(p.Blocks), p.BlockSize)
	}
	for bi, bs := range p.Blocks {
		if len(p.Blocks) > 1 {
			mark := ""
			for _, sb := range p.ShardBlocks {
				if p.Shard != "" && sb == bi {
					mark = fmt.Sprintf("  [shard %s]", p.Shard)
				}
			}
			f("  block %d (%d slots)%s\n", bi, len(bs), mark)
		}
		for _, s := range bs {
			f("%s", previewSlot(s, p.PointCPUs))
		}
	}
	levels := make([]string, len(p.Concurrency))
	for i, n := range p.Concurrency {
		levels[i] = fmt.Sprint(n)
	}
	f("concurrency: %s\n", strings.Join(levels, ", "))
	window := p.Duration.String()
	if p.Slices > 1 {
		window += fmt.Sprintf(" (interleaved: %d pieces of %s)", p.Slices, p.Piece)
	}
	rounds := fmt.Sprint(p.Rounds)
	switch p.Kind {
	case "auto":
		rounds = fmt.Sprintf("auto (%d to %d per level, added only where the objective is not resolved to ±%g%%", p.MinRounds, p.Rounds, 100*p.Resolve)
		if p.Budget > 0 {
			rounds += fmt.Sprintf(", within run.budget %s", p.Budget)
		}
		rounds += "; the estimate below is the most it can take)"
	case "race":
		rounds = fmt.Sprintf("race at c=%d, up to %d rounds of every surviving config, then %d finalists confirmed at every level in %d fresh rounds (the estimate below is the most it can take)",
			p.TargetConc, p.Rounds, p.Finalists, p.ConfirmRounds)
	}
	f("rounds: %s, warmup %s, window %s, restarts %s\n", rounds, p.Warmup, window, p.Restarts)
	f("windows: %d measured + %d warmups\n", p.Measured, p.Warmups)
	most, fresh := "", ""
	if p.Kind != "fixed" {
		most = " at most"
	}
	if p.Restarts == sweep.RestartsRound {
		fresh = "; restarts = \"round\": every measured window's server is fresh"
	}
	f("server starts: %d%s (only one block's servers alive at a time%s)\n", p.Starts, most, fresh)
	expected := 0
	if p.Kind == "race" && p.Expected > 0 {
		expected = p.Expected
		f("  a race's expected windows: about %d, race and confirmation (the median of simulated races of %d configs: the best −10%%, up to 4 within 2%% of it, the rest 3–30%% worse, paired noise 2.2%% with t₃ tails; a grid of ties takes the most above)\n",
			expected, p.Points)
	}
	awake := ""
	if p.KeepAwake {
		awake = ", both kept awake (run.keep_awake)"
	}
	servers := fmt.Sprintf("server CPUs %q", p.ServerCPUs)
	if p.PointCPUs {
		servers = fmt.Sprintf("server CPUs per config (grid.server_cpus, together %q)", p.ServerCPUs)
	}
	f("pinning: %s, load CPUs %q%s\n", servers, p.LoadCPUs, awake)
	if p.CPURule != "" {
		f("  chosen by default: %s\n", p.CPURule)
	}
	if p.ServerSched != sweep.SchedOther && p.ServerSched != "" {
		f("servers at SCHED_%s (run.server_sched)\n", strings.ToUpper(string(p.ServerSched)))
	}
	if p.Shard == "" {
		if m := p.Measured; expected > 0 && m > 0 {
			f("estimated wall time: %s at most, about %s expected\n", p.Estimate.Round(time.Second), (p.Estimate * time.Duration(min(expected, m)) / time.Duration(m)).Round(time.Second))
		} else {
			f("estimated wall time: %s\n", p.Estimate.Round(time.Second))
		}
		_, err := io.WriteString(w, b.String())
		return err
	}
	f("shard %s: blocks %s\n", p.Shard, BlockList(p.ShardBlocks))
	f("estimated wall time: %s for the whole plan on one machine; per shard:", p.Estimate.Round(time.Second))
	for i, e := range p.ShardEstimates {
		name := fmt.Sprintf("%d/%d", i, len(p.ShardEstimates))
		mark := ""
		if name == p.Shard {
			mark = " (this one)"
		}
		f(" %s %s%s", name, e.Round(time.Second), mark)
		if i < len(p.ShardEstimates)-1 {
			f(",")
		}
	}
	f("\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// previewSlot is one slot's line of the preview.
func previewSlot(s sweep.PreviewSlot, pointCPUs bool) string {
	role := ""
	switch {
	case s.Baseline:
		role = "  (baseline)"
	case s.AA:
		role = "  (A/A twin of the baseline)"
	case s.Reference:
		role = "  (reference server: the built-in host with a fixed workload, the anchor of cross-run checks; run.reference)"
	}
	if s.SharesCPUs {
		role += fmt.Sprintf("  [CPUs %s: shares CPUs with the load generator, run.share_cpus]", s.CPUs)
	} else if pointCPUs {
		role += fmt.Sprintf("  [CPUs %s]", s.CPUs)
	}
	return fmt.Sprintf("  %2d  %s%s\n", s.Index, s.Config, role)
}

// BlockList names blocks: "0, 3, 6" (and says so when there are none).
func BlockList(xs []int) string {
	if len(xs) == 0 {
		return "none (more shards than blocks)"
	}
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = fmt.Sprint(x)
	}
	return strings.Join(parts, ", ")
}
