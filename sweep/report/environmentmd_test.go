package report

import "testing"

// TestOtherText: other work on the pinned CPUs is a share; below zero it
// is the accounting's error and says so instead of a negative share.
func TestOtherText(t *testing.T) {
	for _, tc := range []struct {
		in   float64
		want string
	}{
		{0.2362, "23.62% of their time"},
		{0, "0% of their time"},
		{-0.0082, "none measured (−0.8%: within the accounting's error)"},
	} {
		if got := otherText(tc.in); got != tc.want {
			t.Errorf("otherText(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
