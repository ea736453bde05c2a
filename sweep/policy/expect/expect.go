// Package expect says how many windows a run can be expected to measure,
// for -dry-run: a fixed plan all of its steps, a race the median of
// seeded simulated races of a grid its size (package racesim). It is
// apart from package policy so that the driver, which runs policies,
// carries no simulator.
package expect

import (
	"math/rand/v2"
	"slices"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/policy"
	"github.com/sweep-dev/sweep/sweep/race/racesim"
)

// Windows is the measured windows a run of plan can be expected to take,
// when its policy can hand out most windows at most; false when there is
// no model for it beyond that (rounds = "auto").
func Windows(plan sweep.Plan, most int) (int, bool) {
	switch policy.KindOf(plan) {
	case policy.KindRace:
		return race(plan)
	case policy.KindAuto:
		return 0, false
	}
	return most, true
}

// raceRuns is how many simulated races race takes the median of.
const raceRuns = 50

// race is the windows a race of plan's grid can be expected to take,
// race and confirmation, when the grid is shaped like a typical one
// (racesim.Typical: a few configs near the best, the rest 3–30% worse)
// under this project's measured noise (racesim.T3Slow): the median of
// raceRuns seeded simulated races, so the same plan always gets
// the same figure. A grid of ties races to load.max_rounds, the most
// the policy's Worst counts.
func race(p sweep.Plan) (int, bool) {
	s := racesim.Settings{
		Confidence: p.Confidence,
		Clip:       p.Race.Clip,
		Resolve:    p.Race.Epsilon,
		Finalists:  p.Race.Finalists,
		MaxRounds:  p.Race.MaxRounds,
		BlockSize:  p.BlockSize,
		Levels:     len(p.Concurrency),
		Metrics:    3,
	}
	f := racesim.Typical(len(p.Points))
	var ws []int
	for k := range raceRuns {
		r, err := racesim.Race(rand.New(rand.NewPCG(uint64(k), 32)), f, racesim.T3Slow(), s)
		if err != nil {
			return 0, false
		}
		ws = append(ws, r.Windows())
	}
	slices.Sort(ws)
	return ws[len(ws)/2], true
}
