package load

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"syscall"
	"time"
)

// transport is a Generator's connection pool and its http.RoundTripper:
// HTTP/1.1 keep-alive connections to the target, at most max of them,
// each carrying one request at a time, with no proxy and no transparent
// gzip. It stands in for net/http.Transport because the request path of
// that one hands every request to two goroutines per connection (a write
// loop and a read loop) and gives it a context with its own timer, which
// on a one-CPU generator costs more client CPU than the HTTP itself; here
// the worker that issues a request writes it and reads the response
// itself, and the per-request timeout is a deadline on the connection.
// Requests and responses are still written and parsed by net/http
// (Request.Write, ReadResponse).
//
// Connections live across windows. A window sets the context that
// aborts its requests (setWindow); aborted requests fail with an error
// naming the cancellation ("request canceled: ..."), so Kind counts them
// as KindOther.
type transport struct {
	dial    func(ctx context.Context, network, addr string) (net.Conn, error)
	addr    string // host:port
	timeout time.Duration
	// tokens holds one token per connection that may be in use: a request
	// takes one before it takes or dials a connection, so at most
	// cap(tokens) connections exist.
	tokens chan struct{}
	idle   chan *conn

	mu    sync.Mutex
	ctx   context.Context // the current window's
	conns map[*conn]struct{}
}

// conn is one keep-alive connection.
type conn struct {
	nc net.Conn
	br *bufio.Reader
	bw *bufio.Writer
}

// newTransport is the pool for c connections to addr. Unless allowRemote,
// every dialled address is checked to be loopback.
func newTransport(addr string, c int, timeout time.Duration, allowRemote bool) *transport {
	d := &net.Dialer{KeepAlive: 30 * time.Second, Timeout: 10 * time.Second}
	if !allowRemote {
		d.Control = loopbackOnly
	}
	t := &transport{
		dial: d.DialContext, addr: addr, timeout: timeout,
		tokens: make(chan struct{}, c), idle: make(chan *conn, c),
		ctx: context.Background(), conns: map[*conn]struct{}{},
	}
	for range c {
		t.tokens <- struct{}{}
	}
	return t
}

// setWindow makes ctx the context of the requests that follow; when it is
// done, the requests in flight are aborted. The returned function
// unregisters the abort.
func (t *transport) setWindow(ctx context.Context) (stop func() bool) {
	t.mu.Lock()
	t.ctx = ctx
	t.mu.Unlock()
	return context.AfterFunc(ctx, t.abort)
}

// abort ends the I/O of every connection at once; the requests on them
// fail and their connections are discarded.
func (t *transport) abort() {
	t.mu.Lock()
	defer t.mu.Unlock()
	for c := range t.conns {
		_ = c.nc.SetDeadline(time.Unix(1, 0))
	}
}

func (t *transport) window() context.Context {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.ctx
}

// RoundTrip sends req on an idle connection (or a new one) and returns
// its response, whose body hands the connection back when closed. A
// request that finds its reused connection closed by the server (EOF or
// reset before any byte of a response) is sent once more on a new
// connection, as net/http does, if its body can be replayed.
func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := t.window()
	trimHeader(req.Header)
	// A RoundTripper closes the request body, also on errors (Request.Write
	// closes it too; closing twice is harmless).
	defer func() {
		if req.Body != nil {
			_ = req.Body.Close()
		}
	}()
	for attempt := 0; ; attempt++ {
		if err := ctx.Err(); err != nil {
			return nil, canceled(ctx)
		}
		select {
		case <-t.tokens:
		case <-ctx.Done():
			return nil, canceled(ctx)
		}
		c, reused, err := t.get(ctx, attempt > 0)
		if err != nil {
			t.tokens <- struct{}{}
			if ctx.Err() != nil {
				return nil, canceled(ctx)
			}
			return nil, err
		}
		resp, stale, err := t.send(ctx, c, req)
		if err == nil {
			return resp, nil
		}
		t.discard(c)
		if ctx.Err() != nil {
			return nil, canceled(ctx)
		}
		if !(stale && reused && attempt == 0 && rewind(req)) {
			return nil, err
		}
	}
}

// get returns an idle connection, or dials one (always when fresh, for a
// request sent again: another idle connection may be just as stale). The
// caller holds a token.
func (t *transport) get(ctx context.Context, fresh bool) (*conn, bool, error) {
	if !fresh {
		select {
		case c := <-t.idle:
			return c, true, nil
		default:
		}
	}
	nc, err := t.dial(ctx, "tcp", t.addr)
	if err != nil {
		return nil, false, err
	}
	c := &conn{nc: nc, br: bufio.NewReaderSize(nc, 4096), bw: bufio.NewWriterSize(nc, 4096)}
	t.mu.Lock()
	t.conns[c] = struct{}{}
	t.mu.Unlock()
	return c, false, nil
}

