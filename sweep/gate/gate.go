// Package gate is the pre-release regression gate. Check is the gate in
// one run — the old and the new build side by side, paired and
// interleaved — and says with a stated confidence whether the candidate
// is worse than the baseline by more than a threshold. Compare is the
// fallback across two runs, when the old build is gone: unpaired, so it
// judges absolute levels only against the drift between runs, and the
// configs' changes against their own run's baseline (which survive that
// drift). It is pure: no I/O besides writing its tables.
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
type Thresholds map[sweep.Metric]float64

// DefaultThresholds are the in-run gate's: 2% for CPU per request and
// throughput and 10% for p99 latency, which is noisier. A regression
// counts when the candidate is worse by more than that with the run's
// confidence.
func DefaultThresholds() Thresholds {
	return Thresholds{
		sweep.MetricCPUPerReq:  0.02,
		sweep.MetricRPS:        0.02,
		sweep.MetricSuccessRPS: 0.02,
		sweep.MetricP99:        0.10,
	}
}

// DefaultDrift is how far a cell's absolute level may move between two
// runs of one unchanged build on the same machine before Compare calls it
// a regression: measured on this project's 2-vCPU VM (BENCHMARKS.md,
// 2026-12-03) at CPU/req +4–5%, RPS −6…−12% and p99 ×2–3 between runs
// minutes apart, and RPS at c=16 −21…−27% for every config alike when
// other work shared the machine during one of the runs (throughput is
// what the server gets of its CPU; CPU per request is not). A cross-run
// check can see no smaller change than this.
func DefaultDrift() Thresholds {
	return Thresholds{
		sweep.MetricCPUPerReq:  0.07,
		sweep.MetricRPS:        0.30,
		sweep.MetricSuccessRPS: 0.30,
		sweep.MetricP99:        2.0,
	}
}

// AnchorDrift is how far a cell's figure against its run's reference
// server (run.reference) may grow between two runs of one unchanged build
// before Compare calls it a regression. Measured on this project's 2-vCPU
// VM (BENCHMARKS.md, 20 runs of bench/crossrun.toml on 2026-12-04, and 20
// more to check the allowances on runs they were not chosen on, 2026-12-05):
//   - CPU per request and time per request (1/RPS): the machine's drift
//     between runs is additive — a slow spell adds about the same 40–65 µs
//     (c=1) to every request of every server, the reference's included —
//     so the cost beyond the reference, cell − reference, is judged, as a
//     fraction of the old cell's cost. It moved −4.5…+3.7% (CPU; time per
//     request −6.9…+5.9%) between consecutive unchanged runs while the
//     absolute CPU per request moved −16.5…+28.7%, and a +10% build came
//     out +8.7…+14.5% (+8.3…+15.9%); the allowances lie between.
//   - p99 latency: a slow spell stretches every server's tail alike in
//     proportion, so the ratio cell p99 / reference p99 is judged. It moved
//     ×0.61…×1.68 at c=1 (×0.85…×1.17 at c=16) while the absolute p99
//     moved ×0.18…×4.4; 100% (×2) is allowed.
func AnchorDrift() Thresholds {
	return Thresholds{
		sweep.MetricCPUPerReq:  0.05,
		sweep.MetricRPS:        0.07,
		sweep.MetricSuccessRPS: 0.07,
		sweep.MetricP99:        1.0,
	}
}

// CrossRun is the thresholds Compare judges by default across runs: CPU
// per request only. Throughput and p99 latency depend on how much of its
// CPUs the machine gives the server while it is measured, and across runs
// other work on the machine changes that; CPU per request does not
// (BENCHMARKS.md: over two series of 20 runs of bench/crossrun.toml,
// 2026-12-05, the CPU rows against the reference failed none of 38
// consecutive unchanged pairs and 11 of 380 pairs up to an hour apart,
// and every CPU row failed each of 6 pairs against a +10% build, while
// the time-per-request and p99 rows failed 5 of the 19 consecutive pairs
// of the busier series). Give the other metrics a threshold to judge them
// too.
func CrossRun() Thresholds {
	return Thresholds{sweep.MetricCPUPerReq: DefaultThresholds()[sweep.MetricCPUPerReq]}
}

