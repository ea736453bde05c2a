package report

import (
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"
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