// send writes req on c and reads the response head. stale reports a
// failure before any byte of a response arrived that a server closing an
// idle connection causes (EOF, reset, broken pipe).
func (t *transport) send(ctx context.Context, c *conn, req *http.Request) (*http.Response, bool, error) {
	if err := c.nc.SetDeadline(time.Now().Add(t.timeout)); err != nil {
		return nil, false, err
	}
	if ctx.Err() != nil { // cancelled while the deadline was being set
		return nil, false, canceled(ctx)
	}
	err := req.Write(c.bw)
	if err == nil {
		err = c.bw.Flush()
	}
	if err == nil {
		_, err = c.br.Peek(1)
	}
	if err != nil {
		return nil, closedByPeer(err), err
	}
	for {
		resp, err := http.ReadResponse(c.br, req)
		if err != nil {
			return nil, false, err
		}
		if resp.StatusCode >= 100 && resp.StatusCode < 200 && resp.StatusCode != http.StatusSwitchingProtocols {
			continue // 100 Continue, 103 Early Hints: the final response follows
		}
		resp.Body = &body{ReadCloser: resp.Body, t: t, c: c, keep: !resp.Close && !req.Close}
		return resp, false, nil
	}
}

// closedByPeer tells the errors of a connection the server has closed.
func closedByPeer(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE)
}

// rewind prepares req to be sent again; false if its body cannot be.
func rewind(req *http.Request) bool {
	if req.Body == nil || req.Body == http.NoBody {
		return true
	}
	if req.GetBody == nil {
		return false
	}
	b, err := req.GetBody()
	if err != nil {
		return false
	}
	req.Body = b
	return true
}

// put returns a connection whose response was read completely. Connections
// in use never exceed the tokens, but a request sent again dials without
// looking at the idle ones, so the idle list can be full: then c is closed.
func (t *transport) put(c *conn) {
	select {
	case t.idle <- c:
		t.tokens <- struct{}{}
	default:
		t.discard(c)
	}
}

// discard closes a connection that is broken or not to be reused.
func (t *transport) discard(c *conn) {
	t.mu.Lock()
	delete(t.conns, c)
	t.mu.Unlock()
	_ = c.nc.Close()
	t.tokens <- struct{}{}
}

// closeIdle closes the idle connections.
func (t *transport) closeIdle() {
	for {
		select {
		case c := <-t.idle:
			t.mu.Lock()
			delete(t.conns, c)
			t.mu.Unlock()
			_ = c.nc.Close()
		default:
			return
		}
	}
}

// body is a response body; closing it returns the connection to the pool
// once the body has been read to its end (Close reads what is left), or
// discards the connection.
type body struct {
	io.ReadCloser
	t      *transport
	c      *conn
	keep   bool // the connection may carry another request
	eof    bool
	broken bool
	closed bool
}

func (b *body) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	switch {
	case err == io.EOF:
		b.eof = true
	case err != nil:
		b.broken = true
	}
	return n, err
}

func (b *body) Close() error {
	if b.closed {
		return nil
	}
	b.closed = true
	if !b.eof && !b.broken {
		if _, err := io.Copy(io.Discard, b.ReadCloser); err != nil {
			b.broken = true
		}
	}
	err := b.ReadCloser.Close()
	if b.keep && !b.broken && err == nil {
		b.t.put(b.c)
	} else {
		b.t.discard(b.c)
	}
	return nil
}

// canceled is the error of a request aborted or refused because its
// window's context is done.
func canceled(ctx context.Context) error {
	return fmt.Errorf("request canceled: %w", context.Cause(ctx))
}

// seqHeader is the sequence number vegeta adds to every request.
const seqHeader = "X-Vegeta-Seq"

// trimHeader removes what neither the user nor HTTP asked for, so the
// server parses the request wrk would send: vegeta's X-Vegeta-Seq (a
// different value on every request) and Go's default User-Agent. A
// User-Agent given in Options.Header is kept. vegeta builds a new request
// for every hit and does not read it back, so it is changed in place.
func trimHeader(h http.Header) {
	delete(h, seqHeader)
	if _, ok := h["User-Agent"]; !ok {
		h["User-Agent"] = noUserAgent
	}
}

// noUserAgent is the header value that makes net/http send no User-Agent.
var noUserAgent = []string{""}
