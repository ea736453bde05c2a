package policy

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/race"
	"github.com/sweep-dev/sweep/sweep/stats"
	"github.com/sweep-dev/sweep/sweep/units"
)

// This file turns a race's windows into its decisions (package race
// decides; this reads windows). The same code runs live, after each race
// round, and over results.jsonl (-resume, summarize), so a replay makes
// the decisions the run made.

// RaceParams are the parameters of the race plan p describes (p.Race set).
func RaceParams(p sweep.Plan) race.Params {
	b := race.Split(p.Confidence)
	return race.Params{AlphaE: b.Drop, AlphaS: b.Within, Clip: p.Race.Clip,
		Epsilon: p.Race.Epsilon, Finalists: p.Race.Finalists, MaxRounds: p.Race.MaxRounds}
}

// ConfirmRounds is the confirmation's rounds per level for n finalists
// other than the baseline (race.ConfirmRounds at p's confidence and
// levels).
func ConfirmRounds(p sweep.Plan, n int) int {
	return race.ConfirmRounds(p.Confidence, n, len(p.Concurrency))
}

// RacePreflight is the configs a race drops before its first round,
// outside the error budget: those whose pool limits (full: each config's
// full settings, fixed ones included) are below the target level, with
// why, in grid order.
func RacePreflight(labels []string, full []sweep.Point, target int) []sweep.RaceDrop {
	var out []sweep.RaceDrop
	for i, p := range full {
		if ws := stats.PoolWarnings([]sweep.Point{p}, target); len(ws) > 0 {
			out = append(out, sweep.RaceDrop{Config: labels[i], Why: sweep.RacePreflight + ws[0].Message})
		}
	}
	return out
}

// raceState is a race rebuilt from windows.
type raceState struct {
	head      sweep.Summary
	r         *race.Race
	survivors []int                           // after the preflight, then after each round
	over      map[string]sweep.RaceOverBudget // the configs dropped for a memory budget
}

// newRaceState starts the race of head's grid points and drops, outside
// the error budget, the configs its plan found infeasible before the
// first round.
func newRaceState(head sweep.Summary) (*raceState, error) {
	p := head.Plan
	if p.Race == nil {
		return nil, fmt.Errorf("%w: not a race's plan", ErrDesign)
	}
	var labels []string
	for _, pt := range p.Points {
		labels = append(labels, pt.Label())
	}
	r, err := race.New(labels, RaceParams(p))
	if err != nil {
		return nil, fmt.Errorf("load.rounds = \"race\": %w", err)
	}
	s := &raceState{head: head, r: r, over: map[string]sweep.RaceOverBudget{}}
	for _, d := range p.Race.Infeasible {
		if err := r.Drop(d.Config, d.Why); err != nil {
			return nil, err
		}
	}
	s.survivors = append(s.survivors, len(r.Survivors()))
	return s, nil
}

// advance feeds race round k's windows (ws: every window so far) to the
// race, then drops the configs that became infeasible: past the capacity
// cliff at the target over their race windows so far, or whose slot was
// given up. It returns false when round k has no race window (not run).
func (s *raceState) advance(ws []sweep.Window, k int) (bool, error) {
	conc := s.head.Plan.TargetConc
	base, aa := s.head.Baseline, s.head.AAConfig
	metric := s.head.Plan.Objective.Metric()
	type key struct {
		block  int
		config string
	}
	last := map[key]sweep.Window{} // the last good window of each slot in round k
	any := false
	for _, w := range ws {
		if !w.Race || w.Concurrency != conc || w.Round != k {
			continue
		}
		any = true
		if !w.Failed {
			last[key{w.Block, w.Config}] = w
		}
	}
	if !any {
		return false, nil
	}
	d := map[string]float64{}
	alive := map[string]bool{}
	for _, l := range s.r.Survivors() {
		alive[l] = true
	}
	firstBlock := math.MaxInt
	for kk, w := range last {
		b, ok := last[key{kk.block, base}]
		if !ok {
			continue
		}
		x := logRatio(w.Metric(metric), b.Metric(metric), metric)
		switch {
		case math.IsNaN(x):
		case kk.config == aa && alive[base] && kk.block < firstBlock:
			firstBlock, d[base] = kk.block, x // the baseline config races through its A/A twin
		case kk.config != base && kk.config != aa && alive[kk.config]:
			d[kk.config] = x
		}
	}
	if aa == "" && alive[base] {
		d[base] = 0
	}
	if _, err := s.r.Observe(d); err != nil {
		return true, err
	}
	s.dropInfeasible(ws, k, BudgetWindows)
	if s.r.Stop().Reason != "" {
		s.dropInfeasible(ws, k, 1)
	}
	s.survivors = append(s.survivors, len(s.r.Survivors()))
	return true, nil
}

// logRatio is ln(cand/base) of metric, sign-flipped when higher is
// better, so that lower is better; NaN when either is not positive.
func logRatio(cand, base float64, m sweep.Metric) float64 {
	if !(cand > 0 && base > 0) || math.IsInf(cand, 0) || math.IsInf(base, 0) {
		return math.NaN()
	}
	x := math.Log(cand / base)
	if !m.LowerIsBetter() {
		x = -x
	}
	return x
}

// BudgetWindows is the fewest race windows at the target over which a
// config's median RSS (or reserved address space) shows it over a memory
// budget (analysis.max_rss, max_reserved) while the race goes on: one
// window's RSS is too rough (in reports/memory-example one cell's 12
// windows ranged from 52 to 96 MiB). When the race stops, every survivor
// is judged on the median of the windows it has, so that no config over
// the budget is a finalist.
const BudgetWindows = 3

