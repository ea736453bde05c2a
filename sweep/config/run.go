package config

import (
	"math"
	"slices"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/cpuset"
	"github.com/sweep-dev/sweep/sweep/units"
)

// thisMachine reads the machine's CPUs; a variable so that the tests can
// check the defaults for other machines than this one.
var thisMachine = cpuset.ThisMachine

// run reads [run].
func (p *parser) run(t *table) {
	r := &p.c.Run
	r.Seed = t.integer("seed", 1, math.MinInt64, math.MaxInt64)
	r.Restarts = choice(t, "restarts", sweep.RestartsRound, sweep.RestartsValues)
	r.MaxRestarts = int(t.integer("max_restarts", 3, 0, 1000))
	r.BlockSize = int(t.integer("block_size", DefaultBlockSize, 1, MaxPoints))
	r.Remeasure = t.boolean("remeasure", true)
	r.Reference = t.boolean("reference", false)
	r.KeepAwake = t.boolean("keep_awake", true)
	r.ServerSched = choice(t, "server_sched", sweep.SchedOther, sweep.Scheds)
	if t.has("budget") {
		r.Budget = t.duration("budget", 0)
		if p.err == nil && !p.c.Load.Auto && !p.c.Load.Race {
			p.failf(`run.budget: only with load.rounds = "auto" or "race"`)
		}
	}
	p.cpus(t)
}

// analysis reads [analysis]; it needs load.concurrency.
func (p *parser) analysis(t *table) {
	a := &p.c.Analysis
	a.Objective = choice(t, "objective", sweep.ObjectiveCPUPerReq, sweep.Objectives)
	a.CliffErrorRate = t.float("cliff_error_rate", 0.001, 0, 1)
	a.Confidence = t.float("confidence", 0.95, 0.5, 1)
	a.Resolve = p.fraction(t, "resolve", 0.02)
	a.Profile = t.boolean("profile", false)
	p.raceAnalysis(t)
	p.budgets(t)
	levels := p.c.Load.Concurrency
	if p.err != nil || len(levels) == 0 {
		return
	}
	a.TargetConcurrency = levels[len(levels)-1]
	if !t.has("target_concurrency") {
		return
	}
	n := t.integer("target_concurrency", 0, 1, MaxConcurrency)
	if p.err != nil {
		return
	}
	if !slices.Contains(levels, int(n)) {
		p.failf("analysis.target_concurrency = %d: not one of load.concurrency = %s", n, intList(levels))
		return
	}
	a.TargetConcurrency = int(n)
}

// fraction reads a share, 0 < f < 1, written as a TOML number (0.02) or
// as a string that units.ParseFraction reads: a percentage ("2%") or a
// fraction ("0.02").
func (p *parser) fraction(t *table, k string, def float64) float64 {
	v, ok := t.get(k)
	if !ok {
		return def
	}
	want := `a fraction such as 0.02 or a percentage such as "2%", above 0 and below 1`
	var f float64
	switch x := v.(type) {
	case float64:
		f = x
	case int64:
		f = float64(x)
	case string:
		n, err := units.ParseFraction(x)
		if err != nil {
			p.fail(err, "%s = %q: %v", t.key(k), x, err)
			return def
		}
		f = n
	default:
		t.wrongType(k, v, want)
		return def
	}
	if !(f > 0 && f < 1) {
		p.failf("%s = %s: want %s", t.key(k), show(v), want)
		return def
	}
	return f
}
