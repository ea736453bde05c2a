package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/stats"
)

// Labels of bench/host.toml's slots.
const (
	hostLabel = "server=host"
	noopLabel = "server=noop"
	floorGoal = 1.15
	wrkGoal   = 0.95
)

// floorBench is the microbenchmark whose cpu-ns/op is the in-process part
// of the floor.
const floorBench = "BenchmarkInvoke/keep_resident=0/serial"

// benchMetric returns every value of unit reported by the benchmark named
// name (any -cpu suffix) in a `go test -bench` output file.
func benchMetric(path, name, unit string) ([]float64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var vals []float64
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) < 4 || (fs[0] != name && !strings.HasPrefix(fs[0], name+"-")) {
			continue
		}
		for i := 2; i+1 < len(fs); i += 2 {
			if fs[i+1] == unit {
				v, err := strconv.ParseFloat(fs[i], 64)
				if err != nil {
					return nil, fmt.Errorf("%s: %q: %w", path, sc.Text(), err)
				}
				vals = append(vals, v)
			}
		}
	}
	return vals, sc.Err()
}

// hostFigures: item 1, host ≤ 1.15 × (Invoke + no-op HTTP) per level.
func hostFigures(dir string) ([]figure, error) {
	const item = "1 host overhead"
	floorPath, hostPath := filepath.Join(dir, "floor.txt"), filepath.Join(dir, "host")
	if !exists(floorPath) || !exists(hostPath) {
		return notRun(item, "host / floor"), nil
	}
	cpu, err := benchMetric(floorPath, floorBench, "cpu-ns/op")
	if err != nil {
		return nil, err
	}
	if len(cpu) == 0 {
		return nil, fmt.Errorf("%s: no %s cpu-ns/op", floorPath, floorBench)
	}
	_, invokeNs, _ := stats.Quartiles(cpu)
	invoke := invokeNs / 1000
	allocs, _ := benchMetric(floorPath, floorBench, "allocs/op")
	run, err := readRun(hostPath)
	if err != nil {
		return nil, err
	}
	figs := []figure{{item: item, name: "Invoke, in-process, 1 goroutine (CPU µs/op)",
		value: fmt.Sprintf("%.1f", invoke),
		note:  fmt.Sprintf("median of %d runs of %s pinned to CPU 0; %s allocs/op", len(cpu), floorBench, fmtVals(allocs))}}
	for _, c := range run.levels() {
		host, err := run.cell(hostLabel, c)
		if err != nil {
			return nil, err
		}
		noop, err := run.cell(noopLabel, c)
		if err != nil {
			return nil, err
		}
		aa, _ := run.cell(hostLabel+" [A/A]", c)
		floor := invoke + noop.CPUUsPerReq
		r := host.CPUUsPerReq / floor
		figs = append(figs,
			figure{item: item, name: fmt.Sprintf("no-op net/http server, c=%d (CPU µs/req)", c),
				value: fmt.Sprintf("%.1f", noop.CPUUsPerReq), note: fmt.Sprintf("median of %d windows, %.0f RPS", noop.Rounds, noop.RPS)},
			figure{item: item, name: fmt.Sprintf("host / floor, c=%d, unpaired (bench/host.toml ÷ microbenchmark)", c), value: fmt.Sprintf("%.3f", r),
				note: fmt.Sprintf("cross-check; minutes apart, so drift enters: host %.1f µs/req (A/A twin %.1f) vs floor %.1f = %.1f + %.1f; host %.0f RPS",
					host.CPUUsPerReq, aa.CPUUsPerReq, floor, invoke, noop.CPUUsPerReq, host.RPS)})
	}
	paired, err := pairedFloor(filepath.Join(dir, "floor.jsonl"))
	if err != nil {
		return nil, err
	}
	return append(figs, paired...), nil
}

// floorSummary is the per-level line of bench/floor's output.
type floorSummary struct {
	Summary     string    `json:"summary"`
	Concurrency int       `json:"concurrency"`
	Median      float64   `json:"median"`
	Q1          float64   `json:"q1"`
	Q3          float64   `json:"q3"`
	Ratios      []float64 `json:"ratios"`
	Host        float64   `json:"host_us"`
	Noop        float64   `json:"noop_us"`
	Invoke      float64   `json:"invoke_us"`
}

