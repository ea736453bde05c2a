// Command sweep tunes Wasmtime pooling-allocator settings under real
// concurrency. See README.md.
//
//	sweep -config FILE [-out DIR] [-resume DIR] [-dry-run] [-q]
//	sweep serve [flags]
//	sweep report DIR
//	sweep check -baseline OLD NEW
//
// Exit codes: 0 ok, 1 failure or regression, 2 bad usage or bad config.
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/sweep-dev/sweep/sweep/awake"
)

func main() {
	os.Exit(dispatch(os.Args[1:], os.Stdout, os.Stderr))
}

// dispatch picks the subcommand and returns the exit code.
func dispatch(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "serve":
			return runServe(args[1:], stdout, stderr)
		case "report":
			return runReport(args[1:], stdout, stderr)
		case "check":
			return runCheck(args[1:], stdout, stderr)
		case awake.Subcommand: // internal: started by the driver (run.keep_awake)
			return awake.Main(args[1:], stderr)
		case "help", "-h", "-help", "--help":
			usage(stdout)
			return 0
		}
	}
	return runSweep(args, stdout, stderr)
}

func usage(w io.Writer) {
	fmt.Fprint(w, `usage:
  sweep -config FILE [-out DIR] [-resume DIR] [-dry-run] [-q]   run a sweep
  sweep serve [flags]                                           the built-in Wasmtime host
  sweep report DIR                                              re-render a run's reports
  sweep check -baseline OLD NEW                                 regression gate (exit 1 on regression)
`)
}
