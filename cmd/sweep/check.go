package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/gate"
	"github.com/sweep-dev/sweep/sweep/report"
)

// runCheck is `sweep check -baseline OLD NEW`: the pre-release gate.
// Exit 1 when NEW regresses beyond noise against OLD, 2 when the runs are
// not comparable, 0 otherwise.
func runCheck(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("sweep check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	old := fs.String("baseline", "", "run directory of the accepted (old) run")
	th := gate.DefaultThresholds()
	cpu := fs.Float64("cpu", th[sweep.MetricCPUPerReq], "regression threshold for CPU µs/request (fraction)")
	rps := fs.Float64("rps", th[sweep.MetricRPS], "regression threshold for RPS (fraction)")
	srps := fs.Float64("success-rps", th[sweep.MetricSuccessRPS], "regression threshold for success RPS (fraction)")
	p99 := fs.Float64("p99", th[sweep.MetricP99], "regression threshold for p99 latency (fraction)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *old == "" || fs.NArg() != 1 {
		fmt.Fprintln(stderr, "usage: sweep check -baseline OLD NEW")
		return 2
	}
	th[sweep.MetricCPUPerReq], th[sweep.MetricRPS], th[sweep.MetricSuccessRPS], th[sweep.MetricP99] = *cpu, *rps, *srps, *p99
	a, err := report.ReadSummary(filepath.Join(*old, "summary.json"))
	if err != nil {
		fmt.Fprintln(stderr, "sweep check:", err)
		return 2
	}
	b, err := report.ReadSummary(filepath.Join(fs.Arg(0), "summary.json"))
	if err != nil {
		fmt.Fprintln(stderr, "sweep check:", err)
		return 2
	}
	res, err := gate.Compare(a, b, th)
	if err != nil {
		fmt.Fprintln(stderr, "sweep check:", err)
		if errors.Is(err, gate.ErrMismatch) {
			return 2
		}
		return 1
	}
	if err := res.WriteTable(stdout); err != nil {
		fmt.Fprintln(stderr, "sweep check:", err)
		return 1
	}
	if res.Regressed {
		return 1
	}
	return 0
}
