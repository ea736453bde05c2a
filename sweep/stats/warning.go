package stats

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/units"
)

// cellWarnings attaches each cell's caveats, in a fixed order:
// failed_windows, no_baseline, few_rounds, errors, generator_bound,
// steal, busy_machine, wide_spread.
func (r *run) cellWarnings() {
	for _, g := range r.order {
		c := &g.cell
		add := func(code sweep.WarningCode, msg string) {
			c.Warnings = append(c.Warnings, sweep.Warning{Code: code, Config: c.Config, Conc: c.Concurrency, Message: msg})
		}
		if g.failed > 0 {
			add(sweep.WarnFailedWindows, fmt.Sprintf("%d of %d windows failed (first: %s); they are left out of the medians",
				g.failed, g.windows, orNone(g.failNote)))
		}
		base := r.cellAt(r.baseline, c.Concurrency)
		switch {
		case c.Baseline:
			if c.Rounds < r.o.MinRounds {
				add(sweep.WarnFewRounds, fmt.Sprintf("only %d good rounds (want at least %d): the medians are rough", c.Rounds, r.o.MinRounds))
			}
		case base == nil:
			add(sweep.WarnNoBaseline, fmt.Sprintf("no baseline windows at c=%d: nothing to compare against", c.Concurrency))
		default:
			need := max(r.o.MinRounds, MinPairs(r.firstAlpha))
			if n := pairs(c); n < need {
				add(sweep.WarnFewRounds, fmt.Sprintf("only %d paired rounds with the baseline: with %d comparisons in the run, at least %d are needed for any verdict at family-wise %s",
					n, max(r.familySize, 1), MinPairs(r.firstAlpha), units.Share(r.o.Confidence)))
			}
			if c.AA {
				for _, m := range sweep.Metrics {
					d, ok := c.VsBaseline[m]
					if ok && d.CILow != nil && (*d.CILow > 0 || *d.CIHigh < 0) {
						add(sweep.WarnAAEffect, fmt.Sprintf("the A/A twin, identical to the baseline, differs in %s by %s [%s, %s]: the bench itself shows an effect at this level; distrust verdicts of that size here",
							m, units.Change(d.Estimate), units.Change(*d.CILow), units.Change(*d.CIHigh)))
					}
				}
			}
		}
		switch {
		case g.errors > 0 && base != nil && base != g && base.errors > 0:
			add(sweep.WarnErrors, fmt.Sprintf("errors on both sides: %s here, %s for the baseline", errorText(g), errorText(base)))
		case g.errors > 0:
			add(sweep.WarnErrors, fmt.Sprintf("errors: %s", errorText(g)))
		case base != nil && base.errors > 0:
			add(sweep.WarnErrors, fmt.Sprintf("the baseline had errors at this level: %s", errorText(base)))
		}
		if c.GeneratorBound > 0 {
			add(sweep.WarnGeneratorBound, fmt.Sprintf("%d of %d windows were generator-bound: the RPS may be the load generator's limit, not the server's",
				c.GeneratorBound, c.Rounds))
		}
		if c.ServerSteal > r.o.StealWarn || c.LoadSteal > r.o.StealWarn {
			add(sweep.WarnSteal, fmt.Sprintf("the hypervisor stole %.1f%% of the server CPUs' time and %.1f%% of the load CPUs' (medians over the windows; more than %.1f%%): this machine's own noise, which widens every interval at this level",
				100*c.ServerSteal, 100*c.LoadSteal, 100*r.o.StealWarn))
		}
		if c.ServerOther != nil && c.LoadOther != nil && max(*c.ServerOther, *c.LoadOther) > r.o.BusyWarn {
			add(sweep.WarnBusyMachine, fmt.Sprintf("other work took %.1f%% of the server CPUs' time and %.1f%% of the load CPUs' (medians over the windows; more than %.0f%%): something else ran on the pinned CPUs, so RPS and latency here are not a quiet machine's, and a run on a quiet machine may not repeat them",
				100*(*c.ServerOther), 100*(*c.LoadOther), 100*r.o.BusyWarn))
		}
		for _, m := range sweep.Metrics {
			if d, ok := c.VsBaseline[m]; ok && d.Pairs > 0 && d.Q3-d.Q1 > r.o.WideSpread && !(m == sweep.MetricSuccessRPS && d == c.VsBaseline[sweep.MetricRPS]) {
				add(sweep.WarnWideSpread, fmt.Sprintf("%s ratios spread %.1f%% between quartiles (more than %.1f%%): changes smaller than that cannot be resolved",
					m, 100*(d.Q3-d.Q1), 100*r.o.WideSpread))
			}
		}
	}
}

