package config

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/cpuset"
)

// onlineCPUs returns the online CPUs; a variable so that the tests can
// check the defaults for other machines than this one.
var onlineCPUs = cpuset.Online

// run reads [run].
func (p *parser) run(t *table) {
	r := &p.c.Run
	r.Seed = t.integer("seed", 1, math.MinInt64, math.MaxInt64)
	r.Restarts = choice(t, "restarts", sweep.RestartsRound, sweep.RestartsValues)
	r.MaxRestarts = int(t.integer("max_restarts", 3, 0, 1000))
	r.Remeasure = t.boolean("remeasure", true)
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

// cpus reads and checks server_cpus and load_cpus.
func (p *parser) cpus(t *table) {
	server, hasServer := p.cpuList(t, "server_cpus")
	load, hasLoad := p.cpuList(t, "load_cpus")
	if p.err != nil {
		return
	}
	online, err := onlineCPUs()
	if err != nil {
		if hasServer || hasLoad {
			p.fail(err, "run: cannot check server_cpus/load_cpus: %v", err)
			return
		}
		return // cannot pin by default: run unpinned
	}
	switch {
	case !hasServer && !hasLoad:
		if len(online) >= 2 {
			server, load = cpuset.Set{online[0]}, cpuset.Set{online[1]}
		}
	case !hasLoad:
		load = online.Subset(server)
	case !hasServer:
		server = online.Subset(load)
	}
	for _, c := range []struct {
		key string
		set cpuset.Set
	}{{"run.server_cpus", server}, {"run.load_cpus", load}} {
		if missing := c.set.Subset(online); len(missing) > 0 {
			p.failf("%s = %q: CPU %s not online; this machine has CPUs %s", c.key, c.set.String(), missing.String(), online.String())
			return
		}
	}
	if server.Overlaps(load) {
		p.failf("run.server_cpus = %q and run.load_cpus = %q overlap; the server and the load generator need disjoint CPUs (online: %s)",
			server.String(), load.String(), online.String())
		return
	}
	p.c.Run.ServerCPUs, p.c.Run.LoadCPUs = server, load
}

// cpuList reads one CPU list key: a kernel-format string or an integer.
func (p *parser) cpuList(t *table, k string) (cpuset.Set, bool) {
	v, ok := t.get(k)
	if !ok {
		return nil, false
	}
	var s string
	switch x := v.(type) {
	case string:
		s = x
	case int64:
		s = strconv.FormatInt(x, 10)
	default:
		t.wrongType(k, v, `a CPU list such as "0", "2-3" or "0,2" ("" = unpinned)`)
		return nil, true
	}
	set, err := cpuset.Parse(s)
	if err != nil {
		p.fail(err, `%s = %s: want a CPU list such as "0", "2-3" or "0,2" ("" = unpinned)`, t.key(k), show(v))
		return nil, true
	}
	return set, true
}

// analysis reads [analysis]; it needs load.concurrency.
func (p *parser) analysis(t *table) {
	a := &p.c.Analysis
	a.Objective = choice(t, "objective", sweep.ObjectiveCPUPerReq, sweep.Objectives)
	a.CliffErrorRate = t.float("cliff_error_rate", 0.001, 0, 1)
	a.Confidence = t.float("confidence", 0.95, 0.5, 1)
	a.Resolve = p.fraction(t, "resolve", 0.02)
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
