package driver

import (
	"fmt"

	"github.com/sweep-dev/sweep/sweep/config"
	"github.com/sweep-dev/sweep/sweep/stats"
)

// family is the number of comparisons c's verdicts will be corrected for
// (stats.Family of its candidates and levels).
func family(c *config.Config) int {
	return stats.Family(len(c.Points)-1, len(c.Load.Concurrency))
}

// roundsNeeded is the fewest paired rounds per level with which c can
// reach any verdict (stats.RoundsNeeded at analysis.confidence).
func roundsNeeded(c *config.Config) int {
	return stats.RoundsNeeded(c.Analysis.Confidence, family(c))
}

// NoVerdictWarning is what -dry-run and the start of a run say when c's
// plan can reach no verdict at all: its rounds per level (load.max_rounds
// with rounds = "auto") are fewer than roundsNeeded, so every comparison
// will be undecided. It is "" when a verdict is possible, and for a plan
// with no candidate config.
func NoVerdictWarning(c *config.Config) string {
	if len(c.Points) < 2 {
		return ""
	}
	need := roundsNeeded(c)
	key, rounds := "load.rounds", c.Load.Rounds
	if c.Load.Auto {
		key, rounds = "load.max_rounds", c.Load.MaxRounds
	}
	if rounds >= need {
		return ""
	}
	fix := fmt.Sprintf("set %s = %d or more", key, need)
	if !c.Load.Auto {
		fix += `, or rounds = "auto"`
	}
	return fmt.Sprintf("%s = %d cannot reach any verdict: with %d comparisons (%s × %s × 3 metrics) at family-wise %g%%, an interval needs %d paired rounds per level, so every comparison will be undecided; %s",
		key, rounds, family(c), count(len(c.Points)-1, "config"), count(len(c.Load.Concurrency), "level"), 100*c.Analysis.Confidence, need, fix)
}

// count is "1 level", "2 levels".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