// MaxThreshold bounds a threshold: a regression allowance of 1000% or more
// is a typo, not a gate.
const MaxThreshold = 10

// ErrThreshold is wrapped by the error for an unknown metric or a
// threshold out of range.
var ErrThreshold = errors.New("bad threshold")

// validate checks every threshold: a known metric, 0 ≤ t < MaxThreshold.
func (th Thresholds) validate() error {
	for m, v := range th {
		if _, err := sweep.ParseMetric(string(m)); err != nil {
			return fmt.Errorf("%w: %w", ErrThreshold, err)
		}
		if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) || v >= MaxThreshold {
			return fmt.Errorf("%w: %s threshold %v: want a fraction from 0 up to %d (e.g. 0.05 or \"5%%\")", ErrThreshold, m, v, MaxThreshold)
		}
	}
	return nil
}

// metrics returns th's metrics in report order.
func (th Thresholds) metrics() []sweep.Metric {
	var out []sweep.Metric
	for _, m := range sweep.Metrics {
		if _, ok := th[m]; ok {
			out = append(out, m)
		}
	}
	return out
}

// Row is one metric of one cell compared across the two runs.
type Row struct {
	Config      string
	Concurrency int
	Metric      string
	Old, New    float64
	Change      float64 // the change judged: New/Old − 1 (NaN when Old is 0), or the paired estimate in one run
	// Threshold is the allowance the change was judged against (for a
	// cross-run absolute row, max(threshold, drift)).
	Threshold float64
	// CILow, CIHigh and Confidence are the paired change's decision
	// interval (in-run rows and cross-run relative rows; 0 otherwise).
	CILow, CIHigh float64
	Confidence    float64
	Regressed     bool
	// Shown marks a row that is shown, not judged: a cross-run absolute
	// level when the row after it, against the reference, is judged.
	Shown bool
	Note  string
}

// Result is a gate's verdict: Check's (Paired, one run) or Compare's
// (two runs).
type Result struct {
	Paired    bool     `json:"paired"`
	Baseline  string   `json:"baseline,omitempty"`  // Check: the baseline config
	Candidate string   `json:"candidate,omitempty"` // Check: the candidate config
	Rows      []Row    `json:"rows"`
	Regressed bool     `json:"regressed"` // some row regressed
	Notes     []string `json:"notes"`     // caveats about the runs as a whole (unpaired, environments, an incomplete run)
	// Against and Outcomes are CompareAny's with several baseline runs:
	// the baseline the rows compare with, and the check against each.
	Against  string    `json:"against,omitempty"`
	Outcomes []Outcome `json:"outcomes,omitempty"`
}

// ErrMismatch is wrapped by Compare's error when the two runs do not
// measure the same configs at the same concurrency levels.
var ErrMismatch = errors.New("runs are not comparable")

