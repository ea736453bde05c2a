package race

import "fmt"

// Rule is the shape of the elimination rule: the bets Eᵢ mixes and how
// its portfolio weighs the opponents. The zero Rule is DefaultRule.
type Rule struct {
	// Bets are the components of Eᵢ's mixture: Eᵢ is their mean, each a
	// portfolio of pair bets on clip(x/(Clip·Scale), −1, 1) with bets of
	// at most Cap.
	Bets []Bet
	// LeaderShare of each round's bet goes on the config leading on the
	// earlier rounds (the runner-up, for the leader itself); the rest is
	// spread in proportion to the pairs' wealth.
	LeaderShare float64
	// Top, when positive, spreads the rest over the Top survivors with
	// the lowest median d only (i itself left out).
	Top int
	// FirstUniform bets the first round evenly on every opponent
	// (LeaderShare and Top apply from the second round on).
	FirstUniform bool
	// Stall, when positive, stops the race (StopStalled) once at most
	// twice Params.Finalists configs survive and Stall rounds in a row
	// went without an elimination (and one has happened).
	Stall int
}

// Bet is one component of Eᵢ's mixture.
type Bet struct {
	Cap   float64 // the largest bet, at most 1 (0: MaxBet)
	Scale float64 // the clip is Params.Clip times Scale (0: 1)
}

// DefaultRule is the rule of a Params whose Rule is nil: issue 32's,
// one bet of at most MaxBet on clip(x/c), half on the leader and half
// spread over every other survivor.
var DefaultRule = Rule{Bets: []Bet{{Cap: MaxBet, Scale: 1}}, LeaderShare: 0.5}

// Mixture is issue 41's rule: Eᵢ the mean of two portfolios, with bets
// of at most 0.95 and 0.99, both on clip(x/(c/2)); half of each round's
// bet on the leader and half over the 4 leading survivors in proportion
// to their pairs' wealth, the first round evenly over every opponent;
// once at most twice Finalists survive, the race stops (StopStalled) 3
// rounds after its last elimination.
var Mixture = Rule{
	Bets:         []Bet{{Cap: 0.95, Scale: 0.5}, {Cap: 0.99, Scale: 0.5}},
	LeaderShare:  0.5,
	Top:          4,
	FirstUniform: true,
	Stall:        3,
}

func (p Params) rule() Rule {
	if p.Rule == nil || len(p.Rule.Bets) == 0 {
		return DefaultRule
	}
	return *p.Rule
}

// check returns an error wrapping ErrParams when a field is out of range.
func (r Rule) check() error {
	for k, b := range r.Bets {
		if !(b.Cap >= 0 && b.Cap <= 1) || !(b.Scale >= 0) {
			return fmt.Errorf("%w: Rule.Bets[%d] = %+v, want 0 ≤ Cap ≤ 1 and Scale ≥ 0", ErrParams, k, b)
		}
	}
	switch {
	case !(r.LeaderShare >= 0 && r.LeaderShare <= 1):
		return fmt.Errorf("%w: Rule.LeaderShare = %g, want 0 ≤ share ≤ 1", ErrParams, r.LeaderShare)
	case r.Top < 0:
		return fmt.Errorf("%w: Rule.Top = %d, want ≥ 0", ErrParams, r.Top)
	case r.Stall < 0:
		return fmt.Errorf("%w: Rule.Stall = %d, want ≥ 0", ErrParams, r.Stall)
	}
	return nil
}
