package load

import (
	"bytes"
	"io"
	"net/http"
	"strconv"
	"testing"
	"time"
)

// TestResponseShapes: responses of every framing are read completely and
// their connections reused (or not, when the server says close), with
// exactly one request reaching the server per request counted.
func TestResponseShapes(t *testing.T) {
	big := bytes.Repeat([]byte("x"), 1<<20)
	tests := []struct {
		name     string
		method   string
		handler  http.HandlerFunc
		maxConns func(requests int64) int64 // most connections the server may see
	}{
		{"content-length", "GET", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("hello")) }, keepAlive},
		{"empty", "GET", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) }, keepAlive},
		{"1 MiB body", "GET", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write(big) }, keepAlive},
		{"chunked", "GET", func(w http.ResponseWriter, _ *http.Request) {
			for i := range 3 {
				_, _ = w.Write([]byte("part" + strconv.Itoa(i)))
				_ = http.NewResponseController(w).Flush()
			}
		}, keepAlive},
		{"HEAD", "HEAD", func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Length", "1000") // HEAD: no body follows
		}, keepAlive},
		{"103 early hints", "GET", func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Link", "</style.css>; rel=preload")
			w.WriteHeader(http.StatusEarlyHints)
			_, _ = w.Write([]byte("final"))
		}, keepAlive},
		{"connection close", "GET", func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Connection", "close")
			_, _ = w.Write([]byte("bye"))
		}, func(n int64) int64 { return n }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newServer(t, tt.handler)
			r := run(t, newGen(t, Options{URL: s.URL, Method: tt.method, Concurrency: 2, MaxRequests: 50}), time.Minute)
			checkSums(t, r)
			if r.Requests != 50 || r.Success != 50 || s.served.Load() != 50 {
				t.Errorf("requests %d success %d served %d (codes %v, errors %v), want 50 each",
					r.Requests, r.Success, s.served.Load(), r.StatusCodes, r.TransportErrors)
			}
			if n := s.conns.Load(); n < 1 || n > tt.maxConns(r.Requests) {
				t.Errorf("connections opened = %d, want 1..%d", n, tt.maxConns(r.Requests))
			}
		})
	}
}

// keepAlive: 2 workers need at most 2 connections.
func keepAlive(int64) int64 { return 2 }

// TestServerClosesIdle: a server that closes idle keep-alive connections
// between windows costs no failed request; each request reaches the
// server once and is sent again on a new connection (with its body).
func TestServerClosesIdle(t *testing.T) {
	s := newServerWith(t, func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		if string(b) != "payload" {
			w.WriteHeader(http.StatusBadRequest)
		}
	}, func(srv *http.Server) { srv.IdleTimeout = 20 * time.Millisecond })
	g := newGen(t, Options{URL: s.URL, Method: "POST", Body: []byte("payload"), Concurrency: 2, MaxRequests: 20})
	for window := range 3 {
		before := s.served.Load()
		r := run(t, g, time.Minute)
		if r.Success != 20 || len(r.TransportErrors) != 0 || s.served.Load()-before != 20 {
			t.Errorf("window %d: success %d, codes %v, errors %v, served %d; want 20 successes, no errors",
				window, r.Success, r.StatusCodes, r.TransportErrors, s.served.Load()-before)
		}
		time.Sleep(100 * time.Millisecond) // the server closes the idle connections
	}
	if n := s.conns.Load(); n < 3 || n > 6 {
		t.Errorf("connections opened = %d, want 3..6 (new ones after each idle close)", n)
	}
}
