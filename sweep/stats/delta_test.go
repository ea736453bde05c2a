package stats

import (
	"slices"
	"strings"
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
	// 5 pairs: the best two-sided exact level is 2/32 > 5%, so no
	// interval exists at 95% and nothing can be called: undecided, and
	// with 4 comparisons Holm's first level 1.25% needs 8 pairs
	// (2·2⁻⁸ ≤ 0.0125 < 2·2⁻⁷).
	if d.Verdict != sweep.VerdictUndecided || d.Needed != 8 || d.CILow != nil || d.Resolution != nil {
		t.Errorf("cpu = %+v, want undecided, 8 needed and no interval (5 pairs)", d)
	}
	if d := c.VsBaseline[sweep.MetricRPS]; d.Pairs != 5 || d.Median != 0 || d.Verdict != sweep.VerdictUndecided {
		t.Errorf("rps delta = %+v, want 5 pairs of 0 and undecided", d)
	}
	if d := c.VsBaseline[sweep.MetricSuccessRPS]; d.Pairs != 4 {
		t.Errorf("success_rps pairs = %d, want 4 (round 1's baseline is 0: no ratio)", d.Pairs)
	}
	// p99 ratios −0.5, 0, 0, 0, 0 → q1 = median = q3 = 0.
	if d := c.VsBaseline[sweep.MetricP99]; d.Pairs != 5 || d.Q1 != 0 || d.Median != 0 || d.Verdict != sweep.VerdictUndecided {
		t.Errorf("p99 delta = %+v, want 5 pairs, quartiles 0, undecided", d)
	}
	if b := cellOf(t, a, base, 1); b.VsBaseline != nil {
		t.Errorf("baseline cell has VsBaseline %v, want none", b.VsBaseline)
	}
	if got := codes(a.Warnings); len(got) != 1 || got[0] != "no_aa" {
		t.Errorf("run warnings = %v, want [no_aa]", got)
	}
}

func TestDecide(t *testing.T) {
	// 8 pairs all below zero: the exact two-sided level 2/256 < 1 − 0.99.
	down := []float64{-0.10, -0.11, -0.09, -0.12, -0.10, -0.08, -0.13, -0.10}
	mixed := []float64{-0.02, 0.01, -0.01, 0.02, 0.00, -0.03, 0.03, 0.01}
	for _, tc := range []struct {
		name   string
		rs     []float64
		level  float64
		metric sweep.Metric
		want   sweep.Verdict
		noCI   bool
		needed int // Delta.Needed: set only when undecided
	}{
		{"all below zero, cpu", down, 0.99, sweep.MetricCPUPerReq, sweep.VerdictBetter, false, 0},
		{"all below zero, rps", down, 0.99, sweep.MetricRPS, sweep.VerdictWorse, false, 0},
		{"straddles zero", mixed, 0.95, sweep.MetricCPUPerReq, sweep.VerdictNoChange, false, 0},
		// 2·2⁻⁸ = 0.0078 > 0.001: no interval exists at 99.9% with 8
		// pairs; 2·2⁻¹¹ = 0.00098 ≤ 0.001 with 11.
		{"too few pairs for the level", down, 0.999, sweep.MetricCPUPerReq, sweep.VerdictUndecided, true, 11},
		{"no pairs", nil, 0.95, sweep.MetricCPUPerReq, sweep.VerdictUndecided, true, 6},
	} {
		d := describe(tc.rs)
		decide(&d, tc.rs, tc.level, tc.metric.LowerIsBetter())
		if d.Verdict != tc.want || d.Needed != tc.needed {
			t.Errorf("%s: verdict %q (%d needed), want %q (%d needed)", tc.name, d.Verdict, d.Needed, tc.want, tc.needed)
		}
		if (d.CILow == nil) != tc.noCI || (d.Resolution == nil) != tc.noCI {
			t.Errorf("%s: interval %v…%v resolution %v, want none = %v", tc.name, d.CILow, d.CIHigh, d.Resolution, tc.noCI)
		}
		if !tc.noCI && (d.Confidence < tc.level || *d.CILow > d.Estimate || *d.CIHigh < d.Estimate) {
			t.Errorf("%s: confidence %v (asked %v), estimate %v outside [%v, %v]", tc.name, d.Confidence, tc.level, d.Estimate, *d.CILow, *d.CIHigh)
		}
	}
}

func TestAAControl(t *testing.T) {
	// The A/A twin is a steady 3% slower than the baseline in all 12
	// rounds: it is the control, so it gets no verdict but an aa_effect
	// warning; a candidate 3% slower is called worse.
	vals := func(f float64) []float64 {
		out := make([]float64, 12)
		for i := range out {
			out[i] = 100 * f * (1 + 0.001*float64(i%3))
		}
		return out
	}
	ws := join(series(base, 8, vals(1)...), series(aa, 8, vals(1.03)...), series("kr=64KiB", 8, vals(1.03)...))
	a := Analyze(ws, Options{Baseline: base, AA: aa})
	c := cellOf(t, a, aa, 8)
	if d := c.VsBaseline[sweep.MetricCPUPerReq]; d.Verdict != sweep.VerdictControl || d.CILow == nil {
		t.Errorf("A/A cpu = %+v, want verdict %q with an interval", d, sweep.VerdictControl)
	}
	if !slices.Contains(codes(c.Warnings), "aa_effect") {
		t.Errorf("A/A warnings %v, want aa_effect", codes(c.Warnings))
	}
	d := cellOf(t, a, "kr=64KiB", 8).VsBaseline[sweep.MetricCPUPerReq]
	if d.Verdict != sweep.VerdictWorse || !strings.HasPrefix(d.Correction, "holm: step ") {
		t.Errorf("candidate cpu = %+v, want worse with a holm correction", d)
	}
	if b := c.AABand[sweep.MetricCPUPerReq]; !near(b.Median, 0.03) {
		t.Errorf("A/A band %+v, want median +3%%", b)
	}
}

// TestUndecidedWithoutPairs: a comparison with no pairs at all (the
// baseline's windows of that level all failed or read zero) is outside
// the family and decided nothing: undecided, needing the rounds of the
// family's first level, never "no detectable change".
func TestUndecidedWithoutPairs(t *testing.T) {
	ws := join(series(base, 1, 100, 100, 100, 100, 100, 100, 100, 100),
		series("kr=64KiB", 1, 90, 91, 89, 90, 92, 88, 90, 91))
	for i := range ws {
		if ws[i].Config == base {
			ws[i].P99Ms = 0 // no p99 ratio in any round
		}
	}
	a := Analyze(ws, Options{Baseline: base})
	c := cellOf(t, a, "kr=64KiB", 1)
	d := c.VsBaseline[sweep.MetricP99]
	// The family: CPU/req and RPS (success RPS with it): α/2 = 2.5%
	// needs 7 pairs.
	if d.Pairs != 0 || d.Verdict != sweep.VerdictUndecided || d.Needed != 7 {
		t.Errorf("p99 = %+v, want 0 pairs, undecided, 7 needed", d)
	}
	if d := c.VsBaseline[sweep.MetricCPUPerReq]; d.Verdict != sweep.VerdictBetter {
		t.Errorf("cpu = %+v, want better (8 pairs all −10%%)", d)
	}
}
