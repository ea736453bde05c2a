package report

// The fixture generator's analysis: a deliberately simple stand-in for
// sweep/stats, so that the report tests do not depend on it.

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/units"
)

// quartiles returns q1, median, q3 by linear interpolation.
func quartiles(xs []float64) (q1, med, q3 float64) {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	q := func(p float64) float64 {
		if len(s) == 0 {
			return math.NaN()
		}
		h := p * float64(len(s)-1)
		lo := math.Floor(h)
		hi := math.Min(lo+1, float64(len(s)-1))
		return s[int(lo)] + (h-lo)*(s[int(hi)]-s[int(lo)])
	}
	return q(0.25), q(0.5), q(0.75)
}

// summarize is the fixture's analysis: medians, paired deltas, A/A band,
// verdicts, cliffs, tradeoffs and a recommendation, computed simply.
func (f fixture) summarize(ws []sweep.Window) sweep.Summary {
	slots := f.slots()
	base := slots[f.baseline]
	planned := len(slots) * len(f.conc) * f.rounds
	s := sweep.Summary{
		Name: f.name, Created: fixtureStart, Complete: len(ws) == planned,
		Environment: sweep.Environment{
			Host: "fixture-host", CPUModel: "AMD EPYC 7B13 64-Core Processor", Cores: 2,
			Kernel: "Linux 6.8.0", GoVersion: "go1.26.8", WasmtimeVersion: "39.0.1",
			Target: "builtin", ServerCPUs: "0", LoadCPUs: "1", ServerPinned: "0", LoadPinned: "1",
		},
		Plan: sweep.Plan{
			Axes: f.axes, Points: f.points, Concurrency: f.conc, Rounds: f.rounds,
			Warmup: fixWarmup, Duration: fixDuration, Slots: len(slots),
			Windows: planned, Measured: len(ws), Objective: f.objective, TargetConc: f.target,
			CliffRate: cliffRate, Confidence: 0.95, Restarts: "never",
		},
		Baseline:  base.config,
		Cliffs:    []sweep.Cliff{},
		Tradeoffs: []sweep.Tradeoff{},
		Warnings:  []sweep.Warning{},
	}
	if f.aa {
		s.AAConfig = slots[len(slots)-1].config
	}
	if !s.Complete {
		s.Warnings = append(s.Warnings, sweep.Warning{Code: "incomplete",
			Message: fmt.Sprintf("%d of %d planned windows measured", len(ws), planned)})
	}
	if f.rounds < 5 {
		s.Warnings = append(s.Warnings, sweep.Warning{Code: "few_rounds",
			Message: fmt.Sprintf("%d rounds: quartiles of so few paired ratios are rough; use 5 or more", f.rounds)})
	}
	by := map[string]map[int]map[int]sweep.Window{} // config → c → round
	for _, w := range ws {
		if by[w.Config] == nil {
			by[w.Config] = map[int]map[int]sweep.Window{}
		}
		if by[w.Config][w.Concurrency] == nil {
			by[w.Config][w.Concurrency] = map[int]sweep.Window{}
		}
		by[w.Config][w.Concurrency][w.Round] = w
	}
	deltaOf := func(cfg string, c int, m sweep.Metric) (sweep.Delta, bool) {
		var rs []float64
		for round := 0; round < f.rounds; round++ {
			cw, ok1 := by[cfg][c][round]
			bw, ok2 := by[base.config][c][round]
			if ok1 && ok2 && bw.Metric(m) != 0 {
				rs = append(rs, cw.Metric(m)/bw.Metric(m)-1)
			}
		}
		if len(rs) == 0 {
			return sweep.Delta{}, false
		}
		q1, med, q3 := quartiles(rs)
		// The stand-in's "interval" is the range of the changes, at a
		// made-up level: enough to render, not the real statistic.
		lo, hi := slices.Min(rs), slices.Max(rs)
		res := (hi - lo) / 2
		return sweep.Delta{Median: med, Q1: q1, Q3: q3, Pairs: len(rs), Verdict: sweep.VerdictNoChange,
			Estimate: med, CILow: &lo, CIHigh: &hi, Resolution: &res, Confidence: 0.99,
			Correction: "holm: step 1 of 1, family-wise 95%", P: 0.01, PAdjusted: 0.01}, true
	}
	bands := map[int]map[sweep.Metric]sweep.Band{}
	if f.aa {
		for _, c := range f.conc {
			bands[c] = map[sweep.Metric]sweep.Band{}
			for _, m := range sweep.Metrics {
				if d, ok := deltaOf(s.AAConfig, c, m); ok {
					bands[c][m] = sweep.Band{Median: d.Median, Q1: d.Q1, Q3: d.Q3}
				}
			}
		}
	}
	cliffAt := map[string]int{}
	for _, sl := range slots {
		for _, c := range f.conc {
			rounds := by[sl.config][c]
			cell := sweep.Cell{Config: sl.config, Point: sl.point, Baseline: sl.baseline, AA: sl.aa,
				Concurrency: c, Rounds: len(rounds)}
			var cpu, rps, srps, p50, p95, p99, mf, ssteal, lsteal []float64
			var req, bad int64
			var rss int64
			for _, w := range rounds {
				cpu = append(cpu, w.CPUUsPerReq)
				rps = append(rps, w.RPS)
				srps = append(srps, w.SuccessRPS)
				p50 = append(p50, w.P50Ms)
				p95 = append(p95, w.P95Ms)
				p99 = append(p99, w.P99Ms)
				mf = append(mf, w.MinorFaultsPerReq)
				ssteal = append(ssteal, w.ServerSteal)
				lsteal = append(lsteal, w.LoadSteal)
				req += w.Requests
				bad += w.Errors5xx
				for _, n := range w.TransportErrors {
					bad += n
				}
				cell.Errors5xx += w.Errors5xx
				rss = max(rss, w.RSSBytes)
				if w.GeneratorBound {
					cell.GeneratorBound++
				}
			}
			if len(rounds) > 0 {
				cell.CPUUsQ1, cell.CPUUsPerReq, cell.CPUUsQ3 = quartiles(cpu)
				_, cell.RPS, _ = quartiles(rps)
				_, cell.SuccessRPS, _ = quartiles(srps)
				_, cell.P50Ms, _ = quartiles(p50)
				_, cell.P95Ms, _ = quartiles(p95)
				_, cell.P99Ms, _ = quartiles(p99)
				_, cell.MinorFaultsPerReq, _ = quartiles(mf)
				_, cell.ServerSteal, _ = quartiles(ssteal)
				_, cell.LoadSteal, _ = quartiles(lsteal)
				cell.ErrorRate = float64(bad) / float64(req)
				cell.RSSBytes = rss
			}
			if f.aa {
				cell.AABand = bands[c]
			}
			if !sl.baseline {
				cell.VsBaseline = map[sweep.Metric]sweep.Delta{}
				for _, m := range sweep.Metrics {
					d, ok := deltaOf(sl.config, c, m)
					if !ok {
						continue
					}
					b := bands[c][m]
					if !sl.aa && (d.Q1 > 0 || d.Q3 < 0) && (d.Q1 > b.Q3 || d.Q3 < b.Q1) {
						if (d.Median < 0) == m.LowerIsBetter() {
							d.Verdict = sweep.VerdictBetter
						} else {
							d.Verdict = sweep.VerdictWorse
						}
					}
					cell.VsBaseline[m] = d
				}
			}
			if cell.ErrorRate > 0 {
				cell.Warnings = append(cell.Warnings, sweep.Warning{Code: "errors", Config: sl.config, Conc: c,
					Message: fmt.Sprintf("%d 5xx responses and transport errors: %s of requests", bad, units.Rate(cell.ErrorRate))})
			}
			if !sl.aa {
				if _, seen := cliffAt[sl.config]; !seen && cell.ErrorRate > cliffRate {
					cliffAt[sl.config] = c
					s.Cliffs = append(s.Cliffs, sweep.Cliff{Config: sl.config, Concurrency: c, ErrorRate: cell.ErrorRate})
				}
				if at, ok := cliffAt[sl.config]; ok {
					cell.Cliff = &sweep.CellCliff{At: at, Past: c > at}
				}
			}
			if cell.GeneratorBound > 0 {
				cell.Warnings = append(cell.Warnings, sweep.Warning{Code: "generator_bound", Config: sl.config, Conc: c,
					Message: fmt.Sprintf("the load generator was near 100%% of its CPUs in %d of %d windows: RPS may be its limit", cell.GeneratorBound, cell.Rounds)})
			}
			s.Cells = append(s.Cells, cell)
		}
	}
	f.tradeoffs(&s)
	f.recommend(&s)
	return s
}

