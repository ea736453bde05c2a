package stats

import (
	"math"
	"strings"
	"testing"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/results"
)

// rssMiB sets the window's RSS at its end, and its settled RSS, to x MiB
// plus a little round-to-round jitter j (bytes), so that the paired
// differences are not all tied.
func rssMiB(x float64, j int64) func(*sweep.Window) {
	return func(w *sweep.Window) {
		v := int64(x*sweep.MiB) + j*int64(w.Round)
		s := v
		w.RSSBytes = v
		w.RSSSettledBytes = &s
	}
}

// memGrid is a keep_resident grid at c=16: kr=1MiB saves 20% CPU for
// +12 MiB RSS, kr=4MiB saves 50% for +66 MiB; the baseline runs at 32 MiB.
func memGrid() []sweep.Window {
	return join(at16(base, 100, rssMiB(32, 4096)), at16(aa, 100, rssMiB(32, 8192)),
		at16("kr=1MiB", 80, rssMiB(44, 12288)), at16("kr=4MiB", 50, rssMiB(98, 4096)))
}

// TestMemoryBudget: a max_rss between the two candidates' RSS moves the
// recommendation from the cheapest config by CPU to the best one within
// budget and names the excluded one; no budget, or one above both, keeps
// the pick; one below every candidate keeps the baseline and names both.
func TestMemoryBudget(t *testing.T) {
	for _, tc := range []struct {
		name     string
		maxRSS   int64
		config   string
		keep     bool
		excluded []string
		rssMiB   float64 // the pick's median RSS change, 0 for none
	}{
		{"no budget", 0, "kr=4MiB", false, nil, 66},
		{"above both", 200 << 20, "kr=4MiB", false, nil, 66},
		{"between", 64 << 20, "kr=1MiB", false, []string{"kr=4MiB (RSS 98.0 MiB > max_rss 64.0 MiB)"}, 12},
		{"below both", 40 << 20, base, true, []string{"kr=1MiB (RSS 44.1 MiB > max_rss 40.0 MiB)", "kr=4MiB (RSS 98.0 MiB > max_rss 40.0 MiB)"}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := Analyze(memGrid(), Options{MaxRSS: tc.maxRSS})
			rec := a.Recommendation
			if rec == nil || rec.Config != tc.config || rec.KeepBaseline != tc.keep {
				t.Fatalf("recommendation %+v, want %s (keep %v)", rec, tc.config, tc.keep)
			}
			if strings.Join(rec.Excluded, "|") != strings.Join(tc.excluded, "|") {
				t.Errorf("excluded %q, want %q", rec.Excluded, tc.excluded)
			}
			if got := rec.RSSChangeMiB; tc.rssMiB == 0 && got != nil || tc.rssMiB != 0 && (got == nil || math.Abs(*got-tc.rssMiB) > 0.05) {
				t.Errorf("RSS change %v, want %v MiB", got, tc.rssMiB)
			}
			if tc.keep && rec.Keep != sweep.KeepNoImprovement {
				t.Errorf("keep %q, want %q: nothing within the budget improved", rec.Keep, sweep.KeepNoImprovement)
			}
		})
	}
}

// TestMemoryChange: the paired RSS change is in MiB with an interval that
// holds the true shift, the baseline has none, and a cell without the
// figure on either side has none for it.
func TestMemoryChange(t *testing.T) {
	a := Analyze(memGrid(), Options{})
	c := cellOf(t, a, "kr=4MiB", 16)
	ch, ok := c.MemoryVsBaseline[sweep.MemRSS]
	if !ok || ch.Pairs != 12 || ch.CILowMiB == nil {
		t.Fatalf("RSS change %+v", ch)
	}
	if !(*ch.CILowMiB <= 66 && 66 <= *ch.CIHighMiB) || *ch.CIHighMiB-*ch.CILowMiB > 0.1 {
		t.Errorf("RSS change interval %.4f … %.4f MiB, want a narrow one around +66", *ch.CILowMiB, *ch.CIHighMiB)
	}
	if ch.BaselineMiB < 32 || ch.BaselineMiB > 32.1 || !strings.Contains(ch.Correction, "bonferroni over 6 RSS") {
		t.Errorf("baseline %.2f MiB, correction %q", ch.BaselineMiB, ch.Correction)
	}
	if _, ok := c.MemoryVsBaseline[sweep.MemRSSPeak]; ok {
		t.Errorf("a peak change without peak figures")
	}
	if s, ok := c.Memory(sweep.MemRSSSettled); !ok || s < 98<<20 {
		t.Errorf("settled median %d, %v", s, ok)
	}
	if b := cellOf(t, a, base, 16); b.MemoryVsBaseline != nil {
		t.Errorf("baseline has a memory change: %+v", b.MemoryVsBaseline)
	}
}

