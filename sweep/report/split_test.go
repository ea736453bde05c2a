package report

import (
	"bytes"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"testing"

	"github.com/sweep-dev/sweep/sweep"
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

// splitCells are cells with the user/kernel split at levels lv, one
// config per point, the first the baseline and, when aa, its A/A twin
// after it.
func splitCells(points []sweep.Point, aa bool, lv ...int) []sweep.Cell {
	var cells []sweep.Cell
	for i, p := range points {
		roles := []bool{false}
		if i == 0 && aa {
			roles = append(roles, true)
		}
		for _, twin := range roles {
			label := p.Label()
			if twin {
				label += " [A/A]"
			}
			for _, c := range lv {
				k, u := 20.0, 10.0
				cells = append(cells, sweep.Cell{Config: label, Point: p, Baseline: i == 0 && !twin, AA: twin,
					Concurrency: c, Rounds: 3, KernelUsPerReq: &k, UserUsPerReq: &u})
			}
		}
	}
	return cells
}

// TestSplitLabels checks what names cpu_split.png's bars: on a one-axis
// grid only the values, the axis once as the x axis label; on a grid of
// three axes, one of them constant, the values of the two that vary
// joined with "/", the constant one named nowhere. The baseline and its
// A/A twin are marked beside their values where the labels fit, on a
// second line where only that fits (five bars in each of three panels),
// and too many bars get their labels on one line, upright.
func TestSplitLabels(t *testing.T) {
	const keep, comp, mems = "linear_memory_keep_resident", "component", "total_memories"
	var many []sweep.Point
	var manyTicks []string
	for i := range 24 {
		v := strconv.Itoa(64*(i+1)) + "KiB"
		many = append(many, sweep.Point{keep: v})
		manyTicks = append(manyTicks, v)
	}
	manyTicks[0] += " (baseline)"
	tests := []struct {
		name    string
		points  []sweep.Point
		aa      bool
		lv      []int
		xlabel  string
		ticks   []string
		upright bool
	}{
		{"one axis",
			[]sweep.Point{{keep: "0"}, {keep: "64KiB"}, {keep: "1MiB"}}, true, []int{1, 16},
			keep, []string{"0 (baseline)", "0 [A/A]", "64KiB", "1MiB"}, false},
		{"two axes varying, one constant",
			[]sweep.Point{{comp: "false", keep: "0", mems: "16"}, {comp: "false", keep: "1MiB", mems: "16"}, {comp: "true", keep: "0", mems: "16"}, {comp: "true", keep: "1MiB", mems: "16"}}, true, []int{1, 4, 16},
			comp + "/" + keep, []string{"false/0\n(baseline)", "false/0\n[A/A]", "false/1MiB", "true/0", "true/1MiB"}, false},
		{"24 configs", many, false, []int{1, 16}, keep, manyTicks, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := sweep.Summary{Name: "labels", Cells: splitCells(tt.points, tt.aa, tt.lv...)}
			ch, err := splitChart(s, buildSeries(s), levels(s))
			if err != nil {
				t.Fatal(err)
			}
			if ch == nil || len(ch.panels) != len(tt.lv) {
				t.Fatalf("want a chart with %d panels, got %+v", len(tt.lv), ch)
			}
			for _, p := range ch.panels {
				if p.X.Label.Text != tt.xlabel {
					t.Errorf("%s: x axis label %q, want %q", p.Title.Text, p.X.Label.Text, tt.xlabel)
				}
				var got []string
				for _, tk := range p.X.Tick.Marker.Ticks(p.X.Min, p.X.Max) {
					got = append(got, tk.Label)
				}
				if !slices.Equal(got, tt.ticks) {
					t.Errorf("%s: tick labels %q, want %q", p.Title.Text, got, tt.ticks)
				}
				if upright := p.X.Tick.Label.Rotation == math.Pi/2; upright != tt.upright {
					t.Errorf("%s: labels upright %v, want %v", p.Title.Text, upright, tt.upright)
				}
			}
		})
	}
}
