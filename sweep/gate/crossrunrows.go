package gate

import (
	"fmt"
	"math"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/units"
)

// MetricErrorRate names the rows that flag errors appearing in the new
// run where the old run had none.
const MetricErrorRate = "error_rate"

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
		r.judge(limit, "its p99 relative to the reference's grew by %s > %s allowed", "p99 relative to the reference within the %s allowed")
		return r, true
	}
	label := string(m) + " − reference"
	if m != sweep.MetricCPUPerReq {
		label = "µs/req (1/" + string(m) + ") − reference"
	}
	r := Row{Config: o.Config, Concurrency: o.Concurrency, Metric: label, Old: oc - or, New: nc - nr, Threshold: limit}
	r.Change = (r.New - r.Old) / oc
	r.judge(limit, "its cost beyond the reference grew by %s of the old cost > %s allowed", "cost beyond the reference within the %s allowed")
	return r, true
}

// judge marks r regressed when its change is beyond limit, with the note
// worse (formatted with the change and the limit), and otherwise notes
// within (formatted with the limit).
func (r *Row) judge(limit float64, worse, within string) {
	if r.Change > limit {
		r.Regressed = true
		r.Note = fmt.Sprintf(worse, units.Share(r.Change), units.Share(limit))
		return
	}
	r.Note = fmt.Sprintf(within, units.Share(limit))
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
		r.Note = fmt.Sprintf("its change vs the baseline is worse by at least %s > %s threshold (intervals apart)", units.Share(gap), units.Share(threshold))
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
		r.Note = fmt.Sprintf("worse by %s > %s allowed between runs", units.Share(worse), units.Share(limit))
	case worse > 0:
		r.Note = fmt.Sprintf("within the %s allowed between runs", units.Share(limit))
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
	r.Note = fmt.Sprintf("new errors: %s of requests (%d 5xx), none in the old run", units.Rate(n.ErrorRate), n.Errors5xx)
	return r, true
}
