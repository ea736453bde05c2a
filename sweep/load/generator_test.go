package load

import (
	"context"
	"errors"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// server is a real loopback HTTP server that counts what it sees.
type server struct {
	*httptest.Server
	served atomic.Int64 // requests that reached the handler
	conns  atomic.Int64 // connections accepted
}

func newServer(t testing.TB, h http.HandlerFunc) *server {
	t.Helper()
	return newServerWith(t, h, nil)
}

// newServerWith is newServer with a hook that configures the http.Server
// before it starts.
func newServerWith(t testing.TB, h http.HandlerFunc, configure func(*http.Server)) *server {
	t.Helper()
	s := &server{}
	s.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.served.Add(1)
		h(w, r)
	}))
	s.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			s.conns.Add(1)
		}
	}
	if configure != nil {
		configure(s.Config)
	}
	s.Start()
	t.Cleanup(s.Close)
	return s
}

func newGen(t *testing.T, o Options) *Generator {
	t.Helper()
	g, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(g.Close)
	return g
}

func run(t *testing.T, g *Generator, d time.Duration) Result {
	t.Helper()
	r, err := g.Run(context.Background(), d)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// checkSums fails unless every request is one status code or one
// transport error.
func checkSums(t *testing.T, r Result) {
	t.Helper()
	var n int64
	for code, c := range r.StatusCodes {
		if code == "0" {
			t.Errorf("status code \"0\" present: %v", r.StatusCodes)
		}
		n += c
	}
	for _, c := range r.TransportErrors {
		n += c
	}
	if n != r.Requests {
		t.Errorf("Σ codes + Σ transport errors = %d, Requests = %d (%v %v)", n, r.Requests, r.StatusCodes, r.TransportErrors)
	}
}

// TestCountsAndFiveHundreds: a handler answering 503 to every 5th request.
// Every request reaches the server exactly once, the counts add up and the
// 503s are the 5xx.
func TestCountsAndFiveHundreds(t *testing.T) {
	var n atomic.Int64
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1)%5 == 0 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		_, _ = w.Write([]byte("hello"))
	})
	g := newGen(t, Options{URL: s.URL, Concurrency: 4, MaxRequests: 1000})
	r := run(t, g, time.Minute)
	checkSums(t, r)
	if r.Requests != 1000 || s.served.Load() != 1000 {
		t.Errorf("Requests = %d, served = %d, want 1000 and 1000", r.Requests, s.served.Load())
	}
	if r.Errors5xx != 200 || r.StatusCodes["503"] != 200 || r.StatusCodes["200"] != 800 || r.Success != 800 {
		t.Errorf("codes %v, 5xx %d, success %d; want 800×200, 200×503", r.StatusCodes, r.Errors5xx, r.Success)
	}
	if len(r.TransportErrors) != 0 {
		t.Errorf("transport errors %v, want none", r.TransportErrors)
	}
	if r.Seconds <= 0 || r.P50 <= 0 || r.P50 > r.P95 || r.P95 > r.P99 || r.P99 > r.Max {
		t.Errorf("Seconds %v, latencies p50 %v p95 %v p99 %v max %v: want positive and ordered", r.Seconds, r.P50, r.P95, r.P99, r.Max)
	}
}

// TestRedirectIsSuccess: a 302 is one request and a success, not followed.
func TestRedirectIsSuccess(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/elsewhere", http.StatusFound)
	})
	r := run(t, newGen(t, Options{URL: s.URL + "/here", Concurrency: 2, MaxRequests: 50}), time.Minute)
	if r.StatusCodes["302"] != 50 || r.Success != 50 || s.served.Load() != 50 {
		t.Errorf("codes %v success %d served %d, want 50 × 302, not followed", r.StatusCodes, r.Success, s.served.Load())
	}
}

