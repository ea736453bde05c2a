package stats

import (
	"slices"

	"github.com/sweep-dev/sweep/sweep"
)

// group collects the windows of one config at one concurrency.
type group struct {
	cell     sweep.Cell
	byRound  map[pairKey]sweep.Window // the last good window of each (block, round)
	windows  int                      // all windows, failed ones included
	failed   int
	failNote string // FailReason of the first failed window
	errors   int64  // 5xx + transport errors over the good windows
	requests int64
}

// group sorts the windows into cells and computes each cell's medians.
func (r *run) group(ws []sweep.Window) {
	for _, w := range ws {
		k := cellKey{w.Config, w.Concurrency}
		g := r.groups[k]
		if g == nil {
			g = &group{byRound: map[pairKey]sweep.Window{}}
			g.cell = sweep.Cell{
				Config:      w.Config,
				Point:       w.Point,
				Baseline:    w.Config == r.baseline,
				AA:          r.aa != "" && w.Config == r.aa,
				Concurrency: w.Concurrency,
			}
			r.groups[k] = g
		}
		g.windows++
		if w.Failed {
			if g.failed == 0 {
				g.failNote = w.FailReason
			}
			g.failed++
			continue
		}
		g.byRound[pairKey{w.Block, w.Round}] = w
	}
	for _, c := range r.configs {
		for _, l := range r.levels {
			if g := r.cellAt(c, l); g != nil {
				g.summarize()
				r.order = append(r.order, g)
			}
		}
	}
}

// pairKey is what pairs a candidate's window with the baseline's: the
// same block and round (a run of one block pairs by round).
type pairKey struct{ block, round int }

// rounds returns the (block, round)s that have a good window, ascending.
func (g *group) rounds() []pairKey {
	rs := make([]pairKey, 0, len(g.byRound))
	for k := range g.byRound {
		rs = append(rs, k)
	}
	slices.SortFunc(rs, func(a, b pairKey) int {
		if a.block != b.block {
			return a.block - b.block
		}
		return a.round - b.round
	})
	return rs
}

// summarize fills the cell's medians, sums and counts from its good windows.
func (g *group) summarize() {
	var rps, srps, cpu, p50, p95, p99, faults, rss, ssteal, lsteal, sother, lother, tlb, cal, user, kern, share []float64
	c := &g.cell
	for _, round := range g.rounds() {
		w := g.byRound[round]
		rps = append(rps, w.RPS)
		srps = append(srps, w.SuccessRPS)
		cpu = append(cpu, w.CPUUsPerReq)
		p50 = append(p50, w.P50Ms)
		p95 = append(p95, w.P95Ms)
		p99 = append(p99, w.P99Ms)
		faults = append(faults, w.MinorFaultsPerReq)
		rss = append(rss, float64(w.RSSBytes))
		ssteal = append(ssteal, w.ServerSteal)
		lsteal = append(lsteal, w.LoadSteal)
		c.ServerCPUCount = max(c.ServerCPUCount, w.ServerCPUCount)
		c.SharesCPUs = c.SharesCPUs || w.SharesCPUs
		if w.ServerOther != nil && w.LoadOther != nil {
			sother = append(sother, *w.ServerOther)
			lother = append(lother, *w.LoadOther)
		}
		if w.UserUsPerReq != nil && w.KernelUsPerReq != nil && w.KernelShare != nil {
			user = append(user, *w.UserUsPerReq)
			kern = append(kern, *w.KernelUsPerReq)
			share = append(share, *w.KernelShare)
		}
		if w.TLBShootdownsPerReq != nil && w.CallIPIsPerReq != nil {
			tlb = append(tlb, *w.TLBShootdownsPerReq)
			cal = append(cal, *w.CallIPIsPerReq)
		}
		c.Errors5xx += w.Errors5xx
		g.errors += windowErrors(w)
		g.requests += w.Requests
		if w.GeneratorBound {
			c.GeneratorBound++
		}
	}
	c.Rounds = len(g.byRound)
	if c.ServerCPUCount > 0 {
		par := c.ServerCPUCount > 1 && c.Concurrency > 1
		c.Parallel = &par
	}
	c.RPS = median(rps)
	c.SuccessRPS = median(srps)
	c.CPUUsQ1, c.CPUUsPerReq, c.CPUUsQ3 = Quartiles(cpu)
	c.P50Ms = median(p50)
	c.P95Ms = median(p95)
	c.P99Ms = median(p99)
	c.MinorFaultsPerReq = median(faults)
	c.RSSBytes = int64(median(rss))
	c.ServerSteal, c.LoadSteal = median(ssteal), median(lsteal)
	if len(sother) > 0 {
		s, l := median(sother), median(lother)
		c.ServerOther, c.LoadOther = &s, &l
	}
	if len(user) > 0 {
		u, k, s := median(user), median(kern), median(share)
		c.UserUsPerReq, c.KernelUsPerReq, c.KernelShare = &u, &k, &s
	}
	if len(tlb) > 0 {
		t, k := median(tlb), median(cal)
		c.TLBShootdownsPerReq, c.CallIPIsPerReq = &t, &k
	}
	if g.requests > 0 {
		c.ErrorRate = float64(g.errors) / float64(g.requests)
	}
	g.summarizeMemory()
}

// windowErrors is a window's failed requests: 5xx plus transport errors.
func windowErrors(w sweep.Window) int64 {
	n := w.Errors5xx
	for _, k := range w.TransportErrors {
		n += k
	}
	return n
}

// clean reports whether the cell had neither errors nor failed windows.
func (g *group) clean() bool {
	return g.errors == 0 && g.failed == 0
}

// splitChange pairs the user/kernel split of cand with base's, like
// ratios pairs the metrics (same block and round), as differences in µs
// per request; nil when no pair has the split on both sides.
func splitChange(cand, base *group) *sweep.SplitChange {
	var du, dk []float64
	for _, k := range cand.rounds() {
		b, ok := base.byRound[k]
		c := cand.byRound[k]
		if !ok || b.UserUsPerReq == nil || b.KernelUsPerReq == nil || c.UserUsPerReq == nil || c.KernelUsPerReq == nil {
			continue
		}
		du = append(du, *c.UserUsPerReq-*b.UserUsPerReq)
		dk = append(dk, *c.KernelUsPerReq-*b.KernelUsPerReq)
	}
	if len(du) == 0 {
		return nil
	}
	return &sweep.SplitChange{UserUs: median(du), KernelUs: median(dk), Pairs: len(du)}
}
