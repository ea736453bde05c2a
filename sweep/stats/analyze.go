// Package stats turns the windows of a run into its verdicts: per-cell
// medians, paired ratios against the baseline, the A/A noise band,
// better/worse/no-change verdicts, capacity cliffs, tradeoffs between low
// and high concurrency, and a recommendation. Caveats (few rounds, errors,
// a generator-bound client, a wide spread, failed windows) are carried as
// sweep.Warning data, never printed.
//
// The package is pure: numbers in, structs out, no I/O.
package stats

import (
	"fmt"
	"slices"

	"github.com/sweep-dev/sweep/sweep"
)

// DefaultBusyWarn is Options.BusyWarn when unset: the share of the
// pinned CPUs' time that other work may take (median over a cell's
// windows) before a cell gets the warning "busy_machine". See
// BENCHMARKS.md for what a quiet and a busy machine measured.
const DefaultBusyWarn = 0.10

// Options steer Analyze. Zero values select the defaults.
type Options struct {
	Baseline          string          // config label of the baseline; "" = the windows marked Baseline
	AA                string          // config label of the A/A twin; "" = the windows marked AA, if any
	CliffRate         float64         // error rate above which a cell is past the cliff; default 0.001
	TargetConcurrency int             // level of the recommendation; default the largest level
	Objective         sweep.Objective // sweep.ObjectiveCPUPerReq (default) or sweep.ObjectiveSuccessRPS
	MinRounds         int             // fewer pairs than this → warning "few_rounds"; default 5
	WideSpread        float64         // ratio IQR wider than this → warning "wide_spread"; default 0.10
	StealWarn         float64         // median steal of the server or load CPUs above this → warning "steal"; default 0.02
	BusyWarn          float64         // median other work on the server or load CPUs above this → warning "busy_machine"; default DefaultBusyWarn
	// Confidence is the family-wise confidence of the run's verdicts:
	// the probability that no comparison of the run is called better or
	// worse falsely is at least this. Default 0.95.
	Confidence float64
	// SameProcess is set when each config ran in one server process for
	// the whole run (run.restarts = "never"): a process's own offset then
	// travels with its config and no interval covers it.
	SameProcess bool
	// MaxRSS and MaxReserved are memory budgets in bytes (0: none): a
	// config whose RSS or reserved address space exceeds one at the
	// target concurrency is not recommended (analysis.max_rss,
	// analysis.max_reserved).
	MaxRSS, MaxReserved int64
}

// Analysis is what Analyze finds. Cell-specific warnings live in each
// Cell.Warnings; Warnings holds the run-level ones (no_aa, no_baseline,
// objective).
type Analysis struct {
	Cells          []sweep.Cell
	Cliffs         []sweep.Cliff
	Tradeoffs      []sweep.Tradeoff
	Recommendation *sweep.Recommendation
	Warnings       []sweep.Warning
	// Reference is the reference server's cells (the windows marked
	// Reference), by concurrency; they are not among Cells.
	Reference []sweep.Cell
	// BlockDrift is the baseline's spread over the blocks, per level;
	// nil for a run of one block.
	BlockDrift []sweep.BlockDrift
	// Family is the number of comparisons the verdicts were corrected for
	// (those with pairs), and RoundsNeeded the fewest pairs with which the
	// correction's strictest level has an interval.
	Family       int
	RoundsNeeded int
}

// run is the state of one analysis.
type run struct {
	o        Options
	baseline string
	aa       string // "" when there is no A/A twin
	ref      string // the reference server's label; "" when there is none
	configs  []string
	levels   []int
	groups   map[cellKey]*group
	order    []*group // cell order: configs, then concurrency ascending
	warnings []sweep.Warning
	// familySize is the number of comparisons in the verdict family and
	// firstAlpha the strictest level of the correction (α/familySize).
	familySize int
	firstAlpha float64
}

type cellKey struct {
	config string
	conc   int
}

// Analyze analyses all windows of a run (the lines of results.jsonl).
//
// Cells come in config order — baseline first, A/A twin second, the rest
// in slot (grid) order — and then by concurrency ascending.
// Failed windows are counted, excluded from medians and pairs, and
// reported as "failed_windows"; if a round has several windows for one
// cell (a re-measured window after -resume), the last good one counts.
func Analyze(ws []sweep.Window, o Options) Analysis {
	r := &run{o: o, groups: map[cellKey]*group{}}
	r.identify(ws)
	r.o = withDefaults(r.o, r.levels)
	r.group(ws)
	r.compare()
	r.compareMemory()
	refs := r.reference()
	cliffs := r.cliffs()
	r.cellWarnings()
	a := Analysis{Cliffs: cliffs, Tradeoffs: r.tradeoffs(), Recommendation: r.recommend()}
	a.Cells = make([]sweep.Cell, len(r.order))
	for i, g := range r.order {
		a.Cells[i] = g.cell
	}
	a.Warnings = append(r.warnings, oneCPU(a.Cells)...)
	a.Reference = refs
	a.BlockDrift = r.blockDrift()
	a.Family, a.RoundsNeeded = r.familySize, MinPairs(r.firstAlpha)
	return a
}

