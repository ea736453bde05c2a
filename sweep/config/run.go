package config

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/cpuset"
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
		if p.err == nil && !p.c.Load.Auto {
			p.failf(`run.budget: only with load.rounds = "auto"`)
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

// fraction reads a fraction written as a number (0.02) or a percentage
// string ("2%"), 0 < f < 1.
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
		n, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(x), "%")), 64)
		if err != nil || !strings.HasSuffix(strings.TrimSpace(x), "%") {
			p.failf("%s = %q: want %s", t.key(k), x, want)
			return def
		}
		f = n / 100
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
