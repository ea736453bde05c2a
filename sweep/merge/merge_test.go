package merge

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sweep-dev/sweep/sweep/rundir"
)

// readShards reads the shards of a real two-block run of
// cmd/sweep/testdata/blocks.toml (-shard 0/2 and 1/2, 2026-12-07).
func readShards(t *testing.T) []Shard {
	t.Helper()
	var out []Shard
	for _, d := range []string{"testdata/shard-0", "testdata/shard-1"} {
		s, err := ReadShard(d)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

// TestMerge merges the shards in either order: every window, complete,
// the shards named, the earliest shard's time, and the same bytes both
// times (a merge is a function of the shards' data).
func TestMerge(t *testing.T) {
	shards := readShards(t)
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	s, err := Merge(shards, a)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Merge([]Shard{shards[1], shards[0]}, b); err != nil {
		t.Fatal(err)
	}
	n := len(shards[0].Windows) + len(shards[1].Windows)
	if !s.Complete || s.Plan.Measured != n || s.Plan.Windows != n || strings.Join(s.Plan.Merged, ",") != "0/2,1/2" || s.Plan.Shard != "" || s.Plan.ShardBlocks != nil {
		t.Errorf("merged: complete %v, measured %d of %d, merged %v, shard %q %v; want complete, %d of %d, [0/2 1/2], none",
			s.Complete, s.Plan.Measured, s.Plan.Windows, s.Plan.Merged, s.Plan.Shard, s.Plan.ShardBlocks, n, n)
	}
	if first := shards[0].Summary.Created; !s.Created.Equal(first) || !first.Before(shards[1].Summary.Created) {
		t.Errorf("merged created %v, want the first shard's %v", s.Created, first)
	}
	if len(s.BlockDrift) != 1 || s.Plan.Family != 6 {
		t.Errorf("merged: drift %+v, family %d; want one drift level and 6 comparisons (2 candidates × 1 level × 3)", s.BlockDrift, s.Plan.Family)
	}
	for _, f := range []string{rundir.SummaryFile, rundir.ResultsFile, rundir.ConfigFile, rundir.OriginFile} {
		x, err := os.ReadFile(filepath.Join(a, f))
		if err != nil {
			t.Fatal(err)
		}
		y, err := os.ReadFile(filepath.Join(b, f))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(x, y) {
			t.Errorf("%s differs between the merges of 0,1 and 1,0", f)
		}
	}
	// A whole run (here the merged one) given alone is summarised again:
	// the same summary.json, byte for byte; beside a shard it is refused.
	m, err := ReadShard(a)
	if err != nil {
		t.Fatal(err)
	}
	again := filepath.Join(dir, "again")
	if _, err := Merge([]Shard{m}, again); err != nil {
		t.Fatal(err)
	}
	x, _ := os.ReadFile(filepath.Join(a, rundir.SummaryFile))
	y, _ := os.ReadFile(filepath.Join(again, rundir.SummaryFile))
	if !bytes.Equal(x, y) {
		t.Errorf("a whole run summarised again differs from its summary.json")
	}
	var me *Error
	if _, err := Merge([]Shard{m, shards[0]}, filepath.Join(dir, "mixed")); !errors.As(err, &me) || !strings.Contains(err.Error(), "ran the whole plan") {
		t.Errorf("a whole run beside a shard: %v, want an *Error saying it ran the whole plan", err)
	}
}

// TestMergeRefused: a shard given twice, shards of another config and an
// existing output are an *Error and nothing is written; a missing shard
// leaves the merge incomplete, and says so first.
func TestMergeRefused(t *testing.T) {
	shards := readShards(t)
	dir := t.TempDir()
	done := filepath.Join(dir, "done")
	if _, err := Merge(shards, done); err != nil {
		t.Fatal(err)
	}
	other := shards[1]
	other.Config = append(bytes.Clone(other.Config), "# another config\n"...)
	for _, tt := range []struct {
		name   string
		shards []Shard
		out    string
		want   string
	}{
		{"twice", []Shard{shards[0], shards[0]}, "twice", "shard 0/2 given twice"},
		{"configs", []Shard{shards[0], other}, "configs", "ran different configs"},
		{"existing output", shards, "done", "already holds a run"},
		{"none", nil, "none", "no shard directories given"},
	} {
		out := filepath.Join(dir, tt.out)
		_, err := Merge(tt.shards, out)
		var me *Error
		if !errors.As(err, &me) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want an *Error saying %q", tt.name, err, tt.want)
		}
		if _, err := os.Stat(out); out != done && err == nil {
			t.Errorf("%s: %s was written", tt.name, out)
		}
	}
	half, err := Merge(shards[1:], filepath.Join(dir, "half"))
	if err != nil {
		t.Fatal(err)
	}
	codes := []string{}
	for _, w := range half.Warnings {
		codes = append(codes, string(w.Code))
	}
	if half.Complete || len(codes) == 0 || codes[0] != "missing_shards" || !strings.Contains(half.Warnings[0].Message, "shard 0/2 not given") || slices.Contains(codes, "incomplete") {
		t.Errorf("merge of shard 1/2 alone: complete %v, warnings %v; want incomplete, missing_shards naming 0/2 first and no incomplete", half.Complete, half.Warnings)
	}
}
