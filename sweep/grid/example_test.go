package grid_test

import (
	"fmt"

	"github.com/sweep-dev/sweep/sweep/grid"
)

func ExampleExpand() {
	points := grid.Expand([]grid.Axis{
		{Name: "linear_memory_keep_resident", Values: []string{"0", "64KiB"}},
		{Name: "touch", Values: []string{"4KiB", "64KiB"}},
	})
	for i, p := range points {
		fmt.Println(i, p.Label())
	}
	// Output:
	// 0 linear_memory_keep_resident=0 touch=4KiB
	// 1 linear_memory_keep_resident=0 touch=64KiB
	// 2 linear_memory_keep_resident=64KiB touch=4KiB
	// 3 linear_memory_keep_resident=64KiB touch=64KiB
}
