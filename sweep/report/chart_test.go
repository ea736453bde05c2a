package report

import (
	"fmt"
	"image/color"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"

	"github.com/sweep-dev/sweep/sweep"
)

// TestWrapWords: a panel title is broken at spaces into lines that fit
// the panel; a word wider than the panel keeps a line to itself, and no
// word is lost or split.
func TestWrapWords(t *testing.T) {
	st := newPanel("").Title.TextStyle
	long := "batch_size=16 keep_resident=256KiB warm_slots=100"
	for _, tc := range []struct {
		name string
		s    string
		w    vg.Length
	}{
		{"fits", "keep_resident=64KiB", vg.Inch * 4},
		{"three lines at most", long, st.Width("batch_size=16 keep_resident=256KiB") + vg.Points(1)},
		{"each word alone", long, vg.Points(1)},
		{"empty", "", vg.Inch},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := wrapWords(st, tc.s, tc.w)
			if strings.Join(strings.Fields(got), " ") != strings.Join(strings.Fields(tc.s), " ") {
				t.Fatalf("wrapWords(%q) = %q: words changed", tc.s, got)
			}
			for _, line := range strings.Split(got, "\n") {
				if st.Width(line) > tc.w && strings.Contains(line, " ") {
					t.Errorf("line %q is %v wide, more than %v", line, st.Width(line), tc.w)
				}
			}
		})
	}
	if got := wrapWords(st, long, st.Width("batch_size=16 keep_resident=256KiB")+vg.Points(1)); got != "batch_size=16 keep_resident=256KiB\nwarm_slots=100" {
		t.Errorf("wrapWords = %q", got)
	}
	if got := wrapWords(st, "a b", vg.Inch*4); got != "a b" {
		t.Errorf("a title that fits was wrapped: %q", got)
	}
}

// TestPlaceLabel: a bar label goes 2 points beyond its bar's end; one
// that would cover a label already placed moves a line further away
// from its bar, upwards above a bar and downwards below one, at most
// three lines; labels side by side that do not touch stay in line.
func TestPlaceLabel(t *testing.T) {
	const w, h = 30, 10
	var placed []vg.Rectangle
	at, box := placeLabel(vg.Point{X: 100, Y: 50}, w, h, 1, placed)
	if at.Y != 52 || box.Min.Y != 52 || box.Max.Y != 62 || box.Min.X != 85 {
		t.Fatalf("first label at %v, box %v", at, box)
	}
	placed = append(placed, box)
	at, box = placeLabel(vg.Point{X: 110, Y: 50}, w, h, 1, placed) // overlaps the first
	if at.Y != 62 {
		t.Errorf("an overlapping label above its bar at y=%v, want 62", at.Y)
	}
	placed = append(placed, box)
	if at, _ = placeLabel(vg.Point{X: 200, Y: 50}, w, h, 1, placed); at.Y != 52 {
		t.Errorf("a label clear of the others moved to y=%v", at.Y)
	}
	// Below a bar ending at 70, [58, 68] and [48, 58] cover the first two
	// labels' [52, 62] and [62, 72]; [38, 48] is free.
	if at, _ = placeLabel(vg.Point{X: 100, Y: 70}, w, h, -1, placed); at.Y != 48 {
		t.Errorf("a label below its bar at y=%v, want 48", at.Y)
	}
	for range 5 {
		_, box = placeLabel(vg.Point{X: 100, Y: 50}, w, h, 1, placed)
		placed = append(placed, box)
	}
	if at, _ = placeLabel(vg.Point{X: 100, Y: 50}, w, h, 1, placed); at.Y != 82 {
		t.Errorf("a label with no free line stops three lines out, at y=82; got %v", at.Y)
	}
}

// TestBarGlyphs: once configs share a colour (more than the palette
// holds), every config's legend entry in tradeoff.png carries its glyph
// beside its colour; with few configs it is the colour alone. The glyph
// is black on a light fill and white on a dark one.
func TestBarGlyphs(t *testing.T) {
	summary := func(n int) sweep.Summary {
		s := sweep.Summary{Baseline: "k=0", Cells: []sweep.Cell{{Config: "k=0", Baseline: true, Concurrency: 1, Rounds: 8, CPUUsPerReq: 100}}}
		for i := range n {
			lo, hi := -0.2, -0.1
			s.Cells = append(s.Cells, sweep.Cell{Config: fmt.Sprintf("k=%d", i+1), Concurrency: 1, Rounds: 8, CPUUsPerReq: 85,
				VsBaseline: map[sweep.Metric]sweep.Delta{sweep.MetricCPUPerReq: {Median: -0.15, CILow: &lo, CIHigh: &hi, Verdict: sweep.VerdictBetter, Pairs: 8}}})
		}
		return s
	}
	for _, tc := range []struct {
		configs, thumbs int
	}{{3, 1}, {len(palette) - 1, 1}, {len(palette) + 2, 2}} {
		s := summary(tc.configs)
		ch, err := tradeoffChart(s, buildSeries(s), levels(s))
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, e := range ch.legend {
			if e.key {
				continue
			}
			n++
			if len(e.thumbs) != tc.thumbs {
				t.Errorf("%d configs: legend entry %q has %d thumbnails, want %d", tc.configs, e.text, len(e.thumbs), tc.thumbs)
			}
		}
		if n != tc.configs {
			t.Errorf("%d configs: %d legend entries", tc.configs, n)
		}
	}
	sr := series{Glyph: glyphs[0]}
	if ink := barGlyph(sr, color.Black, 0, 0).GlyphStyle.Color; ink != color.White {
		t.Errorf("glyph on black: %v, want white", ink)
	}
	if ink := barGlyph(sr, palette[1], 0, 0).GlyphStyle.Color; ink != color.Black {
		t.Errorf("glyph on orange: %v, want black", ink)
	}
}
