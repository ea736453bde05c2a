package report

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/sweep-dev/sweep/sweep"
)

// TestPreview: -dry-run's words from the driver's data: the slots and
// their roles, a race's rounds and expected windows, the server starts,
// and for a shard its blocks and every shard's time.
func TestPreview(t *testing.T) {
	p := sweep.Preview{
		Name: "race", Target: sweep.TargetBuiltin, BlockSize: 8,
		Blocks: [][]sweep.PreviewSlot{
			{{Index: 0, Config: "k=0", Baseline: true}, {Index: 1, Config: "k=0 [A/A]", AA: true}, {Index: 2, Config: "k=1"}},
			{{Index: 3, Config: "k=0", Baseline: true}, {Index: 4, Config: "k=2", CPUs: "1", SharesCPUs: true}},
		},
		Concurrency: []int{1, 16}, Warmup: 300 * time.Millisecond, Duration: time.Second, Slices: 1,
		Kind: "race", Rounds: 30, TargetConc: 16, Finalists: 4, ConfirmRounds: 13, Restarts: sweep.RestartsRound,
		Measured: 600, Starts: 600, Expected: 300, Points: 3,
		ServerCPUs: "0", LoadCPUs: "1", Estimate: 10 * time.Minute,
	}
	var b bytes.Buffer
	if err := Preview(&b, p); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`sweep "race" (builtin target)`,
		"slots (5 server processes in 2 blocks of up to 8 points besides the baseline",
		"   0  k=0  (baseline)\n", "   1  k=0 [A/A]  (A/A twin of the baseline)\n",
		"   4  k=2  [CPUs 1: shares CPUs with the load generator, run.share_cpus]\n",
		"rounds: race at c=16, up to 30 rounds of every surviving config, then 4 finalists confirmed at every level in 13 fresh rounds",
		"server starts: 600 at most (only one block's servers alive at a time; restarts = \"round\": every measured window's server is fresh)",
		"a race's expected windows: about 300",
		"estimated wall time: 10m0s at most, about 5m0s expected\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("preview lacks %q:\n%s", want, b.String())
		}
	}
	p.Shard, p.ShardBlocks, p.ShardEstimates = "1/2", []int{1}, []time.Duration{4 * time.Minute, 6 * time.Minute}
	b.Reset()
	if err := Preview(&b, p); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"  block 1 (2 slots)  [shard 1/2]\n", "shard 1/2: blocks 1\n", "per shard: 0/2 4m0s, 1/2 6m0s (this one)\n"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("shard preview lacks %q:\n%s", want, b.String())
		}
	}
}
