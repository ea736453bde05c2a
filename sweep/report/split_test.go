package report

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// TestSplitReport renders a real run of the built-in host with the
// user/kernel split (testdata/split: keep_resident 0 vs 64KiB, 64 KiB
// touched, c = 1 and 16, 2026-12-06): summary.md gets the split columns
// and their note, cells.csv the split's columns, and cpu_split.png is
// drawn; a run without the split (testdata/one-config) gets none of them.
func TestSplitReport(t *testing.T) {
	dir := copyRun(t, "split")
	if err := Render(dir); err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(dir, "summary.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, re := range []string{
		`\| user / kernel µs/req \| user / kernel vs baseline \|`,
		"`linear_memory_keep_resident=64KiB` \\| [0-9,]+ \\| [0-9,]+ \\| [0-9.]+ \\| [0-9.]+ / [0-9.]+ \\([0-9]+% kernel\\) \\| [−+][0-9.]+ / −[0-9.]+ \\|",
		`User / kernel µs/req: the server's CPU per request split`,
		`!\[[^]]*\]\(cpu_split.png\)`,
	} {
		if !regexp.MustCompile(re).Match(md) {
			t.Errorf("summary.md does not match %s", re)
		}
	}
	f, err := os.Open(filepath.Join(dir, ChartSplit))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if img, err := png.Decode(f); err != nil || img.Bounds().Dx() < 100 {
		t.Errorf("%s: %v", ChartSplit, err)
	}
	cells, err := os.ReadFile(filepath.Join(dir, "cells.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(cells, []byte(",user_us_per_req,kernel_us_per_req,kernel_share,user_us_per_req.change,kernel_us_per_req.change,")) {
		t.Errorf("cells.csv header lacks the split columns")
	}

	plain := copyRun(t, "one-config")
	if err := Render(plain); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(plain, ChartSplit)); err == nil {
		t.Errorf("%s drawn for a run without the split", ChartSplit)
	}
	if md, _ := os.ReadFile(filepath.Join(plain, "summary.md")); bytes.Contains(md, []byte("user / kernel")) {
		t.Errorf("summary.md of a run without the split has split columns")
	}
}
