package answer_test

import (
	"fmt"

	"github.com/sweep-dev/sweep/sweep/answer"
)

// A report lays each block out as a fenced code block under its title,
// and writes each as its file in the run directory (answer.Files).
func ExampleBlocks() {
	blocks, err := answer.Blocks(map[string]string{
		"linear_memory_keep_resident": "64KiB",
		"max_unused_warm_slots":       "10",
		"touch":                       "64KiB",
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, b := range blocks[2:3] {
		fmt.Printf("%s (%s):\n```%s\n%s```\n", b.Title, b.File, b.Lang, b.Text)
	}
	// Output:
	// wasmtime serve flags (answer-wasmtime-serve.sh):
	// ```sh
	// # The recommended settings as `wasmtime serve` flags (Wasmtime 39's -O
	// # options; sizes are plain integers of bytes). Replace component.wasm
	// # with your wasi:http component.
	// wasmtime serve \
	//   -O pooling-allocator=y \
	//   -O pooling-max-unused-warm-slots=10 \
	//   -O pooling-memory-keep-resident=65536 \
	//   component.wasm
	// ```
}
