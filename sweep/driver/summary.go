package driver

import (
	"slices"
	"time"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/config"
	"github.com/sweep-dev/sweep/sweep/race"
	"github.com/sweep-dev/sweep/sweep/results"
	"github.com/sweep-dev/sweep/sweep/rundir"
	"github.com/sweep-dev/sweep/sweep/schedule"
	"github.com/sweep-dev/sweep/sweep/shard"
	"github.com/sweep-dev/sweep/sweep/stats"
	"github.com/sweep-dev/sweep/sweep/summarize"
)

// WriteSummary analyses the windows on disk in dir and writes
// summary.json (rundir.WriteSummary). It returns the summary it wrote.
func WriteSummary(dir string, c *config.Config, env sweep.Environment, steps []schedule.Step, sh shard.Spec) (sweep.Summary, error) {
	ws, err := results.Read(rundir.Dir(dir).Results())
	if err != nil {
		return sweep.Summary{}, err
	}
	s := Summarize(c, env, steps, ws, sh)
	return s, rundir.WriteSummary(dir, s)
}

// Summarize builds the summary of a run from its windows. steps is what
// the run planned to measure: the whole plan, or shard sh's part of it.
// Its head (head) is the config's part; the rest is summarize.Summary's.
//
// A race's verdicts come from its confirmation rounds only, at their share
// of the error budget (race.Split); its race rounds give the race block
// and the eliminated configs' cells.
func Summarize(c *config.Config, env sweep.Environment, steps []schedule.Step, ws []sweep.Window, sh shard.Spec) sweep.Summary {
	h := head(c, env, steps, sh)
	if !c.Load.Race {
		return summarize.Summary(h, ws)
	}
	s := summarize.Subset(h, ws, confirmWindows(ws), 1-race.Split(c.Analysis.Confidence).Confirm)
	var extra []sweep.Cell
	s.Race, extra = RaceSummary(c, ws)
	s.Cells = append(s.Cells, extra...)
	s.Plan.Rounds = s.Race.ConfirmRounds // the rounds per level that gave verdicts
	return s
}

// head is what a run of c (shard sh of it, measuring steps) states before
// its first window: its name, plan, baseline and A/A twin, environment
// and preflight warnings.
func head(c *config.Config, env sweep.Environment, steps []schedule.Step, sh shard.Spec) sweep.Summary {
	blocks := Blocks(c)
	resolve := 0.0
	if c.Load.Auto {
		resolve = c.Analysis.Resolve
	}
	s := sweep.Summary{
		SchemaVersion: sweep.SchemaVersion,
		Name:          c.Name,
		Created:       time.Now().UTC(),
		Environment:   env,
		Plan: sweep.Plan{
			Points: c.Points, Concurrency: c.Load.Concurrency, Rounds: c.Load.Rounds,
			Warmup: c.Load.Warmup, Duration: c.Load.Duration,
			Slots: len(Slots(c)), Windows: schedule.Measured(steps),
			Objective: c.Analysis.Objective, TargetConc: c.Analysis.TargetConcurrency,
			CliffRate: c.Analysis.CliffErrorRate, Confidence: c.Analysis.Confidence, Restarts: c.Run.Restarts,
			Slices: c.Load.Slices(), RoundsAuto: c.Load.Auto, Resolve: resolve,
			Blocks: len(blocks), BlockSize: c.Run.BlockSize,
			MaxRSS: int64(c.Analysis.MaxRSS), MaxReserved: int64(c.Analysis.MaxReserved),
		},
		Baseline: BaselineLabel(c),
		AAConfig: AALabel(c),
	}
	if !sh.Whole() {
		s.Plan.Shard = sh.String()
		s.Plan.ShardBlocks = sh.Blocks(len(blocks))
	}
	for _, ax := range c.Axes {
		s.Plan.Axes = append(s.Plan.Axes, ax.Name)
	}
	// Preflight: pool limits below the largest concurrency, judged on the
	// full settings of each point (fixed settings included).
	maxC := 0
	for _, n := range c.Load.Concurrency {
		maxC = max(maxC, n)
	}
	var full []sweep.Point
	for _, p := range c.Points {
		full = append(full, sweep.Point(c.Settings(p)))
	}
	s.Warnings = PreflightWarnings(c, env.Plugins, full, maxC)
	return s
}

// poolUse is what a request of the point labelled label holds from the
// pool: its plugin's (the one plugin, or the one naming it in Configs).
func poolUse(plugins []sweep.Plugin, label string) stats.PoolUse {
	for _, pl := range plugins {
		if len(plugins) == 1 || slices.Contains(pl.Configs, label) {
			return stats.PoolUse{Component: pl.IsComponent(), CoreInstances: pl.CoreInstances, Memories: pl.Memories, Tables: pl.Tables}
		}
	}
	return stats.CoreModuleUse
}

// PreflightWarnings are the warnings known before any load: pool limits
// that the largest concurrency will exceed (builtin target only), with
// what a request of each point's plugin holds from the pool (plugins as
// wasmhost.Preflight described them; the core-module workload's one
// instance, memory and table when they are not known).
func PreflightWarnings(c *config.Config, plugins []sweep.Plugin, full []sweep.Point, maxC int) []sweep.Warning {
	if c.Target.Kind == sweep.TargetCommand {
		return nil
	}
	var ws []sweep.Warning
	for j, p := range full {
		use := []stats.PoolUse{poolUse(plugins, c.Points[j].Label())}
		for _, w := range stats.PoolWarningsFor([]sweep.Point{p}, maxC, use) {
			w.Config = c.Points[j].Label() // the grid label, not the full settings
			ws = append(ws, w)
		}
	}
	return ws
}
