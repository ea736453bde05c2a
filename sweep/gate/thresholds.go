package gate

import (
	"errors"
	"fmt"
	"math"

	"github.com/sweep-dev/sweep/sweep"
)

// Thresholds maps a metric to the smallest regression, as a fraction of
// the old value, that the gate considers at all.
type Thresholds map[sweep.Metric]float64

// DefaultThresholds are the in-run gate's: 2% for CPU per request and
// throughput and 10% for p99 latency, which is noisier. A regression
// counts when the candidate is worse by more than that with the run's
// confidence.
func DefaultThresholds() Thresholds {
	return Thresholds{
		sweep.MetricCPUPerReq:  0.02,
		sweep.MetricRPS:        0.02,
		sweep.MetricSuccessRPS: 0.02,
		sweep.MetricP99:        0.10,
	}
}

// DefaultDrift is how far a cell's absolute level may move between two
// runs of one unchanged build on the same machine before Compare calls it
// a regression: measured on this project's 2-vCPU VM (BENCHMARKS.md,
// 2026-12-03) at CPU/req +4–5%, RPS −6…−12% and p99 ×2–3 between runs
// minutes apart, and RPS at c=16 −21…−27% for every config alike when
// other work shared the machine during one of the runs (throughput is
// what the server gets of its CPU; CPU per request is not). A cross-run
// check can see no smaller change than this.
func DefaultDrift() Thresholds {
	return Thresholds{
		sweep.MetricCPUPerReq:  0.07,
		sweep.MetricRPS:        0.30,
		sweep.MetricSuccessRPS: 0.30,
		sweep.MetricP99:        2.0,
	}
}

// AnchorDrift is how far a cell's figure against its run's reference
// server (run.reference) may grow between two runs of one unchanged build
// before Compare calls it a regression. Measured on this project's 2-vCPU
// VM (BENCHMARKS.md, 20 runs of bench/crossrun.toml on 2026-12-04, and 20
// more to check the allowances on runs they were not chosen on, 2026-12-05):
//   - CPU per request and time per request (1/RPS): the machine's drift
//     between runs is additive — a slow spell adds about the same 40–65 µs
//     (c=1) to every request of every server, the reference's included —
//     so the cost beyond the reference, cell − reference, is judged, as a
//     fraction of the old cell's cost. It moved −4.5…+3.7% (CPU; time per
//     request −6.9…+5.9%) between consecutive unchanged runs while the
//     absolute CPU per request moved −16.5…+28.7%, and a +10% build came
//     out +8.7…+14.5% (+8.3…+15.9%); the allowances lie between.
//   - p99 latency: a slow spell stretches every server's tail alike in
//     proportion, so the ratio cell p99 / reference p99 is judged. It moved
//     ×0.61…×1.68 at c=1 (×0.85…×1.17 at c=16) while the absolute p99
//     moved ×0.18…×4.4; 100% (×2) is allowed.
func AnchorDrift() Thresholds {
	return Thresholds{
		sweep.MetricCPUPerReq:  0.05,
		sweep.MetricRPS:        0.07,
		sweep.MetricSuccessRPS: 0.07,
		sweep.MetricP99:        1.0,
	}
}

// CrossRun is the thresholds Compare judges by default across runs: CPU
// per request only. Throughput and p99 latency depend on how much of its
// CPUs the machine gives the server while it is measured, and across runs
// other work on the machine changes that; CPU per request does not
// (BENCHMARKS.md: over two series of 20 runs of bench/crossrun.toml,
// 2026-12-05, the CPU rows against the reference failed none of 38
// consecutive unchanged pairs and 11 of 380 pairs up to an hour apart,
// and every CPU row failed each of 6 pairs against a +10% build, while
// the time-per-request and p99 rows failed 5 of the 19 consecutive pairs
// of the busier series). Give the other metrics a threshold to judge them
// too.
func CrossRun() Thresholds {
	return Thresholds{sweep.MetricCPUPerReq: DefaultThresholds()[sweep.MetricCPUPerReq]}
}

// MaxThreshold bounds a threshold: a regression allowance of 1000% or more
// is a typo, not a gate.
const MaxThreshold = 10

// ErrThreshold is wrapped by the error for an unknown metric or a
// threshold out of range.
var ErrThreshold = errors.New("bad threshold")

// validate checks every threshold: a known metric, 0 ≤ t < MaxThreshold.
func (th Thresholds) validate() error {
	for m, v := range th {
		if _, err := sweep.ParseMetric(string(m)); err != nil {
			return fmt.Errorf("%w: %w", ErrThreshold, err)
		}
		if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) || v >= MaxThreshold {
			return fmt.Errorf("%w: %s threshold %v: want a fraction from 0 up to %d (e.g. 0.05 or \"5%%\")", ErrThreshold, m, v, MaxThreshold)
		}
	}
	return nil
}

// metrics returns th's metrics in report order.
func (th Thresholds) metrics() []sweep.Metric {
	var out []sweep.Metric
	for _, m := range sweep.Metrics {
		if _, ok := th[m]; ok {
			out = append(out, m)
		}
	}
	return out
}
