package race

import (
	"fmt"

	"github.com/sweep-dev/sweep/sweep/stats"
)

// Budget is the split of a run's error budget 1 − analysis.confidence
// between the three ways a race can be wrong. The three add up to the
// whole.
type Budget struct {
	// Drop bounds the chance that the best config is ever eliminated (α_E).
	Drop float64 `json:"drop"`
	// Within bounds the chance of a false "the leader is within ε of every
	// survivor" stop (α_S).
	Within float64 `json:"within"`
	// Confirm is the family-wise false-verdict rate of the confirmation
	// rounds' verdicts (Holm over the finalists' comparisons).
	Confirm float64 `json:"confirm"`
}

// Shares of 1 − confidence: dropping the best 40%, a false ε claim 20%,
// the confirmation's verdicts 40%.
const (
	dropShare   = 0.4
	withinShare = 0.2
)

// Split divides 1 − confidence: 40% to dropping the best, 20% to a false
// "within ε", 40% to the confirmation's verdicts.
func Split(confidence float64) Budget {
	a := 1 - confidence
	b := Budget{Drop: dropShare * a, Within: withinShare * a}
	b.Confirm = a - b.Drop - b.Within
	return b
}

// String states the split: "α = 5%: dropping the best 2%, a false
// within-ε stop 1%, confirmation verdicts 2%".
func (b Budget) String() string {
	return fmt.Sprintf("α = %s: dropping the best %s, a false within-ε stop %s, confirmation verdicts %s",
		pct(b.Drop+b.Within+b.Confirm), pct(b.Drop), pct(b.Within), pct(b.Confirm))
}

// pct formats a fraction as a percentage with up to two decimals: "2%", "0.25%".
func pct(f float64) string {
	return fmt.Sprintf("%g%%", float64(int64(f*10000+0.5))/100)
}

// ConfirmRounds is the confirmation's rounds per level for finalists
// configs other than the baseline at levels concurrency levels: one more
// than the fewest pairs with which the signed-rank test can reach Holm's
// strictest level over finalists × levels × 3 metrics comparisons at
// the confirmation's share of 1 − confidence.
func ConfirmRounds(confidence float64, finalists, levels int) int {
	m := max(1, finalists*levels*3)
	return stats.MinPairs(Split(confidence).Confirm/float64(m)) + 1
}
