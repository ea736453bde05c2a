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
	// The burn loop's step, from burn_us = 1 (one step); a longer burn
	// overshoots by half a step on average.
	step := 0.0
	if one, err := run.cell("burn_us=1", 1); err == nil {
		step = max(0, one.CPUUsPerReq-overhead)
		figs = append(figs, figure{item: item, name: "truth burn loop step (CPU µs)", value: fmt.Sprintf("%.1f", step),
			note: "burn_us=1 minus burn_us=0: a burn overshoots by up to one step, half on average"})
	}
	for _, cl := range run.summary.Cells {
		if cl.AA || cl.Concurrency != 1 || !strings.HasPrefix(cl.Config, "burn_us=") {
			continue
		}
		burn, err := strconv.ParseFloat(strings.TrimPrefix(cl.Config, "burn_us="), 64)
		if err != nil || burn < 100 {
			continue
		}
		truth := burn + overhead + step/2
		raw := cl.CPUUsPerReq/burn - 1
		corr := cl.CPUUsPerReq/truth - 1
		figs = append(figs, figure{item: item, name: fmt.Sprintf("burn %.0f µs: error vs truth", burn),
			value: fmt.Sprintf("%s corrected (raw %s)", pct(corr), pct(raw)), goal: "≤ ±5%",
			met: verdict(math.Abs(corr) <= truthGoal),
			note: fmt.Sprintf("sweep %.1f µs/req [%.1f, %.1f]; truth = burn + overhead %.1f + half a step %.1f = %.1f; raw compares with the burn alone",
				cl.CPUUsPerReq, cl.CPUUsQ1, cl.CPUUsQ3, overhead, step/2, truth)})
	}
	return figs, nil
}
