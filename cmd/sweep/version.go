package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/version"
)

// runVersion is `sweep version`: sweep's own version (what summary.json's
// environment.sweep_version records), the Go toolchain, the Wasmtime it
// embeds and the summary.json schema it writes.
func runVersion(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("sweep version", flag.ContinueOnError)
	if code, ok := parseFlags(fs, "version", args, stdout, stderr); !ok {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "sweep version: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	or := func(s string) string {
		if s == "" {
			return "unknown (no build information)"
		}
		return s
	}
	wasmtime := or(version.Wasmtime())
	if !measuring {
		wasmtime = "none (this build cannot run sweeps: it needs Linux with cgo)"
	}
	fmt.Fprintf(stdout, "sweep %s\ngo %s\nwasmtime %s\nsummary.json schema %d\n", or(version.Sweep()), or(version.Go()), wasmtime, sweep.SchemaVersion)
	return 0
}
