package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/sweep-dev/sweep/sweep/report"
	"github.com/sweep-dev/sweep/sweep/rundir"
)

// runReport is `sweep report DIR`: re-render a run's reports from its data.
func runReport(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("sweep report", flag.ContinueOnError)
	if code, ok := parseFlags(fs, "report", args, stdout, stderr); !ok {
		return code
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, usageOf("report"))
		return 2
	}
	dir := fs.Arg(0)
	if _, err := os.Stat(rundir.Dir(dir).Summary()); err != nil {
		fmt.Fprintf(stderr, "sweep report: %s is not a run directory (no summary.json)\n", dir)
		return 2
	}
	if err := report.Render(dir); err != nil {
		fmt.Fprintln(stderr, "sweep report:", err)
		return 1
	}
	fmt.Fprintln(stdout, rundir.Dir(dir).SummaryMD())
	return 0
}
