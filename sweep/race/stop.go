package race

import (
	"cmp"
	"math"
	"slices"

	"github.com/sweep-dev/sweep/sweep"
)

// StopReason says why a race ended: the data model's sweep.StopReason.
type StopReason = sweep.StopReason

// Why a race ends.
const (
	// StopField: no more than Finalists configs survive.
	StopField = sweep.StopField
	// StopWithin: the leader is within ε of every other survivor (an
	// anytime-valid claim at α_S).
	StopWithin = sweep.StopWithin
	// StopMaxRounds: MaxRounds were raced; the best is among the survivors.
	StopMaxRounds = sweep.StopMaxRounds
	// StopBudget: the caller ran out of time (Race.Halt); the best is
	// among the survivors.
	StopBudget = sweep.StopBudget
	// StopStalled: at most twice Finalists survive and Rule.Stall rounds
	// in a row eliminated nothing; the best is among the survivors.
	StopStalled = sweep.StopStalled
)

// Stop is how a race ended; the zero Stop means it goes on.
type Stop struct {
	Reason StopReason
	Round  int    // the race round it stopped after
	Leader string // the survivor with the lowest median d then
}

// Stop returns how the race ended, or the zero Stop while it goes on.
func (r *Race) Stop() Stop { return r.stop }

// Halt ends a running race for the caller's reason (StopBudget).
func (r *Race) Halt(reason StopReason) {
	if r.stop.Reason == "" {
		r.stop = Stop{Reason: reason, Round: r.round, Leader: r.Leader()}
	}
}

// Leader returns the survivor with the lowest median d (the first in
// order among ties and before any round).
func (r *Race) Leader() string {
	best, bm := "", math.Inf(1)
	for _, i := range r.survivorIdx() {
		m := r.median(i)
		if best == "" || m < bm {
			best, bm = r.names[i], m
		}
	}
	return best
}

// checkField stops the race when at most Finalists configs survive.
func (r *Race) checkField() bool {
	if len(r.survivorIdx()) <= r.p.Finalists {
		r.stop = Stop{Reason: StopField, Round: r.round, Leader: r.Leader()}
		return true
	}
	return false
}

func (r *Race) checkStop() {
	if r.checkField() {
		return
	}
	if r.within0() {
		r.stop = Stop{Reason: StopWithin, Round: r.round, Leader: r.Leader()}
		return
	}
	if st := r.rule.Stall; st > 0 && r.lastDrop > 0 && r.round-r.lastDrop >= st && len(r.survivorIdx()) <= 2*r.p.Finalists {
		r.stop = Stop{Reason: StopStalled, Round: r.round, Leader: r.Leader()}
		return
	}
	if r.round >= r.p.MaxRounds {
		r.stop = Stop{Reason: StopMaxRounds, Round: r.round, Leader: r.Leader()}
	}
}

// within0 reports whether every within[L][j] of the leader L against the
// other survivors reached (K−1)/α_S.
func (r *Race) within0() bool {
	l := r.index[r.Leader()]
	lim := math.Log(float64(len(r.names)-1) / r.p.AlphaS)
	for _, j := range r.survivorIdx() {
		if j != l && r.within[l][j].LogWealth() < lim {
			return false
		}
	}
	return true
}

// Finalists returns the configs the confirmation measures: the
// survivors with the lowest median d, at most Params.Finalists of them,
// leader first. Call it once the race has stopped.
func (r *Race) Finalists() []string {
	s := r.survivorIdx()
	slices.SortStableFunc(s, func(a, b int) int {
		return cmp.Compare(r.median(a), r.median(b))
	})
	var out []string
	for _, i := range s[:min(len(s), r.p.Finalists)] {
		out = append(out, r.names[i])
	}
	return out
}
