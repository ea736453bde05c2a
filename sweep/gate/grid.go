package gate

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/sweep-dev/sweep/sweep"
)

// ErrMismatch is wrapped by Compare's error when the two runs do not
// measure the same configs at the same concurrency levels.
var ErrMismatch = errors.New("runs are not comparable")

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
