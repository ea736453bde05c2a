package driver

import (
	"testing"

	"github.com/sweep-dev/sweep/sweep"
)

// memoryGrid is configs/memory.toml cut short: the built-in host with
// 4 MiB dirtied per request, keep_resident 0 against 4MiB, c = 1 and 16.
const memoryGrid = `
name = "memory"
[workload]
touch = "4MiB"
[grid]
linear_memory_keep_resident = [0, "4MiB"]
[load]
concurrency = [1, 16]
warmup = "200ms"
duration = "500ms"
rounds = 2
aa = false
`

// TestMemoryKeepResident runs memoryGrid on the real host: every window
// has its peak, settled and reserved memory and the host's warm slots;
// keeping 4 MiB resident per warm slot costs RSS at both levels, at least
// most of keep_resident × warm slots (the estimate), and the paired
// change says so; without keep_resident, the peak at c=16 (16 requests'
// pages in flight) is well above the RSS the window ends with.
func TestMemoryKeepResident(t *testing.T) {
	_, s, ws := run(t, memoryGrid)
	for _, w := range ws {
		if w.RSSPeakBytes == nil || w.RSSSettledBytes == nil || w.VMSizeBytes == nil || w.LiveHighWater == nil || w.WarmEstimateBytes == nil {
			t.Fatalf("%s c=%d round %d: memory figures missing: %+v", w.Config, w.Concurrency, w.Round, w.WindowMemory)
		}
		if *w.RSSPeakBytes < w.RSSBytes || *w.VMSizeBytes < 1<<30 || *w.LiveHighWater < 1 || *w.LiveHighWater > int64(w.Concurrency) {
			t.Errorf("%s c=%d: peak %d < RSS %d, VmSize %d, live high water %d", w.Config, w.Concurrency, *w.RSSPeakBytes, w.RSSBytes, *w.VMSizeBytes, *w.LiveHighWater)
		}
		kr := int64(0)
		if w.Point["linear_memory_keep_resident"] == "4MiB" {
			kr = 4 << 20
		}
		if *w.KeepResidentBytes != kr || *w.WarmEstimateBytes != kr**w.WarmSlots {
			t.Errorf("%s c=%d: estimate %d = keep_resident %d × warm slots %d; want keep_resident %d", w.Config, w.Concurrency, *w.WarmEstimateBytes, *w.KeepResidentBytes, *w.WarmSlots, kr)
		}
	}
	for _, c := range []int{1, 16} {
		zero := cell(t, s, "linear_memory_keep_resident=0", c)
		kept := cell(t, s, "linear_memory_keep_resident=4MiB", c)
		ch, ok := kept.MemoryVsBaseline[sweep.MemRSSSettled]
		if !ok || kept.Estimate == nil || kept.Estimate.ChangeMiB == nil {
			t.Fatalf("c=%d: no settled RSS change or estimate: %+v", c, kept.CellMemory)
		}
		est := *kept.Estimate.ChangeMiB
		if est < 4 || ch.MedianMiB < 0.75*est {
			t.Errorf("c=%d: settled RSS 4MiB − 0 = %+.1f MiB, estimate %+.1f MiB: want at least 4 MiB estimated and three quarters of it measured", c, ch.MedianMiB, est)
		}
		if kept.RSSBytes-zero.RSSBytes < 3<<20 {
			t.Errorf("c=%d: RSS %d at 4MiB, %d at 0: want 4MiB at least 3 MiB higher", c, kept.RSSBytes, zero.RSSBytes)
		}
	}
	zero := cell(t, s, "linear_memory_keep_resident=0", 16)
	if *zero.RSSPeakBytes-zero.RSSBytes < 8<<20 {
		t.Errorf("keep_resident 0 at c=16: peak %d, RSS %d: want the pages in flight (4 MiB a request) to lift the peak by 8 MiB or more", *zero.RSSPeakBytes, zero.RSSBytes)
	}
}
