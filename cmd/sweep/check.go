package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/gate"
	"github.com/sweep-dev/sweep/sweep/results"
	"github.com/sweep-dev/sweep/sweep/rundir"
	"github.com/sweep-dev/sweep/sweep/units"
)

// fraction is a flag value given as a fraction (0.05) or a percentage
// ("5%"), parsed by units.ParseFraction.
type fraction struct{ v *float64 }

func (f fraction) String() string {
	if f.v == nil {
		return ""
	}
	return units.FormatPercent(*f.v)
}

func (f fraction) Set(s string) error {
	x, err := units.ParseFraction(s)
	if err != nil {
		return err
	}
	if x < 0 || x >= gate.MaxThreshold {
		return fmt.Errorf("%s is out of range: want 0 up to %d00%%", s, gate.MaxThreshold)
	}
	*f.v = x
	return nil
}

// optional is a fraction flag that is off at 0: its usage shows no
// default then.
type optional struct{ fraction }

func (o optional) String() string {
	if o.v == nil || *o.v == 0 {
		return ""
	}
	return o.fraction.String()
}

// runCheck is `sweep check RUN_DIR` (the in-run gate: a candidate vs the
// baseline of one run, paired) and `sweep check -baseline OLD NEW` (two
// runs, unpaired). Exit 1 on a regression, 2 on bad usage or runs that
// cannot be compared, 0 otherwise.
func runCheck(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("sweep check", flag.ContinueOnError)
	var olds runDirs
	fs.Var(&olds, "baseline", "run directory of an accepted (old) run: compare two runs instead of one run's configs; repeat it for several accepted runs (e.g. the last three): the new run regresses only when it regresses against every one")
	cand := fs.String("candidate", "", `the candidate config of RUN_DIR: axis=value pairs (e.g. "build=new") or a config label; default the only config besides the baseline`)
	th := gate.DefaultThresholds()
	vals := map[sweep.Metric]*float64{}
	for _, f := range thresholdFlags {
		v := th[f.metric]
		vals[f.metric] = &v
		fs.Var(fraction{&v}, f.name, "regression threshold for "+f.what+" (a percentage or a fraction below 1, e.g. 2% or 0.02)")
	}
	var rss float64
	fs.Var(optional{fraction{&rss}}, "rss", "in one run: regression threshold for the server's RSS (at the end of the windows), as a share of the baseline's, e.g. 10%; not judged unless given")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	asMD := fs.Bool("markdown", false, "print the result as a Markdown table (for a pull-request comment)")
	if code, ok := parseFlags(fs, "check", args, stdout, stderr); !ok {
		return code
	}
	for m, v := range vals {
		th[m] = *v
	}
	if len(olds) > 0 {
		// Across runs only what survives the drift between runs is judged
		// unless a threshold is given (gate.CrossRun).
		given := map[string]bool{}
		fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
		cross := gate.CrossRun()
		for _, f := range thresholdFlags {
			if given[f.name] {
				cross[f.metric] = th[f.metric]
			}
		}
		th = cross
	}
	if fs.NArg() != 1 || (*asJSON && *asMD) {
		fs.Usage()
		return 2
	}
	var res gate.Result
	var err error
	switch {
	case len(olds) > 0 && rss > 0:
		fmt.Fprintln(stderr, "sweep check: -rss judges the paired RSS change of one run; it is not available with -baseline (across runs)")
		return 2
	case len(olds) > 0:
		res, err = crossRun(olds, fs.Arg(0), th)
	default:
		res, err = inRun(fs.Arg(0), *cand, th, rss)
	}
	if err != nil {
		fmt.Fprintln(stderr, "sweep check:", err)
		if errors.Is(err, gate.ErrMismatch) || errors.Is(err, gate.ErrCandidate) || errors.Is(err, gate.ErrThreshold) || errors.Is(err, errUsage) {
			return 2
		}
		return 1
	}
	switch {
	case *asJSON:
		err = res.WriteJSON(stdout)
	case *asMD:
		err = res.WriteMarkdown(stdout)
	default:
		err = res.WriteTable(stdout)
	}
	if err != nil {
		fmt.Fprintln(stderr, "sweep check:", err)
		return 1
	}
	if res.Regressed || res.Undecided {
		return 1 // a gate that could not decide does not pass
	}
	return 0
}

// thresholdFlags are sweep check's threshold flags, one per metric.
var thresholdFlags = []struct {
	name   string
	metric sweep.Metric
	what   string
}{
	{"cpu", sweep.MetricCPUPerReq, "CPU µs/request"},
	{"rps", sweep.MetricRPS, "RPS (across runs: judged only when given)"},
	{"success-rps", sweep.MetricSuccessRPS, "success RPS (across runs: judged only when given)"},
	{"p99", sweep.MetricP99, "p99 latency (across runs: judged only when given)"},
}

// errUsage marks a run directory that cannot be read as a gate input.
var errUsage = errors.New("unusable run directory")

// inRun is the paired gate of one run directory.
func inRun(dir, sel string, th gate.Thresholds, rss float64) (gate.Result, error) {
	s, err := rundir.ReadSummary(dir)
	if err != nil {
		return gate.Result{}, fmt.Errorf("%w: %w", errUsage, err)
	}
	ws, err := results.Read(rundir.Dir(dir).Results())
	if err != nil {
		return gate.Result{}, fmt.Errorf("%w: %w", errUsage, err)
	}
	c, err := gate.SelectCandidate(s, sel)
	if err == nil {
		ws, err = gate.Judged(s, ws, c)
	}
	if err != nil {
		return gate.Result{}, fmt.Errorf("%s: %w", dir, err)
	}
	return gate.CheckRSS(s, ws, c, th, rss)
}

// runDirs is a flag given once per run directory.
type runDirs []string

func (d *runDirs) String() string { return strings.Join(*d, ", ") }

func (d *runDirs) Set(s string) error {
	if s == "" {
		return errors.New("empty run directory")
	}
	*d = append(*d, s)
	return nil
}

// crossRun is the unpaired gate of a new run against one or more accepted
// runs, given oldest first.
func crossRun(oldDirs []string, newDir string, th gate.Thresholds) (gate.Result, error) {
	var olds []gate.Accepted
	for _, d := range oldDirs {
		s, err := rundir.ReadSummary(d)
		if err != nil {
			return gate.Result{}, fmt.Errorf("%w: %w", errUsage, err)
		}
		olds = append(olds, gate.Accepted{Name: d, Summary: s})
	}
	b, err := rundir.ReadSummary(newDir)
	if err != nil {
		return gate.Result{}, fmt.Errorf("%w: %w", errUsage, err)
	}
	return gate.CompareAny(olds, b, th, nil)
}