// TestWarmEstimate: keep_resident × warm slots beside the measured settled
// change, and the gap in words on either side of the estimate.
func TestWarmEstimate(t *testing.T) {
	warm := func(kr, slots int64) func(*sweep.Window) {
		return func(w *sweep.Window) {
			e := kr * slots
			w.KeepResidentBytes, w.WarmSlots, w.WarmEstimateBytes = &kr, &slots, &e
		}
	}
	ws := join(at16(base, 100, rssMiB(32, 0), warm(0, 16)), at16(aa, 100, rssMiB(32, 0), warm(0, 16)),
		at16("kr=1MiB", 80, rssMiB(45, 0), warm(1<<20, 12)), at16("kr=4MiB", 50, rssMiB(60, 0), warm(4<<20, 16)))
	a := Analyze(ws, Options{})
	for _, tc := range []struct {
		config        string
		est, measured float64
		slots         int64
		gap           string
	}{
		{"kr=1MiB", 12, 13, 12, "as estimated, 1.0 MiB apart"},
		{"kr=4MiB", 64, 28, 16, "36.0 MiB less than keep_resident × warm slots"},
	} {
		e := cellOf(t, a, tc.config, 16).Estimate
		if e == nil || e.ChangeMiB == nil || e.MeasuredMiB == nil {
			t.Fatalf("%s: estimate %+v", tc.config, e)
		}
		if *e.ChangeMiB != tc.est || *e.MeasuredMiB != tc.measured || e.WarmSlots != tc.slots || !strings.HasPrefix(e.Gap, tc.gap) {
			t.Errorf("%s: estimate %+v (change %v, measured %v), want %v, %v, %d slots, gap %q", tc.config, e, *e.ChangeMiB, *e.MeasuredMiB, tc.est, tc.measured, tc.slots, tc.gap)
		}
	}
	if e := cellOf(t, a, base, 16).Estimate; e == nil || e.Bytes != 0 || e.ChangeMiB != nil {
		t.Errorf("baseline estimate %+v", e)
	}
	if e := cellOf(t, Analyze(memGrid(), Options{}), "kr=1MiB", 16).Estimate; e != nil {
		t.Errorf("estimate without the host's counters: %+v", e)
	}
}

// TestMemoryBudgetRealRun analyses a real run of configs/memory.toml
// (reports/memory-example: the built-in host, 4 MiB dirtied per request,
// keep_resident 0 / 1MiB / 4MiB at c = 1 and 16, 2026-12-07) with and
// without analysis.max_rss between the RSS of 1MiB and of 4MiB at c=16:
// 4MiB is the cheapest by CPU, and the budget moves the pick to 1MiB and
// names 4MiB as excluded.
func TestMemoryBudgetRealRun(t *testing.T) {
	ws, err := results.Read("../../reports/memory-example/results.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	const (
		kr0, kr1, kr4 = "linear_memory_keep_resident=0", "linear_memory_keep_resident=1MiB", "linear_memory_keep_resident=4MiB"
	)
	o := Options{Baseline: kr0, AA: kr0 + " [A/A]"}
	free := Analyze(ws, o)
	if r := free.Recommendation; r == nil || r.Config != kr4 || len(r.Excluded) > 0 {
		t.Fatalf("without a budget: %+v, want %s", r, kr4)
	}
	rss1, rss4 := cellOf(t, free, kr1, 16).RSSBytes, cellOf(t, free, kr4, 16).RSSBytes
	if rss1 >= rss4 {
		t.Fatalf("RSS at c=16: 1MiB %d, 4MiB %d: the fixture no longer has 4MiB above 1MiB", rss1, rss4)
	}
	o.MaxRSS = (rss1 + rss4) / 2
	a := Analyze(ws, o)
	r := a.Recommendation
	if r == nil || r.Config != kr1 || len(r.Excluded) != 1 || !strings.HasPrefix(r.Excluded[0], kr4+" (RSS ") {
		t.Fatalf("with max_rss %s: %+v, want %s with %s excluded", sweep.MiBText(o.MaxRSS), r, kr1, kr4)
	}
	if r.RSSChangeMiB == nil {
		t.Errorf("the pick has no RSS change: %+v", r)
	}
	if c := cellOf(t, a, kr4, 16); len(c.OverBudget) != 1 {
		t.Errorf("4MiB at c=16 over budget: %q", c.OverBudget)
	}
}
