package driver

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/config"
	"github.com/sweep-dev/sweep/sweep/race"
	"github.com/sweep-dev/sweep/sweep/stats"
)

// ErrRaceShard is returned by Run for -shard with load.rounds = "race".
var ErrRaceShard = errors.New("race cannot be sharded")

// confirmWindows are the windows of a race run that give verdicts: those
// not measured in a race round.
func confirmWindows(ws []sweep.Window) []sweep.Window {
	var out []sweep.Window
	for _, w := range ws {
		if !w.Race {
			out = append(out, w)
		}
	}
	return out
}

// RaceSummary replays a race run's decisions from its windows and
// returns summary.json's race block and the cells of the configs that
// were not confirmed: their race windows at the target level, described
// (median and quartiles of the paired changes, the pairs they got) with
// the verdict "eliminated" (dropped) or "unconfirmed" (still racing when
// it stopped, not a finalist) and no interval — race data is selected
// data.
func RaceSummary(c *config.Config, ws []sweep.Window) (*sweep.RaceSummary, []sweep.Cell) {
	r, survivors, err := ReplayRace(c, ws)
	if r == nil {
		return &sweep.RaceSummary{Words: fmt.Sprintf("the race could not be replayed: %v", err)}, nil
	}
	confirmed := len(confirmWindows(ws)) > 0
	if r.Stop().Reason == "" && confirmed {
		r.Halt(race.StopBudget) // the run went on to the confirmation: run.budget stopped it
	}
	b := race.Split(c.Analysis.Confidence)
	st := r.Stop()
	out := &sweep.RaceSummary{
		Concurrency: c.Analysis.TargetConcurrency,
		Alpha:       sweep.RaceAlpha{Drop: b.Drop, Within: b.Within, Confirm: b.Confirm},
		Epsilon:     c.Analysis.Resolve, Clip: c.Analysis.RaceClip,
		MaxRounds: c.Load.MaxRounds, FinalistsWanted: c.Analysis.Finalists,
		Rounds: r.Round(), Survivors: survivors, Stop: string(st.Reason), Leader: st.Leader,
	}
	if st.Reason != "" {
		out.Finalists = r.Finalists()
	}
	n := 0
	for _, f := range out.Finalists {
		if f != BaselineLabel(c) {
			n++
		}
	}
	if len(out.Finalists) > 0 {
		out.ConfirmRounds = ConfirmRounds(c, n)
	}
	dropped := map[string]race.Entry{}
	for _, e := range r.Entries() {
		out.Configs = append(out.Configs, sweep.RaceConfig{Config: e.Config, Rounds: e.Rounds, Reason: string(e.Reason),
			DroppedAt: e.DroppedAt, EAtDrop: e.EAtDrop, WorseThan: e.WorseThan, Why: e.Why, Change: math.Expm1(e.Mean)})
		if e.Reason != race.Finalist && e.Config != BaselineLabel(c) {
			dropped[e.Config] = e
		}
	}
	out.Words = raceWords(c, out, err)
	return out, raceCells(c, ws, dropped)
}

// raceCorrection is the correction a race-only cell's changes record:
// none, as race data gets no interval.
const raceCorrection = "race: selected data, no interval"

// raceCells are the target-level cells of the configs the race left out,
// from their race windows, with the verdict "eliminated" or, for a
// survivor that was not a finalist, "unconfirmed".
func raceCells(c *config.Config, ws []sweep.Window, dropped map[string]race.Entry) []sweep.Cell {
	conc := c.Analysis.TargetConcurrency
	var raced []sweep.Window
	for _, w := range ws {
		if w.Race && w.Concurrency == conc {
			raced = append(raced, w)
		}
	}
	if len(raced) == 0 || len(dropped) == 0 {
		return nil
	}
	a := stats.Analyze(raced, stats.Options{Baseline: BaselineLabel(c), AA: AALabel(c), CliffRate: c.Analysis.CliffErrorRate,
		TargetConcurrency: conc, Objective: c.Analysis.Objective, Confidence: c.Analysis.Confidence,
		SameProcess: c.Run.Restarts == sweep.RestartsNever})
	var out []sweep.Cell
	for _, cell := range a.Cells {
		e, ok := dropped[cell.Config]
		if !ok || cell.Concurrency != conc {
			continue
		}
		verdict, code := sweep.VerdictEliminated, sweep.WarnEliminated
		if e.Reason == race.Survivor {
			verdict, code = sweep.VerdictUnconfirmed, sweep.WarnUnconfirmed
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
		cell.Warnings = append(cell.Warnings, sweep.Warning{Code: code, Config: cell.Config, Conc: conc, Message: raceEntryText(c, e)})
		out = append(out, cell)
	}
	return out
}

// raceEntryText says why a config left: "eliminated after 12 rounds at
// c=16: worse than keep=64KiB (E = 73)".
func raceEntryText(c *config.Config, e race.Entry) string {
	conc := c.Analysis.TargetConcurrency
	switch e.Reason {
	case race.Eliminated:
		return fmt.Sprintf("eliminated after %d rounds at c=%d: worse than %s (E = %.0f ≥ 1/α = %.0f)", e.DroppedAt, conc, e.WorseThan, e.EAtDrop, 1/RaceParams(c).AlphaE)
	case race.Infeasible:
		return fmt.Sprintf("infeasible after %d rounds at c=%d: %s", e.DroppedAt, conc, e.Why)
	}
	return fmt.Sprintf("raced %d rounds at c=%d, never shown worse, not among the finalists confirmed: perhaps as good as the pick", e.Rounds, conc)
}

// raceWords is the race block's one-sentence account.
func raceWords(c *config.Config, s *sweep.RaceSummary, err error) string {
	count := map[string]int{}
	var left []string
	for _, e := range s.Configs {
		count[e.Reason]++
		if e.Reason == string(race.Finalist) || e.Reason == string(race.Survivor) {
			left = append(left, e.Config)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "raced %d configs at c=%d for %d rounds: %d eliminated, %d infeasible", len(s.Configs), s.Concurrency, s.Rounds, count["eliminated"], count["infeasible"])
	switch race.StopReason(s.Stop) {
	case race.StopField:
		fmt.Fprintf(&b, "; stopped with %d left", len(left))
	case race.StopWithin:
		fmt.Fprintf(&b, "; stopped when the leader %s was within ±%s of every other survivor", s.Leader, stats.Percent(s.Epsilon))
	case race.StopMaxRounds, race.StopBudget:
		why := "load.max_rounds"
		if s.Stop == string(race.StopBudget) {
			why = "run.budget"
		}
		slices.Sort(left)
		fmt.Fprintf(&b, "; %s stopped it: the best is among these %d: %s", why, len(left), strings.Join(left, ", "))
	default:
		b.WriteString("; the race did not finish")
	}
	if len(s.Finalists) > 0 {
		fmt.Fprintf(&b, ". Confirmed %s at every level in %d fresh rounds; verdicts from those rounds only", strings.Join(s.Finalists, ", "), s.ConfirmRounds)
	}
	fmt.Fprintf(&b, " (error budget %s)", race.Split(c.Analysis.Confidence))
	if err != nil {
		fmt.Fprintf(&b, "; replay error: %v", err)
	}
	return b.String()
}
