package stats

import (
	"testing"

	"github.com/sweep-dev/sweep/sweep"
)

func TestPairedDelta(t *testing.T) {
	ws := join(
		series(base, 1, 100, 100, 100, 100, 100),
		// Per-round ratios −0.10, −0.20, +0.10, −0.05, −0.15; round 5 has no
		// baseline partner and must not count.
		series("kr=64KiB", 1, 90, 80, 110, 95, 85, 10),
	)
	ws[0].P99Ms = 20 // round 0: p99 ratio 10/20 − 1 = −0.5
	ws[1].SuccessRPS = 0
	a := Analyze(ws, Options{Baseline: base})
	c := cellOf(t, a, "kr=64KiB", 1)
	d := c.VsBaseline[sweep.MetricCPUPerReq]
	// sorted −0.20 −0.15 −0.10 −0.05 +0.10 → q1 −0.15, median −0.10, q3 −0.05
	if d.Pairs != 5 || !near(d.Q1, -0.15) || !near(d.Median, -0.10) || !near(d.Q3, -0.05) {
		t.Errorf("cpu delta = %+v, want 5 pairs, −0.15 / −0.10 / −0.05", d)
	}
	if d.Verdict != sweep.VerdictBetter {
		t.Errorf("cpu verdict = %q, want better (interval below zero, no A/A)", d.Verdict)
	}
	if d := c.VsBaseline[sweep.MetricRPS]; d.Pairs != 5 || d.Median != 0 || d.Verdict != sweep.VerdictNoChange {
		t.Errorf("rps delta = %+v, want 5 pairs of 0 and no change", d)
	}
	if d := c.VsBaseline[sweep.MetricSuccessRPS]; d.Pairs != 4 {
		t.Errorf("success_rps pairs = %d, want 4 (round 1's baseline is 0: no ratio)", d.Pairs)
	}
	// p99 ratios −0.5, 0, 0, 0, 0 → q1 = median = q3 = 0.
	if d := c.VsBaseline[sweep.MetricP99]; d.Pairs != 5 || d.Q1 != 0 || d.Median != 0 || d.Verdict != sweep.VerdictNoChange {
		t.Errorf("p99 delta = %+v, want 5 pairs, quartiles 0, no change", d)
	}
	if b := cellOf(t, a, base, 1); b.VsBaseline != nil {
		t.Errorf("baseline cell has VsBaseline %v, want none", b.VsBaseline)
	}
	if got := codes(a.Warnings); len(got) != 1 || got[0] != "no_aa" {
		t.Errorf("run warnings = %v, want [no_aa]", got)
	}
}

