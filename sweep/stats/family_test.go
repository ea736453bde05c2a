package stats

import "testing"

func TestRoundsNeeded(t *testing.T) {
	for _, tt := range []struct {
		candidates, levels int
		confidence         float64
		family, need       int
	}{
		// The run: 2 candidates × 1 level × 3 metrics at 95%:
		// 2·2⁻ⁿ ≤ 0.05/6 from n = 8.
		{2, 1, 0.95, 6, 8},
		// configs/grid.toml: 4 candidates × 3 levels × 3 = 36 → 11
		// (METHOD.md: "no verdict is possible below 11 rounds").
		{4, 3, 0.95, 36, 11},
		{1, 1, 0.95, 3, 7},
		{1, 1, 0.99, 3, 10}, // 2·2⁻¹⁰ ≤ 0.01/3 < 2·2⁻⁹
		{0, 3, 0.95, 1, 6},  // no candidate: a family of one
	} {
		f := Family(tt.candidates, tt.levels)
		if n := RoundsNeeded(tt.confidence, f); f != tt.family || n != tt.need {
			t.Errorf("Family(%d, %d) = %d, RoundsNeeded(%g) = %d; want %d and %d", tt.candidates, tt.levels, f, tt.confidence, n, tt.family, tt.need)
		}
	}
}