// pairs is the number of paired rounds of a cell: the most over its metrics.
func pairs(c *sweep.Cell) int {
	n := 0
	for _, d := range c.VsBaseline {
		n = max(n, d.Pairs)
	}
	return n
}

// errorText describes a cell's errors: "0.52% (130 of 25000 requests)".
func errorText(g *group) string {
	return fmt.Sprintf("%.2f%% (%d of %d requests)", 100*g.cell.ErrorRate, g.errors, g.requests)
}

func orNone(s string) string {
	if s == "" {
		return "no reason given"
	}
	return s
}

// PoolUse is what one request of a builtin target holds from the pool's
// totals while it is in flight.
type PoolUse struct {
	Component                       bool // one component instance too
	CoreInstances, Memories, Tables int
}

// CoreModuleUse is the use of the builtin core-module workload: one core
// instance, one linear memory and one table.
var CoreModuleUse = PoolUse{CoreInstances: 1, Memories: 1, Tables: 1}

// PoolWarnings is PoolWarningsFor with every point serving the builtin
// core-module workload.
func PoolWarnings(points []sweep.Point, maxConcurrency int) []sweep.Warning {
	return PoolWarningsFor(points, maxConcurrency, nil)
}

// PoolWarningsFor is a preflight check for a builtin target: a request
// of point i holds use[i] from the pool (CoreModuleUse when use is nil),
// so a point whose total_core_instances, total_memories, total_tables or
// (for a component) total_component_instances cannot hold maxConcurrency
// requests will reject requests at the top level. It returns one
// "pool_limit" warning per point and limit. Axes absent from a point, or
// values that are not integers (already refused by config validation), are
// not checked.
func PoolWarningsFor(points []sweep.Point, maxConcurrency int, use []PoolUse) []sweep.Warning {
	var out []sweep.Warning
	for i, p := range points {
		u := CoreModuleUse
		if use != nil {
			u = use[i]
		}
		limits := []struct {
			axis, what string
			per        int
		}{
			{"total_core_instances", "core instances", u.CoreInstances},
			{"total_memories", "linear memories", u.Memories},
			{"total_tables", "tables", u.Tables},
			{"total_component_instances", "component instances", map[bool]int{true: 1}[u.Component]},
		}
		for _, l := range limits {
			v, ok := p[l.axis]
			if !ok || l.per == 0 {
				continue
			}
			n, err := strconv.ParseInt(strings.ReplaceAll(strings.TrimSpace(v), "_", ""), 10, 64)
			if err != nil || n >= int64(maxConcurrency*l.per) {
				continue
			}
			var msg string
			if u == CoreModuleUse {
				msg = fmt.Sprintf("%s = %d is below concurrency %d: each request holds one core instance, memory and table, so requests beyond %d in flight will fail",
					l.axis, n, maxConcurrency, n)
			} else {
				what := l.what
				if l.per == 1 {
					what = strings.TrimSuffix(strings.Replace(what, "memories", "memory", 1), "s")
				}
				msg = fmt.Sprintf("%s = %d is below concurrency %d × %d %s per request: requests beyond %d in flight will fail",
					l.axis, n, maxConcurrency, l.per, what, n/int64(l.per))
			}
			out = append(out, sweep.Warning{Code: sweep.WarnPoolLimit, Config: p.Label(), Conc: maxConcurrency, Message: msg})
		}
	}
	return out
}
