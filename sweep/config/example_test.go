package config_test

import (
	"fmt"

	"github.com/sweep-dev/sweep/sweep/config"
)

func ExampleParse() {
	c, err := config.Parse("keep.toml", []byte(`
[workload]
touch = "64KiB"
[grid]
linear_memory_keep_resident = [0, "64KiB"]
memory_init_cow = [true, false]
[baseline]
memory_init_cow = true
[load]
concurrency = [16, 1]
rounds = 3
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, p := range c.Points {
		fmt.Println(i, p.Label())
	}
	fmt.Println("baseline:", c.Baseline.Label())
	fmt.Println("fixed:", c.Fixed)
	fmt.Println("levels:", c.Load.Concurrency, "A/A twin:", c.Load.AA)

	_, err = config.Parse("keep.toml", []byte("[load]\nconcurency = [1]\n"))
	fmt.Println(err)
	// Output:
	// 0 linear_memory_keep_resident=0 memory_init_cow=true
	// 1 linear_memory_keep_resident=0 memory_init_cow=false
	// 2 linear_memory_keep_resident=64KiB memory_init_cow=true
	// 3 linear_memory_keep_resident=64KiB memory_init_cow=false
	// baseline: linear_memory_keep_resident=0 memory_init_cow=true
	// fixed: map[touch:64KiB]
	// levels: [1 16] A/A twin: true
	// keep.toml: unknown key "load.concurency" (did you mean "load.concurrency"?)
}
