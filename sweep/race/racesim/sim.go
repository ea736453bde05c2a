package racesim

import (
	"fmt"
	"math/rand/v2"

	"github.com/sweep-dev/sweep/sweep/race"
)

// Settings are a simulated run's design.
type Settings struct {
	Confidence float64    // analysis.confidence
	Clip       float64    // analysis.race_clip
	Resolve    float64    // analysis.resolve (ε)
	Finalists  int        // analysis.finalists
	MaxRounds  int        // load.max_rounds (race and auto)
	BlockSize  int        // run.block_size
	Levels     int        // concurrency levels
	Metrics    int        // metrics per comparison in the family (3 as the driver counts)
	Rule       *race.Rule // the race's rule (nil: race.DefaultRule)
	Confirm    string     // the confirmation's test: SignedRank ("" too) or TTest
	// OneTwin measures the A/A twin in a race round's first block only
	// (the driver today measures one in every block).
	OneTwin bool
	// Halves splits every race window into two halves, each a paired
	// observation of its own (Observe twice per round; the race's rounds,
	// MaxRounds and Rule.Stall then count halves). Noise.HalfCorr is the
	// correlation of a window's two halves.
	Halves bool
}

// Defaults are the shipped defaults: 95%, clip 5%, ε 2%, 4 finalists,
// 30 rounds, blocks of 8, 3 levels.
func Defaults() Settings {
	return Settings{Confidence: 0.95, Clip: 0.05, Resolve: 0.02, Finalists: 4, MaxRounds: 30, BlockSize: 8, Levels: 3, Metrics: 3}
}

// Params are the race parameters these settings give. With Halves the
// race observes two halves a round, so MaxRounds and the rule's Stall
// are doubled: they still count rounds.
func (s Settings) Params() race.Params {
	b := race.Split(s.Confidence)
	p := race.Params{AlphaE: b.Drop, AlphaS: b.Within, Clip: s.Clip, Epsilon: s.Resolve, Finalists: s.Finalists, MaxRounds: s.MaxRounds, Rule: s.Rule}
	if s.Halves {
		p.MaxRounds *= 2
		if s.Rule != nil {
			r := *s.Rule
			r.Stall *= 2
			p.Rule = &r
		}
	}
	return p
}

// ConfirmRounds is the confirmation's rounds per level
// (race.ConfirmRounds at these settings).
func (s Settings) ConfirmRounds(finalists int) int {
	if s.Confirm == TTest {
		return race.TRounds(s.Confidence, finalists, s.Levels)
	}
	return race.ConfirmRounds(s.Confidence, finalists, s.Levels)
}

// RaceResult is what one simulated race and its confirmation did.
type RaceResult struct {
	RaceWindows, ConfirmWindows int
	Stop                        race.Stop
	Finalists                   []int
	Dropped                     []int // eliminated (not infeasible) configs
	BestDropped                 bool  // the unique best was eliminated
	FalseWithin                 bool  // a within-ε stop while a survivor was more than ε better than the leader
	PickGap                     float64
	ConfirmFalse                bool // the confirmation called a config better or worse than the baseline while their true costs are equal, or in the wrong direction
	// ConfirmTests is the confirmation's comparisons (finalist × level,
	// objective) whose true costs differ; ConfirmCalled, those of them
	// called in the right direction (the confirmation's power).
	ConfirmTests, ConfirmCalled int
}

// Windows returns all measured windows.
func (r RaceResult) Windows() int { return r.RaceWindows + r.ConfirmWindows }

