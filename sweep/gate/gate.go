// Package gate is the pre-release regression gate: it compares two
// analysed runs of the same config grid (two summary.json files) cell by
// cell and says which cells got worse by more than both a threshold and
// the runs' own A/A noise. It is pure: no I/O besides writing its table.
package gate

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/sweep-dev/sweep/sweep"
)

// MetricErrorRate names the rows that flag errors appearing in the new
// run where the old run had none.
const MetricErrorRate = "error_rate"

// Thresholds maps a metric to the smallest regression, as a fraction of
// the old value, that the gate considers at all.
type Thresholds map[string]float64

// DefaultThresholds are 5% for CPU per request and throughput and 10% for
// p99 latency, which is noisier.
func DefaultThresholds() Thresholds {
	return Thresholds{
		sweep.MetricCPUPerReq:  0.05,
		sweep.MetricRPS:        0.05,
		sweep.MetricSuccessRPS: 0.05,
		sweep.MetricP99:        0.10,
	}
}

// Row is one metric of one cell compared across the two runs.
type Row struct {
	Config      string
	Concurrency int
	Metric      string
	Old, New    float64
	Change      float64    // New/Old − 1; NaN when Old is 0
	Band        sweep.Band // the wider of the two runs' A/A bands for this metric and level
	Regressed   bool
	Note        string
}

// Result is the comparison of two runs.
type Result struct {
	Rows      []Row
	Regressed bool     // some row regressed
	Notes     []string // caveats about the runs as a whole (an incomplete run, a missing A/A control)
}

// ErrMismatch is wrapped by Compare's error when the two runs do not
// measure the same configs at the same concurrency levels.
var ErrMismatch = errors.New("runs are not comparable")

// Compare compares new against old. Both must cover the same config
// labels and concurrency levels (A/A twins aside); otherwise the error
// wraps ErrMismatch and says what differs. A nil or empty th means
// DefaultThresholds; otherwise only the metrics in th are compared.
//
// A cell's metric regresses when the new median is worse than the old
// one, in the metric's direction (lower is better for CPU per request and
// p99), by more than max(threshold, noise), where noise is max(|Q1|, |Q3|)
// of the wider of the two runs' A/A bands for that metric and level.
// Errors in the new run where the old run had none at that cell also
// regress, whatever th says.
func Compare(old, new sweep.Summary, th Thresholds) (Result, error) {
	if len(th) == 0 {
		th = DefaultThresholds()
	}
	var metrics []string
	for m, v := range th {
		if !slices.Contains(sweep.Metrics, m) {
			return Result{}, fmt.Errorf("threshold for unknown metric %q (allowed: %s)", m, strings.Join(sortedMetrics(), ", "))
		}
		if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
			return Result{}, fmt.Errorf("threshold for %s is %v: want a fraction ≥ 0, e.g. 0.05 for 5%%", m, v)
		}
		metrics = append(metrics, m)
	}
	slices.SortFunc(metrics, func(a, b string) int { return slices.Index(sweep.Metrics, a) - slices.Index(sweep.Metrics, b) })

	oc, nc := cells(old), cells(new)
	if err := sameGrid(oc, nc); err != nil {
		return Result{}, err
	}
	var res Result
	for _, s := range []struct {
		name string
		s    sweep.Summary
	}{{"old", old}, {"new", new}} {
		if !s.s.Complete {
			res.Notes = append(res.Notes, fmt.Sprintf("the %s run is incomplete: %d of %d windows measured", s.name, s.s.Plan.Measured, s.s.Plan.Windows))
		}
		if s.s.AAConfig == "" {
			res.Notes = append(res.Notes, fmt.Sprintf("the %s run has no A/A control: noise is taken as 0 where it has no band", s.name))
		}
	}
	for _, k := range oc.order {
		o, n := oc.byKey[k], nc.byKey[k]
		for _, m := range metrics {
			res.Rows = append(res.Rows, compareMetric(o, n, m, th[m]))
		}
		if r, ok := compareErrors(o, n); ok {
			res.Rows = append(res.Rows, r)
		}
	}
	for _, r := range res.Rows {
		if r.Regressed {
			res.Regressed = true
		}
	}
	return res, nil
}

func sortedMetrics() []string {
	m := slices.Clone(sweep.Metrics)
	sort.Strings(m)
	return m
}

// compareMetric compares one metric of one cell.
func compareMetric(o, n sweep.Cell, metric string, threshold float64) Row {
	r := Row{Config: o.Config, Concurrency: o.Concurrency, Metric: metric, Old: o.Metric(metric), New: n.Metric(metric)}
	r.Band = widerBand(o.AABand[metric], n.AABand[metric])
	noise := width(r.Band)
	limit := math.Max(threshold, noise)
	switch {
	case n.Rounds == 0:
		r.Change = math.NaN()
		r.Regressed = true
		r.Note = "no measured windows in the new run"
		return r
	case o.Rounds == 0:
		r.Change = math.NaN()
		r.Note = "no measured windows in the old run: nothing to compare"
		return r
	case r.Old == 0:
		r.Change = math.NaN()
		r.Note = "old value is 0: no ratio"
		return r
	}
	r.Change = r.New/r.Old - 1
	worse := r.Change
	if !sweep.LowerIsBetter(metric) {
		worse = -r.Change
	}
	bound := fmt.Sprintf("max(%s threshold, %s noise)", pct(threshold), pct(noise))
	switch {
	case worse > limit:
		r.Regressed = true
		r.Note = fmt.Sprintf("worse by %s > %s", pct(worse), bound)
	case worse > 0:
		r.Note = fmt.Sprintf("within %s", bound)
	default:
		r.Note = "not worse"
	}
	return r
}