func TestVerdict(t *testing.T) {
	band := &sweep.Band{Median: -0.01, Q1: -0.05, Q3: 0.03}
	biased := &sweep.Band{Median: -0.04, Q1: -0.06, Q3: -0.02} // one slot persistently faster
	for _, tc := range []struct {
		name   string
		q1, q3 float64
		pairs  int
		band   *sweep.Band
		metric string
		want   string
	}{
		{"below zero, no band, cpu", -0.2, -0.1, 5, nil, sweep.MetricCPUPerReq, sweep.VerdictBetter},
		{"below zero, no band, rps", -0.2, -0.1, 5, nil, sweep.MetricRPS, sweep.VerdictWorse},
		{"above zero, no band, p99", 0.1, 0.2, 5, nil, sweep.MetricP99, sweep.VerdictWorse},
		{"above zero, no band, success rps", 0.1, 0.2, 5, nil, sweep.MetricSuccessRPS, sweep.VerdictBetter},
		{"straddles zero", -0.05, 0.02, 5, nil, sweep.MetricCPUPerReq, sweep.VerdictNoChange},
		{"touches zero", -0.05, 0, 5, nil, sweep.MetricCPUPerReq, sweep.VerdictNoChange},
		{"inside band", -0.04, -0.01, 5, band, sweep.MetricCPUPerReq, sweep.VerdictNoChange},
		{"overlaps band edge", -0.08, -0.04, 5, band, sweep.MetricCPUPerReq, sweep.VerdictNoChange},
		{"ends exactly at band edge", -0.08, -0.05, 5, band, sweep.MetricCPUPerReq, sweep.VerdictNoChange},
		{"below band", -0.12, -0.08, 5, band, sweep.MetricCPUPerReq, sweep.VerdictBetter},
		{"above band, rps", 0.06, 0.10, 5, band, sweep.MetricRPS, sweep.VerdictBetter},
		{"above band, p99", 0.06, 0.10, 5, band, sweep.MetricP99, sweep.VerdictWorse},
		{"above zero but inside band", 0.01, 0.02, 5, band, sweep.MetricRPS, sweep.VerdictNoChange},
		{"below zero inside biased band", -0.04, -0.01, 5, biased, sweep.MetricCPUPerReq, sweep.VerdictNoChange},
		// The band's reach counts on both sides: an identical twin sat
		// 5% below, so a candidate 1–3% above is no detectable change.
		{"above zero and a biased band", 0.01, 0.03, 5, biased, sweep.MetricRPS, sweep.VerdictNoChange},
		{"above the biased band's reach", 0.07, 0.09, 5, biased, sweep.MetricRPS, sweep.VerdictBetter},
		{"no pairs", -0.2, -0.1, 0, nil, sweep.MetricCPUPerReq, sweep.VerdictNoChange},
		{"all zero", 0, 0, 5, nil, sweep.MetricCPUPerReq, sweep.VerdictNoChange},
	} {
		d := sweep.Delta{Q1: tc.q1, Median: (tc.q1 + tc.q3) / 2, Q3: tc.q3, Pairs: tc.pairs}
		if got := verdict(d, tc.band, sweep.LowerIsBetter(tc.metric)); got != tc.want {
			t.Errorf("%s: verdict = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestAABand(t *testing.T) {
	ws := join(
		series(base, 8, 100, 100, 100, 100, 100),
		// A/A cpu ratios +0.01 +0.02 +0.03 +0.04 +0.05: band 0.02 … 0.04,
		// judged against zero alone it is "worse" — the bench's own bias.
		series(aa, 8, 101, 102, 103, 104, 105),
		// Inside the band: +0.025 … +0.035 would be "worse" against zero.
		series("kr=64KiB", 8, 102, 102.5, 103, 103.5, 104),
		// Beyond it: +0.06 … +0.08.
		series("kr=1MiB", 8, 105, 106, 107, 108, 109),
		series(base, 1, 100, 100, 100, 100, 100),
		series("kr=64KiB", 1, 102, 102.5, 103, 103.5, 104), // no A/A at c=1
	)
	a := Analyze(ws, Options{Baseline: base, AA: aa})
	want := sweep.Band{Median: 0.03, Q1: 0.02, Q3: 0.04}
	for _, config := range []string{base, aa, "kr=64KiB", "kr=1MiB"} {
		c := cellOf(t, a, config, 8)
		b := c.AABand[sweep.MetricCPUPerReq]
		if !near(b.Median, want.Median) || !near(b.Q1, want.Q1) || !near(b.Q3, want.Q3) {
			t.Errorf("%s AABand cpu = %+v, want %+v", config, b, want)
		}
		if b := c.AABand[sweep.MetricRPS]; b != (sweep.Band{}) {
			t.Errorf("%s AABand rps = %+v, want all zero (identical RPS)", config, b)
		}
	}
	for _, tc := range []struct {
		config string
		conc   int
		want   string
	}{
		{aa, 8, sweep.VerdictWorse}, // against zero only
		{"kr=64KiB", 8, sweep.VerdictNoChange},
		{"kr=1MiB", 8, sweep.VerdictWorse},
		{"kr=64KiB", 1, sweep.VerdictWorse}, // no band at c=1: against zero
	} {
		if got := cellOf(t, a, tc.config, tc.conc).VsBaseline[sweep.MetricCPUPerReq].Verdict; got != tc.want {
			t.Errorf("%s at c=%d: cpu verdict %q, want %q", tc.config, tc.conc, got, tc.want)
		}
	}
	if c := cellOf(t, a, "kr=64KiB", 1); c.AABand != nil {
		t.Errorf("c=1 cell has AABand %v, want none (no A/A windows there)", c.AABand)
	}
	if got := codes(a.Warnings); len(got) != 0 {
		t.Errorf("run warnings = %v, want none", got)
	}
}
