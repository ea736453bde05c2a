package driver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/merge"
	"github.com/sweep-dev/sweep/sweep/results"
	"github.com/sweep-dev/sweep/sweep/rundir"
	"github.com/sweep-dev/sweep/sweep/shard"
)

// TestBlocksLayout: past run.block_size, the grid is split in grid order
// into blocks that each hold the baseline, its twin and the reference;
// slot indices are unique over the run; the plan runs the blocks one
// after another. Up to block_size candidates, one block in grid order.
func TestBlocksLayout(t *testing.T) {
	dir := t.TempDir()
	grid := func(size int) string {
		return fmt.Sprintf(`
[target]
kind = "builtin"
[grid]
max_unused_warm_slots = [10, 20, 30, 40, 50, 60]
[baseline]
max_unused_warm_slots = 30
[load]
concurrency = [1, 4]
rounds = 2
[run]
reference = true
block_size = %d
`, size)
	}
	c := loadConfig(t, dir, grid(2))
	var got []string
	seen := map[int]bool{}
	for b, bs := range Blocks(c) {
		var names []string
		for _, s := range bs {
			if s.Block != b || seen[s.Index] {
				t.Errorf("block %d: slot %+v: wrong block or index used twice", b, s)
			}
			seen[s.Index] = true
			names = append(names, fmt.Sprintf("%d:%s", s.Index, strings.TrimPrefix(s.Config, "max_unused_warm_slots=")))
		}
		got = append(got, strings.Join(names, " "))
	}
	want := []string{
		"0:10 1:20 2:30 3:30 [A/A] 4:[reference]",
		"5:30 6:30 [A/A] 7:40 8:50 9:[reference]",
		"10:30 11:30 [A/A] 12:60 13:[reference]",
	}
	if strings.Join(got, " | ") != strings.Join(want, " | ") {
		t.Errorf("blocks:\n got %q\nwant %q", got, want)
	}
	steps := Worst(c, shard.Spec{})
	last := 0
	for _, s := range steps {
		if s.Slot.Block < last {
			t.Fatalf("step %+v of block %d after block %d: blocks must run one after another", s, s.Slot.Block, last)
		}
		last = s.Slot.Block
	}
	if n := len(steps); n != (5+5+4)*2*2 {
		t.Errorf("%d steps, want %d (14 slots × 2 levels × 2 rounds)", n, 14*2*2)
	}
	if got := len(Worst(c, shard.Spec{Index: 1, Count: 2})); got != 5*2*2 {
		t.Errorf("shard 1/2: %d steps, want block 1's %d", got, 5*2*2)
	}
	one := Blocks(loadConfig(t, dir, grid(8)))
	if len(one) != 1 || len(one[0]) != 8 || one[0][2].Config != "max_unused_warm_slots=30" || one[0][3].Config != "max_unused_warm_slots=30"+AASuffix {
		t.Errorf("block_size 8: %+v, want one block: the six points in grid order, the twin after the baseline, the reference", one)
	}
}

// blockGrid is a command-target grid of the burner: four candidates and
// the baseline, block_size 2, so two blocks of four servers each (the
// baseline, its twin, two candidates), servers kept for a block's whole
// length.
func blockGrid() string {
	return fmt.Sprintf(`
name = "blocks"
[target]
kind = "command"
command = [%q, "-port", "{{port}}", "-burn", "{{burn}}"]
url = "http://127.0.0.1:{{port}}/"
[grid]
burn = ["200us", "100us", "300us", "400us", "500us"]
[baseline]
burn = "200us"
[load]
concurrency = [1]
warmup = "100ms"
duration = "300ms"
rounds = 3
[run]
restarts = "never"
block_size = 2
`, bins.burner)
}

// liveServers counts the processes running the burner until stop is
// closed and returns the most seen at once.
func liveServers(stop <-chan struct{}) <-chan int {
	out := make(chan int, 1)
	go func() {
		most := 0
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				out <- most
				return
			case <-tick.C:
			}
			n := 0
			pids, _ := filepath.Glob("/proc/[0-9]*/cmdline")
			for _, p := range pids {
				if b, err := os.ReadFile(p); err == nil && bytes.HasPrefix(b, []byte(bins.burner+"\x00")) {
					n++
				}
			}
			most = max(most, n)
		}
	}()
	return out
}

// TestBlocksRun runs two blocks for real: only one block's servers are
// alive at a time, every window says its block, each candidate is paired
// with its own block's baseline, and the summary has the blocks and the
// baseline's drift between them.
func TestBlocksRun(t *testing.T) {
	stop := make(chan struct{})
	most := liveServers(stop)
	_, s, ws := run(t, blockGrid())
	close(stop)
	if m := <-most; m < 2 || m > 4 {
		t.Errorf("at most %d burner servers alive at once; want up to one block's 4 (and more than one)", m)
	}
	blockOf := map[string]int{"burn=100us": 0, "burn=300us": 0, "burn=400us": 1, "burn=500us": 1}
	perBlock := map[int]int{}
	for _, w := range ws {
		perBlock[w.Block]++
		if b, ok := blockOf[w.Config]; ok && w.Block != b {
			t.Errorf("window of %s in block %d, want %d", w.Config, w.Block, b)
		}
	}
	if perBlock[0] != 12 || perBlock[1] != 12 {
		t.Errorf("windows per block %v, want 12 in each (4 slots × 3 rounds)", perBlock)
	}
	if s.Plan.Blocks != 2 || s.Plan.BlockSize != 2 || s.Plan.Slots != 8 {
		t.Errorf("plan: %d blocks of %d, %d slots; want 2 of 2, 8 slots", s.Plan.Blocks, s.Plan.BlockSize, s.Plan.Slots)
	}
	if b := cell(t, s, "burn=200us", 1); b.Rounds != 6 {
		t.Errorf("baseline: %d rounds, want 6 (3 in each block)", b.Rounds)
	}
	for c := range blockOf {
		if d := cell(t, s, c, 1).VsBaseline[sweep.MetricCPUPerReq]; d.Pairs != 3 {
			t.Errorf("%s: %d pairs, want 3 (its block's rounds)", c, d.Pairs)
		}
	}
	if len(s.BlockDrift) != 1 || s.BlockDrift[0].Blocks != 2 || s.BlockDrift[0].Min <= 0 {
		t.Errorf("block drift %+v: want one level over 2 blocks", s.BlockDrift)
	}
}

