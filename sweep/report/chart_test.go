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
