package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/sweep-dev/sweep/sweep"
)

// peerCell is a candidate cell at c=16 whose CPU/req changed by median
// within [lo, hi] against the baseline with the given verdict.
func peerCell(config string, median, lo, hi float64, verdict sweep.Verdict) sweep.Cell {
	return sweep.Cell{
		Config: config, Concurrency: 16, Rounds: 12, CPUUsPerReq: 50,
		VsBaseline: map[sweep.Metric]sweep.Delta{sweep.MetricCPUPerReq: {
			Median: median, CILow: &lo, CIHigh: &hi, Verdict: verdict, Pairs: 12, Confidence: 0.99,
		}},
	}
}

// TestRecommendationPeers: the recommendation names the other configs
// that also improved for certain, cleanly and within budget, with an
// interval that meets the pick's, and no others; a pick without such
// peers gets no sentence.
func TestRecommendationPeers(t *testing.T) {
	base := sweep.Cell{Config: "k=0", Baseline: true, Concurrency: 16, Rounds: 12, CPUUsPerReq: 100}
	aa := peerCell("k=0 [A/A]", -0.50, -0.55, -0.45, sweep.VerdictBetter) // would be a peer, but is the twin
	aa.AA = true
	errs := peerCell("k=errors", -0.49, -0.55, -0.45, sweep.VerdictBetter)
	errs.ErrorRate = 0.01
	over := peerCell("k=over", -0.49, -0.55, -0.45, sweep.VerdictBetter)
	over.OverBudget = []string{"RSS 90 MiB > max_rss 64.0 MiB"}
	withRSS := peerCell("k=rss", -0.48, -0.52, -0.44, sweep.VerdictBetter)
	withRSS.MemoryVsBaseline = map[sweep.MemoryMetric]sweep.MemoryChange{sweep.MemRSS: {MedianMiB: 1.0}}
	cells := []sweep.Cell{
		base, aa,
		peerCell("k=pick", -0.50, -0.53, -0.47, sweep.VerdictBetter),
		peerCell("k=near", -0.49, -0.51, -0.46, sweep.VerdictBetter),
		withRSS,
		peerCell("k=apart", -0.30, -0.35, -0.25, sweep.VerdictBetter),      // interval below the pick's
		peerCell("k=touching", -0.45, -0.47, -0.40, sweep.VerdictBetter),   // meets the pick's bound exactly
		peerCell("k=nochange", -0.49, -0.60, +0.10, sweep.VerdictNoChange), // overlaps, but not better
		peerCell("k=failed", -0.49, -0.52, -0.46, sweep.VerdictBetter),
		errs, over,
	}
	rec := &sweep.Recommendation{Objective: sweep.ObjectiveCPUPerReq, Concurrency: 16, Config: "k=pick", Change: -0.50}
	s := sweep.Summary{
		Baseline: "k=0", AAConfig: "k=0 [A/A]", Cells: cells, Recommendation: rec,
		Warnings: []sweep.Warning{{Code: sweep.WarnFailedWindows, Config: "k=failed", Conc: 16, Message: "1 failed window"}},
	}
	md := recommendationText(t, s)
	want := "Not told apart from it: 3 other configs improve CPU per request at c=16 too, with intervals that overlap its own " +
		"(the run compares each config with the baseline, not with one another, so the pick has only the best median): " +
		"`k=near` −49.0% [−51.0%, −46.0%]; `k=rss` −48.0% [−52.0%, −44.0%], RSS +1.0 MiB; `k=touching` −45.0% [−47.0%, −40.0%]."
	if !strings.Contains(md, want) {
		t.Errorf("recommendation:\n%s\nwant it to contain:\n%s", md, want)
	}
	for _, not := range []string{"k=apart", "k=nochange", "k=failed", "k=errors", "k=over", "[A/A]`"} {
		if strings.Contains(md, not) {
			t.Errorf("recommendation names %s, which is no peer:\n%s", not, md)
		}
	}

	s.Cells = []sweep.Cell{base, cells[2], cells[5]} // the pick and one config told apart
	if md := recommendationText(t, s); strings.Contains(md, "Not told apart") {
		t.Errorf("a pick without peers got the sentence:\n%s", md)
	}
	one := []sweep.Cell{base, cells[2], cells[3]}
	s.Cells = one
	if md := recommendationText(t, s); !strings.Contains(md, "Not told apart from it: another config improves CPU per request at c=16 too, with an interval that overlaps its own") {
		t.Errorf("one peer, recommendation:\n%s", md)
	}
}

// recommendationText is summary.md's Recommendation section for s.
func recommendationText(t *testing.T, s sweep.Summary) string {
	t.Helper()
	var b bytes.Buffer
	if err := Markdown(&b, s, nil); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	start := strings.Index(md, "## Recommendation")
	if start < 0 {
		t.Fatalf("no Recommendation section:\n%s", md)
	}
	end := strings.Index(md[start+3:], "\n## ")
	if end < 0 {
		return md[start:]
	}
	return md[start : start+3+end]
}
