package report

import (
	"bytes"
	"maps"
	"path/filepath"
	"slices"

	"github.com/sweep-dev/sweep/sweep/results"
	"github.com/sweep-dev/sweep/sweep/rundir"
)

// Render re-renders every report in dir from dir/summary.json and
// dir/results.jsonl: the PNG charts, summary.md, results.csv, cells.csv,
// results.bench and the answer as code (AnswerFiles). Each file is written with rundir.WriteFile, so an
// interrupted Render leaves the previous version of a file, never half of
// one.
func Render(dir string) error {
	s, err := rundir.ReadSummary(dir)
	if err != nil {
		return err
	}
	ws, err := results.Read(rundir.Dir(dir).Results())
	if err != nil {
		return err
	}
	charts, err := Charts(dir, s)
	if err != nil {
		return err
	}
	ps, err := ReadProfiles(dir)
	if err != nil {
		return err
	}
	var md, csv, cells, bench bytes.Buffer
	if err := Markdown(&md, s, charts); err != nil {
		return err
	}
	if err := Profiles(&md, ps); err != nil {
		return err
	}
	if err := CSV(&csv, ws); err != nil {
		return err
	}
	if err := CellsCSV(&cells, s); err != nil {
		return err
	}
	if err := Bench(&bench, s, ws); err != nil {
		return err
	}
	answers, err := AnswerFiles(s)
	if err != nil {
		return err
	}
	files := map[string][]byte{rundir.SummaryMD: md.Bytes(), rundir.ResultsCSV: csv.Bytes(), rundir.CellsCSV: cells.Bytes(), rundir.ResultsBench: bench.Bytes()}
	maps.Copy(files, answers)
	for _, name := range slices.Sorted(maps.Keys(files)) {
		if err := rundir.WriteFile(filepath.Join(dir, name), files[name]); err != nil {
			return err
		}
	}
	return nil
}
