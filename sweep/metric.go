package sweep

import (
	"fmt"
	"slices"
	"strings"
)

// Metric names a compared metric: a key of Cell.VsBaseline and
// Cell.AABand, and a figure of every Window and Cell. Its JSON encoding is
// the name. The only valid values are the Metric constants (the
// elements of Metrics); names from outside the program go through
// ParseMetric.
type Metric string

// The compared metrics.
const (
	MetricCPUPerReq  Metric = "cpu_us_per_req"
	MetricRPS        Metric = "rps"
	MetricSuccessRPS Metric = "success_rps"
	MetricP99        Metric = "p99_ms"
)

// metricDef is the one definition of a metric: its unit, its direction,
// its short name in words, and where Windows and Cells keep it.
type metricDef struct {
	unit   string
	label  string
	lower  bool
	window func(*Window) float64
	cell   func(*Cell) float64
}

// metricDefs defines every metric; Metrics is its key order.
var metricDefs = map[Metric]metricDef{
	MetricCPUPerReq: {"µs", "CPU/req", true,
		func(w *Window) float64 { return w.CPUUsPerReq }, func(c *Cell) float64 { return c.CPUUsPerReq }},
	MetricRPS: {"req/s", "RPS", false,
		func(w *Window) float64 { return w.RPS }, func(c *Cell) float64 { return c.RPS }},
	MetricSuccessRPS: {"req/s", "success RPS", false,
		func(w *Window) float64 { return w.SuccessRPS }, func(c *Cell) float64 { return c.SuccessRPS }},
	MetricP99: {"ms", "p99", true,
		func(w *Window) float64 { return w.P99Ms }, func(c *Cell) float64 { return c.P99Ms }},
}

// Metrics are the compared metrics in report order.
var Metrics = []Metric{MetricCPUPerReq, MetricRPS, MetricSuccessRPS, MetricP99}

// UnknownMetricError is ParseMetric's error for a name that is not a
// metric.
type UnknownMetricError struct {
	Name string
}

func (e *UnknownMetricError) Error() string {
	return fmt.Sprintf("unknown metric %q (allowed: %s)", e.Name, strings.Join(metricNames(), ", "))
}

// metricNames returns the metric names sorted.
func metricNames() []string {
	names := make([]string, len(Metrics))
	for i, m := range Metrics {
		names[i] = string(m)
	}
	slices.Sort(names)
	return names
}

// ParseMetric returns the metric named name, or an *UnknownMetricError.
func ParseMetric(name string) (Metric, error) {
	m := Metric(name)
	if !m.Valid() {
		return "", &UnknownMetricError{Name: name}
	}
	return m, nil
}

// Valid reports whether m is one of Metrics.
func (m Metric) Valid() bool {
	_, ok := metricDefs[m]
	return ok
}

// def returns m's definition. An invalid m is a bug in the caller (a
// conversion that skipped ParseMetric), never user input, so it panics
// rather than let a figure of 0 pass for a measurement.
func (m Metric) def() metricDef {
	d, ok := metricDefs[m]
	if !ok {
		panic(fmt.Sprintf("sweep: %v", &UnknownMetricError{Name: string(m)}))
	}
	return d
}

// LowerIsBetter tells a metric's direction: CPU per request and tail
// latency improve downwards, throughput upwards. It is false for an
// invalid metric (e.g. one read from a hand-edited summary.json).
func (m Metric) LowerIsBetter() bool { return metricDefs[m].lower }

// Unit is the unit of m's figures: "µs", "req/s" or "ms"; "" for an
// invalid metric.
func (m Metric) Unit() string { return metricDefs[m].unit }

// Label is m's short name in words, e.g. "CPU/req"; the name itself for
// an invalid metric.
func (m Metric) Label() string {
	if d, ok := metricDefs[m]; ok {
		return d.label
	}
	return string(m)
}

// Metric is the window's figure for m. It panics for an invalid m.
func (w Window) Metric(m Metric) float64 { return m.def().window(&w) }

// Metric is the cell's median for m. It panics for an invalid m.
func (c Cell) Metric(m Metric) float64 { return m.def().cell(&c) }
