package race

import "math"

// leaderShare is the share of Eᵢ that each round bets that config i is
// worse than the config leading on the earlier rounds (the runner-up,
// for the leader itself). The rest is spread over i's other surviving
// opponents in proportion to the evidence their pairs already hold.
const leaderShare = 0.5

// bet moves every observed survivor's Eᵢ by this round's d (v, indexed
// like the race's configs; obs lists those measured). It must run
// before the round is recorded: the weights (the leader by median d and
// the pairs' wealth) and the pairs' bets λ are then functions of the
// earlier rounds only, so Eᵢ is a portfolio of the pairs' bets with
// predictable weights. Under "i is no worse than any other config" each
// pair's bet has conditional mean ≤ 0, so Eᵢ is a nonnegative
// supermartingale from 1 whatever the weights, and Ville's inequality
// bounds the chance it ever reaches 1/α_E by α_E. Unlike the plain mean
// of the pairs, the portfolio does not wait for evidence against every
// opponent: a config clearly worse than the leader leaves as soon as
// that one pair says so.
func (r *Race) bet(v []float64, obs []int) {
	surv := r.survivorIdx()
	med := make([]float64, len(r.names))
	for _, j := range surv {
		med[j] = r.median(j)
	}
	w := make([]float64, len(r.names))
	for _, i := range obs {
		target, maxLog := -1, math.Inf(-1)
		for _, j := range surv {
			if j == i {
				continue
			}
			if target < 0 || med[j] < med[target] {
				target = j
			}
			maxLog = math.Max(maxLog, r.drop[i][j].LogWealth())
		}
		if target < 0 {
			continue
		}
		// Weights ∝ Wᵢⱼ, scaled by the largest so that none overflows.
		total := 0.0
		for _, j := range surv {
			if j != i {
				w[j] = math.Exp(r.drop[i][j].LogWealth() - maxLog)
				total += w[j]
			}
		}
		g := 0.0
		for _, j := range surv {
			if j == i || math.IsNaN(v[j]) {
				continue // an opponent not measured this round: that share is not bet
			}
			pi := (1 - leaderShare) * w[j] / total
			if j == target {
				pi += leaderShare
			}
			g += pi * r.drop[i][j].Lambda() * clip1((v[i]-v[j])/r.p.Clip)
		}
		r.logE[i] += math.Log1p(g)
	}
}
