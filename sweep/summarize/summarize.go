// Package summarize turns a run's data into its summary: a pure function
// of what the run was asked to do (the head: name, plan, baseline, A/A
// twin, environment and the warnings known before any load) and the
// windows it measured. It needs no config file, no machine and no cgo,
// so a run is summarised, re-summarised and merged anywhere (sweep merge
// on a laptop or a login node).
package summarize

import (
	"fmt"
	"slices"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/policy"
	"github.com/sweep-dev/sweep/sweep/race"
	"github.com/sweep-dev/sweep/sweep/setting"
	"github.com/sweep-dev/sweep/sweep/stats"
)

// options are the analysis options a run's head states: its baseline and
// A/A twin, cliff rate, target level, objective, family-wise confidence,
// whether each config ran in one process (restarts = "never") and the
// memory budgets.
func options(head sweep.Summary) stats.Options {
	return stats.Options{
		Baseline:          head.Baseline,
		AA:                head.AAConfig,
		CliffRate:         head.Plan.CliffRate,
		TargetConcurrency: head.Plan.TargetConc,
		Objective:         head.Plan.Objective,
		Confidence:        head.Plan.Confidence,
		SameProcess:       head.Plan.Restarts == sweep.RestartsNever,
		MaxRSS:            head.Plan.MaxRSS,
		MaxReserved:       head.Plan.MaxReserved,
	}
}

// Summary is the summary of the windows ws of the run head describes:
// the one maker of summary.json. head.Plan.Windows is the number of
// windows the run planned; Measured, Remeasured and Complete come from
// ws, and so do the cells, cliffs, tradeoffs, recommendation, block
// drift and the analysis's warnings, after head's own warnings (the
// preflight's, the profiler's). The verdicts are corrected as the
// analysis counts its family (plan.family, plan.rounds_needed).
//
// A race's verdicts come from its confirmation rounds only
// (policy.VerdictWindows), at their share of the error budget
// (race.Split); its race rounds give the race block, replayed from ws,
// and the cells of the configs it did not confirm. Its Plan.Rounds is
// the confirmation's rounds per level, which gave the verdicts.
func Summary(head sweep.Summary, ws []sweep.Window) sweep.Summary {
	p := head.Plan
	if p.Race == nil {
		return analyze(head, ws, ws, p.Confidence)
	}
	s := analyze(head, ws, policy.VerdictWindows(p, ws), 1-race.Split(p.Confidence).Confirm)
	var extra []sweep.Cell
	s.Race, extra = raceSummary(head, ws)
	s.Cells = append(s.Cells, extra...)
	s.Plan.Rounds = s.Race.ConfirmRounds
	return s
}

// analyze is Summary with the analysis (cells, verdicts, recommendation)
// made from the windows analyzed only, at family-wise confidence
// confidence. Measured and Complete still count every window of ws, and
// the plan keeps the run's own confidence.
func analyze(head sweep.Summary, ws, analyzed []sweep.Window, confidence float64) sweep.Summary {
	seen := map[sweep.WindowKey]bool{}
	remeasured := 0
	for _, w := range ws {
		seen[w.Key()] = true
		if w.Remeasured {
			remeasured++
		}
	}
	opts := options(head)
	opts.Confidence = confidence
	a := stats.Analyze(analyzed, opts)
	s := head
	s.SchemaVersion = sweep.SchemaVersion
	s.Plan.Measured, s.Plan.Remeasured = len(seen), remeasured
	s.Plan.Family, s.Plan.RoundsNeeded = a.Family, a.RoundsNeeded
	s.Complete = len(seen) >= s.Plan.Windows
	s.Cells, s.Reference = a.Cells, a.Reference
	s.Cliffs, s.Tradeoffs, s.Recommendation = a.Cliffs, a.Tradeoffs, a.Recommendation
	if r := s.Recommendation; r != nil && head.Plan.Fixed != nil {
		r.Settings = settings(head.Plan.Fixed, r.Point)
	}
	s.BlockDrift = a.BlockDrift
	s.Warnings = append(append([]sweep.Warning(nil), head.Warnings...), a.Warnings...)
	missing := slices.ContainsFunc(head.Warnings, func(w sweep.Warning) bool { return w.Code == sweep.WarnMissingShards })
	switch {
	case missing: // a merge without some of its shards: their warning says it
		s.Complete = false
	case !s.Complete && len(s.Plan.Merged) > 0:
		s.Warnings = append([]sweep.Warning{{Code: sweep.WarnIncomplete,
			Message: fmt.Sprintf("merged run incomplete: %d of %d planned windows measured; resume the incomplete shards with -resume, then merge again", len(seen), s.Plan.Windows)}}, s.Warnings...)
	case !s.Complete:
		s.Warnings = append([]sweep.Warning{{Code: sweep.WarnIncomplete,
			Message: fmt.Sprintf("run incomplete: %d of %d planned windows measured; resume with -resume", len(seen), s.Plan.Windows)}}, s.Warnings...)
	}
	return s
}

// settings are a point's full settings: the plan's fixed ones and the
// point's, those of them that are Wasmtime options or workload knobs
// (package setting; an axis such as grid.server_cpus is neither).
func settings(fixed map[string]string, p sweep.Point) map[string]string {
	out := map[string]string{}
	for _, m := range []map[string]string{fixed, p} {
		for k, v := range m {
			if _, ok := setting.Lookup(k); ok {
				out[k] = v
			}
		}
	}
	return out
}
