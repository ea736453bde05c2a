// Package merge combines the shards of one sweep (runs with -shard i/n)
// into one run directory, or summarises one whole run again into a new
// one: a pure function of the runs' data (their config.toml bytes, the
// heads of their summaries and their windows, summarize.Summary), so it
// runs on any machine and without cgo, for every kind of run.
package merge

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/results"
	"github.com/sweep-dev/sweep/sweep/rundir"
	"github.com/sweep-dev/sweep/sweep/shard"
	"github.com/sweep-dev/sweep/sweep/summarize"
)

// Error is a set of shard directories that cannot be merged: not a
// shard, shards of different configs or plans, a shard given twice, an
// output directory that already holds a run. Nothing has been written.
type Error struct{ Msg string }

func (e *Error) Error() string { return e.Msg }

// Shard is one shard's run directory as Merge reads it.
type Shard struct {
	Dir     string
	Spec    shard.Spec
	Config  []byte // config.toml as run
	Origin  rundir.Origin
	Summary sweep.Summary
	Windows []sweep.Window
}

// ReadShard reads the run directory of one shard (a run with -shard), or
// of a whole run (Spec the zero Spec).
func ReadShard(dir string) (Shard, error) {
	sh := Shard{Dir: dir}
	var err error
	if sh.Config, err = os.ReadFile(rundir.Dir(dir).Config()); err != nil {
		return sh, &Error{fmt.Sprintf("%s is not a run directory: %v", dir, err)}
	}
	if sh.Origin, err = rundir.ReadOrigin(dir); err != nil {
		return sh, err
	}
	if sh.Origin.Shard != "" {
		if sh.Spec, err = shard.Parse(sh.Origin.Shard); err != nil {
			return sh, fmt.Errorf("%s: %w", rundir.Dir(dir).Origin(), err)
		}
	}
	if sh.Summary, err = rundir.ReadSummary(dir); err != nil {
		return sh, err
	}
	if sh.Windows, err = results.Read(rundir.Dir(dir).Results()); err != nil {
		return sh, err
	}
	return sh, nil
}

// check refuses shards that do not belong together: they must be of
// one config (config.toml byte for byte), one shard count, and each shard
// at most once.
func check(shards []Shard) error {
	if len(shards) == 0 {
		return &Error{"no shard directories given"}
	}
	first := shards[0]
	for _, s := range shards {
		if s.Spec.Whole() && len(shards) > 1 {
			return &Error{fmt.Sprintf("%s ran the whole plan (no -shard): merge shards of one sweep, or give one whole run alone to summarise it again", s.Dir)}
		}
	}
	seen := map[int]string{}
	for _, s := range shards {
		switch {
		case !bytes.Equal(s.Config, first.Config):
			return &Error{fmt.Sprintf("%s and %s ran different configs (their config.toml differ): shards of one sweep only", first.Dir, s.Dir)}
		case s.Spec.Count != first.Spec.Count:
			return &Error{fmt.Sprintf("%s is shard %s and %s shard %s: shards of one plan split the same number of ways", first.Dir, first.Spec, s.Dir, s.Spec)}
		}
		if d, ok := seen[s.Spec.Index]; ok {
			return &Error{fmt.Sprintf("shard %s given twice: %s and %s", s.Spec, d, s.Dir)}
		}
		seen[s.Spec.Index] = s.Dir
	}
	return nil
}