// withDefaults fills the zero fields of o.
func withDefaults(o Options, levels []int) Options {
	if o.CliffRate == 0 {
		o.CliffRate = 0.001
	}
	if o.TargetConcurrency == 0 && len(levels) > 0 {
		o.TargetConcurrency = levels[len(levels)-1]
	}
	if o.Objective == "" {
		o.Objective = sweep.ObjectiveCPUPerReq
	}
	if o.MinRounds == 0 {
		o.MinRounds = 5
	}
	if o.WideSpread == 0 {
		o.WideSpread = 0.10
	}
	if o.BusyWarn == 0 {
		o.BusyWarn = DefaultBusyWarn
	}
	if o.StealWarn == 0 {
		o.StealWarn = 0.02
	}
	if o.Confidence == 0 {
		o.Confidence = 0.95
	}
	return o
}

// identify finds the baseline and A/A labels, the config order and the
// concurrency levels.
func (r *run) identify(ws []sweep.Window) {
	r.baseline, r.aa = r.o.Baseline, r.o.AA
	var seen []string
	slot := map[string]int{} // lowest slot index of each config: grid order
	for _, w := range ws {
		if s, ok := slot[w.Config]; !ok || w.Slot < s {
			slot[w.Config] = w.Slot
		}
		if r.baseline == "" && w.Baseline && !w.AA {
			r.baseline = w.Config
		}
		if r.aa == "" && w.AA {
			r.aa = w.Config
		}
		if w.Reference {
			r.ref = w.Config
			continue // not a config under test
		}
		if !slices.Contains(seen, w.Config) {
			seen = append(seen, w.Config)
		}
		if !slices.Contains(r.levels, w.Concurrency) {
			r.levels = append(r.levels, w.Concurrency)
		}
	}
	slices.Sort(r.levels)
	slices.SortStableFunc(seen, func(a, b string) int { return slot[a] - slot[b] })
	hasBase := r.baseline != "" && slices.Contains(seen, r.baseline)
	if r.aa != "" && !slices.Contains(seen, r.aa) {
		r.aa = ""
	}
	for _, first := range []string{r.baseline, r.aa} {
		if first != "" && slices.Contains(seen, first) {
			r.configs = append(r.configs, first)
		}
	}
	for _, c := range seen {
		if !slices.Contains(r.configs, c) {
			r.configs = append(r.configs, c)
		}
	}
	if !hasBase && len(ws) > 0 {
		r.warn(sweep.WarnNoBaseline, "", 0, fmt.Sprintf("no windows for the baseline %q: nothing to compare against", r.baseline))
	}
	if r.aa == "" && hasBase {
		r.warn(sweep.WarnNoAA, "", 0, "no A/A twin: the run has no control showing what the bench calls a change where there is none")
	}
	if r.o.SameProcess && hasBase {
		r.warn(sweep.WarnSameProcess, "", 0, "each config ran in one server process for the whole run (restarts = \"never\"): a process's own offset travels with its config, and the intervals do not cover it")
	}
	if o := r.o.Objective; o != "" && !o.Valid() {
		r.warn(sweep.WarnObjective, "", 0, fmt.Sprintf("unknown objective %q (want %q or %q): using %q",
			o, sweep.ObjectiveCPUPerReq, sweep.ObjectiveSuccessRPS, sweep.ObjectiveCPUPerReq))
		r.o.Objective = sweep.ObjectiveCPUPerReq
	}
}

// oneCPU is the run-level warning "one_cpu" when every cell's server ran
// on one CPU (as recorded) while the largest level is above 1: the run
// measured concurrency as a queue in front of one core, not parallel
// server threads, and so none of the costs that need them (TLB
// shootdowns, contended locks, memory bandwidth). Cells without the
// record (older runs) make no warning.
func oneCPU(cells []sweep.Cell) []sweep.Warning {
	top := 0
	for _, c := range cells {
		if c.ServerCPUCount != 1 {
			return nil
		}
		top = max(top, c.Concurrency)
	}
	if top <= 1 {
		return nil
	}
	return []sweep.Warning{{Code: sweep.WarnOneCPU, Message: fmt.Sprintf(
		"every server ran on one CPU while the largest level is c=%d: concurrency was queued on one CPU, never parallel, so costs that need parallel server threads (TLB shootdowns, lock contention, memory bandwidth) were not measured; give the server more CPUs (run.server_cpus)", top)}}
}

// warn records a run-level warning.
func (r *run) warn(code sweep.WarningCode, config string, conc int, msg string) {
	r.warnings = append(r.warnings, sweep.Warning{Code: code, Config: config, Conc: conc, Message: msg})
}

// cellAt returns the group of config at conc, or nil.
func (r *run) cellAt(config string, conc int) *group {
	return r.groups[cellKey{config, conc}]
}
