package main

import (
	"errors"
	"testing"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/gate"
)

func TestRaceWindows(t *testing.T) {
	ws := []sweep.Window{{Config: "a", Race: true}, {Config: "a"}, {Config: "b", Race: true}}
	race := sweep.Summary{Race: &sweep.RaceSummary{Finalists: []string{"a"}, Configs: []sweep.RaceConfig{
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
		got, err := raceWindows(tc.s, ws, tc.cand)
		if (err != nil) != tc.err || len(got) != tc.n {
			t.Errorf("%s: %d windows, %v; want %d, error %v", tc.name, len(got), err, tc.n, tc.err)
		}
		if err != nil && !errors.Is(err, gate.ErrCandidate) {
			t.Errorf("%s: %v does not wrap gate.ErrCandidate (exit 2)", tc.name, err)
		}
	}
}
