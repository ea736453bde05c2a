// Package rundir owns the layout of a run directory: the names of the
// files in it, the one way a whole file is written there (WriteFile:
// atomically, with mode FileMode), and the small JSON records kept beside
// the measurements: summary.json (a sweep.Summary) and origin.json (where
// the config as run came from).
//
// The measurements themselves, results.jsonl, are appended window by
// window by sweep/results; the reports (summary.md, results.csv,
// results.bench, the charts) are rendered by sweep/report. Both name their
// files from here, so that the driver, which measures, and the report,
// which renders, agree on the directory without importing each other.
package rundir
