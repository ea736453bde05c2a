package rundir

// Files in a run directory.
const (
	ConfigFile  = "config.toml"   // the config as run
	OriginFile  = "origin.json"   // where the config came from: Origin
	ResultsFile = "results.jsonl" // one sweep.Window per line: sweep/results
	SummaryFile = "summary.json"  // the analysed run: sweep.Summary
	// ProfilesFile lists the cells' CPU profiles (analysis.profile), one
	// sweep.CellProfile each; the profiles themselves are in ProfilesDir.
	ProfilesFile = "profiles.json"
	ProfilesDir  = "profiles"

	// Reports rendered from the two above by sweep/report (the charts are
	// named there).
	SummaryMD    = "summary.md"
	ResultsCSV   = "results.csv"
	ResultsBench = "results.bench"
	CellsCSV     = "cells.csv"
)
