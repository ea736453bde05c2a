package schedule_test

import (
	"fmt"
	"time"

	"github.com/sweep-dev/sweep/sweep/schedule"
)

// Three slots, one level, three rounds: every slot takes every position
// once, and the warmup runs in round 0's order.
func ExampleSteps() {
	slots := []schedule.Slot{
		{Index: 0, Config: "linear_memory_keep_resident=0", Baseline: true},
		{Index: 1, Config: "linear_memory_keep_resident=64KiB"},
		{Index: 2, Config: "linear_memory_keep_resident=0 [A/A]", AA: true},
	}
	steps := schedule.Steps(slots, []int{16}, 3, 2)
	for _, s := range steps {
		fmt.Printf("c=%d round %2d pos %d slot %d\n", s.Concurrency, s.Round, s.Position, s.Slot.Index)
	}
	fmt.Println(schedule.Measured(steps), "windows,", schedule.Estimate(steps, 2*time.Second, 3*time.Second, 0))
	// Output:
	// c=16 round -1 pos 0 slot 2
	// c=16 round -1 pos 1 slot 1
	// c=16 round -1 pos 2 slot 0
	// c=16 round  0 pos 0 slot 2
	// c=16 round  0 pos 1 slot 1
	// c=16 round  0 pos 2 slot 0
	// c=16 round  1 pos 0 slot 1
	// c=16 round  1 pos 1 slot 0
	// c=16 round  1 pos 2 slot 2
	// c=16 round  2 pos 0 slot 0
	// c=16 round  2 pos 1 slot 2
	// c=16 round  2 pos 2 slot 1
	// 9 windows, 33s
}
