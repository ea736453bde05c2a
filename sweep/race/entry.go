package race

import (
	"fmt"
	"math"

	"github.com/sweep-dev/sweep/sweep"
)

// Reason says why a config left the race, or that it is a finalist: the
// data model's sweep.RaceReason, one name per state.
type Reason = sweep.RaceReason

// Reasons.
const (
	// Eliminated: Eᵢ reached 1/α_E (within the error budget).
	Eliminated = sweep.RaceEliminated
	// Infeasible: past the cliff at the target, slot given up, a pool
	// limit below the target or over the memory budget (outside the error
	// budget).
	Infeasible = sweep.RaceInfeasible
	// Finalist: handed to the confirmation (set by Entries once stopped).
	Finalist = sweep.RaceFinalist
	// Unconfirmed: still racing, or survived a stopped race without being
	// among the finalists.
	Unconfirmed = sweep.RaceUnconfirmed
)

// Entry is one config's record in a race.
type Entry struct {
	Config    string  `json:"config"`
	Rounds    int     `json:"rounds"`               // race rounds it was observed in
	DroppedAt int     `json:"dropped_at,omitempty"` // the race round it left after
	EAtDrop   float64 `json:"e_at_drop,omitempty"`  // Eᵢ when eliminated
	WorseThan string  `json:"worse_than,omitempty"` // the opponent with the most evidence against it
	Mean      float64 `json:"mean_log_ratio"`       // mean d while it raced
	Reason    Reason  `json:"reason"`               // eliminated, infeasible, finalist or unconfirmed
	Why       string  `json:"why,omitempty"`        // an infeasible config's reason in words
}

// Drop removes config from the race as infeasible, outside the error
// budget, for the reason why ("past the capacity cliff at c=16: 2.1%
// errors"). Its pairs freeze. Dropping one that already left is a no-op.
func (r *Race) Drop(config, why string) error {
	i, ok := r.index[config]
	if !ok {
		return fmt.Errorf("%w: config %q is not in the race", ErrParams, config)
	}
	if !r.alive(i) {
		return nil
	}
	en := &r.entries[i]
	en.Reason, en.DroppedAt, en.Why = Infeasible, r.round, why
	if en.Rounds > 0 {
		en.Mean = r.sum[i] / float64(en.Rounds)
	}
	if r.stop.Reason == "" && len(r.survivorIdx()) > 0 {
		r.checkField()
	}
	return nil
}

// Entries returns every config's record in New's order. Survivors of a
// stopped race are Finalist or Unconfirmed; of a running one, Unconfirmed.
func (r *Race) Entries() []Entry {
	out := make([]Entry, len(r.entries))
	copy(out, r.entries)
	fin := map[string]bool{}
	if r.stop.Reason != "" {
		for _, c := range r.Finalists() {
			fin[c] = true
		}
	}
	for i := range out {
		if out[i].Reason != "" {
			continue
		}
		out[i].Reason = Unconfirmed
		if fin[out[i].Config] {
			out[i].Reason = Finalist
		}
		if out[i].Rounds > 0 {
			out[i].Mean = r.sum[i] / float64(out[i].Rounds)
		}
	}
	for i := range out {
		if math.IsNaN(out[i].Mean) {
			out[i].Mean = 0
		}
	}
	return out
}