func (f fixture) tradeoffs(s *sweep.Summary) {
	low := f.conc[0]
	cells := map[string]map[int]sweep.Cell{}
	for _, c := range s.Cells {
		if cells[c.Config] == nil {
			cells[c.Config] = map[int]sweep.Cell{}
		}
		cells[c.Config][c.Concurrency] = c
	}
	for _, sl := range f.slots() {
		if sl.baseline || sl.aa {
			continue
		}
		for _, c := range f.conc[1:] {
			m := sweep.MetricCPUPerReq
			dl, ok1 := cells[sl.config][low].VsBaseline[m]
			dh, ok2 := cells[sl.config][c].VsBaseline[m]
			if !ok1 || !ok2 {
				continue
			}
			s.Tradeoffs = append(s.Tradeoffs, sweep.Tradeoff{
				Config: sl.config, Metric: m, LowConc: low, Low: dl.Median, HighConc: c, High: dh.Median,
				Flip: detected(dl) && detected(dh) && (dl.Median < 0) != (dh.Median < 0),
			})
		}
	}
}

func (f fixture) recommend(s *sweep.Summary) {
	metric, _, higher := objective(f.objective)
	best := sweep.Cell{}
	found := false
	for _, c := range s.Cells {
		if c.Concurrency != f.target || c.Baseline || c.AA || c.Cliff != nil {
			continue
		}
		d, ok := c.VsBaseline[metric]
		if !ok || d.Verdict != sweep.VerdictBetter {
			continue
		}
		if !found || (d.Median > best.VsBaseline[metric].Median) == higher {
			best, found = c, true
		}
	}
	rec := &sweep.Recommendation{Objective: f.objective, Concurrency: f.target}
	if found {
		rec.Config, rec.Point, rec.Change = best.Config, best.Point, best.VsBaseline[metric].Median
	} else {
		b := f.points[f.baseline]
		rec.Config, rec.Point, rec.KeepBaseline, rec.Keep = b.Label(), b, true, sweep.KeepNoImprovement
	}
	s.Recommendation = rec
}
