package load

import (
	"context"
	"net/http"
	"sync/atomic"
	"testing"
	"time"
)

// TestSlicesAddUp: a window measured as three slices against a server
// whose every 4th request is a 503 (one of them slow) reports the sum of
// its slices: all requests, their codes, the wall time of the three
// slices and latency quantiles over all of them (the slow request is the
// maximum).
func TestSlicesAddUp(t *testing.T) {
	var count atomic.Int64
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		n := count.Add(1)
		if n == 250 {
			time.Sleep(30 * time.Millisecond)
		}
		if n%4 == 0 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		_, _ = w.Write([]byte("ok"))
	})
	g := newGen(t, Options{URL: s.URL, Concurrency: 1, MaxRequests: 200})
	w := NewWindow()
	for range 3 {
		if err := g.RunSlice(context.Background(), time.Minute, w); err != nil {
			t.Fatal(err)
		}
	}
	if w.Slices() != 3 {
		t.Errorf("Slices() = %d, want 3", w.Slices())
	}
	r := w.Result()
	checkSums(t, r)
	if r.Requests != 600 || s.served.Load() != 600 {
		t.Errorf("Requests = %d, served = %d, want 600 and 600", r.Requests, s.served.Load())
	}
	if r.StatusCodes["503"] != 150 || r.Errors5xx != 150 || r.Success != 450 {
		t.Errorf("codes %v, 5xx %d, success %d; want 450×200, 150×503", r.StatusCodes, r.Errors5xx, r.Success)
	}
	if r.Max < 30*time.Millisecond || r.P50 >= 30*time.Millisecond {
		t.Errorf("max %v, p50 %v: want the one 30 ms request as the max, not the median", r.Max, r.P50)
	}
	if r.Seconds < 0.03 {
		t.Errorf("Seconds = %v, want at least the slow request's 30 ms", r.Seconds)
	}
}
