package stats

import (
	"slices"
	"testing"

	"github.com/sweep-dev/sweep/sweep"
)

func TestCellWarnings(t *testing.T) {
	bound := func(w *sweep.Window) { w.GeneratorBound = true }
	steal := func(server, load float64) func([]sweep.Window) []sweep.Window {
		return func(ws []sweep.Window) []sweep.Window {
			for i := range ws {
				ws[i].ServerSteal, ws[i].LoadSteal = server, load
			}
			return ws
		}
	}
	for _, tc := range []struct {
		name string
		base []sweep.Window
		cand []sweep.Window
		opts Options
		want []string // the candidate cell's codes
		msg  string   // the candidate's last warning, when given
	}{
		{"clean", flat(base, 1, 12, 100), flat("kr=1MiB", 1, 12, 90), Options{}, nil, ""},
		{"few rounds", flat(base, 1, 12, 100), flat("kr=1MiB", 1, 3, 90), Options{}, []string{"few_rounds"},
			"only 3 paired rounds with the baseline: with 3 comparisons in the run, at least 7 are needed for any verdict at family-wise 95%"},
		{"few rounds, custom minimum", flat(base, 1, 12, 100), flat("kr=1MiB", 1, 12, 90), Options{MinRounds: 13}, []string{"few_rounds"}, ""},
		{"errors on the candidate", flat(base, 1, 12, 100), withErrors(3, flat("kr=1MiB", 1, 12, 90)), Options{}, []string{"errors"},
			"errors: 0.03% (36 of 120000 requests)"},
		{"errors on the baseline only", withErrors(3, flat(base, 1, 12, 100)), flat("kr=1MiB", 1, 12, 90), Options{}, []string{"errors"},
			"the baseline had errors at this level: 0.03% (36 of 120000 requests)"},
		{"errors on both", withErrors(3, flat(base, 1, 12, 100)), withErrors(1, flat("kr=1MiB", 1, 12, 90)), Options{}, []string{"errors"},
			"errors on both sides: 0.01% (12 of 120000 requests) here, 0.03% (36 of 120000 requests) for the baseline"},
		{"generator-bound", flat(base, 1, 12, 100), join(flat("kr=1MiB", 1, 11, 90), []sweep.Window{win("kr=1MiB", 1, 11, 90, bound)}), Options{},
			[]string{"generator_bound"}, "1 of 12 windows were generator-bound: the RPS may be the load generator's limit, not the server's"},
		{"steal on the server CPUs", flat(base, 1, 12, 100), steal(0.063, 0.008)(flat("kr=1MiB", 1, 12, 90)), Options{}, []string{"steal"},
			"the hypervisor stole 6.3% of the server CPUs' time and 0.8% of the load CPUs' (medians over the windows; more than 2.0%): this machine's own noise, which widens every interval at this level"},
		{"steal on the load CPUs", flat(base, 1, 12, 100), steal(0, 0.03)(flat("kr=1MiB", 1, 12, 90)), Options{}, []string{"steal"}, ""},
		{"steal below the limit", flat(base, 1, 12, 100), steal(0.019, 0.019)(flat("kr=1MiB", 1, 12, 90)), Options{}, nil, ""},
		{"steal within a custom limit", flat(base, 1, 12, 100), steal(0.04, 0)(flat("kr=1MiB", 1, 12, 90)), Options{StealWarn: 0.05}, nil, ""},
		// Ratios −0.2 −0.1 0 +0.1 +0.2 (twice), 0, 0: IQR 0.2 > 0.1.
		{"wide spread", flat(base, 1, 12, 100), series("kr=1MiB", 1, 80, 90, 100, 110, 120, 80, 90, 100, 110, 120, 100, 100), Options{}, []string{"wide_spread"},
			"cpu_us_per_req ratios spread 20.0% between quartiles (more than 10.0%): changes smaller than that cannot be resolved"},
		{"spread within a custom limit", flat(base, 1, 12, 100), series("kr=1MiB", 1, 80, 90, 100, 110, 120, 80, 90, 100, 110, 120, 100, 100), Options{WideSpread: 0.25}, nil, ""},
		{"failed window", flat(base, 1, 12, 100), join(flat("kr=1MiB", 1, 12, 90), []sweep.Window{win("kr=1MiB", 1, 12, 0, failed(""))}), Options{},
			[]string{"failed_windows"}, "1 of 13 windows failed (first: no reason given); they are left out of the medians"},
		{"no baseline at this level", flat(base, 4, 12, 100), flat("kr=1MiB", 1, 12, 90), Options{}, []string{"no_baseline"},
			"no baseline windows at c=1: nothing to compare against"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.opts.Baseline = base
			a := Analyze(join(tc.base, tc.cand), tc.opts)
			c := cellOf(t, a, "kr=1MiB", 1)
			if got := codes(c.Warnings); !slices.Equal(got, tc.want) {
				t.Fatalf("warnings %v, want %v", got, tc.want)
			}
			if tc.msg != "" {
				w := c.Warnings[len(c.Warnings)-1]
				if w.Message != tc.msg || w.Config != "kr=1MiB" || w.Conc != 1 {
					t.Errorf("warning %+v\nwant message %q for kr=1MiB at c=1", w, tc.msg)
				}
			}
		})
	}
}

func TestPoolWarnings(t *testing.T) {
	points := []sweep.Point{
		{"total_memories": "64", "total_tables": "64", "linear_memory_keep_resident": "0"},
		{"total_core_instances": "32", "total_memories": "1_000"},
		{"total_memories": "128"},            // equal to the concurrency: fits
		{"linear_memory_keep_resident": "0"}, // no limits on the grid
		{"total_tables": "lots"},             // not an integer: config validation's job
	}
	got := PoolWarnings(points, 128)
	want := []sweep.Warning{
		{Code: "pool_limit", Config: "linear_memory_keep_resident=0 total_memories=64 total_tables=64", Conc: 128,
			Message: "total_memories = 64 is below concurrency 128: each request holds one core instance, memory and table, so requests beyond 64 in flight will fail"},
		{Code: "pool_limit", Config: "linear_memory_keep_resident=0 total_memories=64 total_tables=64", Conc: 128,
			Message: "total_tables = 64 is below concurrency 128: each request holds one core instance, memory and table, so requests beyond 64 in flight will fail"},
		{Code: "pool_limit", Config: "total_core_instances=32 total_memories=1_000", Conc: 128,
			Message: "total_core_instances = 32 is below concurrency 128: each request holds one core instance, memory and table, so requests beyond 32 in flight will fail"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("PoolWarnings\n got %+v\nwant %+v", got, want)
	}
	if got := PoolWarnings(points, 16); len(got) != 0 {
		t.Errorf("PoolWarnings at c=16 = %+v, want none", got)
	}
}
