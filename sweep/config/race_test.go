package config

import (
	"testing"
	"time"
)

func TestRaceKeys(t *testing.T) {
	const grid = "[grid]\nlinear_memory_keep_resident = [0, \"64KiB\", \"1MiB\"]\n"
	for _, tc := range []struct {
		name                string
		text                string
		maxRounds, finalist int
		clip                float64
		budget              time.Duration
	}{
		{"defaults", grid + "[load]\nrounds = \"race\"\n", DefaultRaceMaxRounds, DefaultFinalists, DefaultRaceClip, 0},
		{"set", grid + "[load]\nrounds = \"race\"\nmax_rounds = 40\n[analysis]\nfinalists = 2\nrace_clip = \"8%\"\n[run]\nbudget = \"20m\"\n", 40, 2, 0.08, 20 * time.Minute},
		{"fraction clip", grid + "[load]\nrounds = \"race\"\n[analysis]\nrace_clip = 0.1\n", DefaultRaceMaxRounds, DefaultFinalists, 0.1, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			withOnline(t, "0-1")
			c := parse(t, tc.text)
			if !c.Load.Race || c.Load.Auto {
				t.Fatalf("Race = %v, Auto = %v; want a race", c.Load.Race, c.Load.Auto)
			}
			if c.Load.MaxRounds != tc.maxRounds || c.Load.Rounds != tc.maxRounds {
				t.Errorf("MaxRounds = %d, Rounds = %d, want %d", c.Load.MaxRounds, c.Load.Rounds, tc.maxRounds)
			}
			if c.Analysis.Finalists != tc.finalist || c.Analysis.RaceClip != tc.clip {
				t.Errorf("Finalists = %d, RaceClip = %g, want %d, %g", c.Analysis.Finalists, c.Analysis.RaceClip, tc.finalist, tc.clip)
			}
			if c.Run.Budget != tc.budget {
				t.Errorf("Budget = %s, want %s", c.Run.Budget, tc.budget)
			}
		})
	}
	withOnline(t, "0-1")
	if c := parse(t, grid); c.Load.Race || c.Analysis.Finalists != 0 || c.Analysis.RaceClip != 0 {
		t.Errorf("without race: Race %v, Finalists %d, RaceClip %g; want all zero", c.Load.Race, c.Analysis.Finalists, c.Analysis.RaceClip)
	}
}
