package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/sweep-dev/sweep/sweep"
)

// TestRecommendationPeers: the recommendation names the peers stats
// found (sweep.Recommendation.Peers), each with its change, interval and
// RSS change when measured; a pick without peers gets no sentence.
func TestRecommendationPeers(t *testing.T) {
	one := 1.0
	cells := []sweep.Cell{
		{Config: "k=0", Baseline: true, Concurrency: 16, Rounds: 12, CPUUsPerReq: 100},
		{Config: "k=pick", Concurrency: 16, Rounds: 12, CPUUsPerReq: 50},
	}
	rec := &sweep.Recommendation{Objective: sweep.ObjectiveCPUPerReq, Concurrency: 16, Config: "k=pick", Change: -0.50, Peers: []sweep.Peer{
		{Config: "k=near", Change: -0.49, CILow: -0.51, CIHigh: -0.46},
		{Config: "k=rss", Change: -0.48, CILow: -0.52, CIHigh: -0.44, RSSChangeMiB: &one},
		{Config: "k=touching", Change: -0.45, CILow: -0.47, CIHigh: -0.40},
	}}
	s := sweep.Summary{Baseline: "k=0", Cells: cells, Recommendation: rec}
	md := recommendationText(t, s)
	want := "Not told apart from it: 3 other configs improve CPU per request at c=16 too, with intervals that overlap its own " +
		"(the run compares each config with the baseline, not with one another, so the pick has only the best median): " +
		"`k=near` −49.0% [−51.0%, −46.0%]; `k=rss` −48.0% [−52.0%, −44.0%], RSS +1.0 MiB; `k=touching` −45.0% [−47.0%, −40.0%]."
	if !strings.Contains(md, want) {
		t.Errorf("recommendation:\n%s\nwant it to contain:\n%s", md, want)
	}
	rec.Peers = rec.Peers[:1]
	if md := recommendationText(t, s); !strings.Contains(md, "Not told apart from it: another config improves CPU per request at c=16 too, with an interval that overlaps its own") {
		t.Errorf("one peer, recommendation:\n%s", md)
	}
	rec.Peers = nil
	if md := recommendationText(t, s); strings.Contains(md, "Not told apart") {
		t.Errorf("a pick without peers got the sentence:\n%s", md)
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