// Race simulates one race of field under noise with settings s, then
// its confirmation: the finalists and the baseline (with the A/A twin)
// at every level for ConfirmRounds rounds, objective only, Holm at the
// confirmation's share.
func Race(rng *rand.Rand, f Field, n Noise, s Settings) (RaceResult, error) {
	names := make([]string, len(f))
	for i := range f {
		names[i] = fmt.Sprint(i)
	}
	r, err := race.New(names, s.Params())
	if err != nil {
		return RaceResult{}, err
	}
	var out RaceResult
	alive := make([]bool, len(f))
	for i := range alive {
		alive[i] = true
	}
	for r.Stop().Reason == "" {
		ds, windows := s.round(rng, f, n, alive, names)
		out.RaceWindows += windows
		for _, d := range ds {
			if r.Stop().Reason != "" {
				break
			}
			for c := range d {
				if !alive[index(names, c)] {
					delete(d, c) // eliminated by this round's first half
				}
			}
			gone, err := r.Observe(d)
			if err != nil {
				return out, err
			}
			for _, e := range gone {
				i := index(names, e.Config)
				alive[i] = false
				out.Dropped = append(out.Dropped, i)
			}
		}
	}
	out.Stop = r.Stop()
	best := f.Best()
	unique := true
	for i, v := range f {
		if i != best && v == f[best] {
			unique = false
		}
	}
	out.BestDropped = unique && !alive[best]
	leader := index(names, out.Stop.Leader)
	if out.Stop.Reason == race.StopWithin {
		for i, a := range alive {
			if a && f[leader]-f[i] > s.Resolve {
				out.FalseWithin = true
			}
		}
	}
	for _, c := range r.Finalists() {
		out.Finalists = append(out.Finalists, index(names, c))
	}
	out.PickGap = f[out.Finalists[0]] - f[best]
	c := confirm(rng, f, n, s, out.Finalists)
	out.ConfirmWindows, out.ConfirmFalse, out.ConfirmTests, out.ConfirmCalled = c.windows, c.false_, c.tests, c.called
	return out, nil
}

// raceRound measures one race round: the survivors other than the
// baseline dealt into blocks of BlockSize in order, each block with the
// baseline and the A/A twin. The baseline config's d is the first block's
// A/A twin over that block's baseline.
func raceRound(rng *rand.Rand, f Field, n Noise, blockSize int, alive []bool, names []string) (map[string]float64, int) {
	var members []int
	for i := 1; i < len(f); i++ {
		if alive[i] {
			members = append(members, i)
		}
	}
	d := map[string]float64{}
	windows := 0
	for b := 0; b == 0 || b*blockSize < len(members); b++ {
		block := members[b*blockSize : min(len(members), (b+1)*blockSize)]
		base := f[0] + n.window(rng, 0)
		twin := f[0] + n.window(rng, 0)
		windows += 2 + len(block)
		if b == 0 && alive[0] {
			d[names[0]] = twin - base
		}
		for _, i := range block {
			d[names[i]] = f[i] + n.window(rng, i) - base
		}
	}
	return d, windows
}

// round measures one race round as s says (OneTwin, Halves): the
// survivors other than the baseline dealt into blocks of BlockSize in
// order, each block with the baseline (and the A/A twin); it returns one
// map of d per observation (two with Halves) and the windows.
func (s Settings) round(rng *rand.Rand, f Field, n Noise, alive []bool, names []string) ([]map[string]float64, int) {
	if !s.OneTwin && !s.Halves {
		d, w := raceRound(rng, f, n, s.BlockSize, alive, names)
		return []map[string]float64{d}, w
	}
	var members []int
	for i := 1; i < len(f); i++ {
		if alive[i] {
			members = append(members, i)
		}
	}
	parts := 1
	if s.Halves {
		parts = 2
	}
	ds := make([]map[string]float64, parts)
	for h := range ds {
		ds[h] = map[string]float64{}
	}
	draw := func(i int) []float64 {
		if s.Halves {
			a, b := n.halves(rng, i)
			return []float64{a, b}
		}
		return []float64{n.window(rng, i)}
	}
	windows := 0
	for b := 0; b == 0 || b*s.BlockSize < len(members); b++ {
		block := members[b*s.BlockSize : min(len(members), (b+1)*s.BlockSize)]
		base := draw(0)
		windows += 1 + len(block)
		if b == 0 || !s.OneTwin {
			twin := draw(0)
			windows++
			if b == 0 && alive[0] {
				for h := range ds {
					ds[h][names[0]] = twin[h] - base[h]
				}
			}
		}
		for _, i := range block {
			e := draw(i)
			for h := range ds {
				ds[h][names[i]] = f[i] + e[h] - base[h]
			}
		}
	}
	return ds, windows
}

func index(names []string, c string) int {
	for i, n := range names {
		if n == c {
			return i
		}
	}
	return -1
}

// Mixture returns s with issue 41's rule: race.Mixture for the race and
// the t confirmation (race.Confirm on race.TRounds fresh rounds a level).
func (s Settings) Mixture() Settings {
	r := race.Mixture
	s.Rule, s.Confirm = &r, TTest
	return s
}

// Halved returns s with a race round that measures the A/A twin in its
// first block only and reads every window as two halves (OneTwin,
// Halves): what the driver would have to do for issue 41's halving.
func (s Settings) Halved() Settings {
	s.OneTwin, s.Halves = true, true
	return s
}
