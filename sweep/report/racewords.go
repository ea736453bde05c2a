package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/units"
)

// raceWords is the race section's one-sentence account of what the race
// did, from its block: how many configs it raced and dropped, why it
// stopped, what it confirmed, and the error budget.
func raceWords(s *sweep.RaceSummary) string {
	count := map[sweep.RaceReason]int{}
	var left []string
	for _, e := range s.Configs {
		count[e.Reason]++
		if e.Reason == sweep.RaceFinalist || e.Reason == sweep.RaceUnconfirmed {
			left = append(left, e.Config)
		}
	}
	var b strings.Builder
	if len(s.Configs) == 0 && s.ReplayError != "" {
		return fmt.Sprintf("the race could not be replayed: %s", s.ReplayError)
	}
	fmt.Fprintf(&b, "raced %d configs at c=%d for %d rounds: %d eliminated, %d infeasible", len(s.Configs), s.Concurrency, s.Rounds, count[sweep.RaceEliminated], count[sweep.RaceInfeasible])
	switch s.Stop {
	case sweep.StopField:
		fmt.Fprintf(&b, "; stopped with %d left", len(left))
	case sweep.StopWithin:
		fmt.Fprintf(&b, "; stopped when the leader %s was within ±%s of every other survivor", s.Leader, units.Share(s.Epsilon))
	case sweep.StopMaxRounds, sweep.StopBudget, sweep.StopStalled:
		why := map[sweep.StopReason]string{sweep.StopMaxRounds: "load.max_rounds", sweep.StopBudget: "run.budget",
			sweep.StopStalled: "rounds without an elimination"}[s.Stop]
		slices.Sort(left)
		fmt.Fprintf(&b, "; %s stopped it: the best is among these %d: %s", why, len(left), strings.Join(left, ", "))
	default:
		b.WriteString("; the race did not finish")
	}
	if len(s.Finalists) > 0 {
		fmt.Fprintf(&b, ". Confirmed %s at every level in %d fresh rounds; verdicts from those rounds only", strings.Join(s.Finalists, ", "), s.ConfirmRounds)
	}
	a := s.Alpha
	fmt.Fprintf(&b, " (error budget α = %s: dropping the best %s, a false within-ε stop %s, confirmation verdicts %s)",
		units.Share(a.Drop+a.Within+a.Confirm), units.Share(a.Drop), units.Share(a.Within), units.Share(a.Confirm))
	if s.ReplayError != "" {
		fmt.Fprintf(&b, "; replay error: %s", s.ReplayError)
	}
	return b.String()
}
