package driver

import (
	"math/rand/v2"
	"slices"

	"github.com/sweep-dev/sweep/sweep/config"
	"github.com/sweep-dev/sweep/sweep/race/racesim"
)

// raceExpectRuns is how many simulated races RaceExpected takes the
// median of.
const raceExpectRuns = 50

// RaceExpected is the windows a race of c's grid can be expected to
// take, race and confirmation, when the grid is shaped like a typical
// one (racesim.Typical: a few configs near the best, the rest 3–30%
// worse) under this project's measured noise (racesim.T3Slow): the
// median of raceExpectRuns seeded simulated races, so the same config
// always gets the same figure. A grid of ties races to load.max_rounds,
// the most Plan counts. It is 0 when the race's parameters are refused
// (config.Load has checked them first).
func RaceExpected(c *config.Config) int {
	s := racesim.Settings{
		Confidence: c.Analysis.Confidence,
		Clip:       c.Analysis.RaceClip,
		Resolve:    c.Analysis.Resolve,
		Finalists:  c.Analysis.Finalists,
		MaxRounds:  c.Load.MaxRounds,
		BlockSize:  c.Run.BlockSize,
		Levels:     len(c.Load.Concurrency),
		Metrics:    3,
	}
	f := racesim.Typical(len(c.Points))
	var ws []int
	for k := range raceExpectRuns {
		r, err := racesim.Race(rand.New(rand.NewPCG(uint64(k), 32)), f, racesim.T3Slow(), s)
		if err != nil {
			return 0
		}
		ws = append(ws, r.Windows())
	}
	slices.Sort(ws)
	return ws[len(ws)/2]
}
