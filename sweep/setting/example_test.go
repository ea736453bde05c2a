package setting_test

import (
	"fmt"

	"github.com/sweep-dev/sweep/sweep/setting"
)

func ExampleFromMap() {
	s, err := setting.FromMap(map[string]string{
		"linear_memory_keep_resident": "65536",
		"total_memories":              "64",
		"io_wait":                     "1ms",
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.Size(setting.LinearMemoryKeepResident), s.Uint(setting.TotalMemories), s.Duration(setting.IOWait))
	fmt.Println(s.Map())

	fmt.Println(setting.Validate("linear_memory_keep_resident", "2MB"))
	// Output:
	// 64KiB 64 1ms
	// map[io_wait:1ms linear_memory_keep_resident:64KiB total_memories:64]
	// linear_memory_keep_resident = "2MB": want a number of bytes or a size with a binary unit B, KiB, MiB, GiB, TiB (e.g. "64KiB") up to 4GiB (the largest linear memory; values near 2^64 make Wasmtime abort); SI units like MB are not accepted; write KiB, MiB, GiB
}
