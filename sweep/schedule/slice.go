package schedule

// SliceOrder is the order in which the n windows of a round take their
// slices in pass k (0-based) when windows are measured interleaved
// (load.slice): indexes 0..n-1 in position order in even passes, reversed
// in odd ones. Reversing makes each window follow a different neighbour
// in alternate passes, so no window always inherits the caches (or the
// idle CPU) left by the same predecessor, and the order over two passes
// is ABC CBA: the last window of a pass also starts the next one, which
// merely joins two of its slices.
func SliceOrder(n, pass int) []int {
	order := make([]int, n)
	for i := range order {
		if pass%2 == 0 {
			order[i] = i
		} else {
			order[i] = n - 1 - i
		}
	}
	return order
}