// TestShardsMerge runs the same two-block grid as two shards and merges
// them: the merged run holds every window, is complete, and says which
// shards it holds; a shard given twice, a whole run, shards of another
// config and an existing output are refused with a merge.Error and nothing
// written; a missing shard leaves the merge incomplete, and says so.
func TestShardsMerge(t *testing.T) {
	dir := t.TempDir()
	c := loadConfig(t, dir, blockGrid())
	var shards []merge.Shard
	for i := range 2 {
		out := filepath.Join(dir, fmt.Sprintf("shard-%d", i))
		sh := shard.Spec{Index: i, Count: 2}
		oc, err := Run(context.Background(), Options{Config: c, Dir: out, Shard: sh, Exe: bins.sweep})
		if err != nil || !oc.Complete || oc.Planned != 12 {
			t.Fatalf("shard %s: %+v, %v; want a complete run of 12 windows", sh, oc, err)
		}
		s, err := merge.ReadShard(out)
		if err != nil {
			t.Fatal(err)
		}
		if s.Spec != sh || s.Summary.Plan.Shard != sh.String() || len(s.Summary.Plan.ShardBlocks) != 1 || s.Summary.Plan.ShardBlocks[0] != i {
			t.Errorf("shard %s read back as %s, summary shard %q blocks %v", sh, s.Spec, s.Summary.Plan.Shard, s.Summary.Plan.ShardBlocks)
		}
		for _, w := range s.Windows {
			if w.Block != i {
				t.Errorf("shard %s holds a window of block %d", sh, w.Block)
			}
		}
		shards = append(shards, s)
	}

	merged := filepath.Join(dir, "merged")
	s, err := merge.Merge([]merge.Shard{shards[1], shards[0]}, merged)
	if err != nil {
		t.Fatal(err)
	}
	ws, err := results.Read(filepath.Join(merged, rundir.ResultsFile))
	if err != nil {
		t.Fatal(err)
	}
	if len(ws) != 24 || !s.Complete || s.Plan.Measured != 24 || strings.Join(s.Plan.Merged, ",") != "0/2,1/2" || s.Plan.Shard != "" {
		t.Errorf("merged: %d windows, complete %v, measured %d, merged %v, shard %q; want 24, true, 24, [0/2 1/2], none",
			len(ws), s.Complete, s.Plan.Measured, s.Plan.Merged, s.Plan.Shard)
	}
	if len(s.Cells) != 6 || len(s.BlockDrift) != 1 {
		t.Errorf("merged: %d cells, drift %+v; want 6 cells (5 configs and the twin) and one drift level", len(s.Cells), s.BlockDrift)
	}

	other := shards[0]
	other.Config = append(bytes.Clone(other.Config), []byte("# another config\n")...)
	other.Spec.Index, other.Dir = 1, "elsewhere"
	for _, tt := range []struct {
		name   string
		shards []merge.Shard
		out    string
		want   string
	}{
		{"twice", []merge.Shard{shards[0], shards[0]}, "m-twice", "shard 0/2 given twice"},
		{"configs", []merge.Shard{shards[0], other}, "m-configs", "ran different configs"},
		{"existing output", shards, "merged", "already holds a run"},
	} {
		out := filepath.Join(dir, tt.out)
		_, err := merge.Merge(tt.shards, out)
		var me *merge.Error
		if !errors.As(err, &me) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want a merge.Error saying %q", tt.name, err, tt.want)
		}
		if _, err := os.Stat(out); out != merged && err == nil {
			t.Errorf("%s: %s was written", tt.name, out)
		}
	}
	whole, err := merge.ReadShard(merged)
	if err != nil {
		t.Fatal(err)
	}
	var me *merge.Error
	if _, err := merge.Merge(append([]merge.Shard{whole}, shards[0]), filepath.Join(dir, "mixed")); !errors.As(err, &me) || !strings.Contains(err.Error(), "ran the whole plan") {
		t.Errorf("a merged run beside a shard: %v, want a merge.Error saying it ran the whole plan", err)
	}

	half, err := merge.Merge(shards[:1], filepath.Join(dir, "half"))
	if err != nil {
		t.Fatal(err)
	}
	if half.Complete || len(half.Warnings) == 0 || half.Warnings[0].Code != "missing_shards" || !strings.Contains(half.Warnings[0].Message, "shard 1/2 not given") {
		t.Errorf("merge of shard 0/2 alone: complete %v, warnings %+v; want incomplete, missing_shards naming 1/2 first", half.Complete, half.Warnings)
	}
}
