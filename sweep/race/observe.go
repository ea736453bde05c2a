package race

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// Observe feeds one race round: d maps each surviving config observed in
// this round to ln(cost/baseline), its objective cost (lower is better)
// over its own block's baseline in the same round. A survivor missing
// from d (a failed window) takes no part in this round's pairs. It
// returns the configs eliminated by this round, and does nothing once
// the race has stopped.
func (r *Race) Observe(d map[string]float64) ([]Entry, error) {
	if r.stop.Reason != "" {
		return nil, nil
	}
	for c, v := range d {
		i, ok := r.index[c]
		if !ok {
			return nil, fmt.Errorf("%w: config %q is not in the race", ErrParams, c)
		}
		if !r.alive(i) {
			return nil, fmt.Errorf("%w: config %q has left the race", ErrParams, c)
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("%w: config %q observed %g", ErrParams, c, v)
		}
	}
	r.round++
	// v[i] is config i's d this round, NaN when it was not measured.
	v := make([]float64, len(r.names))
	obs := make([]int, 0, len(d))
	for i, c := range r.names {
		x, ok := d[c]
		v[i] = math.NaN()
		if ok {
			v[i] = x
			obs = append(obs, i)
		}
	}
	r.bet(v, obs)
	for _, i := range obs {
		r.entries[i].Rounds++
		r.sum[i] += v[i]
		r.ds[i] = append(r.ds[i], v[i])
	}
	c, eps := r.p.Clip, r.p.Epsilon
	for _, i := range obs {
		for _, j := range obs {
			if i == j {
				continue
			}
			x := v[i] - v[j]
			for m, b := range r.rule.Bets {
				r.drop[m][i][j].Observe(x / (c * scale(b)))
			}
			r.within[i][j].Observe((eps - x) / c)
		}
	}
	// Eliminate every survivor whose E reached 1/α_E, but never the last:
	// the one with the lowest E stays.
	var out []Entry
	surv := r.survivorIdx()
	keep := slices.MinFunc(surv, func(a, b int) int { return cmp.Compare(r.e(a), r.e(b)) })
	for _, i := range surv {
		if e := r.e(i); i != keep && e >= 1/r.p.AlphaE {
			en := &r.entries[i]
			en.Reason, en.DroppedAt, en.EAtDrop = Eliminated, r.round, e
			en.WorseThan = r.names[r.strongest(i)]
			en.Mean = r.sum[i] / float64(max(en.Rounds, 1))
			out = append(out, *en)
			r.lastDrop = r.round
		}
	}
	r.checkStop()
	return out, nil
}

// strongest is the opponent whose pair holds the most evidence that i is
// worse; among equals (pairs clipped every round grow alike), the one
// with the lowest median d.
func (r *Race) strongest(i int) int {
	best := -1
	for j := range r.names {
		if j == i {
			continue
		}
		if best < 0 {
			best = j
			continue
		}
		lw, lb := r.drop[0][i][j].LogWealth(), r.drop[0][i][best].LogWealth()
		if lw > lb || (lw == lb && r.median(j) < r.median(best)) {
			best = j
		}
	}
	return best
}

func (r *Race) survivorIdx() []int {
	var out []int
	for i := range r.names {
		if r.alive(i) {
			out = append(out, i)
		}
	}
	return out
}
