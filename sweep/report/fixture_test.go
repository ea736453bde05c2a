package report

// This file generates the testdata runs: hand-constructed summary.json and
// results.jsonl pairs built from a small, deterministic performance model,
// so that the fixtures stay consistent with each other. Regenerate with
//
//	go test ./sweep/report -run TestFixtures -update
//
// Without -update, TestFixtures checks that the committed files are what
// the generator produces.

import (
	"bytes"
	"encoding/json"
	"flag"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/rundir"
)

var update = flag.Bool("update", false, "rewrite testdata fixtures and golden files")

// fixture describes one generated run.
type fixture struct {
	dir       string
	name      string
	axes      []string
	points    []sweep.Point
	baseline  int // index into points
	aa        bool
	conc      []int
	rounds    int
	objective sweep.Objective
	target    int
	drop      int  // planned windows missing at the end (interrupted run)
	torn      bool // results.jsonl ends in a torn line
	// model gives the true CPU µs/request and error rate of a point at
	// concurrency c; the generator adds noise.
	model func(p sweep.Point, c int) (cpuUs, errRate float64)
}

func grid(axis string, values ...string) []sweep.Point {
	out := make([]sweep.Point, len(values))
	for i, v := range values {
		out[i] = sweep.Point{axis: v}
	}
	return out
}

func grid2(ax string, xs []string, ay string, ys []string) []sweep.Point {
	var out []sweep.Point
	for _, x := range xs {
		for _, y := range ys {
			out = append(out, sweep.Point{ax: x, ay: y})
		}
	}
	return out
}

// contention is how much of a setting's concurrency penalty applies at c.
func contention(c int) float64 {
	switch {
	case c <= 1:
		return 0
	case c <= 2:
		return 0.25
	case c <= 4:
		return 0.5
	case c <= 8:
		return 0.8
	case c <= 16:
		return 1
	default:
		return 1.1
	}
}

// keepResident models the story of the seed write-up: keeping more of a
// linear memory resident is cheaper single-threaded, costlier together.
var keepResident = map[string]struct{ alone, penalty float64 }{
	"0":      {370, 0},
	"64KiB":  {345, 34},
	"256KiB": {310, 121},
	"1MiB":   {300, 510},
	"2MiB":   {285, 800},
}

var fixtures = []fixture{
	{
		dir: "one-config", name: "defaults",
		axes:   []string{"linear_memory_keep_resident"},
		points: grid("linear_memory_keep_resident", "0"),
		conc:   []int{16}, rounds: 3, objective: "cpu_per_req", target: 16,
		model: func(p sweep.Point, c int) (float64, float64) { return 370, 0 },
	},
	{
		dir: "five-by-four", name: "keep-resident",
		axes:   []string{"linear_memory_keep_resident"},
		points: grid("linear_memory_keep_resident", "0", "64KiB", "256KiB", "1MiB", "2MiB"),
		aa:     true, conc: []int{1, 4, 16, 64}, rounds: 5, objective: "cpu_per_req", target: 16,
		model: func(p sweep.Point, c int) (float64, float64) {
			k := keepResident[p["linear_memory_keep_resident"]]
			return k.alone + k.penalty*contention(c), 0
		},
	},
	{
		dir: "two-axis", name: "resident-grid",
		axes: []string{"linear_memory_keep_resident", "table_keep_resident"},
		points: grid2("linear_memory_keep_resident", []string{"0", "64KiB", "1MiB"},
			"table_keep_resident", []string{"0", "8KiB"}),
		aa: true, conc: []int{1, 16}, rounds: 5, objective: "cpu_per_req", target: 16,
		model: func(p sweep.Point, c int) (float64, float64) {
			k := keepResident[p["linear_memory_keep_resident"]]
			cpu := k.alone + k.penalty*contention(c)
			if p["table_keep_resident"] == "8KiB" {
				cpu -= 12 // a small, real saving at every level
			}
			return cpu, 0
		},
	},
	{
		dir: "cliff", name: "pool-limits",
		axes:   []string{"total_memories"},
		points: grid("total_memories", "1000", "64", "16"),
		aa:     true, conc: []int{1, 8, 32, 64}, rounds: 5, objective: "success_rps", target: 32,
		drop: 3, torn: true,
		model: func(p sweep.Point, c int) (float64, float64) {
			switch p["total_memories"] {
			case "16":
				switch {
				case c >= 64:
					return 380, 0.31
				case c >= 32:
					return 372, 0.042
				}
			case "64":
				if c >= 64 {
					return 371, 0.0005
				}
			}
			return 370, 0
		},
	},
	{
		dir: "twelve-configs", name: "resident-x-warm-slots",
		axes: []string{"linear_memory_keep_resident", "max_unused_warm_slots"},
		points: grid2("linear_memory_keep_resident", []string{"0", "64KiB", "256KiB", "1MiB"},
			"max_unused_warm_slots", []string{"10", "100", "1000"}),
		baseline: 1, aa: true, conc: []int{1, 2, 4, 8, 16, 32, 64, 128}, rounds: 3,
		objective: "cpu_per_req", target: 16,
		model: func(p sweep.Point, c int) (float64, float64) {
			k := keepResident[p["linear_memory_keep_resident"]]
			cpu := k.alone + k.penalty*contention(c)
			switch p["max_unused_warm_slots"] {
			case "10":
				cpu += 25 * contention(c)
			case "1000":
				cpu -= 6
			}
			return cpu, 0
		},
	},
}

// slotSpec is one server process of a generated run.
type slotSpec struct {
	point    sweep.Point
	config   string
	baseline bool
	aa       bool
	bias     float64 // persistent process-slot effect on CPU
}

