package driver

import (
	"fmt"
	"math"
	"strings"

	"github.com/sweep-dev/sweep/sweep/policy"
)

// policyNote shows what a policy's batch is for: what an added auto
// round resolves (on the progress line), where run.budget ended a level,
// the race's field after each round and how it stopped (each once, as
// its own line).
func (p *progress) policyNote(n policy.Note) {
	if b := n.BudgetStop; b != nil {
		p.note("", fmt.Sprintf("c=%d: run.budget %s reached after %d rounds; still unresolved: %s", b.Concurrency, b.Budget, b.Rounds, pendingText(b.Pending, n.Resolve)))
	}
	switch {
	case len(n.Pending) > 0:
		p.note(pendingText(n.Pending, n.Resolve), "")
	case n.Race != nil && n.Race.Round > 0:
		p.note(raceText(n.Race), "")
	case n.RaceStop != nil:
		st := n.RaceStop
		p.note("", fmt.Sprintf("race at c=%d stopped after %d rounds (%s): %s", n.Concurrency, st.Round, st.Stop, raceText(st)))
	default:
		p.note("", "")
	}
}

// pendingText names the unresolved configs: "64KiB ±3.1% (9 pairs)".
func pendingText(ps []policy.Pending, resolve float64) string {
	var parts []string
	for _, p := range ps {
		res := "no interval yet"
		if p.Resolution < 1e9 && !math.IsInf(p.Resolution, 1) {
			res = fmt.Sprintf("±%.1f%%", 100*p.Resolution)
		}
		parts = append(parts, fmt.Sprintf("%s %s (%d pairs)", p.Config, res, p.Pairs))
	}
	return fmt.Sprintf("%d to ±%.1f%%: %s", len(ps), 100*resolve, strings.Join(parts, ", "))
}

// raceText is the progress line's race part: "race round 7: 5 of 16
// left, leader keep=64KiB".
func raceText(r *policy.RaceStatus) string {
	return fmt.Sprintf("race round %d: %d of %d left, leader %s", r.Round, r.Left, r.Configs, r.Leader)
}
