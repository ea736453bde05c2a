package summarize

import (
	"maps"
	"reflect"
	"testing"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/results"
	"github.com/sweep-dev/sweep/sweep/rundir"
)

// TestSummary re-summarises a real shard (sweep/merge/testdata/shard-0)
// from its own head: the same cells and verdicts as the run wrote; with
// more windows planned than measured it is incomplete, the incomplete
// warning first and the head's preflight warnings before the analysis's.
func TestSummary(t *testing.T) {
	const dir = "../merge/testdata/shard-0"
	run, err := rundir.ReadSummary(dir)
	if err != nil {
		t.Fatal(err)
	}
	ws, err := results.Read(dir + "/" + rundir.ResultsFile)
	if err != nil {
		t.Fatal(err)
	}
	s := Summary(run, ws)
	if !s.Complete || s.Plan.Measured != len(ws) || len(s.Cells) != len(run.Cells) || s.Plan.Family != run.Plan.Family {
		t.Errorf("re-summarised: complete %v, measured %d of %d windows, %d cells (run: %d), family %d (run: %d)",
			s.Complete, s.Plan.Measured, len(ws), len(s.Cells), len(run.Cells), s.Plan.Family, run.Plan.Family)
	}
	// The run's own figures and verdicts (later fields, such as memory,
	// are the analysis's of today).
	for i := range min(len(s.Cells), len(run.Cells)) {
		got, want := s.Cells[i], run.Cells[i]
		if got.Config != want.Config || got.CPUUsPerReq != want.CPUUsPerReq || got.Rounds != want.Rounds ||
			!reflect.DeepEqual(got.VsBaseline[sweep.MetricCPUPerReq], want.VsBaseline[sweep.MetricCPUPerReq]) {
			t.Errorf("cell %d: %s %v µs/req (%d rounds) %+v; the run wrote %s %v (%d) %+v", i, got.Config, got.CPUUsPerReq, got.Rounds,
				got.VsBaseline[sweep.MetricCPUPerReq], want.Config, want.CPUUsPerReq, want.Rounds, want.VsBaseline[sweep.MetricCPUPerReq])
		}
	}
	head := run
	head.Plan.Windows = len(ws) + 3
	head.Warnings = []sweep.Warning{{Code: "pool_limit", Message: "preflight"}}
	s = Summary(head, ws)
	if s.Complete || len(s.Warnings) < 2 || s.Warnings[0].Code != "incomplete" || s.Warnings[1].Code != "pool_limit" {
		t.Errorf("incomplete: complete %v, warnings %+v; want incomplete first, then pool_limit", s.Complete, s.Warnings)
	}
}

func TestOptions(t *testing.T) {
	for _, tt := range []struct {
		restarts sweep.Restarts
		same     bool
	}{{sweep.RestartsNever, true}, {sweep.RestartsRound, false}} {
		head := sweep.Summary{Baseline: "b", AAConfig: "b [A/A]", Plan: sweep.Plan{CliffRate: 0.01, TargetConc: 16,
			Objective: sweep.ObjectiveSuccessRPS, Confidence: 0.99, Restarts: tt.restarts, MaxRSS: 1 << 20, MaxReserved: 1 << 30}}
		o := options(head)
		if o.Baseline != "b" || o.AA != "b [A/A]" || o.CliffRate != 0.01 || o.TargetConcurrency != 16 ||
			o.Objective != sweep.ObjectiveSuccessRPS || o.Confidence != 0.99 || o.SameProcess != tt.same ||
			o.MaxRSS != 1<<20 || o.MaxReserved != 1<<30 {
			t.Errorf("restarts %q: options %+v", tt.restarts, o)
		}
	}
}

// TestRecommendationSettings: with the plan's fixed settings recorded
// (a builtin target), the recommendation carries its full settings: the
// fixed ones and its point's, without an axis that is no setting.
func TestRecommendationSettings(t *testing.T) {
	got := settings(map[string]string{"touch": "64KiB", "total_memories": "200"},
		sweep.Point{"linear_memory_keep_resident": "64KiB", "server_cpus": "0"})
	want := map[string]string{"touch": "64KiB", "total_memories": "200", "linear_memory_keep_resident": "64KiB"}
	if !maps.Equal(got, want) {
		t.Errorf("settings %v, want %v", got, want)
	}
}