// compareErrors flags errors that appeared at a cell that had none.
func compareErrors(o, n sweep.Cell) (Row, bool) {
	oldBad := o.ErrorRate > 0 || o.Errors5xx > 0
	newBad := n.ErrorRate > 0 || n.Errors5xx > 0
	if !newBad {
		return Row{}, false
	}
	r := Row{Config: o.Config, Concurrency: o.Concurrency, Metric: MetricErrorRate, Old: o.ErrorRate, New: n.ErrorRate, Change: math.NaN()}
	if o.ErrorRate > 0 {
		r.Change = n.ErrorRate/o.ErrorRate - 1
	}
	if oldBad {
		r.Note = "errors in both runs"
		return r, true
	}
	r.Regressed = true
	r.Note = fmt.Sprintf("new errors: %s of requests (%d 5xx), none in the old run", pct(n.ErrorRate), n.Errors5xx)
	return r, true
}

// width is the half-width of a noise band: max(|Q1|, |Q3|).
func width(b sweep.Band) float64 { return math.Max(math.Abs(b.Q1), math.Abs(b.Q3)) }

// widerBand returns whichever of a and b is wider.
func widerBand(a, b sweep.Band) sweep.Band {
	if width(b) > width(a) {
		return b
	}
	return a
}

// key identifies a cell across runs.
type key struct {
	config string
	conc   int
}

// cellSet is a run's non-A/A cells in report order.
type cellSet struct {
	order []key
	byKey map[key]sweep.Cell
}

// cells indexes a summary's cells, A/A twins excluded: they are the
// runs' noise controls, not configs under test.
func cells(s sweep.Summary) cellSet {
	cs := cellSet{byKey: map[key]sweep.Cell{}}
	for _, c := range s.Cells {
		if c.AA {
			continue
		}
		k := key{c.Config, c.Concurrency}
		if _, dup := cs.byKey[k]; !dup {
			cs.order = append(cs.order, k)
		}
		cs.byKey[k] = c
	}
	sort.SliceStable(cs.order, func(i, j int) bool { return cs.order[i].conc < cs.order[j].conc })
	return cs
}

// sameGrid reports how two runs' grids differ, wrapping ErrMismatch.
func sameGrid(o, n cellSet) error {
	configs := func(cs cellSet) ([]string, []int) {
		var cfg []string
		var conc []int
		for _, k := range cs.order {
			if !slices.Contains(cfg, k.config) {
				cfg = append(cfg, k.config)
			}
			if !slices.Contains(conc, k.conc) {
				conc = append(conc, k.conc)
			}
		}
		sort.Ints(conc)
		return cfg, conc
	}
	ocfg, oconc := configs(o)
	ncfg, nconc := configs(n)
	var diffs []string
	if only := minus(ocfg, ncfg); len(only) > 0 {
		diffs = append(diffs, "configs only in the old run: "+quoteAll(only))
	}
	if only := minus(ncfg, ocfg); len(only) > 0 {
		diffs = append(diffs, "configs only in the new run: "+quoteAll(only))
	}
	if !slices.Equal(oconc, nconc) {
		diffs = append(diffs, fmt.Sprintf("concurrency levels %v (old) vs %v (new)", oconc, nconc))
	}
	if len(diffs) == 0 {
		for _, k := range o.order {
			if _, ok := n.byKey[k]; !ok {
				diffs = append(diffs, fmt.Sprintf("%q at c=%d only in the old run", k.config, k.conc))
			}
		}
		for _, k := range n.order {
			if _, ok := o.byKey[k]; !ok {
				diffs = append(diffs, fmt.Sprintf("%q at c=%d only in the new run", k.config, k.conc))
			}
		}
	}
	if len(ocfg) == 0 && len(diffs) == 0 {
		diffs = append(diffs, "neither run has any cells")
	}
	if len(diffs) > 0 {
		return fmt.Errorf("%w: %s", ErrMismatch, strings.Join(diffs, "; "))
	}
	return nil
}

// minus returns the elements of a not in b, in a's order.
func minus(a, b []string) []string {
	var out []string
	for _, x := range a {
		if !slices.Contains(b, x) {
			out = append(out, x)
		}
	}
	return out
}

func quoteAll(xs []string) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = fmt.Sprintf("%q", x)
	}
	return strings.Join(q, ", ")
}

// pct formats a fraction as a percentage with one decimal.
func pct(f float64) string { return fmt.Sprintf("%.1f%%", 100*f) }
