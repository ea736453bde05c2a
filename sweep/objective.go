package sweep

import "slices"

// Objective is what a run's recommendation optimises (analysis.objective,
// Plan.Objective, Recommendation.Objective). Its JSON encoding is the
// name.
type Objective string

// The objectives.
const (
	// ObjectiveCPUPerReq (the default) minimises server CPU per request.
	ObjectiveCPUPerReq Objective = "cpu_per_req"
	// ObjectiveSuccessRPS maximises successful requests per second.
	ObjectiveSuccessRPS Objective = "success_rps"
)

// Objectives are the valid objectives, in the order errors list them.
var Objectives = []Objective{ObjectiveCPUPerReq, ObjectiveSuccessRPS}

// Valid reports whether o is one of Objectives.
func (o Objective) Valid() bool { return slices.Contains(Objectives, o) }

// Metric is the metric o is judged by: success RPS for
// ObjectiveSuccessRPS, else CPU per request, the default objective's
// (stats falls back to it, with a warning, for an invalid objective read
// back from a summary).
func (o Objective) Metric() Metric {
	if o == ObjectiveSuccessRPS {
		return MetricSuccessRPS
	}
	return MetricCPUPerReq
}