// dropInfeasible drops the survivors past the cliff at the target (error
// rate of their race windows up to round k above analysis.cliff_error_rate),
// whose slot was given up, or over a memory budget: the median RSS
// (reserved address space) of their race windows at the target, over
// BudgetWindows or more, above analysis.max_rss (max_reserved), as the
// recommendation judges a cell, once it has need windows. The baseline is
// never dropped for its memory: it is every comparison's reference.
func (s *raceState) dropInfeasible(ws []sweep.Window, k, need int) {
	p := s.head.Plan
	conc := p.TargetConc
	reqs, errs := map[string]int64{}, map[string]int64{}
	mem := map[sweep.MemoryMetric]map[string][]int64{sweep.MemRSS: {}, sweep.MemReserved: {}}
	given := map[string]string{}
	for _, w := range ws {
		if !w.Race || w.Concurrency != conc || w.Round > k {
			continue
		}
		if w.Failed && strings.HasPrefix(w.FailReason, "slot given up") {
			given[w.Config] = w.FailReason
		}
		if !w.Failed {
			reqs[w.Config] += w.Requests
			errs[w.Config] += int64(math.Round(w.ErrorRate * float64(w.Requests)))
			for m, by := range mem {
				if v, ok := w.Memory(m); ok {
					by[w.Config] = append(by[w.Config], v)
				}
			}
		}
	}
	for _, l := range s.r.Survivors() {
		cfg := l
		if l == s.head.Baseline && s.head.AAConfig != "" {
			cfg = s.head.AAConfig // the baseline's own slot serves every block; its twin races for it
		}
		if why, ok := given[cfg]; ok {
			_ = s.r.Drop(l, why)
			continue
		}
		if reqs[cfg] > 0 {
			if rate := float64(errs[cfg]) / float64(reqs[cfg]); rate > p.CliffRate {
				_ = s.r.Drop(l, fmt.Sprintf("past the capacity cliff at c=%d: %s of requests failed (analysis.cliff_error_rate = %s)",
					conc, units.Rate(rate), units.Rate(p.CliffRate)))
				continue
			}
		}
		if l == s.head.Baseline {
			continue
		}
		if ob, ok := overBudget(mem, cfg, p.MaxRSS, p.MaxReserved, need); ok {
			s.over[l] = ob
			_ = s.r.Drop(l, fmt.Sprintf("over the memory budget at c=%d: %s %s (the median of %d race windows) > %s %s",
				conc, ob.Metric.Label(), sweep.MiBText(ob.Median), ob.Windows, ob.Key, sweep.MiBText(ob.Limit)))
		}
	}
}

// overBudget says which memory budget config's race windows show it
// over (by their median, over need or more), false for none.
func overBudget(mem map[sweep.MemoryMetric]map[string][]int64, config string, maxRSS, maxReserved int64, need int) (sweep.RaceOverBudget, bool) {
	for _, b := range []struct {
		metric sweep.MemoryMetric
		key    string
		limit  int64
	}{{sweep.MemRSS, "max_rss", maxRSS}, {sweep.MemReserved, "max_reserved", maxReserved}} {
		vs := mem[b.metric][config]
		if b.limit <= 0 || len(vs) < need {
			continue
		}
		if med := median(vs); med > b.limit {
			return sweep.RaceOverBudget{Metric: b.metric, Median: med, Windows: len(vs), Key: b.key, Limit: b.limit}, true
		}
	}
	return sweep.RaceOverBudget{}, false
}

// median is the median of vs (not empty), the mean of the middle two for
// an even count.
func median(vs []int64) int64 {
	s := slices.Clone(vs)
	slices.Sort(s)
	n := len(s)
	return (s[(n-1)/2] + s[n/2]) / 2
}

// halt stops the race for run.budget after the rounds in ws, and judges
// every survivor's memory on the windows it has (dropInfeasible).
func (s *raceState) halt(ws []sweep.Window) {
	s.r.Halt(race.StopBudget)
	s.dropInfeasible(ws, s.r.Round()-1, 1)
}

// Replay is a race rebuilt from a run's windows: the decisions the run
// made, round by round.
type Replay struct {
	Race *race.Race
	// Survivors is the configs left after the preflight and each round.
	Survivors []int
	// OverBudget is what showed each config dropped for a memory budget
	// over it.
	OverBudget map[string]sweep.RaceOverBudget
}

// ReplayRace rebuilds the race of the run head describes from its
// windows. A replay that breaks off returns what it had and the error.
func ReplayRace(head sweep.Summary, ws []sweep.Window) (*Replay, error) {
	s, err := newRaceState(head)
	if err != nil {
		return nil, err
	}
	out := &Replay{Race: s.r, OverBudget: s.over}
	for k := 0; k < head.Plan.Race.MaxRounds && s.r.Stop().Reason == ""; k++ {
		ok, err := s.advance(ws, k)
		if err != nil {
			out.Survivors = s.survivors
			return out, err
		}
		if !ok {
			break
		}
	}
	if s.r.Stop().Reason == "" && len(VerdictWindows(head.Plan, ws)) > 0 {
		s.halt(ws) // the run went on to the confirmation: run.budget stopped it
	}
	out.Survivors = s.survivors
	return out, nil
}

// VerdictWindows are the windows of ws that give plan's verdicts: a
// race's confirmation rounds (the race rounds chose who went on, so they
// are selected data), every window of any other run.
func VerdictWindows(plan sweep.Plan, ws []sweep.Window) []sweep.Window {
	if plan.Race == nil {
		return ws
	}
	var out []sweep.Window
	for _, w := range ws {
		if !w.Race {
			out = append(out, w)
		}
	}
	return out
}
