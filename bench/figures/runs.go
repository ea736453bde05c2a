package main

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/results"
	"github.com/sweep-dev/sweep/sweep/rundir"
	"github.com/sweep-dev/sweep/sweep/stats"
)

// runDir is a sweep run directory: its summary and its windows.
type runDir struct {
	path    string
	summary sweep.Summary
	windows []sweep.Window
}

func readRun(path string) (*runDir, error) {
	s, err := rundir.ReadSummary(path)
	if err != nil {
		return nil, fmt.Errorf("run %s: %w", path, err)
	}
	r := &runDir{path: path, summary: s}
	if r.windows, err = results.Read(filepath.Join(path, rundir.ResultsFile)); err != nil {
		return nil, err
	}
	return r, nil
}

// cell returns the cell of config at concurrency c.
func (r *runDir) cell(config string, c int) (sweep.Cell, error) {
	for _, cl := range r.summary.Cells {
		if cl.Config == config && cl.Concurrency == c {
			return cl, nil
		}
	}
	return sweep.Cell{}, fmt.Errorf("%s: no cell %q at c=%d", r.path, config, c)
}

// windowsOf returns the measured windows of config at concurrency c.
func (r *runDir) windowsOf(config string, c int) []sweep.Window {
	var ws []sweep.Window
	for _, w := range r.windows {
		if w.Config == config && w.Concurrency == c && !w.Failed {
			ws = append(ws, w)
		}
	}
	return ws
}

// quartilesOf applies stats.Quartiles to f of every window.
func quartilesOf(ws []sweep.Window, f func(sweep.Window) float64) (q1, med, q3 float64) {
	xs := make([]float64, 0, len(ws))
	for _, w := range ws {
		xs = append(xs, f(w))
	}
	return stats.Quartiles(xs)
}

// levels returns the concurrency levels present in the run, ascending.
func (r *runDir) levels() []int {
	var ls []int
	for _, c := range r.summary.Cells {
		if !slices.Contains(ls, c.Concurrency) {
			ls = append(ls, c.Concurrency)
		}
	}
	slices.Sort(ls)
	return ls
}
