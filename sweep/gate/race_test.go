package gate

import (
	"errors"
	"testing"

	"github.com/sweep-dev/sweep/sweep"
)

// TestJudged: a race run's gate judges a finalist on its confirmation
// windows only and refuses any other candidate (ErrCandidate: exit 2);
// other runs' windows pass as they are.
func TestJudged(t *testing.T) {
	ws := []sweep.Window{{Config: "a", Race: true}, {Config: "a"}, {Config: "b", Race: true}}
	race := sweep.Summary{Plan: sweep.Plan{Race: &sweep.RacePlan{}}, Race: &sweep.RaceSummary{Finalists: []string{"a"}, Configs: []sweep.RaceConfig{
		{Config: "a", Reason: "finalist"}, {Config: "b", Reason: "eliminated"}}}}
	for _, tc := range []struct {
		name string
		s    sweep.Summary
		cand string
		n    int
		err  bool
	}{
		{"not a race", sweep.Summary{}, "b", 3, false},
		{"finalist: confirmation windows only", race, "a", 1, false},
		{"eliminated", race, "b", 0, true},
	} {
		got, err := Judged(tc.s, ws, tc.cand)
		if (err != nil) != tc.err || len(got) != tc.n {
			t.Errorf("%s: %d windows, %v; want %d, error %v", tc.name, len(got), err, tc.n, tc.err)
		}
		if err != nil && !errors.Is(err, ErrCandidate) {
			t.Errorf("%s: %v does not wrap ErrCandidate (exit 2)", tc.name, err)
		}
	}
}