// Merge writes into out one run directory from shards of one plan (as
// check accepts them): config.toml, origin.json, results.jsonl with every
// shard's windows and summary.json analysed over all of them
// (summarize.Summary), each comparison still paired within its block.
// The merged run's head is the first shard's: its name, environment, plan
// (the windows planned are the shards'), preflight warnings, and the
// earliest shard's start as its time, so merging the same shards anywhere
// writes the same bytes. Shards not given leave the merged run
// incomplete, with a warning naming them; when the shards ran on
// different machines a warning says that absolute levels are not
// comparable across them. One whole run given alone is summarised again
// from its head and windows (a race replayed from them): the summary.json
// it wrote, when the build summarises as the one that ran it. It returns
// the summary.
func Merge(shards []Shard, out string) (sweep.Summary, error) {
	if err := check(shards); err != nil {
		return sweep.Summary{}, err
	}
	if _, err := os.Stat(rundir.Dir(out).Results()); err == nil {
		return sweep.Summary{}, &Error{fmt.Sprintf("%s already holds a run; merge into a new directory", out)}
	}
	shards = slices.Clone(shards)
	slices.SortFunc(shards, func(a, b Shard) int { return a.Spec.Index - b.Spec.Index })
	var ws []sweep.Window
	head := summarize.Head(shards[0].Summary)
	whole := shards[0].Spec.Whole()
	if !whole {
		head.Plan.Shard, head.Plan.ShardBlocks, head.Plan.Windows, head.Plan.Merged = "", nil, 0, nil
	}
	for _, s := range shards {
		ws = append(ws, s.Windows...)
		if whole {
			continue
		}
		head.Plan.Windows += s.Summary.Plan.Windows
		head.Plan.Merged = append(head.Plan.Merged, s.Spec.String())
		if s.Summary.Created.Before(head.Created) {
			head.Created = s.Summary.Created
		}
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return sweep.Summary{}, fmt.Errorf("creating merged run directory: %w", err)
	}
	if err := rundir.WriteFile(rundir.Dir(out).Config(), shards[0].Config); err != nil {
		return sweep.Summary{}, err
	}
	if err := rundir.WriteOrigin(out, rundir.Origin{ConfigPath: shards[0].Origin.ConfigPath}); err != nil {
		return sweep.Summary{}, err
	}
	if err := writeResults(rundir.Dir(out).Results(), ws); err != nil {
		return sweep.Summary{}, err
	}
	if !whole {
		// What the merge knows before any analysis: the shards missing and
		// the machines they ran on. summarize puts it first.
		head.Warnings = append(mergeWarnings(shards), head.Warnings...)
	}
	s := summarize.Summary(head, ws)
	return s, rundir.WriteSummary(out, s)
}

// mergeWarnings: missing shards, and shards that ran on different
// machines.
func mergeWarnings(shards []Shard) []sweep.Warning {
	var ws []sweep.Warning
	n := shards[0].Spec.Count
	var missing []string
	for i := range n {
		if !slices.ContainsFunc(shards, func(s Shard) bool { return s.Spec.Index == i }) {
			missing = append(missing, shard.Spec{Index: i, Count: n}.String())
		}
	}
	if len(missing) > 0 {
		ws = append(ws, sweep.Warning{Code: sweep.WarnMissingShards, Message: fmt.Sprintf(
			"merged run incomplete: shard %s not given (%d of %d merged); run it and merge again", strings.Join(missing, ", "), len(shards), n)})
	}
	machines := map[string][]string{}
	var order []string
	for _, s := range shards {
		e := s.Summary.Environment
		m := fmt.Sprintf("%s, %d cores, kernel %s", e.CPUModel, e.Cores, e.Kernel)
		if _, ok := machines[m]; !ok {
			order = append(order, m)
		}
		machines[m] = append(machines[m], s.Spec.String())
	}
	if len(order) > 1 {
		var parts []string
		for _, m := range order {
			parts = append(parts, fmt.Sprintf("%s on %s", strings.Join(machines[m], ", "), m))
		}
		ws = append(ws, sweep.Warning{Code: sweep.WarnMachines, Message: fmt.Sprintf(
			"shards ran on different machines (%s): each change is paired within its block and holds, but absolute levels (RPS, µs/req, the block drift) are not comparable across shards", strings.Join(parts, "; "))})
	}
	return ws
}

// writeResults writes ws as a new results.jsonl.
func writeResults(path string, ws []sweep.Window) error {
	wr, err := results.Create(path)
	if err != nil {
		return err
	}
	for _, w := range ws {
		if err := wr.Append(w); err != nil {
			wr.Close()
			return err
		}
	}
	return wr.Close()
}
