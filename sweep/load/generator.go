package load

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net"
	"net/http"
	"sync"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// ErrClosed is returned by Run after Close.
var ErrClosed = errors.New("load: generator closed")

// Generator drives closed-loop load at one concurrency against one URL.
// Its connection pool lives across windows; Runs are serialised.
type Generator struct {
	o         Options
	target    vegeta.Target
	transport *transport
	rt        http.RoundTripper // transport; tests wrap it to observe requests

	mu     sync.Mutex // held by Run
	closed bool
}

// New validates o and returns a Generator. Nothing is dialled yet.
func New(o Options) (*Generator, error) {
	o, u, err := o.validate()
	if err != nil {
		return nil, err
	}
	addr := u.Host
	if u.Port() == "" {
		addr = net.JoinHostPort(u.Hostname(), "80")
	}
	tr := newTransport(addr, o.Concurrency, o.Timeout, o.AllowRemote)
	return &Generator{
		o:         o,
		target:    vegeta.Target{Method: o.Method, URL: o.URL, Body: o.Body, Header: o.Header.Clone()},
		transport: tr,
		rt:        tr,
	}, nil
}

// Run measures one window of at most d: C workers issue requests back to
// back until d has passed (or MaxRequests were started), then the requests
// in flight are waited for (each is bounded by the timeout). When ctx is
// cancelled, the requests in flight are aborted, the attack stops (a
// request still issued meanwhile fails at once, before it is sent), and
// Run returns the partial Result with an error wrapping ctx.Err(); the
// aborted requests count as KindOther.
//
// Each Run uses a fresh vegeta Attacker on the shared connection pool: an
// Attacker stops for good at the end of its first attack (its stop channel
// stays closed), so it cannot carry a second window.
func (g *Generator) Run(ctx context.Context, d time.Duration) (Result, error) {
	w := NewWindow()
	err := g.RunSlice(ctx, d, w)
	return w.Result(), err
}

// RunSlice is Run for one slice of a window that is measured in several
// pieces: it adds its requests, latencies and wall time to w instead of
// returning them. A sliced window's Result is the sum of its slices (its
// latency quantiles are those of all its requests together).
func (g *Generator) RunSlice(ctx context.Context, d time.Duration, w *Window) error {
	if d <= 0 {
		return fmt.Errorf("load: window duration %v must be positive", d)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return ErrClosed
	}
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := g.transport.setWindow(wctx)
	defer stop()
	client := &http.Client{
		Transport: g.rt,
		// A 3xx is a result of its own (a success), not a second request.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	c := uint64(g.o.Concurrency)
	atk := vegeta.NewAttacker(
		vegeta.Client(client),
		// Workers == MaxWorkers: vegeta never adds a worker, and each
		// worker waits for its response before taking the next tick.
		vegeta.Workers(c), vegeta.MaxWorkers(c),
		// Bodies are read to the end and discarded, never kept.
		vegeta.MaxBody(0),
	)
	start := time.Now()
	results := atk.Attack(vegeta.NewStaticTargeter(g.target), pacer(g.o.MaxRequests), d, "")
	done := make(chan struct{})
	go func() {
		select {
		case <-wctx.Done():
			atk.Stop()
		case <-done:
		}
	}()
	for res := range results {
		w.t.add(res)
	}
	close(done)
	w.wall += time.Since(start)
	w.slices++
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("load: window on %s interrupted: %w", g.o.URL, err)
	}
	return nil
}

// pacer is vegeta's unlimited rate (Rate{Freq: 0}: every tick at once, so
// the workers are the only limit), stopping after max ticks when max > 0.
func pacer(max int64) vegeta.Pacer {
	if max <= 0 {
		return vegeta.Rate{Freq: 0}
	}
	return countPacer(max)
}

// countPacer is Rate{Freq: 0} that stops after a number of hits.
type countPacer int64

func (p countPacer) Pace(_ time.Duration, hits uint64) (time.Duration, bool) {
	return 0, hits >= uint64(p)
}

func (p countPacer) Rate(time.Duration) float64 { return math.Inf(1) }

// Close releases the connections. Run fails with ErrClosed afterwards.
func (g *Generator) Close() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.closed = true
	g.transport.closeIdle()
}

// options returns the validated options (defaults filled in).
func (g *Generator) options() Options { return g.o }