// TestBodyAndHeadersSent: method, body and headers reach the server.
func TestBodyAndHeadersSent(t *testing.T) {
	var bad atomic.Int64
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		b := make([]byte, 16)
		n, _ := r.Body.Read(b)
		if r.Method != http.MethodPost || string(b[:n]) != "payload" || r.Header.Get("X-Test") != "yes" {
			bad.Add(1)
		}
	})
	h := http.Header{}
	h.Set("X-Test", "yes")
	r := run(t, newGen(t, Options{URL: s.URL, Method: "POST", Body: []byte("payload"), Header: h, Concurrency: 2, MaxRequests: 20}), time.Minute)
	if r.StatusCodes["200"] != 20 || bad.Load() != 0 {
		t.Errorf("codes %v, %d requests arrived without method/body/header", r.StatusCodes, bad.Load())
	}
}

// TestMinimalRequest: a GET carries no header the user did not ask for —
// not vegeta's X-Vegeta-Seq, not Go's default User-Agent, no
// Accept-Encoding — so the server parses what wrk would send; a
// User-Agent given in Options.Header is sent as given.
func TestMinimalRequest(t *testing.T) {
	for _, ua := range []string{"", "probe/1"} {
		t.Run("ua="+ua, func(t *testing.T) {
			var mu sync.Mutex
			seen := map[string]int{}
			s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				defer mu.Unlock()
				for k, v := range r.Header {
					seen[k+": "+strings.Join(v, ",")]++
				}
			})
			h := http.Header{}
			want := map[string]int{}
			if ua != "" {
				h.Set("User-Agent", ua)
				want["User-Agent: "+ua] = 10
			}
			r := run(t, newGen(t, Options{URL: s.URL, Header: h, Concurrency: 2, MaxRequests: 10}), time.Minute)
			if r.StatusCodes["200"] != 10 {
				t.Fatalf("codes %v", r.StatusCodes)
			}
			mu.Lock()
			defer mu.Unlock()
			if !maps.Equal(seen, want) {
				t.Errorf("request headers seen by the server: %v, want %v", seen, want)
			}
		})
	}
}

// gauge is a handler that records the most requests in flight at once.
// A request waits (up to 50ms) until c are in flight, so a closed loop of
// c workers reaches exactly c; more would show as a maximum above c.
type gauge struct {
	c        int
	mu       sync.Mutex
	cur, max int
	full     chan struct{}
}

func (g *gauge) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	g.mu.Lock()
	g.cur++
	g.max = max(g.max, g.cur)
	full := g.full
	if g.cur >= g.c {
		close(g.full)
		g.full = make(chan struct{})
	}
	g.mu.Unlock()
	select {
	case <-full:
	case <-time.After(50 * time.Millisecond):
	}
	g.mu.Lock()
	g.cur--
	g.mu.Unlock()
}

// countingRT records the most requests in flight on the client side, where
// a surplus worker would show even though the connection limit keeps the
// server from seeing it.
type countingRT struct {
	base     http.RoundTripper
	cur, max atomic.Int64
}

func (c *countingRT) RoundTrip(r *http.Request) (*http.Response, error) {
	n := c.cur.Add(1)
	for m := c.max.Load(); n > m && !c.max.CompareAndSwap(m, n); m = c.max.Load() {
	}
	defer c.cur.Add(-1)
	return c.base.RoundTrip(r)
}

// TestConcurrencyHonoured: with C workers exactly C requests are in flight
// at the most, as the client and the server count them, over at most C
// connections that are kept alive across windows.
func TestConcurrencyHonoured(t *testing.T) {
	for _, c := range []int{1, 4, 16} {
		t.Run("c="+strconv.Itoa(c), func(t *testing.T) {
			gg := &gauge{c: c, full: make(chan struct{})}
			s := newServer(t, gg.ServeHTTP)
			g := newGen(t, Options{URL: s.URL, Concurrency: c})
			client := &countingRT{base: g.rt}
			g.rt = client
			for window := 0; window < 2; window++ {
				r := run(t, g, 300*time.Millisecond)
				checkSums(t, r)
				if r.StatusCodes["200"] != r.Requests || r.Requests == 0 {
					t.Fatalf("window %d: codes %v transport %v", window, r.StatusCodes, r.TransportErrors)
				}
			}
			gg.mu.Lock()
			defer gg.mu.Unlock()
			if gg.max != c {
				t.Errorf("server: max in flight = %d, want %d", gg.max, c)
			}
			if m := client.max.Load(); m != int64(c) {
				t.Errorf("client: max requests in flight = %d, want %d", m, c)
			}
			if n := s.conns.Load(); n < 1 || n > int64(c) {
				t.Errorf("connections opened over two windows = %d, want 1..%d (keep-alive)", n, c)
			}
		})
	}
}