func (f fixture) slots() []slotSpec {
	var out []slotSpec
	for i, p := range f.points {
		out = append(out, slotSpec{point: p, config: p.Label(), baseline: i == f.baseline})
	}
	if f.aa {
		b := f.points[f.baseline]
		out = append(out, slotSpec{point: b, config: b.Label() + " [A/A]", aa: true})
	}
	r := rand.New(rand.NewPCG(7, uint64(len(f.dir))))
	for i := range out {
		out[i].bias = 0.01 * (r.Float64()*2 - 1)
	}
	return out
}

var fixtureStart = time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)

const (
	fixWarmup   = 2 * time.Second
	fixDuration = 3 * time.Second
	cliffRate   = 0.001
)

// windows simulates the run's schedule: per level, per round, every slot
// once in rotated order.
func (f fixture) windows() []sweep.Window {
	slots := f.slots()
	r := rand.New(rand.NewPCG(42, uint64(len(f.name))))
	t := fixtureStart
	var out []sweep.Window
	for _, c := range f.conc {
		for round := 0; round < f.rounds; round++ {
			for pos := range slots {
				si := (pos + round) % len(slots)
				s := slots[si]
				t = t.Add(fixWarmup)
				out = append(out, simulate(s, si, c, round, pos, t, f.model, r))
				t = t.Add(fixDuration)
			}
		}
	}
	return out
}

// simulate produces one window from the model: a single server core,
// closed-loop clients, errors fast and cheap.
func simulate(s slotSpec, slot, c, round, pos int, start time.Time, model func(sweep.Point, int) (float64, float64), r *rand.Rand) sweep.Window {
	trueCPU, errRate := model(s.point, c)
	cpu := trueCPU * (1 + s.bias + 0.015*r.NormFloat64())
	secs := fixDuration.Seconds() * (1 + 0.0005*r.Float64())
	capacity := 1e6 / cpu * 0.97
	floorMs := 0.12 + trueCPU/1000
	rate := math.Min(float64(c)/(floorMs/1000), capacity)
	rate *= 1 + errRate*0.8 // failed requests return early
	requests := int64(rate * secs)
	errs := int64(math.Round(float64(requests) * errRate))
	transport := errs / 10
	e5xx := errs - transport
	success := requests - errs
	p50 := float64(c) / rate * 1000 * (1 + 0.02*r.NormFloat64())
	w := sweep.Window{
		Config: s.config, Point: s.point.Clone(), Slot: slot, Baseline: s.baseline, AA: s.aa,
		Concurrency: c, Round: round, Position: pos, Start: start, Seconds: secs,
		Requests: requests, Success: success,
		RPS: float64(requests) / secs, SuccessRPS: float64(success) / secs,
		StatusCodes:     map[string]int64{"200": success},
		Errors5xx:       e5xx,
		TransportErrors: map[string]int64{},
		P50Ms:           p50, P95Ms: p50 * 1.7, P99Ms: p50*2.6 + 0.05, MaxMs: p50*6 + 1,
		CPUSource:         "clock",
		RSSBytes:          48<<20 + int64(c)<<20,
		MinorFaults:       requests * 3,
		VolCtxSwitches:    requests / 2,
		InvolCtxSwitches:  requests / 50,
		DriverCPUUtil:     math.Min(0.95, 0.35+0.1*math.Log2(float64(c))),
		MinorFaultsPerReq: 3,
		// A little hypervisor steal, deterministic (r is not drawn, so
		// the other figures do not move).
		ServerSteal: 0.002 + 0.001*float64(round%3),
		LoadSteal:   0.001 * float64(c%3),
	}
	w.LoadIdle = 1 - w.DriverCPUUtil - 0.04
	if e5xx > 0 {
		w.StatusCodes["502"] = e5xx
	}
	if transport > 0 {
		w.TransportErrors["conn_reset"] = transport
	}
	w.GeneratorBound = w.DriverCPUUtil > 0.9
	w.CPUUsPerReq = cpu * float64(success+errs/5) / float64(requests)
	w.CPUSeconds = w.CPUUsPerReq * float64(requests) / 1e6
	if requests > 0 {
		w.ErrorRate = float64(errs) / float64(requests)
	}
	return w
}

// files renders a fixture to its summary.json and results.jsonl bytes.
func (f fixture) files() (summary, results []byte, err error) {
	ws := f.windows()
	ws = ws[:len(ws)-f.drop]
	s := f.summarize(ws)
	s.SchemaVersion = sweep.SchemaVersion
	summary, err = json.MarshalIndent(s, "", "  ")
	if err != nil {
		return nil, nil, err
	}
	summary = append(summary, '\n')
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	for _, w := range ws {
		if err := enc.Encode(w); err != nil {
			return nil, nil, err
		}
	}
	if f.torn {
		// The first bytes of the next window, as an interrupted append leaves them.
		buf.WriteString(`{"config":"total_memories=16","point":{"total_memo`)
	}
	return summary, buf.Bytes(), nil
}

// TestFixtures regenerates the testdata runs with -update and otherwise
// checks that the committed fixtures match the generator.
func TestFixtures(t *testing.T) {
	for _, f := range fixtures {
		t.Run(f.dir, func(t *testing.T) {
			summary, results, err := f.files()
			if err != nil {
				t.Fatal(err)
			}
			dir := filepath.Join("testdata", f.dir)
			for name, want := range map[string][]byte{rundir.SummaryFile: summary, rundir.ResultsFile: results} {
				path := filepath.Join(dir, name)
				if *update {
					if err := os.MkdirAll(dir, 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(path, want, 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				got, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want) {
					t.Errorf("%s differs from the generator's output; run go test -run TestFixtures -update", path)
				}
			}
		})
	}
}
