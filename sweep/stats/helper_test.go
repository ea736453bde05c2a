package stats

import (
	"math"
	"slices"
	"testing"

	"github.com/sweep-dev/sweep/sweep"
)

// Labels used by the tests' windows.
const (
	base = "kr=0"
	aa   = "kr=0 [A/A]"
)

// win builds a good window: 10000 requests over 1 s at the given CPU µs
// per request, RPS equal to the requests, no errors, p99 10 ms. Options
// adjust it.
func win(config string, conc, round int, cpu float64, opts ...func(*sweep.Window)) sweep.Window {
	w := sweep.Window{
		Config: config, Point: pointOf(config), Baseline: config == base || config == aa, AA: config == aa,
		Concurrency: conc, Round: round, Seconds: 1,
		Requests: 10000, Success: 10000, RPS: 10000, SuccessRPS: 10000,
		StatusCodes: map[string]int64{"200": 10000},
		P50Ms:       2, P95Ms: 5, P99Ms: 10, MaxMs: 20,
		CPUSeconds: cpu * 10000 / 1e6, CPUSource: "clock", CPUUsPerReq: cpu,
		RSSBytes: 50 << 20, MinorFaults: 20000, MinorFaultsPerReq: 2,
	}
	for _, o := range opts {
		o(&w)
	}
	return w
}

// pointOf maps a test label "kr=X" (with an optional " [A/A]") to its point.
func pointOf(config string) sweep.Point {
	v := config[len("kr="):]
	if i := len(v) - len(" [A/A]"); i > 0 && v[i:] == " [A/A]" {
		v = v[:i]
	}
	return sweep.Point{"kr": v}
}

// rps sets RPS and success RPS (requests stay as they are).
func rps(x float64) func(*sweep.Window) {
	return func(w *sweep.Window) { w.RPS, w.SuccessRPS = x, x }
}

// errs5xx turns n of the window's requests into 502s.
func errs5xx(n int64) func(*sweep.Window) {
	return func(w *sweep.Window) {
		w.Errors5xx = n
		w.Success = w.Requests - n
		w.StatusCodes = map[string]int64{"200": w.Success, "502": n}
		w.SuccessRPS = w.RPS * float64(w.Success) / float64(w.Requests)
		w.ErrorRate = float64(n) / float64(w.Requests)
	}
}

// failed marks the window itself failed.
func failed(reason string) func(*sweep.Window) {
	return func(w *sweep.Window) {
		*w = sweep.Window{Config: w.Config, Point: w.Point, Concurrency: w.Concurrency, Round: w.Round, Failed: true, FailReason: reason}
	}
}

// series builds one window per round (0, 1, ...) of config at conc, with
// the given CPU µs per request.
func series(config string, conc int, cpus ...float64) []sweep.Window {
	var ws []sweep.Window
	for r, c := range cpus {
		ws = append(ws, win(config, conc, r, c))
	}
	return ws
}

// flat is n rounds of the same CPU figure.
func flat(config string, conc, n int, cpu float64) []sweep.Window {
	return series(config, conc, slices.Repeat([]float64{cpu}, n)...)
}

func join(parts ...[]sweep.Window) []sweep.Window {
	return slices.Concat(parts...)
}

// near compares floats computed through ratios.
func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// cellOf finds a cell or fails.
func cellOf(t *testing.T, a Analysis, config string, conc int) sweep.Cell {
	t.Helper()
	for _, c := range a.Cells {
		if c.Config == config && c.Concurrency == conc {
			return c
		}
	}
	t.Fatalf("no cell %q at c=%d", config, conc)
	return sweep.Cell{}
}

// codes lists warning codes in order.
func codes(ws []sweep.Warning) []string {
	var out []string
	for _, w := range ws {
		out = append(out, string(w.Code))
	}
	return out
}
