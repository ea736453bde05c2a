package gate

// The testdata summaries are generated from one base run by the code
// below, so that every pair differs only where a test says it does.
// Regenerate with
//
//	go test ./sweep/gate -run TestFixtures -update

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/sweep-dev/sweep/sweep"
)

var update = flag.Bool("update", false, "rewrite testdata fixtures and golden files")

var (
	fixConfigs = []sweep.Point{
		{"linear_memory_keep_resident": "0"},
		{"linear_memory_keep_resident": "64KiB"},
		{"linear_memory_keep_resident": "1MiB"},
	}
	fixConc = []int{1, 16, 64}
)

// baseRun is a complete three-config run with an A/A control whose band
// is ±2% for CPU per request.
func baseRun() sweep.Summary {
	s := sweep.Summary{SchemaVersion: sweep.SchemaVersion,
		Name: "keep-resident", Created: time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC), Complete: true,
		Plan: sweep.Plan{
			Axes: []string{"linear_memory_keep_resident"}, Points: fixConfigs, Concurrency: fixConc,
			Rounds: 5, Warmup: 2 * time.Second, Duration: 3 * time.Second, Slots: 4, Windows: 60, Measured: 60,
			Objective: "cpu_per_req", TargetConc: 16, CliffRate: 0.001, Restarts: "never",
		},
		Baseline: fixConfigs[0].Label(),
		AAConfig: fixConfigs[0].Label() + " [A/A]",
	}
	band := map[sweep.Metric]sweep.Band{
		sweep.MetricCPUPerReq:  {Median: 0.002, Q1: -0.02, Q3: 0.015},
		sweep.MetricRPS:        {Median: -0.001, Q1: -0.012, Q3: 0.018},
		sweep.MetricSuccessRPS: {Median: -0.001, Q1: -0.012, Q3: 0.018},
		sweep.MetricP99:        {Median: 0.01, Q1: -0.04, Q3: 0.06},
	}
	cpu := map[string][]float64{"0": {370, 372, 375}, "64KiB": {345, 379, 384}, "1MiB": {300, 810, 850}}
	for ci, c := range fixConc {
		for i, p := range append(fixConfigs, fixConfigs[0]) {
			aa := i == len(fixConfigs)
			v := cpu[p["linear_memory_keep_resident"]][ci]
			rps := 1e6 / v * 0.97
			if c == 1 {
				rps = 2000 * 370 / v
			}
			cell := sweep.Cell{
				Config: p.Label(), Point: p, Baseline: i == 0, AA: aa, Concurrency: c, Rounds: 5,
				RPS: rps, SuccessRPS: rps, CPUUsPerReq: v, CPUUsQ1: v * 0.99, CPUUsQ3: v * 1.01,
				P50Ms: float64(c) / rps * 1000, P95Ms: float64(c) / rps * 1700, P99Ms: float64(c) / rps * 2600,
				AABand: band,
			}
			if aa {
				cell.Config += " [A/A]"
			}
			s.Cells = append(s.Cells, cell)
		}
	}
	return s
}

// modify returns a copy of s with f applied to every cell.
func modify(s sweep.Summary, f func(*sweep.Cell)) sweep.Summary {
	b, _ := json.Marshal(s)
	var out sweep.Summary
	json.Unmarshal(b, &out)
	for i := range out.Cells {
		f(&out.Cells[i])
	}
	return out
}

// jitter is a deterministic ±1% change per cell and metric.
func jitter(i int) float64 {
	return []float64{0.004, -0.008, 0.01, -0.003, 0.007, -0.01, 0.002, -0.006, 0.009}[i%9]
}

var gateFixtures = map[string]func() sweep.Summary{
	"base": baseRun,
	// The same grid re-run with nothing changed: every metric within ±1%.
	"aa": func() sweep.Summary {
		n := 0
		return modify(baseRun(), func(c *sweep.Cell) {
			c.CPUUsPerReq *= 1 + jitter(n)
			c.RPS *= 1 + jitter(n+1)
			c.SuccessRPS *= 1 + jitter(n+2)
			c.P99Ms *= 1 + jitter(n+3)
			n++
		})
	},
	// A release that costs 20% more CPU per request for 64KiB at c=16.
	"regressed": func() sweep.Summary {
		return modify(baseRun(), func(c *sweep.Cell) {
			if c.Config == "linear_memory_keep_resident=64KiB" && c.Concurrency == 16 {
				c.CPUUsPerReq *= 1.2
				c.CPUUsQ1 *= 1.2
				c.CPUUsQ3 *= 1.2
			}
		})
	},
	// Errors where the base run had none, at an otherwise unchanged cell.
	"new-errors": func() sweep.Summary {
		return modify(baseRun(), func(c *sweep.Cell) {
			if c.Config == "linear_memory_keep_resident=1MiB" && c.Concurrency == 64 {
				c.Errors5xx = 12
				c.ErrorRate = 0.0004
			}
		})
	},
	// A different grid: no c=64 level and a 256KiB config instead of 1MiB.
	"mismatch": func() sweep.Summary {
		s := baseRun()
		var cells []sweep.Cell
		for _, c := range s.Cells {
			if c.Concurrency == 64 {
				continue
			}
			if c.Point["linear_memory_keep_resident"] == "1MiB" {
				c.Point = sweep.Point{"linear_memory_keep_resident": "256KiB"}
				c.Config = c.Point.Label()
			}
			cells = append(cells, c)
		}
		s.Cells = cells
		return s
	},
}

func TestFixtures(t *testing.T) {
	for name, gen := range gateFixtures {
		t.Run(name, func(t *testing.T) {
			want, err := json.MarshalIndent(gen(), "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			want = append(want, '\n')
			path := filepath.Join("testdata", name, "summary.json")
			if *update {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, want, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from the generator's output; run go test -run TestFixtures -update", path)
			}
		})
	}
}