// Compare compares new against old, two runs of the same grid: the
// fallback gate when the old build can no longer run beside the new one.
// Both must cover the same config labels and concurrency levels (A/A
// twins aside); otherwise the error wraps ErrMismatch and says what
// differs. A nil or empty th means DefaultThresholds and a nil or empty
// drift DefaultDrift; only the metrics in th are compared.
//
// The two runs are not paired, and a machine's level moves between runs
// for every config alike, so the within-run intervals say nothing about
// a cross-run change. Three kinds of row:
//   - absolute: a cell's median, new vs old; it regresses when worse (in
//     the metric's direction) by more than max(threshold, drift), drift
//     being how far an unchanged build moves between runs. When both runs
//     measured the reference server (run.reference) it is only shown, and
//     the next kind is judged instead;
//   - anchored (both runs have the reference): for CPU per request and
//     the time per request, 1/RPS, the cell's cost beyond its own run's
//     reference, cell − reference, which the machine's additive drift
//     cancels in; it regresses when it grew by more than
//     max(threshold, AnchorDrift) of the old cell's cost. For p99, the
//     ratio cell p99 / reference p99, which a slow spell's proportional
//     stretch of every tail cancels in; it regresses when it grew by more
//     than max(threshold, AnchorDrift);
//   - relative (configs other than the baseline, when both runs have the
//     same baseline): the config's paired change against its own run's
//     baseline, which drift cancels; it regresses when the new change's
//     decision interval lies wholly beyond the old change's interval plus
//     the threshold, on the worse side.
//
// Errors in the new run where the old run had none at that cell also
// regress, whatever th says. Notes say that the check is unpaired and
// where the two environments differ.
func Compare(old, new sweep.Summary, th, drift Thresholds) (Result, error) {
	if len(th) == 0 {
		th = DefaultThresholds()
	}
	if len(drift) == 0 {
		drift = DefaultDrift()
	}
	if err := th.validate(); err != nil {
		return Result{}, err
	}
	if err := drift.validate(); err != nil {
		return Result{}, err
	}
	oc, nc := cells(old), cells(new)
	if err := sameGrid(oc, nc); err != nil {
		return Result{}, err
	}
	anchored := len(old.Reference) > 0 && len(new.Reference) > 0
	anchorDrift := AnchorDrift()
	oref, nref := byLevel(old.Reference), byLevel(new.Reference)
	res := Result{Notes: []string{"unpaired: the two runs were measured apart, so absolute changes are judged against the drift between runs (" + driftText(drift, th) + "), not against either run's intervals; for a paired gate put both builds in one run (sweep check RUN_DIR)"}}
	if anchored {
		res.Notes = []string{"unpaired, anchored: both runs measured the reference server (run.reference), so CPU per request and throughput are judged by each cell's cost beyond its own run's reference (cell − reference) and p99 by its ratio to the reference's p99, in which the machine's drift between runs cancels; what it leaves is allowed for (" + anchorText(anchorDrift, th) + "); absolute levels are shown, not judged; for a paired gate put both builds in one run (sweep check RUN_DIR)"}
		res.Notes = append(res.Notes, referenceDrift(old.Reference, new.Reference)...)
	} else if len(old.Reference) > 0 || len(new.Reference) > 0 {
		res.Notes = append(res.Notes, "only one of the runs measured the reference server (run.reference): absolute levels are judged against the drift instead")
	}
	var unjudged []string
	for _, m := range DefaultThresholds().metrics() {
		if _, ok := th[m]; !ok {
			unjudged = append(unjudged, string(m))
		}
	}
	if len(unjudged) > 0 {
		res.Notes = append(res.Notes, "not judged: "+strings.Join(unjudged, ", ")+" (no threshold given; across runs they move with the CPU share other work on the machine leaves the server; give e.g. -rps 7% to judge one)")
	}
	res.Notes = append(res.Notes, envDiffs(old.Environment, new.Environment)...)
	for _, s := range []struct {
		name string
		s    sweep.Summary
	}{{"old", old}, {"new", new}} {
		if !s.s.Complete {
			res.Notes = append(res.Notes, fmt.Sprintf("the %s run is incomplete: %d of %d windows measured", s.name, s.s.Plan.Measured, s.s.Plan.Windows))
		}
		if n, of := busyCells(s.s); n > 0 {
			res.Notes = append(res.Notes, fmt.Sprintf("the %s run had other work on its pinned CPUs in %d of %d cells (busy_machine): its figures are not a quiet machine's, so a change may be the machine's; re-run it on a quiet machine before acting on the verdict", s.name, n, of))
		}
	}
	sameBase := old.Baseline == new.Baseline
	for _, k := range oc.order {
		o, n := oc.byKey[k], nc.byKey[k]
		for _, m := range th.metrics() {
			abs := compareMetric(o, n, m, max(th[m], drift[m]))
			_, anchorable := anchorDrift[m]
			if r, ok := compareAnchored(o, n, oref[o.Concurrency], nref[n.Concurrency], m, max(th[m], anchorDrift[m])); anchored && anchorable && ok {
				abs.Regressed, abs.Threshold, abs.Shown = false, 0, true
				abs.Note = "absolute level, not judged (the row below is)"
				res.Rows = append(res.Rows, abs, r)
			} else {
				res.Rows = append(res.Rows, abs)
			}
			if sameBase && !o.Baseline && !n.Baseline {
				if r, ok := compareRelative(o, n, m, th[m]); ok {
					res.Rows = append(res.Rows, r)
				}
			}
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

// busyCells counts the cells of s (the reference's included) with the
// warning busy_machine, and the cells.
func busyCells(s sweep.Summary) (n, of int) {
	all := append(slices.Clone(s.Cells), s.Reference...)
	for _, c := range all {
		for _, w := range c.Warnings {
			if w.Code == sweep.WarnBusyMachine {
				n++
				break
			}
		}
	}
	return n, len(all)
}

// referenceDrift says how far the reference server's level moved between
// the runs: the machine's drift, which the vs-reference rows cancel.
func referenceDrift(old, new []sweep.Cell) []string {
	var parts []string
	for _, o := range old {
		for _, n := range new {
			if n.Concurrency != o.Concurrency || o.CPUUsPerReq == 0 || o.RPS == 0 {
				continue
			}
			parts = append(parts, fmt.Sprintf("c=%d CPU/req %+.1f%%, RPS %+.1f%%", o.Concurrency, 100*(n.CPUUsPerReq/o.CPUUsPerReq-1), 100*(n.RPS/o.RPS-1)))
		}
	}
	if len(parts) == 0 {
		return nil
	}
	return []string{"the reference server moved between the runs (the machine's drift): " + strings.Join(parts, "; ")}
}

// anchorText lists the allowances of the rows against the reference.
func anchorText(anchor, th Thresholds) string {
	var parts []string
	for _, m := range th.metrics() {
		if a, ok := anchor[m]; ok {
			parts = append(parts, fmt.Sprintf("%s %s", m, pct(max(th[m], a))))
		}
	}
	return strings.Join(parts, ", ")
}

// driftText lists the allowances of the absolute rows.
func driftText(drift, th Thresholds) string {
	var parts []string
	for _, m := range th.metrics() {
		parts = append(parts, fmt.Sprintf("%s %s", m, pct(max(th[m], drift[m]))))
	}
	return strings.Join(parts, ", ")
}

// envDiffs names what differs between the runs' environments.
func envDiffs(o, n sweep.Environment) []string {
	var out []string
	for _, f := range []struct{ name, o, n string }{
		{"CPU model", o.CPUModel, n.CPUModel},
		{"cores", fmt.Sprint(o.Cores), fmt.Sprint(n.Cores)},
		{"kernel", o.Kernel, n.Kernel},
		{"Go", o.GoVersion, n.GoVersion},
		{"Wasmtime", o.WasmtimeVersion, n.WasmtimeVersion},
		{"sweep", o.SweepVersion, n.SweepVersion},
		{"server CPUs", o.ServerPinned, n.ServerPinned},
		{"load CPUs", o.LoadPinned, n.LoadPinned},
	} {
		if f.o != f.n {
			out = append(out, fmt.Sprintf("the environments differ: %s %q (old) vs %q (new); a change may be the machine's, not the build's", f.name, f.o, f.n))
		}
	}
	return out
}

// compareAnchored compares a cell against its own run's reference server
// at the same level across the two runs. For CPU µs per request, and the
// time per request 1/RPS (1/success RPS) for the throughput metrics, the
// figure is the cost beyond the reference, cell − reference, and the row
// regresses when it grew by more than limit of the old cell's cost. For
// p99 the figure is the ratio cell p99 / reference p99, and the row
// regresses when it grew by more than limit. ok is false for other
// metrics and when a figure is missing.
func compareAnchored(o, n, oref, nref sweep.Cell, m sweep.Metric, limit float64) (Row, bool) {
	cost := func(c sweep.Cell) float64 {
		switch m {
		case sweep.MetricCPUPerReq:
			return c.CPUUsPerReq
		case sweep.MetricRPS:
			return perRequest(c.RPS)
		case sweep.MetricSuccessRPS:
			return perRequest(c.SuccessRPS)
		case sweep.MetricP99:
			return c.P99Ms
		}
		return math.NaN()
	}
	oc, nc, or, nr := cost(o), cost(n), cost(oref), cost(nref)
	for _, v := range []float64{oc, nc, or, nr} {
		if math.IsNaN(v) || v <= 0 {
			return Row{}, false
		}
	}
	if m == sweep.MetricP99 {
		r := Row{Config: o.Config, Concurrency: o.Concurrency, Metric: string(m) + " / reference", Old: oc / or, New: nc / nr, Threshold: limit}
		r.Change = r.New/r.Old - 1
		if r.Change > limit {
			r.Regressed = true
			r.Note = fmt.Sprintf("its p99 relative to the reference's grew by %s > %s allowed", pct(r.Change), pct(limit))
		} else {
			r.Note = fmt.Sprintf("p99 relative to the reference within the %s allowed", pct(limit))
		}
		return r, true
	}
	label := string(m) + " − reference"
	if m != sweep.MetricCPUPerReq {
		label = "µs/req (1/" + string(m) + ") − reference"
	}
	r := Row{Config: o.Config, Concurrency: o.Concurrency, Metric: label, Old: oc - or, New: nc - nr, Threshold: limit}
	r.Change = (r.New - r.Old) / oc
	if r.Change > limit {
		r.Regressed = true
		r.Note = fmt.Sprintf("its cost beyond the reference grew by %s of the old cost > %s allowed", pct(r.Change), pct(limit))
	} else {
		r.Note = fmt.Sprintf("cost beyond the reference within the %s allowed", pct(limit))
	}
	return r, true
}

// perRequest is the time per request in µs at rps requests per second.
func perRequest(rps float64) float64 {
	if rps <= 0 {
		return math.NaN()
	}
	return 1e6 / rps
}

// byLevel indexes reference cells by concurrency.
func byLevel(cs []sweep.Cell) map[int]sweep.Cell {
	m := map[int]sweep.Cell{}
	for _, c := range cs {
		m[c.Concurrency] = c
	}
	return m
}

// compareRelative compares a config's paired change against its own
// run's baseline across the two runs: it regresses when the new change's
// interval lies beyond the old one's by more than threshold, on the worse
// side.
func compareRelative(o, n sweep.Cell, m sweep.Metric, threshold float64) (Row, bool) {
	od, ok1 := o.VsBaseline[m]
	nd, ok2 := n.VsBaseline[m]
	if !ok1 || !ok2 || od.CILow == nil || nd.CILow == nil {
		return Row{}, false
	}
	// Changes are compared as ratios, (1 + new) / (1 + old) − 1: a config
	// 50% dearer than the baseline that becomes 65% dearer is 10% worse.
	ratio := func(a, b float64) float64 { return (1+a)/(1+b) - 1 }
	r := Row{Config: o.Config, Concurrency: o.Concurrency, Metric: string(m) + " vs baseline", Old: od.Estimate, New: nd.Estimate,
		Change: ratio(nd.Estimate, od.Estimate), Threshold: threshold, CILow: *nd.CILow, CIHigh: *nd.CIHigh, Confidence: nd.Confidence}
	// How much worse the new change surely is than the old one could be.
	gap := ratio(*nd.CILow, *od.CIHigh)
	if !m.LowerIsBetter() {
		gap = ratio(*od.CILow, *nd.CIHigh)
	}
	if gap > threshold {
		r.Regressed = true
		r.Note = fmt.Sprintf("its change vs the baseline is worse by at least %s > %s threshold (intervals apart)", pct(gap), pct(threshold))
	} else {
		r.Note = "change vs the baseline within the intervals"
	}
	return r, true
}

// compareMetric compares one metric of one cell's absolute level
// against limit.
func compareMetric(o, n sweep.Cell, metric sweep.Metric, limit float64) Row {
	r := Row{Config: o.Config, Concurrency: o.Concurrency, Metric: string(metric), Old: o.Metric(metric), New: n.Metric(metric), Threshold: limit}
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
	if !metric.LowerIsBetter() {
		worse = -r.Change
	}
	switch {
	case worse > limit:
		r.Regressed = true
		r.Note = fmt.Sprintf("worse by %s > %s allowed between runs", pct(worse), pct(limit))
	case worse > 0:
		r.Note = fmt.Sprintf("within the %s allowed between runs", pct(limit))
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
