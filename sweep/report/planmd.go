package report

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/units"
)

// plan is summary.md's section "Plan": the grid, the levels, the rounds
// and windows, the slots, blocks and shards, the reference server and the
// objective.
func (m *mdWriter) plan() {
	p := m.s.Plan
	m.f("## Plan\n\n")
	axes := "no axes"
	if len(p.Axes) > 0 {
		q := make([]string, len(p.Axes))
		for i, a := range p.Axes {
			q[i] = code(a)
		}
		axes = strings.Join(q, " × ")
	}
	m.f("- Grid: %s over %s; baseline %s", plural(len(p.Points), "config"), axes, code(m.s.Baseline))
	if m.s.AAConfig != "" {
		m.f("; A/A twin %s (the baseline run twice, as the noise control)", code(m.s.AAConfig))
	} else {
		m.f("; no A/A control")
	}
	m.f(".\n")
	lv := make([]string, len(p.Concurrency))
	for i, c := range p.Concurrency {
		lv[i] = strconv.Itoa(c)
	}
	m.f("- Concurrency: %s closed-loop connections.\n", strings.Join(lv, ", "))
	rounds := fmt.Sprintf("%d per level", p.Rounds)
	if p.RoundsAuto {
		rounds = fmt.Sprintf("adaptive, up to %d per level, added only for configs not yet resolved to ±%g%% (each cell's rounds say how many it took)", p.Rounds, 100*p.Resolve)
	}
	m.f("- Rounds: %s; in each round every slot gets one %s window after a %s warmup, slot order rotated",
		rounds, p.Duration, p.Warmup)
	if p.Slices > 1 {
		m.f("; the round's windows measured interleaved, each in %d pieces of %s taken from the slots in turn"+
			" (paired changes cancel the machine's drift; absolute CPU/req and RPS are those of servers loaded in bursts,"+
			" which can differ from continuous load at high concurrency: `slice = \"0\"` measures that)",
			p.Slices, p.Duration/time.Duration(p.Slices))
	}
	m.f(".\n")
	restarts := "kept alive across rounds"
	if p.Restarts == sweep.RestartsRound {
		restarts = "restarted every round"
	}
	remeasured := ""
	if p.Remeasured > 0 {
		remeasured = fmt.Sprintf(" (%s re-measured after a failure; the failed ones are in results.jsonl)", plural(p.Remeasured, "window"))
	}
	m.f("- Slots: %s, %s; %d of %d windows measured%s.\n", plural(p.Slots, "server process"), restarts, p.Measured, p.Windows, remeasured)
	m.blocks()
	if len(m.s.Reference) > 0 {
		var lv []string
		for _, c := range m.s.Reference {
			lv = append(lv, fmt.Sprintf("c=%d %s µs CPU/req, %s RPS", c.Concurrency, us(c.CPUUsPerReq), rps(c.RPS)))
		}
		m.f("- Reference server (the built-in host with a fixed workload, in every round, never judged; what `sweep check -baseline` compares two runs through): %s.\n", strings.Join(lv, "; "))
	}
	_, words, _ := objective(p.Objective)
	m.f("- Objective: %s at c=%d; a capacity cliff is an error rate above %s.\n\n", words, p.TargetConc, units.Rate(p.CliffRate))
}

// blocks is the Plan section's line on blocks and shards: how the grid
// was split, the part this run holds, and how far the baseline moved
// from block to block.
func (m *mdWriter) blocks() {
	p := m.s.Plan
	if p.Blocks > 1 {
		m.f("- Blocks: %d, of up to %d configs besides the baseline each (run.block_size), one after another; each block ran the baseline (and its A/A twin) itself, only one block's servers were alive at a time, and every change is paired with the baseline of its own block.\n",
			p.Blocks, p.BlockSize)
	}
	switch {
	case p.Shard != "":
		var bs []string
		for _, b := range p.ShardBlocks {
			bs = append(bs, strconv.Itoa(b))
		}
		m.f("- Shard %s of the plan: block %s only (the other shards' configs are not in this report; `sweep merge` combines the shards).\n", p.Shard, strings.Join(bs, ", "))
	case len(p.Merged) > 0:
		m.f("- Merged from shards %s (`sweep merge`).\n", strings.Join(p.Merged, ", "))
	}
	if len(m.s.BlockDrift) == 0 {
		return
	}
	var lv []string
	for _, d := range m.s.BlockDrift {
		lv = append(lv, fmt.Sprintf("c=%d %s (%s to %s %s)", d.Concurrency, units.Change(d.Spread),
			strconv.FormatFloat(d.Min, 'f', 1, 64), strconv.FormatFloat(d.Max, 'f', 1, 64), d.Metric.Unit()))
	}
	_, words, _ := objective(p.Objective)
	m.f("- Drift between blocks: the baseline's %s, highest block's median over the lowest's: %s. The pairing within blocks cancels it from the changes; absolute levels of configs in different blocks differ by up to this much.\n", words, strings.Join(lv, "; "))
}
