package race

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// Params are a race's settings.
type Params struct {
	// AlphaE is the chance of ever dropping the best config (Budget.Drop).
	AlphaE float64
	// AlphaS is the chance of a false within-ε stop (Budget.Within).
	AlphaS float64
	// Clip is c: a round's paired log difference is divided by it and
	// clipped to [−1, 1] (analysis.race_clip).
	Clip float64
	// Epsilon is ε, the difference not worth racing for (analysis.resolve).
	Epsilon float64
	// Finalists is how many configs the race hands to the confirmation
	// (analysis.finalists): the race stops when no more survive.
	Finalists int
	// MaxRounds ends the race (load.max_rounds).
	MaxRounds int
	// Rule is the elimination rule's shape (nil: DefaultRule).
	Rule *Rule
}

// ErrParams is wrapped by New's errors.
var ErrParams = errors.New("race: bad parameters")

// Check returns an error wrapping ErrParams when a parameter is out of range.
func (p Params) Check() error {
	switch {
	case !(p.AlphaE > 0 && p.AlphaE < 1):
		return fmt.Errorf("%w: AlphaE = %g, want 0 < α < 1", ErrParams, p.AlphaE)
	case !(p.AlphaS > 0 && p.AlphaS < 1):
		return fmt.Errorf("%w: AlphaS = %g, want 0 < α < 1", ErrParams, p.AlphaS)
	case !(p.Clip > 0):
		return fmt.Errorf("%w: Clip = %g, want > 0", ErrParams, p.Clip)
	case !(p.Epsilon > 0):
		return fmt.Errorf("%w: Epsilon = %g, want > 0", ErrParams, p.Epsilon)
	case p.Finalists < 1:
		return fmt.Errorf("%w: Finalists = %d, want ≥ 1", ErrParams, p.Finalists)
	case p.MaxRounds < 1:
		return fmt.Errorf("%w: MaxRounds = %d, want ≥ 1", ErrParams, p.MaxRounds)
	}
	if p.Rule != nil {
		return p.Rule.check()
	}
	return nil
}

// Race is the state of one race over a fixed set of configs. Feed it one
// Observe per race round; read Survivors, Stop and Entries. Not safe for
// concurrent use.
type Race struct {
	p        Params
	names    []string
	index    map[string]int
	rule     Rule
	drop     [][][]Bettor // drop[m][i][j]: bet m's evidence that i is worse than j
	within   [][]Bettor   // within[i][j]: evidence that i is within ε of j
	sum      []float64    // Σ d of the rounds each config was observed in
	ds       [][]float64  // each config's d, in round order
	logE     [][]float64  // logE[m][i]: ln of bet m's portfolio of i's pair bets (bet)
	entries  []Entry
	round    int // race rounds observed
	lastDrop int // the last round that eliminated a config (0: none yet)
	stop     Stop
}

// New starts a race of configs (distinct names, at least two).
func New(configs []string, p Params) (*Race, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
	if len(configs) < 2 {
		return nil, fmt.Errorf("%w: %d configs, a race needs two or more", ErrParams, len(configs))
	}
	r := &Race{p: p, rule: p.rule(), names: configs, index: map[string]int{}}
	for i, c := range configs {
		if _, dup := r.index[c]; dup {
			return nil, fmt.Errorf("%w: config %q twice", ErrParams, c)
		}
		r.index[c] = i
	}
	k := len(configs)
	r.within = grid(k, 0)
	for _, b := range r.rule.Bets {
		r.drop = append(r.drop, grid(k, b.Cap))
		r.logE = append(r.logE, make([]float64, k))
	}
	r.sum = make([]float64, k)
	r.ds = make([][]float64, k)
	r.entries = make([]Entry, k)
	for i, c := range configs {
		r.entries[i] = Entry{Config: c}
	}
	r.checkField()
	return r, nil
}

func grid(k int, cap float64) [][]Bettor {
	g := make([][]Bettor, k)
	for i := range g {
		g[i] = make([]Bettor, k)
		for j := range g[i] {
			g[i][j].cap = cap
		}
	}
	return g
}

// Round returns the number of race rounds observed.
func (r *Race) Round() int { return r.round }

// alive reports whether config i is still racing.
func (r *Race) alive(i int) bool { return r.entries[i].Reason == "" }

// Survivors returns the configs still racing, in the order New got them.
func (r *Race) Survivors() []string {
	var out []string
	for i, c := range r.names {
		if r.alive(i) {
			out = append(out, c)
		}
	}
	return out
}

// E returns config's current Eᵢ: the evidence that it is worse than
// another config of the race, the wealth of its portfolio of pair bets
// (frozen once it left).
func (r *Race) E(config string) float64 {
	i, ok := r.index[config]
	if !ok {
		return math.NaN()
	}
	return r.e(i)
}

// e is Eᵢ, the mean of its bets' portfolios.
func (r *Race) e(i int) float64 {
	s := 0.0
	for m := range r.logE {
		s += math.Exp(r.logE[m][i])
	}
	return s / float64(len(r.logE))
}

// Mean returns config's mean d over the rounds it was observed in (NaN
// before any). Leader and Finalists rank by the median instead, which
// one outlier window cannot move far.
func (r *Race) Mean(config string) float64 {
	i, ok := r.index[config]
	if !ok || r.entries[i].Rounds == 0 {
		return math.NaN()
	}
	return r.sum[i] / float64(r.entries[i].Rounds)
}

// median returns config i's median d (+Inf before any round).
func (r *Race) median(i int) float64 {
	if len(r.ds[i]) == 0 {
		return math.Inf(1)
	}
	s := slices.Clone(r.ds[i])
	slices.Sort(s)
	n := len(s)
	return (s[(n-1)/2] + s[n/2]) / 2
}
