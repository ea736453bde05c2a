package summarize

import (
	"fmt"
	"math"
	"slices"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/policy"
	"github.com/sweep-dev/sweep/sweep/race"
	"github.com/sweep-dev/sweep/sweep/stats"
)

// raceSummary replays a race run's decisions from its windows (policy
// replays them as the run made them) and returns summary.json's race
// block and the cells of the configs that were not confirmed: their race
// windows at the target level, described (median and quartiles of the
// paired changes, the pairs they got) with the verdict "eliminated" or
// "unconfirmed" and no interval, race data being selected data.
func raceSummary(head sweep.Summary, ws []sweep.Window) (*sweep.RaceSummary, []sweep.Cell) {
	p := head.Plan
	rp, err := policy.ReplayRace(head, ws)
	b := race.Split(p.Confidence)
	out := &sweep.RaceSummary{
		Concurrency: p.TargetConc,
		Alpha:       sweep.RaceAlpha{Drop: b.Drop, Within: b.Within, Confirm: b.Confirm},
		Epsilon:     p.Race.Epsilon, Clip: p.Race.Clip,
		MaxRounds: p.Race.MaxRounds, FinalistsWanted: p.Race.Finalists,
	}
	if err != nil {
		out.ReplayError = err.Error()
	}
	if rp == nil {
		return out, nil
	}
	if p.MaxRSS > 0 || p.MaxReserved > 0 {
		out.BudgetWindows = policy.BudgetWindows
	}
	r := rp.Race
	st := r.Stop()
	out.Rounds, out.Survivors, out.Stop, out.Leader = r.Round(), rp.Survivors, st.Reason, st.Leader
	if st.Reason != "" {
		out.Finalists = r.Finalists()
	}
	n := 0
	for _, f := range out.Finalists {
		if f != head.Baseline {
			n++
		}
	}
	if len(out.Finalists) > 0 {
		out.ConfirmRounds = policy.ConfirmRounds(p, n)
	}
	left := map[string]race.Entry{}
	for _, e := range r.Entries() {
		rc := sweep.RaceConfig{Config: e.Config, Rounds: e.Rounds, Reason: e.Reason,
			DroppedAt: e.DroppedAt, EAtDrop: e.EAtDrop, WorseThan: e.WorseThan, Why: e.Why, Change: math.Expm1(e.Mean)}
		if ob, ok := rp.OverBudget[e.Config]; ok {
			rc.OverBudget = &ob
		}
		out.Configs = append(out.Configs, rc)
		if e.Reason != race.Finalist && e.Config != head.Baseline {
			left[e.Config] = e
		}
	}
	return out, raceCells(head, ws, left, 1/b.Drop)
}

// raceCorrection is the correction a race-only cell's changes record:
// none, as race data gets no interval.
const raceCorrection = "race: selected data, no interval"

// raceCells are the target-level cells of the configs the race left out,
// from their race windows, with the verdict their race reason gives
// (eliminated or unconfirmed) and a warning saying why (threshold: the
// e-value that eliminates).
func raceCells(head sweep.Summary, ws []sweep.Window, left map[string]race.Entry, threshold float64) []sweep.Cell {
	conc := head.Plan.TargetConc
	var raced []sweep.Window
	for _, w := range ws {
		if w.Race && w.Concurrency == conc {
			raced = append(raced, w)
		}
	}
	if len(raced) == 0 || len(left) == 0 {
		return nil
	}
	opts := options(head)
	opts.MaxRSS, opts.MaxReserved = 0, 0
	a := stats.Analyze(raced, opts)
	var out []sweep.Cell
	for _, cell := range a.Cells {
		e, ok := left[cell.Config]
		if !ok || cell.Concurrency != conc {
			continue
		}
		verdict := e.Reason.Verdict()
		code := sweep.WarnEliminated
		if verdict == sweep.VerdictUnconfirmed {
			code = sweep.WarnUnconfirmed
		}
		for m, d := range cell.VsBaseline {
			d.Verdict, d.CILow, d.CIHigh, d.Resolution = verdict, nil, nil, nil
			d.P, d.PAdjusted = 1, 1
			d.Correction = raceCorrection
			cell.VsBaseline[m] = d
		}
		for m, ch := range cell.MemoryVsBaseline {
			ch.CILowMiB, ch.CIHighMiB, ch.Correction = nil, nil, raceCorrection
			cell.MemoryVsBaseline[m] = ch
		}
		cell.Warnings = slices.DeleteFunc(cell.Warnings, func(w sweep.Warning) bool { return w.Code == sweep.WarnFewRounds }) // no interval is made on race data
		cell.Warnings = append(cell.Warnings, sweep.Warning{Code: code, Config: cell.Config, Conc: conc, Message: raceEntryText(conc, e, threshold)})
		out = append(out, cell)
	}
	return out
}

// raceEntryText says why a config left: "eliminated after 12 rounds at
// c=16: worse than keep=64KiB (E = 73 ≥ 1/α = 50)".
func raceEntryText(conc int, e race.Entry, threshold float64) string {
	switch e.Reason {
	case race.Eliminated:
		return fmt.Sprintf("eliminated after %d rounds at c=%d: worse than %s (E = %.0f ≥ 1/α = %.0f)", e.DroppedAt, conc, e.WorseThan, e.EAtDrop, threshold)
	case race.Infeasible:
		return fmt.Sprintf("infeasible after %d rounds at c=%d: %s", e.DroppedAt, conc, e.Why)
	}
	return fmt.Sprintf("raced %d rounds at c=%d, never shown worse, not among the finalists confirmed: perhaps as good as the pick", e.Rounds, conc)
}
