package main

import (
	"fmt"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/gate"
)

// raceWindows is what the in-run gate may judge in a race run
// (load.rounds = "race"): the confirmation's windows only (the race's
// are selected data), and only for a finalist; an eliminated candidate
// is an error wrapping gate.ErrCandidate. Other runs' windows pass as
// they are.
func raceWindows(s sweep.Summary, ws []sweep.Window, candidate string) ([]sweep.Window, error) {
	if s.Race == nil {
		return ws, nil
	}
	for _, e := range s.Race.Configs {
		if e.Config == candidate && e.Reason != "finalist" {
			return nil, fmt.Errorf("%w: %q was not confirmed (race: %s); sweep check judges only the race's finalists %q", gate.ErrCandidate, candidate, e.Reason, s.Race.Finalists)
		}
	}
	var out []sweep.Window
	for _, w := range ws {
		if !w.Race {
			out = append(out, w)
		}
	}
	return out, nil
}
