package driver

import (
	"time"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/config"
	"github.com/sweep-dev/sweep/sweep/policy"
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
	// ProfileCellTime: its server's start, perf's conversion of the
	// samples and the stop. reports/profile-example (2026-12-06) profiled
	// 4 cells in 19 s after its last window: 4.7 s each, 2.2 s of them
	// ProfileCellTime.
	profileOverhead = 2500 * time.Millisecond
)

// Estimate is the expected wall time of shard sh of the run: every window
// of its blocks not in done (the windows a resumed run already has), plus
// with restarts = "round" a server start and a warmup before every
// measured window, otherwise one server start per slot; with
// analysis.profile, every profiled cell after them. (The 48-point
// bench/blocks48.toml took 113 s where the estimate, which then also
// added a start per slot to the restarts, said 138 s; BENCHMARKS.md.)
func Estimate(c *config.Config, sh shard.Spec, done map[sweep.WindowKey]bool) time.Duration {
	steps := remaining(Worst(c, sh), done)
	if len(steps) == 0 {
		return 0
	}
	var mine [][]schedule.Slot // the shard's blocks
	slots := 0
	for b, bs := range Blocks(c) {
		if sh.Has(b) {
			mine = append(mine, bs)
			slots += len(bs)
		}
	}
	d := schedule.Estimate(steps, c.Load.Warmup, c.Load.Duration, stepOverhead)
	if c.Analysis.Profile {
		d += time.Duration(ProfiledCells(c, mine)) * (ProfileCellTime(c) + profileOverhead)
	}
	if c.Run.Restarts == sweep.RestartsRound {
		// Every server start is a window's restart: restartOverhead was
		// measured over whole runs, first starts included.
		return d + time.Duration(schedule.Measured(steps))*(restartOverhead+c.Load.Warmup)
	}
	return d + time.Duration(slots)*startOverhead
}

// Worst is the most a run of c (shard sh of it) can measure: its
// policy's worst case (every step of a fixed plan), nil when c's policy
// cannot be built (config.Load has checked what it needs).
func Worst(c *config.Config, sh shard.Spec) []schedule.Step {
	p, err := Policy(c, Head(c, sweep.Environment{}, sh), sh)
	if err != nil {
		return nil
	}
	return p.Worst()
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

// Preview is -dry-run's view of a run of c (shard sh of it): its slots,
// what its policy can hand out at most, its pinning and its estimated
// wall time. What the run can be expected to take is package expect's
// (from Preview.Plan), which the driver does not import: it simulates.
func Preview(c *config.Config, sh shard.Spec) sweep.Preview {
	head := Head(c, sweep.Environment{}, sh)
	steps := Worst(c, sh)
	p := sweep.Preview{
		Name: c.Name, Target: c.Target.Kind, BlockSize: c.Run.BlockSize,
		Concurrency: c.Load.Concurrency, Warmup: c.Load.Warmup, Duration: c.Load.Duration,
		Slices: c.Load.Slices(), Piece: c.Load.Piece(),
		Plan: head.Plan, Kind: string(policy.KindOf(head.Plan)), Rounds: c.Load.Rounds, Restarts: c.Run.Restarts,
		Measured: schedule.Measured(steps), Warmups: len(steps) - schedule.Measured(steps),
		Starts: schedule.Starts(steps, c.Run.Restarts == sweep.RestartsRound), Points: len(c.Points),
		ServerCPUs: c.Run.ServerCPUs.String(), PointCPUs: c.Run.PointCPUs != nil, LoadCPUs: c.Run.LoadCPUs.String(),
		KeepAwake: c.Run.KeepAwake && len(c.Run.ServerCPUs) > 0 && len(c.Run.LoadCPUs) > 0,
		CPURule:   c.Run.CPURule, ServerSched: c.Run.ServerSched,
		Estimate: Estimate(c, sh, nil),
	}
	switch {
	case c.Load.Auto:
		p.Rounds, p.MinRounds, p.Resolve, p.Budget = c.Load.MaxRounds, AutoMin(c), c.Analysis.Resolve, c.Run.Budget
	case c.Load.Race:
		p.Rounds, p.TargetConc, p.Finalists = c.Load.MaxRounds, c.Analysis.TargetConcurrency, c.Analysis.Finalists
		p.ConfirmRounds = policy.ConfirmRounds(head.Plan, c.Analysis.Finalists)
	}
	for _, bs := range Blocks(c) {
		var slots []sweep.PreviewSlot
		for _, s := range bs {
			ps := sweep.PreviewSlot{Index: s.Index, Config: s.Config, Baseline: s.Baseline, AA: s.AA, Reference: s.Reference}
			if set := SlotCPUs(c, s); c.SharesCPUs(set) || c.Run.PointCPUs != nil {
				ps.CPUs, ps.SharesCPUs = set.String(), c.SharesCPUs(set)
			}
			slots = append(slots, ps)
		}
		p.Blocks = append(p.Blocks, slots)
	}
	if !sh.Whole() {
		p.Shard, p.ShardBlocks = sh.String(), sh.Blocks(len(p.Blocks))
		p.Estimate = Estimate(c, shard.Spec{}, nil)
		for i := range sh.Count {
			p.ShardEstimates = append(p.ShardEstimates, Estimate(c, shard.Spec{Index: i, Count: sh.Count}, nil))
		}
	}
	return p
}
