package sweep

import "encoding/json"

// Verdict is what a comparison (a Delta) concluded. Every state a
// config's comparison can be in has one Verdict, and one name.
type Verdict string

// The verdicts.
const (
	VerdictBetter Verdict = "better"
	VerdictWorse  Verdict = "worse"
	// VerdictNoChange: the interval was computed and contains zero.
	VerdictNoChange Verdict = "no detectable change"
	// VerdictUndecided: no interval could be computed at the comparison's
	// level (too few paired rounds, or none): nothing was decided, and
	// Delta.Needed says how many rounds an interval needs.
	VerdictUndecided Verdict = "undecided"
	// VerdictControl marks the A/A twin's comparisons: it is the bench's
	// alibi, not a config under test, and is never better or worse.
	VerdictControl Verdict = "control"
	// VerdictEliminated: the race (load.rounds = "race") dropped the
	// config, shown worse than another or infeasible. Its cell at the
	// race's level holds what the race measured, which is selected data:
	// no interval, never better or worse.
	VerdictEliminated Verdict = "eliminated"
	// VerdictUnconfirmed: the config was still racing when the race
	// stopped (max_rounds, run.budget) but was not among the finalists:
	// never shown worse, and perhaps as good as the pick. Its cell is race
	// data, like an eliminated config's.
	VerdictUnconfirmed Verdict = "unconfirmed"
)

// RaceOnly reports whether v is the verdict of a config the race did not
// confirm (VerdictEliminated, VerdictUnconfirmed): a description of race
// data, with no interval.
func (v Verdict) RaceOnly() bool {
	return v == VerdictEliminated || v == VerdictUnconfirmed
}

// Decided reports whether v calls a change (better or worse).
func (v Verdict) Decided() bool { return v == VerdictBetter || v == VerdictWorse }

// RaceReason is a config's part in a race: why it left, or how it ended.
type RaceReason string

// The race reasons. A config still racing when the race stopped that is
// not a finalist is RaceUnconfirmed, the same word as its verdict.
const (
	// RaceEliminated: its evidence of being worse than another config
	// reached 1/α_E (within the error budget).
	RaceEliminated RaceReason = "eliminated"
	// RaceInfeasible: past the capacity cliff at the target, slot given
	// up, a pool limit below the target, or over the memory budget
	// (outside the error budget).
	RaceInfeasible RaceReason = "infeasible"
	// RaceFinalist: handed to the confirmation.
	RaceFinalist RaceReason = "finalist"
	// RaceUnconfirmed: still racing (or, once the race stopped, never
	// shown worse and not among the finalists).
	RaceUnconfirmed RaceReason = "unconfirmed"
)

// raceSurvivor is what summaries written before RaceUnconfirmed called it.
const raceSurvivor = "survivor"

// UnmarshalJSON reads a race reason, the older name "survivor" as
// RaceUnconfirmed.
func (r *RaceReason) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	if s == raceSurvivor {
		s = string(RaceUnconfirmed)
	}
	*r = RaceReason(s)
	return nil
}

// Verdict is the verdict of a cell of a config the race left with reason
// r: VerdictEliminated for an eliminated or infeasible one,
// VerdictUnconfirmed for an unconfirmed one, "" for a finalist (its
// verdicts come from the confirmation).
func (r RaceReason) Verdict() Verdict {
	switch r {
	case RaceEliminated, RaceInfeasible:
		return VerdictEliminated
	case RaceUnconfirmed:
		return VerdictUnconfirmed
	}
	return ""
}

// StopReason says why a run's policy stopped measuring, or why a race
// ended.
type StopReason string

// The stop reasons.
const (
	// StopPlanned: every round the plan allows was measured (fixed
	// rounds; rounds = "auto" with every level resolved or at max_rounds).
	StopPlanned StopReason = "planned"
	// StopField: no more than analysis.finalists configs survive the race.
	StopField StopReason = "field"
	// StopWithin: the race's leader is within ε of every other survivor
	// (an anytime-valid claim at α_S).
	StopWithin StopReason = "within_epsilon"
	// StopMaxRounds: load.max_rounds were raced; the best is among the
	// survivors.
	StopMaxRounds StopReason = "max_rounds"
	// StopBudget: run.budget left no time for more; for a race, the best
	// is among the survivors.
	StopBudget StopReason = "budget"
	// StopStalled: at most twice analysis.finalists survive and no round
	// eliminated anything for a while (race.Rule.Stall rounds); the best
	// is among the survivors.
	StopStalled StopReason = "stalled"
)
