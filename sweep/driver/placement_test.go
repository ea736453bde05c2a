package driver

import (
	"slices"
	"testing"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/cpuset"
)

// TestServerCPUsAxis runs the built-in host with grid.server_cpus = ["0",
// "0-1"] beside the load generator on CPU 1 (run.share_cpus) and the
// reference server: every window records its own server's CPU count, the
// two-CPU config's windows and cells are flagged as sharing, the reference
// runs on the baseline's CPUs, and level 4 is parallel for the two-CPU
// config only. (target.Start refuses a server whose affinity, read back
// from /proc, is not its slot's set, so every window here ran where its
// point said.)
func TestServerCPUsAxis(t *testing.T) {
	m, err := cpuset.ThisMachine()
	if err != nil || !slices.Contains(m.Usable, 0) || !slices.Contains(m.Usable, 1) {
		t.Skipf("needs CPUs 0 and 1 (usable: %v, %v)", m.Usable, err)
	}
	_, s, ws := run(t, `
name = "placement"
[workload]
touch = "4KiB"
[grid]
server_cpus = ["0", "0-1"]
[load]
concurrency = [1, 4]
warmup = "200ms"
duration = "400ms"
rounds = 2
aa = false
[run]
load_cpus = "1"
share_cpus = true
reference = true
`)
	const one, two = "server_cpus=0", "server_cpus=0-1"
	counts := map[string]int{}
	for _, w := range ws {
		if w.Failed {
			t.Fatalf("failed window %+v", w)
		}
		want, shares := 1, false
		if w.Config == two {
			want, shares = 2, true
		}
		if w.ServerCPUCount != want || w.SharesCPUs != shares {
			t.Errorf("%s c=%d round %d: server_cpu_count %d shares_cpus %v, want %d %v",
				w.Config, w.Concurrency, w.Round, w.ServerCPUCount, w.SharesCPUs, want, shares)
		}
		counts[w.Config]++
	}
	for _, c := range []string{one, two, ReferenceLabel} {
		if counts[c] != 4 {
			t.Errorf("%d windows of %s, want 4 (2 levels × 2 rounds)", counts[c], c)
		}
	}
	if c := cell(t, s, two, 4); !c.SharesCPUs || !(c.Parallel != nil && *c.Parallel) {
		t.Errorf("%s c=4: shares_cpus %v parallel %v, want both", two, c.SharesCPUs, (c.Parallel != nil && *c.Parallel))
	}
	if c := cell(t, s, one, 4); c.SharesCPUs || c.Parallel == nil || *c.Parallel {
		t.Errorf("%s c=4: shares_cpus %v parallel %v, want neither (queued on one CPU)", one, c.SharesCPUs, c.Parallel)
	}
	if _, ok := cell(t, s, two, 1).VsBaseline[sweep.MetricCPUPerReq]; !ok {
		t.Errorf("%s c=1 is not compared with the baseline %s", two, one)
	}
	e := s.Environment
	if !e.ServerCPUsAxis || !e.ShareCPUs || e.ServerCPUs != "0-1" || e.LoadCPUs != "1" {
		t.Errorf("environment %+v: want the axis, share_cpus, server CPUs 0-1 (the union), load CPUs 1", e)
	}
}
