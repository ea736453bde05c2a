package report

import (
	"bytes"
	"path/filepath"

	"github.com/sweep-dev/sweep/sweep/results"
	"github.com/sweep-dev/sweep/sweep/rundir"
)

// Render re-renders every report in dir from dir/summary.json and
// dir/results.jsonl: the PNG charts, summary.md, results.csv, cells.csv
// and results.bench. Each file is written with rundir.WriteFile, so an
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
	for _, f := range []struct {
		name string
		b    []byte
	}{{rundir.SummaryMD, md.Bytes()}, {rundir.ResultsCSV, csv.Bytes()}, {rundir.CellsCSV, cells.Bytes()}, {rundir.ResultsBench, bench.Bytes()}} {
		if err := rundir.WriteFile(filepath.Join(dir, f.name), f.b); err != nil {
			return err
		}
	}
	return nil
}
