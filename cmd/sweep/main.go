// Command sweep tunes Wasmtime pooling-allocator settings under real
// concurrency. See README.md; `sweep help` lists the commands (the table
// in commands.go, which also gives README.md's Commands block).
//
// Exit codes: 0 ok, 1 failure or regression, 2 bad usage or bad config.
//
// Running a sweep and serving need Linux and cgo (the Wasmtime host, the
// /proc probes, CPU pinning); a build without them (CGO_ENABLED=0, macOS,
// Windows) has the other commands, and says so when asked to run or
// serve.
package main

import (
	"io"
	"os"
)

func main() {
	os.Exit(dispatch(os.Args[1:], os.Stdout, os.Stderr))
}

// dispatch picks the subcommand from the command table (commands.go)
// and returns the exit code.
func dispatch(args []string, stdout, stderr io.Writer) int {
	if code, ok := runInternal(args, stderr); ok {
		return code
	}
	if len(args) > 0 {
		if c, ok := lookup(args[0], false); ok {
			return c.run(args[1:], stdout, stderr)
		}
	}
	return runSweep(args, stdout, stderr)
}
