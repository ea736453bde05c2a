package summarize

import "github.com/sweep-dev/sweep/sweep"

// headCodes are the warnings a run states outside the analysis of its
// windows: the preflight's (before any load) and the profiler's (after
// the last window), and a merge's (shards missing, shards run on other
// machines). Head keeps them; Summary puts them first.
var headCodes = []sweep.WarningCode{sweep.WarnPoolLimit, sweep.WarnNoProfile, sweep.WarnMissingShards, sweep.WarnMachines}

// Head is the head of the run summary s describes: what the run stated
// before its first window and outside the analysis (name, plan,
// baseline, A/A twin, environment, the warnings of headCodes), with the
// analysis removed, so that Summary(Head(s), windows) summarises the run
// again (rundir.ReadSummary gives older summaries the plan fields this
// needs).
func Head(s sweep.Summary) sweep.Summary {
	h := sweep.Summary{
		Name: s.Name, Created: s.Created, Environment: s.Environment,
		Plan: s.Plan, Baseline: s.Baseline, AAConfig: s.AAConfig,
	}
	h.Plan.Measured, h.Plan.Remeasured, h.Plan.Family, h.Plan.RoundsNeeded = 0, 0, 0, 0
	for _, w := range s.Warnings {
		for _, c := range headCodes {
			if w.Code == c {
				h.Warnings = append(h.Warnings, w)
			}
		}
	}
	return h
}
