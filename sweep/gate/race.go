package gate

import (
	"fmt"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/policy"
)

// Judged is what the in-run gate may judge of candidate in the run s
// summarises: the windows that gave its verdicts (policy.VerdictWindows:
// a race's confirmation rounds only, the race's being selected data).
// In a race only a finalist can be judged; any other candidate is an
// error wrapping ErrCandidate.
func Judged(s sweep.Summary, ws []sweep.Window, candidate string) ([]sweep.Window, error) {
	if s.Race != nil {
		for _, e := range s.Race.Configs {
			if e.Config == candidate && e.Reason != sweep.RaceFinalist {
				return nil, fmt.Errorf("%w: %q was not confirmed (race: %s); sweep check judges only the race's finalists %q", ErrCandidate, candidate, e.Reason, s.Race.Finalists)
			}
		}
	}
	return policy.VerdictWindows(s.Plan, ws), nil
}
