package stats

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sweep-dev/sweep/sweep"
)

func TestCellOrder(t *testing.T) {
	// Windows arrive interleaved as a rotated schedule writes them.
	ws := []sweep.Window{
		win("kr=1MiB", 16, 0, 1), win(base, 16, 0, 1), win("kr=64KiB", 16, 0, 1), win(aa, 16, 0, 1),
		win(aa, 1, 0, 1), win("kr=64KiB", 1, 0, 1), win(base, 1, 0, 1), win("kr=1MiB", 1, 0, 1),
		win("kr=64KiB", 4, 0, 1),
	}
	a := Analyze(ws, Options{Baseline: base, AA: aa})
	var got []string
	for _, c := range a.Cells {
		got = append(got, c.Config+"@"+strconv.Itoa(c.Concurrency))
	}
	want := []string{
		"kr=0@1", "kr=0@16",
		"kr=0 [A/A]@1", "kr=0 [A/A]@16",
		"kr=1MiB@1", "kr=1MiB@16",
		"kr=64KiB@1", "kr=64KiB@4", "kr=64KiB@16",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("cell order\n got %v\nwant %v", got, want)
	}
	if c := a.Cells[0]; !c.Baseline || c.AA || c.Point["kr"] != "0" {
		t.Errorf("first cell %+v: want the baseline with point kr=0", c)
	}
	if c := a.Cells[2]; c.Baseline || !c.AA {
		t.Errorf("third cell baseline=%v aa=%v, want the A/A twin", c.Baseline, c.AA)
	}
	// Without labels in the options the windows' flags name them.
	b := Analyze(ws, Options{})
	if b.Cells[0].Config != base || b.Cells[2].Config != aa {
		t.Errorf("flag-derived order starts %q, %q; want baseline, A/A", b.Cells[0].Config, b.Cells[2].Config)
	}
}

func TestCellMedians(t *testing.T) {
	ws := []sweep.Window{
		win(base, 4, 0, 100, rps(900)),
		win(base, 4, 1, 120, rps(1000), errs5xx(10)),
		win(base, 4, 2, 110, rps(1100)),
		win(base, 4, 3, 130, rps(1200)),
		win(base, 4, 4, 500, failed("server exited: signal: killed")),
		win(base, 4, 5, 90, rps(800)),
		// Round 3 measured again (a -resume after a crash): the last one counts.
		win(base, 4, 3, 140, rps(1300)),
	}
	ws[0].P50Ms, ws[0].P95Ms, ws[0].P99Ms = 1, 3, 9
	ws[2].TransportErrors = map[string]int64{"timeout": 15, "conn_reset": 5}
	ws[2].Requests = 30000
	ws[2].GeneratorBound = true
	ws[5].RSSBytes = 60 << 20
	ws[5].MinorFaultsPerReq = 4
	a := Analyze(ws, Options{Baseline: base, MinRounds: 5})
	c := cellOf(t, a, base, 4)
	// Good rounds 0, 1, 2, 3 (second), 5: cpu 100 120 110 140 90 → sorted
	// 90 100 110 120 140: q1 100, median 110, q3 120.
	if c.Rounds != 5 || c.CPUUsPerReq != 110 || c.CPUUsQ1 != 100 || c.CPUUsQ3 != 120 {
		t.Errorf("rounds %d, cpu %v (%v … %v); want 5, 110 (100 … 120)", c.Rounds, c.CPUUsPerReq, c.CPUUsQ1, c.CPUUsQ3)
	}
	// RPS 900 1000 1100 1300 800 → 1000. Success RPS: round 1 is 1000·0.999.
	if c.RPS != 1000 || !near(c.SuccessRPS, 999) {
		t.Errorf("rps %v success %v; want 1000 and 999", c.RPS, c.SuccessRPS)
	}
	if c.P50Ms != 2 || c.P95Ms != 5 || c.P99Ms != 10 {
		t.Errorf("latency %v/%v/%v; want the medians 2/5/10", c.P50Ms, c.P95Ms, c.P99Ms)
	}
	if c.RSSBytes != 50<<20 || c.MinorFaultsPerReq != 2 {
		t.Errorf("rss %d faults/req %v; want 50 MiB and 2", c.RSSBytes, c.MinorFaultsPerReq)
	}
	// Errors pooled: (10 + 20) / (4·10000 + 30000).
	if c.Errors5xx != 10 || !near(c.ErrorRate, 30.0/70000) {
		t.Errorf("errors %d rate %v; want 10 and %v", c.Errors5xx, c.ErrorRate, 30.0/70000)
	}
	if c.GeneratorBound != 1 {
		t.Errorf("generator-bound windows %d, want 1", c.GeneratorBound)
	}
	if got, want := codes(c.Warnings), []string{"failed_windows", "errors", "generator_bound"}; !slices.Equal(got, want) {
		t.Errorf("warnings %v, want %v", got, want)
	}
	if w := c.Warnings[0]; w.Message != "1 of 7 windows failed (first: server exited: signal: killed); they are left out of the medians" ||
		w.Config != base || w.Conc != 4 {
		t.Errorf("failed_windows warning = %+v", w)
	}
	if w := c.Warnings[1]; w.Message != "errors: 0.04% (30 of 70000 requests)" {
		t.Errorf("errors warning = %q", w.Message)
	}
}

