package driver

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestFit: the progress line is cut to one row of the terminal (one
// column short of its width, so the cursor never wraps), and to
// fallbackCols when the width is unknown.
func TestFit(t *testing.T) {
	long := strings.Repeat("█", 10) + strings.Repeat("x", 300)
	for _, tt := range []struct {
		line string
		cols int
		want int // runes
	}{
		{long, 80, 79},
		{long, 200, 199},
		{long, 0, fallbackCols},
		{long, -1, fallbackCols},
		{long, 1, 0},
		{"short", 80, 5},
		{strings.Repeat("é", 79), 80, 79},
	} {
		got := fit(tt.line, tt.cols)
		if n := utf8.RuneCountInString(got); n != tt.want || !strings.HasPrefix(tt.line, got) {
			t.Errorf("fit(%d runes, %d cols) = %d runes, want the first %d", utf8.RuneCountInString(tt.line), tt.cols, n, tt.want)
		}
	}
}
