package load

import (
	"strconv"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// Result is the load generator's view of one window.
type Result struct {
	// Seconds is the attack's wall time on the monotonic clock: from just
	// before the first request is issued until the last response of the
	// window has been read (summed over the slices of a sliced window). Requests still in flight when the duration
	// ends are waited for and counted, so Requests/Seconds is the
	// completion rate over the span the counted requests occupied.
	Seconds float64
	// Requests is every completed request: Requests = Σ StatusCodes +
	// Σ TransportErrors.
	Requests int64
	Success  int64 // 2xx and 3xx responses (redirects are not followed)
	// StatusCodes counts responses by status code ("200" → n). A request
	// without a response (vegeta's code 0) is never here but in
	// TransportErrors.
	StatusCodes     map[string]int64
	Errors5xx       int64            // responses with status 500–599
	TransportErrors map[string]int64 // Kind → count
	// Latency of completed requests (responses and transport errors alike),
	// from issuing the request to the end of reading its body. Quantiles
	// are vegeta's t-digest estimates; Max is exact.
	P50, P95, P99, Max time.Duration
}

// Window accumulates the slices of one window (Generator.RunSlice). The
// zero value is not usable; call NewWindow. A Window is not safe for
// concurrent use.
type Window struct {
	t      *tally
	wall   time.Duration
	slices int
}

// NewWindow returns an empty window.
func NewWindow() *Window { return &Window{t: newTally()} }

// Slices is the number of RunSlice calls that added to w.
func (w *Window) Slices() int { return w.slices }

// Result is the window's total so far; call it once, after the last slice.
func (w *Window) Result() Result { return w.t.result(w.wall) }

// tally accumulates one window's results.
type tally struct {
	r Result
	m vegeta.Metrics
}

func newTally() *tally {
	return &tally{r: Result{StatusCodes: map[string]int64{}, TransportErrors: map[string]int64{}}}
}

func (t *tally) add(res *vegeta.Result) {
	t.r.Requests++
	switch c := res.Code; {
	case c == 0:
		t.r.TransportErrors[Kind(res.Error)]++
	default:
		t.r.StatusCodes[strconv.Itoa(int(c))]++
		if c >= 200 && c < 400 {
			t.r.Success++
		}
		if c >= 500 && c < 600 {
			t.r.Errors5xx++
		}
	}
	// Metrics keeps every distinct error string, and transport errors
	// name the ephemeral local port, so a window of resets would keep
	// thousands of them. The kinds are counted above; Metrics only
	// needs the latency.
	res.Error = ""
	res.Body = nil
	t.m.Add(res)
}

func (t *tally) result(wall time.Duration) Result {
	t.r.Seconds = wall.Seconds()
	if t.r.Requests > 0 {
		t.m.Close()
		l := t.m.Latencies
		t.r.P50, t.r.P95, t.r.P99, t.r.Max = l.P50, l.P95, l.P99, l.Max
	}
	return t.r
}
