package gate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/units"
)

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
			parts = append(parts, fmt.Sprintf("c=%d CPU/req %s, RPS %s", o.Concurrency, units.Change(n.CPUUsPerReq/o.CPUUsPerReq-1), units.Change(n.RPS/o.RPS-1)))
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
			parts = append(parts, fmt.Sprintf("%s %s", m, units.Share(max(th[m], a))))
		}
	}
	return strings.Join(parts, ", ")
}

// driftText lists the allowances of the absolute rows.
func driftText(drift, th Thresholds) string {
	var parts []string
	for _, m := range th.metrics() {
		parts = append(parts, fmt.Sprintf("%s %s", m, units.Share(max(th[m], drift[m]))))
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
