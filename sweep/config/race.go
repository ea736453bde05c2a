package config

// Defaults and limits of load.rounds = "race".
const (
	// DefaultFinalists is analysis.finalists when unset.
	DefaultFinalists = 4
	// MaxFinalists is the largest analysis.finalists.
	MaxFinalists = 100
	// DefaultRaceClip is analysis.race_clip when unset: 5%, about twice
	// the paired noise of one round on this project's VM (BENCHMARKS.md).
	DefaultRaceClip = 0.05
	// DefaultRaceMaxRounds is load.max_rounds with rounds = "race" when unset.
	DefaultRaceMaxRounds = 30
)

// raceRounds reads load.rounds = "race" and load.max_rounds.
func (p *parser) raceRounds(t *table) {
	l := &p.c.Load
	l.Race = true
	if t.has("min_rounds") {
		p.failf(`load.min_rounds: only with load.rounds = "auto" (a race takes one round at a time until it stops)`)
		return
	}
	l.MaxRounds = int(t.integer("max_rounds", DefaultRaceMaxRounds, 2, MaxRounds))
	l.Rounds = l.MaxRounds
	if p.err == nil && len(p.c.Points) < 2 {
		p.failf(`load.rounds = "race": the grid has one point, nothing to race; add a [grid] axis with two or more values`)
	}
}

// raceAnalysis reads analysis.finalists and analysis.race_clip, which
// are only allowed with load.rounds = "race" (and stay 0 without it).
func (p *parser) raceAnalysis(t *table) {
	a := &p.c.Analysis
	if !p.c.Load.Race {
		for _, k := range []string{"finalists", "race_clip"} {
			if t.has(k) && p.err == nil {
				p.failf(`analysis.%s: only with load.rounds = "race"`, k)
			}
		}
		return
	}
	a.Finalists = int(t.integer("finalists", DefaultFinalists, 1, MaxFinalists))
	a.RaceClip = p.fraction(t, "race_clip", DefaultRaceClip)
}
