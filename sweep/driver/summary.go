package driver

import (
	"errors"
	"maps"
	"slices"
	"time"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/config"
	"github.com/sweep-dev/sweep/sweep/policy"
	"github.com/sweep-dev/sweep/sweep/results"
	"github.com/sweep-dev/sweep/sweep/rundir"
	"github.com/sweep-dev/sweep/sweep/shard"
	"github.com/sweep-dev/sweep/sweep/stats"
	"github.com/sweep-dev/sweep/sweep/summarize"
)

// ErrRaceShard is returned by Run for -shard with load.rounds = "race".
var ErrRaceShard = errors.New("race cannot be sharded")

// WriteSummary summarises the windows on disk in dir for the run head
// describes (summarize.Summary, the one maker of summary.json) and
// writes summary.json. It returns the summary it wrote.
func WriteSummary(dir string, head sweep.Summary) (sweep.Summary, error) {
	ws, err := results.Read(rundir.Dir(dir).Results())
	if err != nil {
		return sweep.Summary{}, err
	}
	s := summarize.Summary(head, ws)
	return s, rundir.WriteSummary(dir, s)
}

// Head is what a run of c (shard sh of it) states before its first
// window: its name, plan (all the policy needs to decide and replay),
// baseline and A/A twin, environment and preflight warnings.
// Plan.Windows is left 0: the run sets it to what its policy handed out.
func Head(c *config.Config, env sweep.Environment, sh shard.Spec) sweep.Summary {
	blocks := Blocks(c)
	resolve, minRounds := 0.0, 0
	if c.Load.Auto {
		resolve, minRounds = c.Analysis.Resolve, AutoMin(c)
	}
	s := sweep.Summary{
		SchemaVersion: sweep.SchemaVersion,
		Name:          c.Name,
		Created:       time.Now().UTC(),
		Environment:   env,
		Plan: sweep.Plan{
			Points: c.Points, Concurrency: c.Load.Concurrency, Rounds: c.Load.Rounds,
			Warmup: c.Load.Warmup, Duration: c.Load.Duration,
			Slots:     len(Slots(c)),
			Objective: c.Analysis.Objective, TargetConc: c.Analysis.TargetConcurrency,
			CliffRate: c.Analysis.CliffErrorRate, Confidence: c.Analysis.Confidence, Restarts: c.Run.Restarts,
			Slices: c.Load.Slices(), RoundsAuto: c.Load.Auto, Resolve: resolve, MinRounds: minRounds, Seed: c.Run.Seed,
			Blocks: len(blocks), BlockSize: c.Run.BlockSize,
			MaxRSS: int64(c.Analysis.MaxRSS), MaxReserved: int64(c.Analysis.MaxReserved),
		},
		Baseline: BaselineLabel(c),
		AAConfig: AALabel(c),
	}
	if c.Load.Race {
		s.Plan.Race = racePlan(c)
	}
	if c.Target.Kind != sweep.TargetCommand {
		s.Plan.Fixed = maps.Clone(c.Fixed)
		if s.Plan.Fixed == nil {
			s.Plan.Fixed = map[string]string{}
		}
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

// racePlan is a race's plan: its settings, and the points whose pool
// limits are below the target level (builtin target), which the race
// drops before its first round (policy.RacePreflight).
func racePlan(c *config.Config) *sweep.RacePlan {
	rp := &sweep.RacePlan{Clip: c.Analysis.RaceClip, Epsilon: c.Analysis.Resolve, Finalists: c.Analysis.Finalists, MaxRounds: c.Load.MaxRounds}
	if c.Target.Kind == sweep.TargetCommand {
		return rp
	}
	var labels []string
	var full []sweep.Point
	for _, p := range c.Points {
		labels = append(labels, p.Label())
		full = append(full, sweep.Point(c.Settings(p)))
	}
	rp.Infeasible = policy.RacePreflight(labels, full, c.Analysis.TargetConcurrency)
	return rp
}

// Policy is the policy of a run of c (shard sh of it): what it measures,
// decided as it goes (package policy), over the head Head gives.
func Policy(c *config.Config, head sweep.Summary, sh shard.Spec) (policy.Policy, error) {
	return policy.New(policy.Design{Head: head, Blocks: shardBlocks(c, sh), Budget: c.Run.Budget})
}

// AutoMin is an adaptive run's rounds per level before any is added:
// load.min_rounds, or when unset one more than the fewest pairs with which
// the signed-rank test can reach the correction's strictest level.
func AutoMin(c *config.Config) int {
	if c.Load.MinRounds > 0 {
		return c.Load.MinRounds
	}
	return min(roundsNeeded(c)+1, c.Load.MaxRounds)
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
