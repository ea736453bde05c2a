package race

import (
	"cmp"
	"math"
	"slices"
)

// bet moves every observed survivor's Eᵢ by this round's d (v, indexed
// like the race's configs; obs lists those measured). It must run
// before the round is recorded: the weights (the leader by median d and
// the pairs' wealth) and the pairs' bets λ are then functions of the
// earlier rounds only, so each of Eᵢ's components is a portfolio of the
// pairs' bets with predictable weights. Under "i is no worse than any
// other config" each pair's bet has conditional mean ≤ 0, so every
// component, and their mean Eᵢ, is a nonnegative supermartingale from 1
// whatever the weights, and Ville's inequality bounds the chance it ever
// reaches 1/α_E by α_E. Unlike the plain mean of the pairs, the
// portfolio does not wait for evidence against every opponent: a config
// clearly worse than the leader leaves as soon as that one pair says so.
func (r *Race) bet(v []float64, obs []int) {
	surv := r.survivorIdx()
	med := make([]float64, len(r.names))
	for _, j := range surv {
		med[j] = r.median(j)
	}
	byMed := slices.Clone(surv)
	slices.SortStableFunc(byMed, func(a, b int) int { return cmp.Compare(med[a], med[b]) })
	ls, top := r.rule.LeaderShare, r.rule.Top
	if r.rule.FirstUniform && r.round <= 1 {
		// Before any round no config leads: every opponent alike, so that
		// the first round's weights do not depend on the grid's order.
		ls, top = 0, 0
	}
	w := make([]float64, len(r.names))
	for _, i := range obs {
		// The opponents: every other survivor, or the Top by median.
		var opp []int
		for _, j := range byMed {
			if j != i && (top <= 0 || len(opp) < top) {
				opp = append(opp, j)
			}
		}
		if len(opp) == 0 {
			continue
		}
		target := opp[0]
		for m, b := range r.rule.Bets {
			maxLog := math.Inf(-1)
			for _, j := range opp {
				maxLog = math.Max(maxLog, r.drop[m][i][j].LogWealth())
			}
			// Weights ∝ Wᵢⱼ, scaled by the largest so that none overflows.
			total := 0.0
			for _, j := range opp {
				w[j] = math.Exp(r.drop[m][i][j].LogWealth() - maxLog)
				total += w[j]
			}
			g := 0.0
			for _, j := range opp {
				if math.IsNaN(v[j]) {
					continue // an opponent not measured this round: that share is not bet
				}
				pi := (1 - ls) * w[j] / total
				if j == target {
					pi += ls
				}
				g += pi * r.drop[m][i][j].Lambda() * clip1((v[i]-v[j])/(r.p.Clip*scale(b)))
			}
			r.logE[m][i] += math.Log1p(g)
		}
	}
}

func scale(b Bet) float64 {
	if b.Scale == 0 {
		return 1
	}
	return b.Scale
}
