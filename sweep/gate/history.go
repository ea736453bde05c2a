package gate

import (
	"errors"
	"fmt"
	"strings"

	"github.com/sweep-dev/sweep/sweep"
)

// Accepted is one accepted run of the old build that CompareAny compares
// the new run against.
type Accepted struct {
	Name    string // how notes name it, e.g. its run directory
	Summary sweep.Summary
}

// AcceptedOutcome is the cross-run check of the new run against one of
// several accepted runs (sweep check -baseline; "baseline" in its JSON,
// as the flag names it).
type AcceptedOutcome struct {
	Baseline  string `json:"baseline"` // the accepted run's name
	Regressed bool   `json:"regressed"`
	Rows      int    `json:"regressed_rows"` // how many rows regressed against it
}

// ErrNoBaseline is CompareAny's error for an empty list of baselines.
var ErrNoBaseline = errors.New("no baseline run")

// CompareAny is the cross-run check against several runs of the old
// build, e.g. the last three accepted runs: the new run is compared with
// each of them by Compare, and it regresses only when it regresses against
// every one. One accepted run may have been measured in a fast spell of
// the machine, against which an unchanged build looks slower; a real
// regression beyond the allowances is slower than all of them. (Measured
// on this project's 2-vCPU VM, BENCHMARKS.md: the false fails of the
// single-baseline check came from a baseline run that happened to be fast
// and from a new run caught in a slow spell; a +10% build failed against
// every one of 20 baseline runs.)
//
// The returned Result is the comparison against the baseline that passed
// (the newest such, when several did) or, when none did, against the one
// with the fewest regressed rows (the newest among ties); its Against
// names that baseline, Outcomes lists every comparison, and a note says
// what was done. With one baseline it is Compare. Errors are Compare's for
// the first baseline that cannot be compared, naming it.
func CompareAny(olds []Accepted, new sweep.Summary, th, drift Thresholds) (Result, error) {
	if len(olds) == 0 {
		return Result{}, ErrNoBaseline
	}
	results := make([]Result, len(olds))
	for i, o := range olds {
		r, err := Compare(o.Summary, new, th, drift)
		if err != nil {
			if len(olds) == 1 {
				return Result{}, err
			}
			return Result{}, fmt.Errorf("baseline %s: %w", o.Name, err)
		}
		results[i] = r
	}
	if len(olds) == 1 {
		return results[0], nil
	}
	// Baselines are given oldest first; the newest wins ties.
	best := -1
	var outcomes []AcceptedOutcome
	for i, r := range results {
		n := regressedRows(r)
		outcomes = append(outcomes, AcceptedOutcome{Baseline: olds[i].Name, Regressed: r.Regressed, Rows: n})
		if best < 0 || n <= regressedRows(results[best]) {
			best = i
		}
	}
	res := results[best]
	res.Against = olds[best].Name
	res.Outcomes = outcomes
	var parts []string
	for _, o := range outcomes {
		s := "passed"
		if o.Regressed {
			s = fmt.Sprintf("regressed (%d %s)", o.Rows, plural(o.Rows, "row", "rows"))
		}
		parts = append(parts, o.Baseline+" "+s)
	}
	lead := fmt.Sprintf("against %d baseline runs: the new run regresses only when it regresses against every one of them (%s); the rows below are against %s",
		len(olds), strings.Join(parts, ", "), olds[best].Name)
	res.Notes = append([]string{lead}, res.Notes...)
	return res, nil
}

// regressedRows counts r's regressed rows.
func regressedRows(r Result) int { return countRows(r, func(row Row) bool { return row.Regressed }) }

// undecidedRows counts r's rows without an interval.
func undecidedRows(r Result) int { return countRows(r, func(row Row) bool { return row.Undecided }) }

func countRows(r Result, is func(Row) bool) int {
	n := 0
	for _, row := range r.Rows {
		if is(row) {
			n++
		}
	}
	return n
}

// plural picks one or many by n.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
