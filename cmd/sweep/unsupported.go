//go:build !linux || !cgo

package main

import (
	"fmt"
	"io"
	"runtime"
	"strings"
)

// measuring is false in a build that cannot run sweeps: not Linux, or
// without cgo.
const measuring = false

// notHere is what a measuring command says in such a build.
func notHere(what string, stderr io.Writer) int {
	have := names(func(c command) bool { return !c.measures })
	fmt.Fprintf(stderr, "sweep: %s needs Linux and a cgo build (the Wasmtime host, /proc probes and CPU pinning); this build for %s/%s has %s and %s\n",
		what, runtime.GOOS, runtime.GOARCH, strings.Join(have[:len(have)-1], ", "), have[len(have)-1])
	return 1
}

// runSweep says that a sweep cannot run here; -h lists the commands.
func runSweep(args []string, stdout, stderr io.Writer) int {
	if len(args) == 1 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help") {
		usage(stdout)
		return 0
	}
	return notHere("running a sweep", stderr)
}

// runServe says that the built-in host cannot run here.
func runServe(args []string, stdout, stderr io.Writer) int {
	return notHere("sweep serve", stderr)
}

// runInternal has no internal commands to run here.
func runInternal(args []string, stderr io.Writer) (int, bool) { return 0, false }
