package rundir

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/stats"
)

// ReadSummary reads dir/summary.json.
func ReadSummary(dir string) (sweep.Summary, error) {
	return ReadSummaryFile(filepath.Join(dir, SummaryFile))
}

// SchemaError is ReadSummaryFile's error for a summary.json this build
// cannot read: one without a schema_version (not sweep's), or one written
// by a newer sweep whose schema it does not know.
type SchemaError struct {
	Path string
	Got  int // the file's schema_version (0: none)
}

func (e *SchemaError) Error() string {
	if e.Got == 0 {
		return fmt.Sprintf("%s: no schema_version: not a summary.json written by sweep", e.Path)
	}
	return fmt.Sprintf("%s: schema_version %d is newer than this sweep reads (up to %d): use a newer sweep", e.Path, e.Got, sweep.SchemaVersion)
}

// ReadSummaryFile reads the summary at path. An error decoding it names
// the file and, for syntax and type errors, the line; a schema this build
// cannot read is a *SchemaError. Older schemas are read: their missing
// fields are zero.
func ReadSummaryFile(path string) (sweep.Summary, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return sweep.Summary{}, fmt.Errorf("reading summary: %w", err)
	}
	var s sweep.Summary
	if err := json.Unmarshal(b, &s); err != nil {
		return sweep.Summary{}, fmt.Errorf("%s: %w", jsonPos(path, b, err), err)
	}
	if s.SchemaVersion <= 0 || s.SchemaVersion > sweep.SchemaVersion {
		return sweep.Summary{}, &SchemaError{Path: path, Got: s.SchemaVersion}
	}
	if s.SchemaVersion == 2 || s.SchemaVersion == 3 {
		undecided(s.Cells)
	}
	if s.SchemaVersion <= 4 && s.Race != nil && s.Plan.Race == nil {
		s.Plan.Race = racePlan(s.Race)
	}
	return s, nil
}

// racePlan is the plan of a race in a summary written before the plan
// recorded it (schema 4), read back from its race block: the settings,
// and the configs the preflight dropped before the first round.
func racePlan(r *sweep.RaceSummary) *sweep.RacePlan {
	rp := &sweep.RacePlan{Clip: r.Clip, Epsilon: r.Epsilon, Finalists: r.FinalistsWanted, MaxRounds: r.MaxRounds}
	for _, e := range r.Configs {
		if e.Reason == sweep.RaceInfeasible && e.Rounds == 0 && strings.HasPrefix(e.Why, sweep.RacePreflight) {
			rp.Infeasible = append(rp.Infeasible, sweep.RaceDrop{Config: e.Config, Why: e.Why})
		}
	}
	return rp
}

// undecided gives the comparisons of a schema 2 or 3 summary that had no
// interval the verdict they stood for: those schemas said "no detectable
// change" where nothing could be decided. The interval's level was
// recorded (Delta.Confidence), so the pairs it needed are known.
func undecided(cells []sweep.Cell) {
	for _, c := range cells {
		for m, d := range c.VsBaseline {
			if d.Verdict == sweep.VerdictNoChange && (d.CILow == nil || d.CIHigh == nil) {
				d.Verdict = sweep.VerdictUndecided
				if d.Confidence > 0 && d.Confidence < 1 {
					d.Needed = stats.MinPairs(1 - d.Confidence)
				}
				c.VsBaseline[m] = d
			}
		}
	}
}

// WriteSummary writes s to dir/summary.json (WriteFile), indented.
func WriteSummary(dir string, s sweep.Summary) error {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding summary: %w", err)
	}
	return WriteFile(filepath.Join(dir, SummaryFile), append(b, '\n'))
}

// jsonPos names the file and, for syntax and type errors, the line of the
// offending byte.
func jsonPos(path string, b []byte, err error) string {
	var off int64 = -1
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
	}
	if off < 0 || off > int64(len(b)) {
		return path
	}
	return fmt.Sprintf("%s:%d", path, 1+bytes.Count(b[:off], []byte{'\n'}))
}
