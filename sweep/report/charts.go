package report

import (
	"fmt"
	"path/filepath"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/rundir"
)

// Chart file names.
const (
	ChartCPU        = "cpu_per_request.png"
	ChartThroughput = "throughput.png"
	ChartErrors     = "errors.png"
	ChartLatency    = "latency.png"
	ChartTradeoff   = "tradeoff.png"
	ChartHeatmap    = "heatmap.png"
	ChartSplit      = "cpu_split.png"
)

// chartSpec is one chart: its file, a caption for summary.md and how to
// draw it (nil chart = not applicable to this run).
type chartSpec struct {
	File    string
	Caption string
	draw    func(sweep.Summary, []series, []int) (*chart, error)
}

var chartSpecs = []chartSpec{
	{ChartTradeoff, "Effect of each setting on CPU per request at each concurrency, against the A/A noise band", tradeoffChart},
	{ChartCPU, "Server CPU per request (median, quartile whiskers)", cpuChart},
	{ChartSplit, "Server CPU per request split into kernel and user time, per concurrency", splitChart},
	{ChartThroughput, "Throughput: successful requests/s (solid) and all requests/s where errors occurred (dashed)", throughputChart},
	{ChartErrors, "Error rate with capacity cliffs marked", errorsChart},
	{ChartLatency, "Latency p50 (solid) and p99 (dashed)", latencyChart},
	{ChartHeatmap, "Objective vs baseline over both grid axes at the target concurrency", heatmapChart},
	{ChartMemory, "CPU per request against RSS at the target concurrency: the memory/CPU tradeoff, Pareto front marked", memoryChart},
}

// renderedChart is a chart drawn to PNG bytes.
type renderedChart struct {
	File    string
	Caption string
	PNG     []byte
}

// drawCharts renders every chart that applies to s. A run with no cells
// has no charts.
func drawCharts(s sweep.Summary) ([]renderedChart, error) {
	lv := levels(s)
	if len(s.Cells) == 0 || len(lv) == 0 {
		return nil, nil
	}
	ss := buildSeries(s)
	var out []renderedChart
	for _, spec := range chartSpecs {
		ch, err := spec.draw(s, ss, lv)
		if err != nil {
			return nil, fmt.Errorf("drawing %s: %w", spec.File, err)
		}
		if ch == nil {
			continue
		}
		b, err := ch.png()
		if err != nil {
			return nil, fmt.Errorf("rendering %s: %w", spec.File, err)
		}
		out = append(out, renderedChart{File: spec.File, Caption: spec.Caption, PNG: b})
	}
	return out, nil
}

// Charts renders every chart that applies to s into dir and returns the
// file names written, in summary.md order. The tradeoff chart needs at
// least one config besides the baseline; the heatmap needs a two-axis grid.
func Charts(dir string, s sweep.Summary) ([]string, error) {
	cs, err := drawCharts(s)
	if err != nil {
		return nil, err
	}
	var files []string
	for _, c := range cs {
		if err := rundir.WriteFile(filepath.Join(dir, c.File), c.PNG); err != nil {
			return nil, err
		}
		files = append(files, c.File)
	}
	return files, nil
}
