package sweep

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// TestMetricLookup: every metric resolves, to its own field, for both a
// Window and a Cell; a name that is not a metric panics instead of
// reading as 0.
func TestMetricLookup(t *testing.T) {
	w := Window{CPUUsPerReq: 1, RPS: 2, SuccessRPS: 3, P99Ms: 4}
	c := Cell{CPUUsPerReq: 1, RPS: 2, SuccessRPS: 3, P99Ms: 4}
	want := map[Metric]float64{MetricCPUPerReq: 1, MetricRPS: 2, MetricSuccessRPS: 3, MetricP99: 4}
	if len(Metrics) != len(want) || len(metricDefs) != len(want) {
		t.Fatalf("%d metrics, %d definitions; the test knows %d", len(Metrics), len(metricDefs), len(want))
	}
	for _, m := range Metrics {
		if got := w.Metric(m); got != want[m] {
			t.Errorf("Window.Metric(%s) = %v, want %v", m, got, want[m])
		}
		if got := c.Metric(m); got != want[m] {
			t.Errorf("Cell.Metric(%s) = %v, want %v", m, got, want[m])
		}
	}
	for _, lookup := range []struct {
		name string
		f    func(Metric) float64
	}{{"Window", w.Metric}, {"Cell", c.Metric}} {
		for _, bad := range []Metric{"latency", "", "cpu_per_req"} {
			func() {
				defer func() {
					r := recover()
					if r == nil || !strings.Contains(r.(string), `unknown metric "`+string(bad)+`"`) {
						t.Errorf("%s.Metric(%q): recovered %v, want a panic naming the metric", lookup.name, bad, r)
					}
				}()
				v := lookup.f(bad)
				t.Errorf("%s.Metric(%q) = %v, want a panic", lookup.name, bad, v)
			}()
		}
	}
}

func TestParseMetric(t *testing.T) {
	for _, m := range Metrics {
		got, err := ParseMetric(string(m))
		if err != nil || got != m {
			t.Errorf("ParseMetric(%q) = %q, %v", m, got, err)
		}
	}
	_, err := ParseMetric("latency")
	var unknown *UnknownMetricError
	if !errors.As(err, &unknown) || unknown.Name != "latency" {
		t.Fatalf(`ParseMetric("latency"): err = %v, want an *UnknownMetricError`, err)
	}
	if want := `unknown metric "latency" (allowed: cpu_us_per_req, p99_ms, rps, success_rps)`; err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
}

func TestMetricDefinitions(t *testing.T) {
	tests := []struct {
		m     Metric
		lower bool
		unit  string
		label string
	}{
		{MetricCPUPerReq, true, "µs", "CPU/req"},
		{MetricRPS, false, "req/s", "RPS"},
		{MetricSuccessRPS, false, "req/s", "success RPS"},
		{MetricP99, true, "ms", "p99"},
		{"latency", false, "", "latency"}, // invalid: no direction, no unit, its own name
	}
	for _, tt := range tests {
		if tt.m.Valid() != (tt.unit != "") {
			t.Errorf("%s.Valid() = %v", tt.m, tt.m.Valid())
		}
		if got := tt.m.LowerIsBetter(); got != tt.lower {
			t.Errorf("%s.LowerIsBetter() = %v, want %v", tt.m, got, tt.lower)
		}
		if got := tt.m.Unit(); got != tt.unit {
			t.Errorf("%s.Unit() = %q, want %q", tt.m, got, tt.unit)
		}
		if got := tt.m.Label(); got != tt.label {
			t.Errorf("%s.Label() = %q, want %q", tt.m, got, tt.label)
		}
	}
}

// TestEnumJSON: the typed values keep their JSON encoding, plain
// strings, as map keys too.
func TestEnumJSON(t *testing.T) {
	s := Summary{
		Environment: Environment{Target: TargetCommand, ServerSched: SchedBatch},
		Plan:        Plan{Objective: ObjectiveSuccessRPS, Restarts: RestartsNever},
		Cells:       []Cell{{VsBaseline: map[Metric]Delta{MetricP99: {}}, AABand: map[Metric]Band{MetricRPS: {}}}},
		Tradeoffs:   []Tradeoff{{Metric: MetricCPUPerReq}},
	}
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"target":"command"`, `"server_sched":"batch"`, `"objective":"success_rps"`,
		`"restarts":"never"`, `"vs_baseline":{"p99_ms":{`, `"aa_band":{"rps":{`, `"metric":"cpu_us_per_req"`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("summary JSON lacks %s:\n%s", want, b)
		}
	}
	var back Summary
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Plan.Restarts != RestartsNever || back.Environment.Target != TargetCommand || back.Plan.Objective != ObjectiveSuccessRPS {
		t.Errorf("round trip: %+v %+v", back.Plan, back.Environment)
	}
	if _, ok := back.Cells[0].VsBaseline[MetricP99]; !ok {
		t.Errorf("round trip lost vs_baseline key: %v", back.Cells[0].VsBaseline)
	}
}

// TestEnumValues: each enum's values are valid, in the order config errors
// list them, and nothing else is.
func TestEnumValues(t *testing.T) {
	tests := []struct {
		name   string
		values []string
		valid  func(string) bool
		want   string
	}{
		{"Objective", strs(Objectives), func(s string) bool { return Objective(s).Valid() }, "cpu_per_req success_rps"},
	}
	for _, tt := range tests {
		if got := strings.Join(tt.values, " "); got != tt.want {
			t.Errorf("%s values %q, want %q", tt.name, got, tt.want)
		}
		for _, v := range tt.values {
			if !tt.valid(v) {
				t.Errorf("%s(%q).Valid() = false", tt.name, v)
			}
		}
		for _, v := range []string{"", "always", "ROUND", "fifo"} {
			if tt.valid(v) {
				t.Errorf("%s(%q).Valid() = true", tt.name, v)
			}
		}
	}
}

func TestObjectiveMetric(t *testing.T) {
	for o, want := range map[Objective]Metric{
		ObjectiveCPUPerReq:  MetricCPUPerReq,
		ObjectiveSuccessRPS: MetricSuccessRPS,
		"":                  MetricCPUPerReq, // the default objective's
		"latency":           MetricCPUPerReq,
	} {
		if got := o.Metric(); got != want {
			t.Errorf("Objective(%q).Metric() = %s, want %s", o, got, want)
		}
	}
}

func strs[T ~string](vs []T) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = string(v)
	}
	return out
}
