// Package sweep holds the data model shared by measurement and reporting:
// a grid Point, one measured Window (a line of results.jsonl), the
// per-config × concurrency Cell, and the run Summary (summary.json).
//
// Measurement packages (load, probe, target, driver) produce Windows;
// analysis (stats) turns Windows into Cells; reporting (report) renders
// Cells and Windows. They meet only here and in the run directory, whose
// layout (file names, atomic writes, summary.json) rundir owns and whose
// results.jsonl results reads and appends: measurement never imports
// reporting and reporting never measures.
package sweep