func TestCellAllFailed(t *testing.T) {
	ws := join(flat(base, 1, 12, 100), []sweep.Window{
		win("kr=1MiB", 1, 0, 0, failed("never ready")),
		win("kr=1MiB", 1, 1, 0, failed("never ready")),
	})
	a := Analyze(ws, Options{Baseline: base})
	c := cellOf(t, a, "kr=1MiB", 1)
	if c.Rounds != 0 || c.CPUUsPerReq != 0 || c.VsBaseline[sweep.MetricCPUPerReq].Pairs != 0 {
		t.Errorf("all-failed cell: rounds %d cpu %v pairs %d; want zeros", c.Rounds, c.CPUUsPerReq, c.VsBaseline[sweep.MetricCPUPerReq].Pairs)
	}
	if got, want := codes(c.Warnings), []string{"failed_windows", "few_rounds"}; !slices.Equal(got, want) {
		t.Errorf("warnings %v, want %v", got, want)
	}
}

// TestCellIPIs: a cell's interrupt figures are the medians of the windows
// that have them, and absent when none has.
func TestCellIPIs(t *testing.T) {
	ipis := func(tlb, cal float64) func(*sweep.Window) {
		return func(w *sweep.Window) { w.TLBShootdownsPerReq, w.CallIPIsPerReq = &tlb, &cal }
	}
	ws := []sweep.Window{
		win(base, 16, 0, 100, ipis(0.5, 2)), win(base, 16, 1, 100, ipis(0.1, 1)), win(base, 16, 2, 100, ipis(0.3, 4)),
		win(base, 16, 3, 100), // read before the figures existed: left out
		win(aa, 16, 0, 100), win(aa, 16, 1, 100),
	}
	a := Analyze(ws, Options{Baseline: base, AA: aa})
	for _, c := range a.Cells {
		switch {
		case c.Config == base:
			if c.TLBShootdownsPerReq == nil || *c.TLBShootdownsPerReq != 0.3 || *c.CallIPIsPerReq != 2 {
				t.Errorf("baseline: TLB/req %v, CAL/req %v; want medians 0.3 and 2", c.TLBShootdownsPerReq, c.CallIPIsPerReq)
			}
		case c.TLBShootdownsPerReq != nil || c.CallIPIsPerReq != nil:
			t.Errorf("%s: interrupt figures %v, %v from windows without them", c.Config, *c.TLBShootdownsPerReq, *c.CallIPIsPerReq)
		}
	}
}

