// Package report renders a run directory's reports from its data alone:
// summary.json (a sweep.Summary) and results.jsonl (one sweep.Window per
// line). It never measures. Render writes the PNG charts, summary.md,
// results.csv and results.bench; each output is also available on its own
// (Charts, Markdown, CSV, Bench) so callers can stream or test them.
//
// Every file is written with rundir.WriteFile (a temporary name in the run
// directory renamed into place), so a reader never sees a half-written
// report.
package report
