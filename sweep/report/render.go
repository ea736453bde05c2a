package report

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
)

// Input and output file names inside a run directory.
const (
	SummaryJSON  = "summary.json"
	ResultsJSONL = "results.jsonl"
	SummaryMD    = "summary.md"
	ResultsCSV   = "results.csv"
	ResultsBench = "results.bench"
)

// Render re-renders every report in dir from dir/summary.json and
// dir/results.jsonl: the PNG charts, summary.md, results.csv and
// results.bench. Each file is written to a temporary name in dir and
// renamed into place, so an interrupted Render leaves the previous
// version of a file, never half of one.
func Render(dir string) error {
	s, err := ReadSummary(filepath.Join(dir, SummaryJSON))
	if err != nil {
		return err
	}
	ws, err := ReadWindows(filepath.Join(dir, ResultsJSONL))
	if err != nil {
		return err
	}
	charts, err := Charts(dir, s)
	if err != nil {
		return err
	}
	var md, csv, bench bytes.Buffer
	if err := Markdown(&md, s, charts); err != nil {
		return err
	}
	if err := CSV(&csv, ws); err != nil {
		return err
	}
	if err := Bench(&bench, s, ws); err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		b    []byte
	}{{SummaryMD, md.Bytes()}, {ResultsCSV, csv.Bytes()}, {ResultsBench, bench.Bytes()}} {
		if err := writeFile(filepath.Join(dir, f.name), f.b); err != nil {
			return err
		}
	}
	return nil
}

// writeFile writes b to path atomically: a temporary file in the same
// directory, synced, then renamed over path.
func writeFile(path string, b []byte) error {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	tmp := f.Name()
	fail := func(err error) error {
		f.Close()
		os.Remove(tmp)
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if _, err := f.Write(b); err != nil {
		return fail(err)
	}
	if err := f.Chmod(0o644); err != nil {
		return fail(err)
	}
	if err := f.Sync(); err != nil {
		return fail(err)
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}
