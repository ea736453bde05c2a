// Package gate is the pre-release regression gate. Check is the gate in
// one run — the old and the new build side by side, paired and
// interleaved — and says with a stated confidence whether the candidate
// is worse than the baseline by more than a threshold. Compare is the
// fallback across two runs, when the old build is gone: unpaired, so it
// judges absolute levels only against the drift between runs, and the
// configs' changes against their own run's baseline (which survive that
// drift). It is pure: no I/O besides writing its tables.
package gate

// Row is one metric of one cell compared across the two runs.
type Row struct {
	Config      string
	Concurrency int
	Metric      string
	Old, New    float64
	Change      float64 // the change judged: New/Old − 1 (NaN when Old is 0), or the paired estimate in one run
	// Threshold is the allowance the change was judged against (for a
	// cross-run absolute row, max(threshold, drift)).
	Threshold float64
	// CILow, CIHigh and Confidence are the paired change's decision
	// interval (in-run rows and cross-run relative rows; 0 otherwise).
	CILow, CIHigh float64
	Confidence    float64
	Regressed     bool
	// Undecided marks a judged row without an interval: too few paired
	// rounds for the gate's level. The gate cannot pass it.
	Undecided bool
	// Shown marks a row that is shown, not judged: a cross-run absolute
	// level when the row after it, against the reference, is judged.
	Shown bool
	Note  string
}

// Result is a gate's verdict: Check's (Paired, one run) or Compare's
// (two runs).
type Result struct {
	Paired    bool   `json:"paired"`
	Baseline  string `json:"baseline,omitempty"`  // Check: the baseline config
	Candidate string `json:"candidate,omitempty"` // Check: the candidate config
	Rows      []Row  `json:"rows"`
	Regressed bool   `json:"regressed"` // some row regressed
	// Undecided is set when no row regressed but some row had too few
	// rounds for an interval: the gate could not show the candidate is
	// not worse, so it does not pass.
	Undecided bool     `json:"undecided"`
	Notes     []string `json:"notes"` // caveats about the runs as a whole (unpaired, environments, an incomplete run)
	// Against and Outcomes are CompareAny's with several baseline runs:
	// the baseline the rows compare with, and the check against each.
	Against  string            `json:"against,omitempty"`
	Outcomes []AcceptedOutcome `json:"outcomes,omitempty"`
}
