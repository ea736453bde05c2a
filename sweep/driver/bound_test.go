package driver

import (
	"math"
	"testing"
)

// TestLoadBusy: the load CPUs' busy share is taken of the time the
// hypervisor left them, so steal neither hides nor fakes a busy client.
func TestLoadBusy(t *testing.T) {
	for _, tc := range []struct {
		idle, steal, want float64
		bound             bool
	}{
		{0.5, 0, 0.5, false},
		{0.1, 0, 0.9, true},
		{0.085, 0.045, 0.911, true}, // a no-op server at c=16 on this VM
		{0.31, 0.414, 0.471, false}, // the built-in host at c=16, a third of the CPU stolen
		{0.2, 0.5, 0.6, false},
		{0, 1, 1, true},
	} {
		got := loadBusy(tc.idle, tc.steal)
		if math.Abs(got-tc.want) > 0.001 {
			t.Errorf("loadBusy(idle %v, steal %v) = %.3f, want %.3f", tc.idle, tc.steal, got, tc.want)
		}
		if bound := got > GeneratorBoundBusy; bound != tc.bound {
			t.Errorf("idle %v, steal %v: bound %v, want %v", tc.idle, tc.steal, bound, tc.bound)
		}
	}
}
