package expect

import (
	"testing"

	"github.com/sweep-dev/sweep/sweep"
)

// TestWindows: a fixed plan is expected to take all of its windows, an
// auto plan has no model, and a race's figure is the same every time,
// positive and below its worst case.
func TestWindows(t *testing.T) {
	const worst = 100
	var points []sweep.Point
	for i := range 16 {
		points = append(points, sweep.Point{"x": string(rune('a' + i))})
	}
	plan := sweep.Plan{Points: points, Concurrency: []int{1, 16}, Confidence: 0.95, BlockSize: 8}
	if n, ok := Windows(plan, worst); !ok || n != 100 {
		t.Errorf("fixed: %d, %v; want 100", n, ok)
	}
	plan.RoundsAuto = true
	if _, ok := Windows(plan, worst); ok {
		t.Error("auto: a figure, want none")
	}
	plan.RoundsAuto = false
	plan.Race = &sweep.RacePlan{Clip: 0.05, Epsilon: 0.02, Finalists: 4, MaxRounds: 30}
	most := 30*(16+1) + 13*2*(4+2) // every slot for max_rounds, then the confirmation
	a, ok1 := Windows(plan, worst)
	b, ok2 := Windows(plan, worst)
	if !ok1 || !ok2 || a != b || a <= 0 || a >= most {
		t.Errorf("race: %d and %d (%v, %v); want one positive figure below %d", a, b, ok1, ok2, most)
	}
}
