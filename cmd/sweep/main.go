// Command sweep tunes Wasmtime pooling-allocator settings under real
// concurrency. See README.md.
//
//	sweep -config FILE [-out DIR] [-resume DIR] [-shard i/n] [-dry-run] [-q] [-v]
//	sweep merge -out DIR SHARD_DIR...
//	sweep init [-target builtin|command] [FILE]
//	sweep serve [flags]
//	sweep report DIR
//	sweep check [flags] RUN_DIR
//	sweep check [flags] -baseline OLD [-baseline OLD2 ...] NEW
//	sweep version
//	sweep help [COMMAND]
//
// Exit codes: 0 ok, 1 failure or regression, 2 bad usage or bad config.
//
// Running a sweep and serving need Linux and cgo (the Wasmtime host, the
// /proc probes, CPU pinning); a build without them (CGO_ENABLED=0, macOS,
// Windows) has merge, report, check, init, version and help, and says so when
// asked to run or serve.
package main

import (
	"io"
	"os"
)

func main() {
	os.Exit(dispatch(os.Args[1:], os.Stdout, os.Stderr))
}

// dispatch picks the subcommand and returns the exit code.
func dispatch(args []string, stdout, stderr io.Writer) int {
	if code, ok := runInternal(args, stderr); ok {
		return code
	}
	if len(args) > 0 {
		switch args[0] {
		case "serve":
			return runServe(args[1:], stdout, stderr)
		case "merge":
			return runMerge(args[1:], stdout, stderr)
		case "report":
			return runReport(args[1:], stdout, stderr)
		case "check":
			return runCheck(args[1:], stdout, stderr)
		case "init":
			return runInit(args[1:], stdout, stderr)
		case "version", "-version", "--version":
			return runVersion(args[1:], stdout, stderr)
		case "help":
			return runHelp(args[1:], stdout, stderr)
		}
	}
	return runSweep(args, stdout, stderr)
}
