package stats

// Family is the number of comparisons a plan's verdicts are corrected
// for: every candidate config (neither the baseline nor its A/A twin) at
// every level, on CPU per request, RPS and p99 (success RPS counts with
// RPS when neither side has errors, which a plan assumes). It is at
// least 1. Analyze's family is the comparisons that have pairs, which a
// complete run without errors makes this many.
func Family(candidates, levels int) int {
	return max(1, candidates*levels*3)
}

// RoundsNeeded is the fewest paired rounds with which any comparison of
// a family of family comparisons can be decided at family-wise
// confidence: the signed-rank interval at Holm's strictest level,
// (1 − confidence)/family, exists from that many pairs on. A plan with
// fewer rounds per level can reach no verdict at all.
func RoundsNeeded(confidence float64, family int) int {
	return MinPairs((1 - confidence) / float64(max(1, family)))
}
