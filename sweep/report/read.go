package report

import (
	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/results"
	"github.com/sweep-dev/sweep/sweep/rundir"
)

// ReadSummary reads summary.json at path (rundir.ReadSummaryFile; in a
// run directory, rundir.ReadSummary).
func ReadSummary(path string) (sweep.Summary, error) {
	return rundir.ReadSummaryFile(path)
}

// ReadWindows reads results.jsonl at path: one sweep.Window per line,
// blank lines ignored. A final line without a newline that does not decode
// is the torn write of an interrupted run and is skipped; any other line
// that does not decode is an error naming path:line.
func ReadWindows(path string) ([]sweep.Window, error) {
	return results.Read(path)
}