// TestParallel: a cell is parallel when its server could run on more than
// one CPU and its level is above 1; a run whose every server ran on one
// CPU up to c > 1 gets the run-level warning one_cpu, and a run whose
// windows do not record the CPUs gets none.
func TestParallel(t *testing.T) {
	cpus := func(n int) func(*sweep.Window) { return func(w *sweep.Window) { w.ServerCPUCount = n } }
	for _, tt := range []struct {
		name     string
		n        int   // server CPUs of every window
		levels   []int // concurrency levels
		parallel map[int]bool
		warn     bool
	}{
		{"two CPUs", 2, []int{1, 16}, map[int]bool{1: false, 16: true}, false},
		{"one CPU, c up to 16", 1, []int{1, 16}, map[int]bool{1: false, 16: false}, true},
		{"one CPU, c = 1 only", 1, []int{1}, map[int]bool{1: false}, false},
		{"not recorded", 0, []int{1, 16}, map[int]bool{1: false, 16: false}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var ws []sweep.Window
			for _, c := range tt.levels {
				for round := range 3 {
					ws = append(ws, win(base, c, round, 100, cpus(tt.n)), win(aa, c, round, 100, cpus(tt.n)))
				}
			}
			a := Analyze(ws, Options{Baseline: base, AA: aa})
			for _, c := range a.Cells {
				if (c.Parallel != nil && *c.Parallel) != tt.parallel[c.Concurrency] || c.ServerCPUCount != tt.n || (c.Parallel == nil) != (tt.n == 0) {
					t.Errorf("%s c=%d: parallel %v on %d CPUs; want %v on %d (absent when not recorded)", c.Config, c.Concurrency, c.Parallel, c.ServerCPUCount, tt.parallel[c.Concurrency], tt.n)
				}
			}
			got := false
			for _, w := range a.Warnings {
				if w.Code == "one_cpu" {
					got = true
					if !strings.Contains(w.Message, "queued on one CPU") {
						t.Errorf("one_cpu message %q", w.Message)
					}
				}
			}
			if got != tt.warn {
				t.Errorf("one_cpu warning %v, want %v", got, tt.warn)
			}
		})
	}
}

// TestCellSharesCPUs: a cell shares CPUs with the load generator when
// any of its windows did.
func TestCellSharesCPUs(t *testing.T) {
	shares := func(on bool) func(*sweep.Window) { return func(w *sweep.Window) { w.SharesCPUs = on } }
	var ws []sweep.Window
	for round := range 3 {
		ws = append(ws, win(base, 4, round, 100, shares(false)), win(aa, 4, round, 100, shares(round == 1)))
	}
	a := Analyze(ws, Options{Baseline: base, AA: aa})
	for _, c := range a.Cells {
		if want := c.Config == aa; c.SharesCPUs != want {
			t.Errorf("%s: shares_cpus %v, want %v", c.Config, c.SharesCPUs, want)
		}
	}
}

// TestBusyMachineWarning: a cell whose median other work on the server or
// load CPUs is above BusyWarn gets busy_machine; windows without the
// figures leave the cell without them and without the warning.
func TestBusyMachineWarning(t *testing.T) {
	other := func(s, l float64) func(*sweep.Window) {
		return func(w *sweep.Window) { w.ServerOther, w.LoadOther = &s, &l }
	}
	for _, tt := range []struct {
		name string
		opt  func(*sweep.Window)
		want bool
	}{
		{"quiet", other(0.02, 0.04), false},
		{"busy server CPUs", other(0.35, 0.04), true},
		{"busy load CPUs", other(0.02, DefaultBusyWarn+0.01), true},
		{"not recorded", func(*sweep.Window) {}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var ws []sweep.Window
			for round := range 3 {
				ws = append(ws, win(base, 4, round, 100, tt.opt), win(aa, 4, round, 100, tt.opt))
			}
			a := Analyze(ws, Options{Baseline: base, AA: aa})
			for _, c := range a.Cells {
				got := false
				for _, w := range c.Warnings {
					if w.Code == "busy_machine" {
						got = true
						if !strings.Contains(w.Message, "other work took") || !strings.Contains(w.Message, "more than 10%") {
							t.Errorf("message %q", w.Message)
						}
					}
				}
				if got != tt.want {
					t.Errorf("%s: busy_machine %v, want %v", c.Config, got, tt.want)
				}
				if (c.ServerOther == nil) != (tt.name == "not recorded") {
					t.Errorf("%s: server_other %v", c.Config, c.ServerOther)
				}
			}
		})
	}
}
