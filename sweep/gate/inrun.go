package gate

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/stats"
	"github.com/sweep-dev/sweep/sweep/units"
)

// ErrCandidate is wrapped by Check's error when the candidate cannot be
// told: none given in a run with several, or a selector that matches no
// or several configs.
var ErrCandidate = errors.New("candidate")

// SelectCandidate finds the candidate config of a run: the config whose
// point matches every axis=value of sel (sel may also be a config label);
// with sel empty, the only config besides the baseline and its A/A twin.
func SelectCandidate(s sweep.Summary, sel string) (string, error) {
	var configs []string
	var points []sweep.Point
	for _, c := range s.Cells {
		if c.Baseline || c.AA || slices.Contains(configs, c.Config) {
			continue
		}
		configs = append(configs, c.Config)
		points = append(points, c.Point)
	}
	if sel == "" {
		if len(configs) == 1 {
			return configs[0], nil
		}
		return "", fmt.Errorf("%w: the run has %d candidate configs (%s); choose one with -candidate axis=value", ErrCandidate, len(configs), quoteAll(configs))
	}
	want := map[string]string{}
	for _, kv := range strings.Fields(sel) {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return "", fmt.Errorf("%w: -candidate %q: want axis=value pairs separated by spaces, e.g. build=new", ErrCandidate, sel)
		}
		want[k] = v
	}
	var match []string
	for i, c := range configs {
		if c == sel {
			return c, nil
		}
		ok := true
		for k, v := range want {
			if points[i][k] != v {
				ok = false
			}
		}
		if ok {
			match = append(match, c)
		}
	}
	if len(match) != 1 {
		return "", fmt.Errorf("%w: -candidate %q matches %d configs; candidates are %s", ErrCandidate, sel, len(match), quoteAll(configs))
	}
	return match[0], nil
}

// Check is the in-run gate. It analyses again, from the run's windows,
// only the baseline, its A/A twin and the candidate, so that the
// family-wise correction spans the gate's own comparisons (every level
// and metric of the candidate) and not the whole grid. A metric of a
// level regresses when the candidate is worse than the baseline by more
// than its threshold with the run's confidence: the whole decision
// interval lies beyond +threshold on the worse side (lower is better for
// CPU per request and p99). Errors at a level where the baseline had none
// also regress. Metrics absent from th are not judged.
func Check(s sweep.Summary, ws []sweep.Window, candidate string, th Thresholds) (Result, error) {
	return check(s, ws, candidate, th, 0)
}

// check is Check, with CheckRSS's memory gate when rss > 0.
func check(s sweep.Summary, ws []sweep.Window, candidate string, th Thresholds, rss float64) (Result, error) {
	if err := th.validate(); err != nil {
		return Result{}, err
	}
	g := Result{Paired: true, Baseline: s.Baseline, Candidate: candidate}
	var keep []sweep.Window
	for _, w := range ws {
		if w.Config == s.Baseline || w.Config == candidate || (s.AAConfig != "" && w.Config == s.AAConfig) {
			keep = append(keep, w)
		}
	}
	a := stats.Analyze(keep, stats.Options{
		Baseline: s.Baseline, AA: s.AAConfig, CliffRate: s.Plan.CliffRate,
		TargetConcurrency: s.Plan.TargetConc, Objective: s.Plan.Objective,
		Confidence: s.Plan.Confidence, SameProcess: s.Plan.Restarts == sweep.RestartsNever,
		MaxRSS: s.Plan.MaxRSS, MaxReserved: s.Plan.MaxReserved,
	})
	if !s.Complete {
		g.Notes = append(g.Notes, fmt.Sprintf("the run is incomplete: %d of %d windows measured", s.Plan.Measured, s.Plan.Windows))
	}
	if s.Plan.Restarts == sweep.RestartsNever {
		g.Notes = append(g.Notes, "each config ran in one process for the whole run (restarts = \"never\"): a process's own offset is not covered by the intervals")
	}
	cells := map[int]sweep.Cell{}
	bases := map[int]sweep.Cell{}
	for _, c := range a.Cells {
		switch c.Config {
		case candidate:
			cells[c.Concurrency] = c
		case s.Baseline:
			bases[c.Concurrency] = c
		}
	}
	for _, l := range s.Plan.Concurrency {
		c, ok := cells[l]
		if !ok {
			g.Rows = append(g.Rows, Row{Config: candidate, Concurrency: l, Metric: "windows", Regressed: true, Note: "no measured windows for the candidate"})
			continue
		}
		for _, m := range th.metrics() {
			g.Rows = append(g.Rows, inRunRow(c, bases[l], m, th[m]))
		}
		if rss > 0 {
			g.Rows = append(g.Rows, rssRow(c, rss))
		}
		if r, ok := compareErrors(bases[l], c); ok {
			g.Rows = append(g.Rows, r)
		}
	}
	for _, r := range g.Rows {
		g.Regressed = g.Regressed || r.Regressed
		g.Undecided = g.Undecided || r.Undecided
	}
	g.Undecided = g.Undecided && !g.Regressed
	return g, nil
}

// inRunRow judges one metric of the candidate at one level.
func inRunRow(c, base sweep.Cell, m sweep.Metric, threshold float64) Row {
	d := c.VsBaseline[m]
	r := Row{Config: c.Config, Concurrency: c.Concurrency, Metric: string(m), Old: base.Metric(m), New: c.Metric(m),
		Change: d.Estimate, Threshold: threshold, Confidence: d.Confidence}
	if d.CILow == nil || d.CIHigh == nil {
		r.Undecided, r.Note = true, undecidedNote(d.Pairs, d.Needed, "the gate's level")
		return r
	}
	r.CILow, r.CIHigh = *d.CILow, *d.CIHigh
	worseLo := r.CILow // the interval's least-worse end, as a worsening
	if !m.LowerIsBetter() {
		worseLo = -r.CIHigh
	}
	switch {
	case worseLo > threshold:
		r.Regressed = true
		r.Note = fmt.Sprintf("worse by at least %s > %s threshold, at %s", units.Share(worseLo), units.Share(threshold), units.Share(d.Confidence))
	case d.Verdict == sweep.VerdictWorse:
		r.Note = fmt.Sprintf("worse, but not surely by more than the %s threshold", units.Share(threshold))
	default:
		r.Note = string(d.Verdict)
	}
	return r
}

// undecidedNote says why a row has no interval: "undecided: 5 pairs, 8
// needed at the gate's level" (without the need when the summary does
// not record it).
func undecidedNote(pairs, needed int, level string) string {
	if needed > pairs {
		return fmt.Sprintf("undecided: %d pairs, %d needed at %s", pairs, needed, level)
	}
	return fmt.Sprintf("undecided: %d pairs are too few at %s", pairs, level)
}
