package driver

import (
	"fmt"
	"testing"

	"github.com/sweep-dev/sweep/sweep"
)

// TestSameConfigNoChange runs the built-in host (started as a command
// target, so that two grid points can be the very same server) with a
// candidate identical to the baseline, with the defaults (fresh processes
// every round, interleaved windows): every verdict must be "no detectable
// change", and an interval must exist (with too few pairs nothing could be
// called, and the test could not fail). Holm holds the chance of any false
// verdict in a run at 1 − confidence; the test asks for 0.99, so it fails
// by chance in at most 1 run in 100 (BENCHMARKS.md measures the rate at
// the default 0.95).
func TestSameConfigNoChange(t *testing.T) {
	_, s, _ := run(t, fmt.Sprintf(`
name = "same-config"
[target]
kind = "command"
command = [%q, "serve", "-listen", "127.0.0.1:{{port}}", "-touch", "16KiB"]
env = { SWEEP_TEST_TWIN = "{{twin}}" }
[grid]
twin = ["a", "b"]
[load]
concurrency = [1, 4]
warmup = "300ms"
duration = "700ms"
[analysis]
confidence = 0.99
`, bins.sweep))
	n := 0
	for _, c := range s.Cells {
		if c.Config != "twin=b" {
			continue
		}
		for metric, d := range c.VsBaseline {
			n++
			if d.CILow == nil || d.CIHigh == nil {
				t.Errorf("c=%d %s: no interval with %d pairs: nothing could have been called", c.Concurrency, metric, d.Pairs)
				continue
			}
			t.Logf("c=%d %s: %+.1f%% [%+.1f%%, %+.1f%%] at %.4f (%s)", c.Concurrency, metric, 100*d.Estimate, 100**d.CILow, 100**d.CIHigh, d.Confidence, d.Correction)
			if d.Verdict != sweep.VerdictNoChange {
				t.Errorf("c=%d %s: verdict %q (%+.1f%% [%+.1f%%, %+.1f%%]) for a config identical to the baseline",
					c.Concurrency, metric, d.Verdict, 100*d.Estimate, 100**d.CILow, 100**d.CIHigh)
			}
		}
	}
	if n == 0 {
		t.Fatal("no comparisons for the twin config")
	}
}
