//go:build linux && cgo

package main

import (
	"io"

	"github.com/sweep-dev/sweep/sweep/awake"
)

// measuring is true in a build that can run sweeps: Linux with cgo.
const measuring = true

// runInternal runs the commands sweep starts itself and users never type:
// the keep-awake spinner (run.keep_awake). ok is false for any other
// command.
func runInternal(args []string, stderr io.Writer) (code int, ok bool) {
	if len(args) > 0 && args[0] == awake.Subcommand {
		return awake.Main(args[1:], stderr), true
	}
	return 0, false
}