// TestTransportErrors: each way of not getting a response is counted under
// its kind, never as a status code.
func TestTransportErrors(t *testing.T) {
	hijack := func(reset bool) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			conn, _, err := http.NewResponseController(w).Hijack()
			if err != nil {
				panic(err)
			}
			if reset {
				_ = conn.(*net.TCPConn).SetLinger(0) // close with RST
			}
			_ = conn.Close()
		}
	}
	stall := func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	}
	stallBody := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "100")
		_, _ = w.Write([]byte("partial"))
		_ = http.NewResponseController(w).Flush()
		stall(w, r)
	}
	tests := []struct {
		name    string
		handler http.HandlerFunc // nil: a closed port
		kind    string
	}{
		{"closed port", nil, KindConnRefused},
		{"server closes", hijack(false), KindEOF},
		{"server resets", hijack(true), KindConnReset},
		{"no response in time", stall, KindTimeout},
		{"body not finished in time", stallBody, KindTimeout},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			url := closedPortURL(t)
			if tt.handler != nil {
				url = newServer(t, tt.handler).URL
			}
			g := newGen(t, Options{URL: url, Concurrency: 2, Timeout: 100 * time.Millisecond, MaxRequests: 200})
			r := run(t, g, 300*time.Millisecond)
			checkSums(t, r)
			if r.Requests == 0 || r.TransportErrors[tt.kind] != r.Requests {
				t.Errorf("Requests %d, transport errors %v, codes %v; want all %q", r.Requests, r.TransportErrors, r.StatusCodes, tt.kind)
			}
			if len(r.StatusCodes) != 0 || r.Success != 0 {
				t.Errorf("codes %v success %d, want none", r.StatusCodes, r.Success)
			}
		})
	}
}

// closedPortURL is a loopback URL nothing listens on.
func closedPortURL(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	return "http://" + addr + "/"
}

// TestCancelAbortsWindow: cancelling the context ends a window of stuck
// requests promptly instead of waiting for their one-minute timeout.
func TestCancelAbortsWindow(t *testing.T) {
	release := make(chan struct{})
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	})
	defer close(release)
	g := newGen(t, Options{URL: s.URL, Concurrency: 3, Timeout: time.Minute})
	ctx, cancel := context.WithCancel(context.Background())
	type out struct {
		r   Result
		err error
	}
	ch := make(chan out, 1)
	go func() { r, err := g.Run(ctx, time.Minute); ch <- out{r, err} }()
	// Wait until the three requests are stuck in the server.
	for s.served.Load() < 3 {
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	select {
	case o := <-ch:
		if !errors.Is(o.err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", o.err)
		}
		checkSums(t, o.r)
		// The 3 stuck requests are aborted; a worker may take one more
		// tick before the attack stops, and that request fails at once
		// without reaching the server.
		if o.r.Requests < 3 || o.r.TransportErrors[KindOther] != o.r.Requests || s.served.Load() != 3 {
			t.Errorf("Requests %d, transport errors %v, served %d; want the 3 aborted ones (and no more at the server) as %q",
				o.r.Requests, o.r.TransportErrors, s.served.Load(), KindOther)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Run did not return after its context was cancelled")
	}
}

// TestClosed: Run after Close fails with ErrClosed; bad durations fail.
func TestClosed(t *testing.T) {
	s := newServer(t, func(http.ResponseWriter, *http.Request) {})
	g := newGen(t, Options{URL: s.URL, Concurrency: 1})
	if _, err := g.Run(context.Background(), 0); err == nil || !strings.Contains(err.Error(), "must be positive") {
		t.Errorf("Run(0) err = %v", err)
	}
	g.Close()
	if _, err := g.Run(context.Background(), time.Second); !errors.Is(err, ErrClosed) {
		t.Errorf("Run after Close err = %v, want ErrClosed", err)
	}
}
