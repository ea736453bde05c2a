package probe_test

import (
	"fmt"
	"os"

	"github.com/sweep-dev/sweep/sweep/probe"
)

// Example measures a stretch of work of one process (here: itself).
func Example() {
	before, err := probe.Read(os.Getpid())
	if err != nil {
		fmt.Println(err)
		return
	}
	buf := make([]byte, 8<<20)
	for i := range buf {
		buf[i] = byte(i)
	}
	after, _ := probe.Read(os.Getpid())
	d := probe.Diff(before, after)
	fmt.Println(d.Source, d.CPU > 0, d.RSSBytes > 0)
	// Output: clock true true
}
