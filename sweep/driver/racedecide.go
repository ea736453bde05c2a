package driver

import (
	"fmt"
	"math"
	"strings"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/config"
	"github.com/sweep-dev/sweep/sweep/race"
	"github.com/sweep-dev/sweep/sweep/stats"
)

// This file turns a race's windows into its decisions (package race
// decides; this reads results). The same code runs live, after each race
// round, and over results.jsonl (-resume, Summarize), so a replay makes
// the decisions the run made.

// RaceParams are the race parameters of a config with load.rounds = "race".
func RaceParams(c *config.Config) race.Params {
	b := race.Split(c.Analysis.Confidence)
	return race.Params{AlphaE: b.Drop, AlphaS: b.Within, Clip: c.Analysis.RaceClip,
		Epsilon: c.Analysis.Resolve, Finalists: c.Analysis.Finalists, MaxRounds: c.Load.MaxRounds}
}

// raceState is a race rebuilt from windows.
type raceState struct {
	r         *race.Race
	survivors []int // after the preflight, then after each round
}

// newRaceState starts the race of c's grid points and drops, outside the
// error budget, every point whose pool limits are below the target level
// (builtin target).
func newRaceState(c *config.Config) (*raceState, error) {
	var labels []string
	for _, p := range c.Points {
		labels = append(labels, p.Label())
	}
	r, err := race.New(labels, RaceParams(c))
	if err != nil {
		return nil, fmt.Errorf("load.rounds = \"race\": %w", err)
	}
	s := &raceState{r: r}
	if c.Target.Kind != sweep.TargetCommand {
		for _, p := range c.Points {
			if ws := stats.PoolWarnings([]sweep.Point{sweep.Point(c.Settings(p))}, c.Analysis.TargetConcurrency); len(ws) > 0 {
				if err := r.Drop(p.Label(), "preflight: "+ws[0].Message); err != nil {
					return nil, err
				}
			}
		}
	}
	s.survivors = append(s.survivors, len(r.Survivors()))
	return s, nil
}

// advance feeds race round k's windows (ws: every window so far) to the
// race, then drops the configs that became infeasible: past the capacity
// cliff at the target over their race windows so far, or whose slot was
// given up. It returns false when round k has no race window (not run).
func (s *raceState) advance(c *config.Config, ws []sweep.Window, k int) (bool, error) {
	conc := c.Analysis.TargetConcurrency
	base, aa := BaselineLabel(c), AALabel(c)
	metric := c.Analysis.Objective.Metric()
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
	s.dropInfeasible(c, ws, k)
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

// dropInfeasible drops the survivors past the cliff at the target (error
// rate of their race windows up to round k above analysis.cliff_error_rate)
// or whose slot was given up.
func (s *raceState) dropInfeasible(c *config.Config, ws []sweep.Window, k int) {
	conc := c.Analysis.TargetConcurrency
	reqs, errs := map[string]int64{}, map[string]int64{}
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
		}
	}
	for _, l := range s.r.Survivors() {
		cfg := l
		if l == BaselineLabel(c) && AALabel(c) != "" {
			cfg = AALabel(c) // the baseline's own slot serves every block; its twin races for it
		}
		if why, ok := given[cfg]; ok {
			_ = s.r.Drop(l, why)
			continue
		}
		if reqs[cfg] > 0 {
			if rate := float64(errs[cfg]) / float64(reqs[cfg]); rate > c.Analysis.CliffErrorRate {
				_ = s.r.Drop(l, fmt.Sprintf("past the capacity cliff at c=%d: %s of requests failed (analysis.cliff_error_rate = %s)",
					conc, stats.Percent(rate), stats.Percent(c.Analysis.CliffErrorRate)))
			}
		}
	}
}

// ReplayRace rebuilds a run's race from its windows: the decisions the
// run made, round by round.
func ReplayRace(c *config.Config, ws []sweep.Window) (*race.Race, []int, error) {
	s, err := newRaceState(c)
	if err != nil {
		return nil, nil, err
	}
	for k := 0; k < c.Load.MaxRounds && s.r.Stop().Reason == ""; k++ {
		ok, err := s.advance(c, ws, k)
		if err != nil {
			return s.r, s.survivors, err
		}
		if !ok {
			break
		}
	}
	return s.r, s.survivors, nil
}
