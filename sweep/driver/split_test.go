package driver

import (
	"math"
	"testing"
)

// TestKernelSplit runs profileGrid (the built-in host with 64 KiB dirtied
// per request, keep_resident 0 against 64KiB, at c = 1 and 16), unprofiled: with nothing kept
// resident every request's memory is faulted in afresh and given back
// with madvise, so the kernel's share of CPU per request is higher for 0,
// and its kernel µs/req too. Over each cell, the utime+stime ticks add up
// to the process clock's CPU within the ticks' resolution.
func TestKernelSplit(t *testing.T) {
	_, s, ws := run(t, profileGrid)
	for _, c := range []int{1, 16} {
		zero := cell(t, s, "linear_memory_keep_resident=0", c)
		kept := cell(t, s, "linear_memory_keep_resident=64KiB", c)
		if zero.KernelShare == nil || kept.KernelShare == nil || kept.SplitVsBaseline == nil {
			t.Fatalf("c=%d: no user/kernel split in the cells: %+v / %+v", c, zero, kept)
		}
		if *zero.KernelShare <= *kept.KernelShare {
			t.Errorf("c=%d: kernel share %.2f at keep_resident 0, %.2f at 64KiB; want it higher at 0", c, *zero.KernelShare, *kept.KernelShare)
		}
		if d := kept.SplitVsBaseline.KernelUs; d >= 0 || kept.SplitVsBaseline.Pairs != 2 {
			t.Errorf("c=%d: kernel µs/req 64KiB − 0 = %+.1f over %d pairs; want it negative over 2 (the rounds)", c, d, kept.SplitVsBaseline.Pairs)
		}
		if sum := *kept.UserUsPerReq + *kept.KernelUsPerReq; math.Abs(sum-kept.CPUUsPerReq) > 0.05*kept.CPUUsPerReq {
			t.Errorf("c=%d: user + kernel = %.1f µs/req, CPU/req %.1f: the split must add up", c, sum, kept.CPUUsPerReq)
		}
	}
	// Ticks against the clock, per cell: each slice's reading is off by
	// up to a tick (10 ms) at either end.
	type key struct {
		config string
		conc   int
	}
	ticks, clock, slices := map[key]float64{}, map[key]float64{}, map[key]int{}
	for _, w := range ws {
		if w.UserCPUSeconds == nil || w.KernelCPUSeconds == nil {
			t.Fatalf("window %s c=%d round %d has no tick counts", w.Config, w.Concurrency, w.Round)
		}
		k := key{w.Config, w.Concurrency}
		ticks[k] += *w.UserCPUSeconds + *w.KernelCPUSeconds
		clock[k] += w.CPUSeconds
		slices[k] += max(w.Slices, 1)
	}
	for k := range ticks {
		if tol := 0.02*float64(slices[k]) + 0.05*clock[k]; math.Abs(ticks[k]-clock[k]) > tol {
			t.Errorf("%s c=%d: ticks %.3f s, clock %.3f s over %d slices: off by more than %.3f s", k.config, k.conc, ticks[k], clock[k], slices[k], tol)
		}
	}
}
