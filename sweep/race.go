package sweep

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
	Stop   StopReason `json:"stop"`
	Leader string     `json:"leader,omitempty"`
	// Finalists are the configs confirmed, ConfirmRounds their fresh
	// rounds per level; only those rounds give the verdicts.
	Finalists     []string `json:"finalists"`
	ConfirmRounds int      `json:"confirm_rounds"`
	// Configs is every config's record, in grid order.
	Configs []RaceConfig `json:"configs"`
	// BudgetWindows is, for a run with a memory budget, the fewest race
	// windows over which a config's median shows it over the budget while
	// the race goes on (at its stop, every survivor is judged on what it
	// has); 0 without a budget.
	BudgetWindows int `json:"budget_windows,omitempty"`
	// ReplayError is set when the race could not be replayed from the
	// windows (a broken invariant, never a property of the settings).
	ReplayError string `json:"replay_error,omitempty"`
}

// RacePlan is the plan of a race: its settings and the configs found
// infeasible before the first round, everything its decisions need
// besides the windows (so that summarize replays it with no config).
type RacePlan struct {
	// Clip is analysis.race_clip, Epsilon analysis.resolve (ε).
	Clip    float64 `json:"clip"`
	Epsilon float64 `json:"epsilon"`
	// Finalists is analysis.finalists, MaxRounds load.max_rounds.
	Finalists int `json:"finalists"`
	MaxRounds int `json:"max_rounds"`
	// Infeasible are the configs dropped before the first race round, in
	// grid order: a pool limit below the target level (builtin target).
	Infeasible []RaceDrop `json:"infeasible,omitempty"`
}

// RacePreflight starts the Why of a config dropped before the first
// race round (RacePlan.Infeasible).
const RacePreflight = "preflight: "

// RaceDrop is a config a race dropped outside its error budget, and why.
type RaceDrop struct {
	Config string `json:"config"`
	Why    string `json:"why"`
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
	// Reason is its part: eliminated, infeasible, finalist or unconfirmed
	// (still racing when the race stopped, not among the finalists;
	// "survivor" in summaries written before, read as unconfirmed).
	Reason RaceReason `json:"reason"`
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
	// OverBudget is set for a config dropped as infeasible for a memory
	// budget: what its race windows measured against which budget.
	OverBudget *RaceOverBudget `json:"over_budget,omitempty"`
}

// RaceOverBudget is what showed a raced config over a memory budget: the
// median of Metric over Windows race windows at the target, above the
// budget Key (analysis.max_rss or max_reserved) of Limit bytes.
type RaceOverBudget struct {
	Metric  MemoryMetric `json:"metric"`
	Median  int64        `json:"median_bytes"`
	Windows int          `json:"windows"`
	Key     string       `json:"key"`
	Limit   int64        `json:"limit_bytes"`
}
