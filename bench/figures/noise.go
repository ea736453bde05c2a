package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/rundir"
	"github.com/sweep-dev/sweep/sweep/stats"
)

// bandGoal bounds the A/A central 50% interval: [Q1, Q3] ⊂ [−1%, +1%].
const bandGoal = 0.01

// noiseFigures: item 3, the A/A band of every aa-VARIANT-N run, and per
// variant the median over its repetitions of the band's reach
// max(|Q1|, |Q3|), per level and metric.
func noiseFigures(dir string) ([]figure, error) {
	const item = "3 noise (A/A)"
	paths, _ := filepath.Glob(filepath.Join(dir, "aa-*-*"))
	if len(paths) == 0 {
		return notRun(item, "A/A band"), nil
	}
	slices.Sort(paths)
	type key struct {
		variant string
		metric  sweep.Metric
		c       int
	}
	reach := map[key][]float64{}
	var variants []string
	var figs []figure
	for _, p := range paths {
		if !exists(filepath.Join(p, rundir.SummaryFile)) {
			continue
		}
		base := filepath.Base(p)
		variant := strings.TrimPrefix(base[:strings.LastIndexByte(base, '-')], "aa-")
		if !slices.Contains(variants, variant) {
			variants = append(variants, variant)
		}
		run, err := readRun(p)
		if err != nil {
			return nil, err
		}
		for _, c := range run.levels() {
			cell, err := run.cell(run.summary.AAConfig, c)
			if err != nil {
				return nil, err
			}
			var parts []string
			for _, m := range []sweep.Metric{sweep.MetricCPUPerReq, sweep.MetricRPS} {
				d := cell.VsBaseline[m]
				reach[key{variant, m, c}] = append(reach[key{variant, m, c}], max(math.Abs(d.Q1), math.Abs(d.Q3)))
				parts = append(parts, fmt.Sprintf("%s [%s, %s]", m.Label(), pct(d.Q1), pct(d.Q3)))
			}
			// The absolute level beside the band: a change of method must
			// not move what it measures (sliced windows did, on one host).
			bl, err := run.cell(run.summary.Baseline, c)
			if err != nil {
				return nil, err
			}
			figs = append(figs, figure{item: item, name: fmt.Sprintf("%s c=%d", base, c), value: strings.Join(parts, "; "),
				note: fmt.Sprintf("%d pairs, restarts = %s, %s windows; baseline %.1f µs/req, %.0f RPS; steal server %.1f%%, load %.1f%%",
					cell.VsBaseline[sweep.MetricCPUPerReq].Pairs, run.summary.Plan.Restarts, run.summary.Plan.Duration,
					bl.CPUUsPerReq, bl.RPS, 100*bl.ServerSteal, 100*bl.LoadSteal)})
		}
	}
	for _, v := range variants {
		for _, m := range []sweep.Metric{sweep.MetricCPUPerReq, sweep.MetricRPS} {
			for _, c := range []int{1, 16} {
				rs := reach[key{v, m, c}]
				if len(rs) == 0 {
					continue
				}
				_, med, _ := stats.Quartiles(rs)
				worst := slices.Max(rs)
				figs = append(figs, figure{item: item, name: fmt.Sprintf("%s: A/A reach of %s, c=%d", v, m.Label(), c),
					value: fmt.Sprintf("±%.1f%% (worst ±%.1f%%)", 100*med, 100*worst), goal: "≤ ±1%", met: verdict(med <= bandGoal),
					note: fmt.Sprintf("median over %d runs of the larger of −Q1 and Q3 (absolute)", len(rs))})
			}
		}
	}
	return figs, nil
}

// interleaveFigures: item 3, what interleaved windows do (bench/interleave's
// summary lines in interleave.jsonl, and window.jsonl of bench/run.sh
// window): whether they move the CPU per request, the A/B noise of two
// identical hosts, and the cost of a piece after the other host.
func interleaveFigures(dir string) ([]figure, error) {
	var figs []figure
	for _, name := range []string{"interleave.jsonl", "window.jsonl"} {
		f, err := interleaveFile(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		figs = append(figs, f...)
	}
	return figs, nil
}

// interleaveFile is interleaveFigures for one file; none when it is absent.
func interleaveFile(p string) ([]figure, error) {
	const item = "3 noise (A/A)"
	if !exists(p) {
		return nil, nil
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var figs []figure
	dec := json.NewDecoder(f)
	for {
		var s struct {
			Summary     string    `json:"summary"`
			Window      string    `json:"window"` // window.jsonl only
			Concurrency int       `json:"concurrency"`
			Piece       string    `json:"piece"`
			Ratios      []float64 `json:"ratios"`
			Q1          float64   `json:"q1"`
			Median      float64   `json:"median"`
			Q3          float64   `json:"q3"`
			SDPercent   float64   `json:"sd_percent"`
		}
		if err := dec.Decode(&s); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		quartiles := fmt.Sprintf("%s [%s, %s]", pct(s.Median-1), pct(s.Q1-1), pct(s.Q3-1))
		window := s.Window
		if window == "" {
			window = "2s" // bench/run.sh interleave
		}
		switch {
		case s.Summary == "":
			continue
		case strings.HasPrefix(s.Summary, "interleaved/continuous"):
			figs = append(figs, figure{item: item, name: fmt.Sprintf("interleaved (%s windows of %s pieces) / continuous CPU/req, c=%d", window, s.Piece, s.Concurrency),
				value: quartiles,
				note:  fmt.Sprintf("%d paired ratios (2 hosts × repetitions), bench/interleave", len(s.Ratios))})
		case strings.HasPrefix(s.Summary, "A/B"):
			figs = append(figs, figure{item: item, name: fmt.Sprintf("A/B CPU/req of two identical hosts, interleaved %s windows of %s pieces, c=%d", window, s.Piece, s.Concurrency),
				value: fmt.Sprintf("SD %.2f%%, %s", s.SDPercent, quartiles),
				note:  fmt.Sprintf("%d windows, bench/interleave", len(s.Ratios))})
		case strings.HasPrefix(s.Summary, "CPU per request of a piece after"):
			figs = append(figs, figure{item: item, name: fmt.Sprintf("CPU/req of a piece after the other host / after its own (%s pieces), c=%d", s.Piece, s.Concurrency),
				value: quartiles,
				note:  "per piece pair, bench/interleave"})
		}
	}
	return figs, nil
}
