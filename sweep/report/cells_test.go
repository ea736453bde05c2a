package report

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/rundir"
)

// TestCellsCSVEveryColumn: cells.csv of the memory-budget run with every
// optional figure set (the placement, IPI and split columns no fixture
// run has) against its golden file, so that each column's value is
// pinned, not only the fixtures' non-empty ones.
func TestCellsCSVEveryColumn(t *testing.T) {
	s, err := rundir.ReadSummary(filepath.Join("testdata", "memory-budget"))
	if err != nil {
		t.Fatal(err)
	}
	for i := range s.Cells {
		c := &s.Cells[i]
		f := func(x float64) *float64 { return &x }
		par := i%2 == 0
		c.ServerOther, c.LoadOther = f(0.01*float64(i)), f(0.02*float64(i))
		c.ServerCPUCount, c.Parallel = i%3, &par
		c.TLBShootdownsPerReq, c.CallIPIsPerReq = f(1.5*float64(i)), f(0.25)
		c.UserUsPerReq, c.KernelUsPerReq, c.KernelShare = f(300+float64(i)), f(100), f(0.25)
		if !c.Baseline {
			c.SplitVsBaseline = &sweep.SplitChange{UserUs: float64(i), KernelUs: -float64(i)}
		}
	}
	var b bytes.Buffer
	if err := CellsCSV(&b, s); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), rundir.CellsCSV)
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	checkGoldenText(t, path, filepath.Join("testdata", "golden", "cells-every-column", rundir.CellsCSV))
}
