package stats

import "github.com/sweep-dev/sweep/sweep"

// reference summarizes the reference server's cells (run.reference), one
// per level, from the windows marked Reference. They get no comparison
// and no verdict: the reference is the yardstick of the cross-run check
// (sweep/gate), which reads each cell's cost beyond it. It returns nil
// when the run had no reference server.
func (r *run) reference() []sweep.Cell {
	if r.ref == "" {
		return nil
	}
	var out []sweep.Cell
	for _, l := range r.levels {
		if ref := r.cellAt(r.ref, l); ref != nil {
			ref.summarize()
			out = append(out, ref.cell)
		}
	}
	return out
}
