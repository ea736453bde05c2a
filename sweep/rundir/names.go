package rundir

// Files in a run directory.
const (
	ConfigFile  = "config.toml"   // the config as run
	OriginFile  = "origin.json"   // where the config came from: Origin
	ResultsFile = "results.jsonl" // one sweep.Window per line: sweep/results
	SummaryFile = "summary.json"  // the analysed run: sweep.Summary

	// Reports rendered from the two above by sweep/report (the charts are
	// named there).
	SummaryMD    = "summary.md"
	ResultsCSV   = "results.csv"
	ResultsBench = "results.bench"
	CellsCSV     = "cells.csv"
)
