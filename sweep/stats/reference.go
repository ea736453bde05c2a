package stats

import "github.com/sweep-dev/sweep/sweep"

// ReferenceCorrection is the Correction of every VsReference interval:
// they are descriptions for the cross-run check, outside the run's family.
const ReferenceCorrection = "none: a description against the reference server, not a verdict"

// reference summarizes the reference server's cells (run.reference) and
// fills every cell's VsReference: the paired change against the reference
// in the same round, with its interval at the run's confidence and no
// correction and no verdict. The reference is the same server in every
// run, so these changes are what two runs can be compared by when the
// machine's level has moved between them. It returns nil when the run had
// no reference server.
func (r *run) reference() []sweep.Cell {
	if r.ref == "" {
		return nil
	}
	var out []sweep.Cell
	for _, l := range r.levels {
		ref := r.cellAt(r.ref, l)
		if ref == nil {
			continue
		}
		ref.summarize()
		out = append(out, ref.cell)
		for _, c := range r.configs {
			g := r.cellAt(c, l)
			if g == nil {
				continue
			}
			g.cell.VsReference = map[sweep.Metric]sweep.Delta{}
			for _, m := range sweep.Metrics {
				rs := ratios(g, ref, m)
				d := describe(rs)
				decide(&d, rs, r.o.Confidence, m.LowerIsBetter())
				d.Verdict = ""
				d.Correction = ReferenceCorrection
				g.cell.VsReference[m] = d
			}
		}
	}
	return out
}