// pairedFloor: item 1's verdict, from bench/floor's rounds in which the
// host, the no-op server and the Invoke loop each had a window.
func pairedFloor(path string) ([]figure, error) {
	const item = "1 host overhead"
	if !exists(path) {
		return notRun(item, "host / floor, paired"), nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var figs []figure
	dec := json.NewDecoder(f)
	for dec.More() {
		var s floorSummary
		if err := dec.Decode(&s); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if s.Summary == "" {
			continue
		}
		figs = append(figs, figure{item: item, name: fmt.Sprintf("host / floor, c=%d, paired per round (bench/floor)", s.Concurrency),
			value: fmt.Sprintf("%.3f [%.3f, %.3f]", s.Median, s.Q1, s.Q3), goal: fmt.Sprintf("≤ %.2f", floorGoal), met: verdict(s.Median <= floorGoal),
			note: fmt.Sprintf("%d rounds; medians: host %.1f µs/req, Invoke loop %.1f µs/op, no-op %.1f µs/req (floor %.1f)",
				len(s.Ratios), s.Host, s.Invoke, s.Noop, s.Invoke+s.Noop)})
	}
	return figs, nil
}

func fmtVals(vs []float64) string {
	if len(vs) == 0 {
		return "?"
	}
	_, m, _ := stats.Quartiles(vs)
	return strconv.FormatFloat(m, 'f', -1, 64)
}

// loadLine is a line of loadcmp.jsonl (a window or a summary).
type loadLine struct {
	Summary       string    `json:"summary"`
	Tool          string    `json:"tool"`
	Concurrency   int       `json:"concurrency"`
	RPS           float64   `json:"rps"`
	DriverCPUUtil float64   `json:"driver_cpu_util"`
	ServerCPUUs   float64   `json:"server_cpu_us_per_req"`
	Median        float64   `json:"median"`
	Q1            float64   `json:"q1"`
	Q3            float64   `json:"q3"`
	Ratios        []float64 `json:"ratios"`
}

// loadFigures: item 2, sweep's RPS ≥ 0.95 × wrk's on the host, and the
// generator-bound flag on the no-op target.
func loadFigures(dir string) ([]figure, error) {
	const item = "2 generator headroom"
	var figs []figure
	for _, run := range []struct{ file, label string }{
		{"loadcmp.jsonl", ""},
		{"loadcmp-gomaxprocs1.jsonl", " (generator GOMAXPROCS=1)"},
	} {
		p := filepath.Join(dir, run.file)
		if !exists(p) {
			if run.label == "" {
				figs = append(figs, notRun(item, "sweep RPS / wrk RPS")...)
			}
			continue
		}
		lines, err := readLoadLines(p)
		if err != nil {
			return nil, err
		}
		for _, l := range lines {
			if l.Summary == "" {
				continue
			}
			tool := func(name string, f func(loadLine) float64) float64 {
				var xs []float64
				for _, w := range lines {
					if w.Tool == name && w.Concurrency == l.Concurrency {
						xs = append(xs, f(w))
					}
				}
				_, m, _ := stats.Quartiles(xs)
				return m
			}
			rps := func(w loadLine) float64 { return w.RPS }
			util := func(w loadLine) float64 { return w.DriverCPUUtil }
			srv := func(w loadLine) float64 { return w.ServerCPUUs }
			figs = append(figs, figure{item: item, name: fmt.Sprintf("sweep RPS / wrk RPS on the host, c=%d%s", l.Concurrency, run.label),
				value: fmt.Sprintf("%.3f [%.3f, %.3f]", l.Median, l.Q1, l.Q3), goal: fmt.Sprintf("≥ %.2f", wrkGoal), met: verdict(l.Median >= wrkGoal),
				note: fmt.Sprintf("%d ABBA pairs; RPS sweep %.0f / wrk %.0f; generator CPU sweep %.0f%% / wrk %.0f%%; server µs/req under sweep %.1f / wrk %.1f",
					len(l.Ratios), tool("sweep", rps), tool("wrk", rps), 100*tool("sweep", util), 100*tool("wrk", util), tool("sweep", srv), tool("wrk", srv))})
		}
	}
	hostPath := filepath.Join(dir, "host")
	if !exists(hostPath) {
		return append(figs, notRun(item, "generator_bound on the no-op target")...), nil
	}
	run, err := readRun(hostPath)
	if err != nil {
		return nil, err
	}
	for _, label := range []string{noopLabel, hostLabel} {
		for _, c := range run.levels() {
			ws := run.windowsOf(label, c)
			bound := 0
			for _, w := range ws {
				if w.GeneratorBound {
					bound++
				}
			}
			q1, m, q3 := quartilesOf(ws, func(w sweep.Window) float64 { return w.DriverCPUUtil })
			_, idle, _ := quartilesOf(ws, func(w sweep.Window) float64 { return w.LoadIdle })
			_, steal, _ := quartilesOf(ws, func(w sweep.Window) float64 { return w.LoadSteal })
			f := figure{item: item, name: fmt.Sprintf("%s c=%d: generator_bound windows", label, c),
				value: fmt.Sprintf("%d of %d", bound, len(ws)),
				note: fmt.Sprintf("driver_cpu_util median %.3f [%.3f, %.3f]; load CPUs idle %.1f%%, stolen %.1f%% (medians)",
					m, q1, q3, 100*idle, 100*steal)}
			switch {
			case label == noopLabel && c > 1:
				f.goal, f.met = "fires", verdict(len(ws) > 0 && 2*bound > len(ws))
			case label == hostLabel:
				f.goal, f.met = "does not fire", verdict(bound == 0)
			}
			figs = append(figs, f)
		}
	}
	return figs, nil
}

func readLoadLines(path string) ([]loadLine, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []loadLine
	dec := json.NewDecoder(f)
	for dec.More() {
		var l loadLine
		if err := dec.Decode(&l); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		out = append(out, l)
	}
	return out, nil
}
