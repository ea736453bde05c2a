package rundir

import "path/filepath"

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

// Dir is a run directory; its methods are the paths of the files in it.
type Dir string

// Config is the path of the config as run (ConfigFile).
func (d Dir) Config() string { return d.file(ConfigFile) }

// Origin is the path of origin.json (OriginFile).
func (d Dir) Origin() string { return d.file(OriginFile) }

// Results is the path of results.jsonl (ResultsFile).
func (d Dir) Results() string { return d.file(ResultsFile) }

// Summary is the path of summary.json (SummaryFile).
func (d Dir) Summary() string { return d.file(SummaryFile) }

// SummaryMD is the path of summary.md (SummaryMD).
func (d Dir) SummaryMD() string { return d.file(SummaryMD) }

// Profiles is the path of profiles.json (ProfilesFile).
func (d Dir) Profiles() string { return d.file(ProfilesFile) }

// ProfilesDir is the directory of the cells' profiles (ProfilesDir).
func (d Dir) ProfilesDir() string { return d.file(ProfilesDir) }

func (d Dir) file(name string) string { return filepath.Join(string(d), name) }
