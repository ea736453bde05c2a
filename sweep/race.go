package sweep

// The verdicts of the configs a race (load.rounds = "race") did not
// confirm. Their cell at the race's level holds what the race measured,
// which is selected data, so it has no interval and is never called
// better or worse.
const (
	// VerdictEliminated: the race dropped the config (shown worse than
	// another, or infeasible).
	VerdictEliminated = "eliminated"
	// VerdictUnconfirmed: the config was still racing when the race
	// stopped (max_rounds, run.budget) but was not among the finalists:
	// never shown worse, and perhaps as good as the pick.
	VerdictUnconfirmed = "unconfirmed"
)

// RaceOnly reports whether verdict is one of a config the race did not
// confirm (VerdictEliminated, VerdictUnconfirmed): a description of race
// data, with no interval.
func RaceOnly(verdict string) bool {
	return verdict == VerdictEliminated || verdict == VerdictUnconfirmed
}

// RaceSummary is summary.json's race block: how a race of load.rounds =
// "race" went. Absent for other runs.
type RaceSummary struct {
	// Concurrency is the level raced at (analysis.target_concurrency).
	Concurrency int `json:"concurrency"`
	// Alpha is the split of 1 − analysis.confidence.
	Alpha RaceAlpha `json:"alpha"`
	// Epsilon is ε (analysis.resolve), Clip the clip c (analysis.race_clip).
	Epsilon float64 `json:"epsilon"`
	Clip    float64 `json:"clip"`
	// MaxRounds (load.max_rounds) and FinalistsWanted (analysis.finalists).
	MaxRounds       int `json:"max_rounds"`
	FinalistsWanted int `json:"finalists_wanted"`
	// Rounds is the race rounds run; Survivors the configs still racing
	// after each (Survivors[0]: before the first, after the preflight).
	Rounds    int   `json:"rounds"`
	Survivors []int `json:"survivors"`
	// Stop is why the race ended: "field" (no more than the finalists
	// survived), "within_epsilon" (the leader within ε of every
	// survivor), "max_rounds", "budget" (the confirmation's reserve), or
	// "" for a race that did not end (an interrupted run).
	Stop   string `json:"stop"`
	Leader string `json:"leader,omitempty"`
	// Finalists are the configs confirmed, ConfirmRounds their fresh
	// rounds per level; only those rounds give the verdicts.
	Finalists     []string `json:"finalists"`
	ConfirmRounds int      `json:"confirm_rounds"`
	// Configs is every config's record, in grid order.
	Configs []RaceConfig `json:"configs"`
	// Words says what the race did in one sentence, for summary.md.
	Words string `json:"words"`
}

// RaceAlpha is the error budget of a race: Drop (the best eliminated),
// Within (a false within-ε stop) and Confirm (the confirmation's
// family-wise false-verdict rate) add up to 1 − analysis.confidence.
type RaceAlpha struct {
	Drop    float64 `json:"drop"`
	Within  float64 `json:"within"`
	Confirm float64 `json:"confirm"`
}

// RaceConfig is one config's part in a race.
type RaceConfig struct {
	Config string `json:"config"`
	// Rounds is the race rounds it was measured in.
	Rounds int `json:"rounds"`
	// Reason is "eliminated", "infeasible", "finalist" or "survivor" (still
	// racing when the race stopped, not among the finalists).
	Reason string `json:"reason"`
	// DroppedAt is the race round after which it left (eliminated or
	// infeasible; 0 for infeasible before the first round).
	DroppedAt int `json:"dropped_at,omitempty"`
	// EAtDrop is its e-value when eliminated (≥ 1/Alpha.Drop).
	EAtDrop float64 `json:"e_at_drop,omitempty"`
	// WorseThan is the config the most evidence against it came from.
	WorseThan string `json:"worse_than,omitempty"`
	// Why says why an infeasible config left.
	Why string `json:"why,omitempty"`
	// Change is exp(mean paired log ratio) − 1 of the objective vs its
	// block's baseline over its race rounds (a description).
	Change float64 `json:"change"`
}
