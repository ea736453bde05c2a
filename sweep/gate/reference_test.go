package gate

import (
	"strconv"
	"strings"
	"testing"

	"github.com/sweep-dev/sweep/sweep"
)

// anchor gives s a reference server of refCPU µs per request at every
// level and every cell a vs_reference change of change(cell, metric) ±1%.
func anchor(s sweep.Summary, refCPU float64, change func(sweep.Cell, sweep.Metric) float64) sweep.Summary {
	for _, c := range fixConc {
		s.Reference = append(s.Reference, sweep.Cell{Config: "[reference]", Point: sweep.Point{}, Concurrency: c, Rounds: 5, CPUUsPerReq: refCPU, RPS: 1e6 / refCPU, SuccessRPS: 1e6 / refCPU})
	}
	for i := range s.Cells {
		s.Cells[i].VsReference = map[sweep.Metric]sweep.Delta{}
		for _, m := range sweep.Metrics {
			e := change(s.Cells[i], m)
			lo, hi := e-0.01, e+0.01
			s.Cells[i].VsReference[m] = sweep.Delta{Estimate: e, CILow: &lo, CIHigh: &hi, Confidence: 0.95, Pairs: 5}
		}
	}
	return s
}

// scaled is s with every absolute level moved by f, as a machine's drift
// moves them: CPU and latency up, throughput down.
func scaled(s sweep.Summary, f float64) sweep.Summary {
	return modify(s, func(c *sweep.Cell) {
		c.CPUUsPerReq *= f
		c.P99Ms *= f
		c.RPS /= f
		c.SuccessRPS /= f
	})
}

func TestCompareAnchored(t *testing.T) {
	// fixed is some change per cell and metric that the build keeps.
	fixed := func(c sweep.Cell, m sweep.Metric) float64 {
		return 0.5 + 0.1*float64(len(c.Config)%7) + 0.01*float64(c.Concurrency) + 0.001*float64(len(m))
	}
	old := anchor(baseRun(), 100, fixed)
	for _, tc := range []struct {
		name      string
		new       sweep.Summary
		regressed []string // "config c=N metric" of the regressed rows
		note      string   // a note that must be there
	}{
		{
			name: "machine 15% slower, build unchanged",
			new:  anchor(scaled(baseRun(), 1.15), 115, fixed),
			note: "the reference server moved between the runs (the machine's drift): c=1 CPU/req +15.0%, RPS -13.0%",
		},
		{
			name: "machine unchanged, one cell 10% slower against the reference",
			new: anchor(baseRun(), 100, func(c sweep.Cell, m sweep.Metric) float64 {
				if c.Config == "linear_memory_keep_resident=64KiB" && c.Concurrency == 16 {
					if m.LowerIsBetter() {
						return 1.1*(1+fixed(c, m)) - 1
					}
					return (1+fixed(c, m))/1.1 - 1
				}
				return fixed(c, m)
			}),
			regressed: []string{
				"linear_memory_keep_resident=64KiB c=16 cpu_us_per_req vs reference",
				"linear_memory_keep_resident=64KiB c=16 rps vs reference",
				"linear_memory_keep_resident=64KiB c=16 success_rps vs reference",
				"linear_memory_keep_resident=64KiB c=16 p99_ms vs reference",
			},
			note: "unpaired, anchored: ",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Compare(old, tc.new, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			anchoredRows := 0
			for _, row := range r.Rows {
				if strings.HasSuffix(row.Metric, " vs reference") {
					anchoredRows++
				}
				if row.Regressed {
					got = append(got, row.Config+" c="+strconv.Itoa(row.Concurrency)+" "+row.Metric)
				}
				if !strings.Contains(row.Metric, " vs ") && row.Metric != MetricErrorRate && (row.Regressed || row.Note != "absolute level, not judged (the row below is)") {
					t.Errorf("absolute row %s c=%d %s judged (%q) although both runs have the reference", row.Config, row.Concurrency, row.Metric, row.Note)
				}
			}
			if want := 3 * len(fixConc) * 4; anchoredRows != want {
				t.Errorf("%d vs-reference rows, want %d (every cell × metric)", anchoredRows, want)
			}
			if strings.Join(got, "\n") != strings.Join(tc.regressed, "\n") || r.Regressed != (len(tc.regressed) > 0) {
				t.Errorf("regressed rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.regressed, "\n"))
			}
			if !strings.Contains(strings.Join(r.Notes, "\n"), tc.note) {
				t.Errorf("notes %q lack %q", r.Notes, tc.note)
			}
		})
	}
}

// TestCompareOneReference: with the reference in only one run the check
// falls back to absolute levels against the drift, and says so.
func TestCompareOneReference(t *testing.T) {
	r, err := Compare(anchor(baseRun(), 100, func(sweep.Cell, sweep.Metric) float64 { return 0 }), scaled(baseRun(), 1.15), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Regressed {
		t.Error("a 15% slower run passed although only absolute levels could be compared (7% drift allowance)")
	}
	for _, row := range r.Rows {
		if strings.HasSuffix(row.Metric, " vs reference") {
			t.Fatalf("a vs-reference row with one reference: %+v", row)
		}
	}
	if !strings.Contains(strings.Join(r.Notes, "\n"), "only one of the runs measured the reference server") {
		t.Errorf("notes %q do not say that only one run had the reference", r.Notes)
	}
}
