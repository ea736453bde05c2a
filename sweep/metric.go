package sweep

// Metrics are the compared metrics (keys of Cell.VsBaseline and
// Cell.AABand), in report order.
var Metrics = []string{MetricCPUPerReq, MetricRPS, MetricSuccessRPS, MetricP99}

// LowerIsBetter tells a metric's direction: CPU per request and tail
// latency improve downwards, throughput upwards.
func LowerIsBetter(metric string) bool {
	return metric == MetricCPUPerReq || metric == MetricP99
}

// Metric is the window's figure for a compared metric (0 for other names).
func (w Window) Metric(name string) float64 {
	switch name {
	case MetricCPUPerReq:
		return w.CPUUsPerReq
	case MetricRPS:
		return w.RPS
	case MetricSuccessRPS:
		return w.SuccessRPS
	case MetricP99:
		return w.P99Ms
	}
	return 0
}

// Metric is the cell's median for a compared metric (0 for other names).
func (c Cell) Metric(name string) float64 {
	switch name {
	case MetricCPUPerReq:
		return c.CPUUsPerReq
	case MetricRPS:
		return c.RPS
	case MetricSuccessRPS:
		return c.SuccessRPS
	case MetricP99:
		return c.P99Ms
	}
	return 0
}
