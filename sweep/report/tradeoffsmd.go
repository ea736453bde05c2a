package report

import (
	"fmt"
	"strings"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/units"
)

// tradeoffs is summary.md's section "Tradeoffs": the settings whose
// change flips sign between the lowest and a higher concurrency.
func (m *mdWriter) tradeoffs() {
	m.f("## Tradeoffs\n\n")
	// One line per config and metric: the first flip in words, then the
	// further levels where it holds.
	type key struct {
		config string
		metric sweep.Metric
	}
	var order []key
	flips := map[key][]sweep.Tradeoff{}
	rpsFlips := map[string]bool{}
	for _, t := range m.s.Tradeoffs {
		if t.Flip && t.Metric == sweep.MetricRPS {
			rpsFlips[t.Config] = true
		}
	}
	for _, t := range m.s.Tradeoffs {
		// Success RPS repeats RPS unless errors split them.
		if !t.Flip || (t.Metric == sweep.MetricSuccessRPS && rpsFlips[t.Config]) {
			continue
		}
		k := key{t.Config, t.Metric}
		if flips[k] == nil {
			order = append(order, k)
		}
		flips[k] = append(flips[k], t)
	}
	if len(order) == 0 {
		m.f("No setting flips sign between the lowest and a higher concurrency.\n\n")
		return
	}
	for _, k := range order {
		ts := flips[k]
		t := ts[0]
		m.f("- %s: %s %s at c=%d, %s at c=%d — %s", code(k.config), units.Change(t.Low), t.Metric.Label(), t.LowConc, units.Change(t.High), t.HighConc, flipPhrase(t))
		if len(ts) > 1 {
			var also []string
			for _, t := range ts[1:] {
				also = append(also, fmt.Sprintf("c=%d (%s)", t.HighConc, units.Change(t.High)))
			}
			m.f("; also at %s", strings.Join(also, ", "))
		}
		m.f(".\n")
	}
	m.f("\n")
}

// flipPhrase names a sign flip in plain words.
func flipPhrase(t sweep.Tradeoff) string {
	good, bad := "better", "worse"
	switch t.Metric {
	case sweep.MetricCPUPerReq:
		good, bad = "cheaper", "costlier"
	case sweep.MetricRPS, sweep.MetricSuccessRPS:
		good, bad = "faster", "slower"
	case sweep.MetricP99:
		good, bad = "lower p99", "higher p99"
	}
	if (t.Low < 0) != t.Metric.LowerIsBetter() {
		good, bad = bad, good
	}
	low := fmt.Sprintf("at c=%d", t.LowConc)
	if t.LowConc == 1 {
		low = "single-threaded"
	}
	return fmt.Sprintf("%s %s, %s at c=%d", good, low, bad, t.HighConc)
}
