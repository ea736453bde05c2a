package main

import (
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"
)

// truthGoal bounds |sweep's CPU/req ÷ truth − 1|.
const truthGoal = 0.05

// truthFigures: item 5, sweep's CPU/req of the C truth server against the
// burn it was told, raw and corrected for the fixed per-request overhead
// measured at burn_us = 0 in the same run.
func truthFigures(dir string) ([]figure, error) {
	const item = "5 CPU accuracy"
	p := filepath.Join(dir, "truth")
	if !exists(p) {
		return notRun(item, "truth server"), nil
	}
	run, err := readRun(p)
	if err != nil {
		return nil, err
	}
	zero, err := run.cell("burn_us=0", 1)
	if err != nil {
		return nil, err
	}
	overhead := zero.CPUUsPerReq
	figs := []figure{{item: item, name: "truth server overhead at burn 0 (CPU µs/req)",
		value: fmt.Sprintf("%.1f", overhead),
		note:  fmt.Sprintf("read + write + clock syscalls per request; quartiles [%.1f, %.1f]", zero.CPUUsQ1, zero.CPUUsQ3)}}
	burns, err := readBurnstep(filepath.Join(dir, "burnstep.tsv"))
	if err != nil {
		return nil, err
	}
	for _, cl := range run.summary.Cells {
		if cl.AA || cl.Concurrency != 1 || !strings.HasPrefix(cl.Config, "burn_us=") {
			continue
		}
		burn, err := strconv.ParseFloat(strings.TrimPrefix(cl.Config, "burn_us="), 64)
		if err != nil || burn < 10 {
			continue // burn 0 is the overhead; very short burns are below the loop's step
		}
		// What a request of the truth server costs: the overhead measured
		// at burn 0, plus what burn() really spends beyond burn(0)
		// (bench/burnstep), or the nominal burn when that is unknown.
		spent := burn
		if b, ok := burns[burn]; ok && burns[0] > 0 {
			spent = b - burns[0]
		}
		truth := overhead + spent
		raw := cl.CPUUsPerReq/burn - 1
		corr := cl.CPUUsPerReq/truth - 1
		figs = append(figs, figure{item: item, name: fmt.Sprintf("burn %.0f µs: error vs truth", burn),
			value: fmt.Sprintf("%s corrected (raw %s)", pct(corr), pct(raw)), goal: "≤ ±5%",
			met: verdict(math.Abs(corr) <= truthGoal),
			note: fmt.Sprintf("sweep %.1f µs/req [%.1f, %.1f]; truth = overhead %.1f + burn() %.1f = %.1f; raw compares with the nominal burn",
				cl.CPUUsPerReq, cl.CPUUsQ1, cl.CPUUsQ3, overhead, spent, truth)})
	}
	return figs, nil
}

// readBurnstep reads bench/burnstep's "BURN_US<TAB>CPU µs per call" lines;
// a missing file yields none.
func readBurnstep(path string) (map[float64]float64, error) {
	out := map[float64]float64{}
	if !exists(path) {
		return out, nil
	}
	rows, err := readTSV(path)
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		if len(r) != 2 {
			return nil, fmt.Errorf("%s: want BURN_US<TAB>µs, got %q", path, strings.Join(r, "\t"))
		}
		b, err := num(path, r[0])
		if err != nil {
			return nil, err
		}
		v, err := num(path, r[1])
		if err != nil {
			return nil, err
		}
		out[b] = v
	}
	return out, nil
}
