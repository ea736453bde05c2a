package wasmhost

import (
	"context"
	"fmt"
	"net/http"
	"runtime/cgo"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/bytecodealliance/wasmtime-go/v39"
)

// maxStdout bounds the response a WASI command may write.
const maxStdout = 64 << 20

// call is the state of one request, reachable from host functions through
// the store's data.
type call struct {
	h        *Host
	ctx      context.Context
	deadline time.Time
	timedOut bool
	timer    *time.Timer
	// out collects a WASI program's stdout; handle refers to this call in
	// the stdout callback and is valid while the store is open.
	out    []byte
	handle cgo.Handle
	// wasm is the request's instance of a core plugin.
	wasm wasmInstance
	// comp is the request's component state; req, flat and spans what a
	// sweep:plugin component's handle receives.
	comp  componentCall
	req   *request
	flat  []byte
	spans []cSize
}

var calls = sync.Pool{New: func() any { return new(call) }}

func (h *Host) newCall(ctx context.Context) *call {
	c := calls.Get().(*call)
	c.h, c.ctx, c.timedOut = h, ctx, false
	c.deadline = time.Now().Add(h.timeout)
	c.out = c.out[:0]
	c.req = &defaultRequest
	return c
}

func (c *call) release() {
	if cap(c.out) > 1<<20 {
		c.out = nil
	}
	if cap(c.flat) > 1<<20 {
		c.flat = nil
	}
	c.h, c.ctx = nil, nil
	calls.Put(c)
}

// writeStdout implements stdoutSink.
func (c *call) writeStdout(p []byte) int {
	if len(c.out)+len(p) > maxStdout {
		return -27 // EFBIG
	}
	c.out = append(c.out, p...)
	return len(p)
}

// closeStdout deletes the stdout handle once the store is closed.
func (c *call) closeStdout() {
	if c.handle != 0 {
		c.handle.Delete()
		c.handle = 0
	}
}

// wait sleeps d for sweep.io_wait, bounded by the deadline and the
// request's context.
func (c *call) wait(d time.Duration) *wasmtime.Trap {
	switch c.sleep(d) {
	case sleepCanceled:
		return wasmtime.NewTrap("io_wait: request canceled: " + context.Cause(c.ctx).Error())
	case sleepDeadline:
		return wasmtime.NewTrap("io_wait: past the request deadline")
	}
	return nil
}

// How a sleep ended.
const (
	sleepDone = iota
	sleepCanceled
	sleepDeadline
)

// sleep waits d, or until the request's deadline (setting timedOut) or
// the end of its context, whichever comes first.
func (c *call) sleep(d time.Duration) int {
	left := time.Until(c.deadline)
	over := d > left
	if over {
		d = max(left, 0)
	}
	if c.timer == nil {
		c.timer = time.NewTimer(d)
	} else {
		c.timer.Reset(d)
	}
	var done <-chan struct{}
	if c.ctx != nil {
		done = c.ctx.Done()
	}
	select {
	case <-c.timer.C:
	case <-done:
		c.timer.Stop()
		return sleepCanceled
	}
	if over {
		c.timedOut = true
		return sleepDeadline
	}
	return sleepDone
}

// open creates the request's store (with its epoch deadline and, if the
// plugin needs it, a WASI context whose stdin is body) and instantiates
// the plugin into c.wasm. The caller closes the store, then calls
// closeStdout.
func (c *call) open(body []byte) (*wasmtime.Store, error) {
	h := c.h
	store := wasmtime.NewStoreWithData(h.engine, c)
	store.SetEpochDeadline(h.ticks)
	if h.plugin.needsWasi {
		wc := wasmtime.NewWasiConfig()
		if h.plugin.abi == abiCommand {
			wc.SetArgv([]string{h.pluginName()})
		}
		c.handle = cgo.NewHandle(stdoutSink(c))
		if err := setWasiStdio(wc, body, c.handle); err != nil {
			wc.Close()
			store.Close()
			c.closeStdout()
			return nil, err
		}
		store.SetWasi(wc)
	}
	if err := c.wasm.instantiate(h.pre, store); err != nil {
		store.Close()
		c.closeStdout()
		return nil, err
	}
	return store, nil
}

// Invoke serves one request without HTTP parsing: it instantiates the
// plugin in a fresh store, passes body, writes the plugin's response to w,
// and closes the store (returning the instance's slots to the pool). On
// failure nothing has been written to w and the error is an *Error. The
// request is counted in Stats and failures are logged, rate limited.
func (h *Host) Invoke(ctx context.Context, body []byte, w http.ResponseWriter) error {
	return h.invoke(ctx, nil, body, w)
}

// invoke is Invoke with the HTTP request whose method, path and headers a
// sweep:plugin component receives (nil: POST /, no headers).
func (h *Host) invoke(ctx context.Context, req *request, body []byte, w http.ResponseWriter) error {
	h.stats.requests.Add(1)
	h.inflight.Add(1)
	defer h.inflight.Add(-1)
	h.unparkEpoch()
	if h.closed.Load() {
		e := &Error{Reason: Other, Msg: "host is shutting down", status: http.StatusServiceUnavailable}
		h.stats.errors[Other].Add(1)
		return e
	}
	c := h.newCall(ctx)
	if req != nil {
		c.req = req
	}
	var err error
	if h.comp != nil {
		err = h.runComponent(c, body, w)
	} else {
		err = h.run(c, body, w)
	}
	c.release()
	if err != nil {
		e := classify(err, h)
		h.recordFailure(e)
		return e
	}
	h.stats.ok.Add(1)
	return nil
}

// recordFailure counts and logs a failed request.
func (h *Host) recordFailure(e *Error) {
	h.stats.errors[e.Reason].Add(1)
	h.log.failure(e)
}

func (h *Host) run(c *call, body []byte, w http.ResponseWriter) error {
	store, err := c.open(body)
	if err != nil {
		return err
	}
	h.stats.enter()
	defer func() {
		// Leave before closing: the slot is free once Close has run, and
		// counting it until then would let the high-water mark exceed
		// the pool limit.
		h.stats.leave()
		store.Close()
		c.closeStdout()
	}()
	if h.plugin.abi == abiCommand {
		err = h.runCommand(c)
		if err == nil {
			writeCGI(w, c.out)
		}
	} else {
		err = h.runCore(&c.wasm, body, w)
	}
	return h.outcome(c, err)
}

// outcome is a request's error as the caller sees it: a timeout when the
// deadline passed, a cancellation when the client went away, else err.
func (h *Host) outcome(c *call, err error) error {
	switch {
	case err == nil:
	case c.timedOut:
		return h.timeoutError()
	case c.ctx != nil && c.ctx.Err() != nil:
		msg := "request canceled: " + context.Cause(c.ctx).Error()
		return &Error{Reason: Other, Msg: msg, Detail: msg}
	}
	return err
}

// runComponent serves a request with a fresh instance of a component
// plugin in a fresh store, deleted (its slots returned to the pool) when
// the call is over.
func (h *Host) runComponent(c *call, body []byte, w http.ResponseWriter) error {
	if h.comp.kind == KindHandlerComponent && !c.req.text(body) {
		msg := "a sweep:plugin component takes UTF-8 text: the request's body, path or a header value is not"
		return &Error{Reason: Other, Msg: msg, Detail: msg, status: http.StatusBadRequest}
	}
	if h.comp.kind == KindHTTPComponent && !utf8.ValidString(c.req.path) {
		msg := "a wasi:http component takes the path as a string: the request's path is not UTF-8"
		return &Error{Reason: Other, Msg: msg, Detail: msg, status: http.StatusBadRequest}
	}
	err := c.openComponent(body)
	if err == nil {
		h.stats.enter()
		switch h.comp.kind {
		case KindRunComponent:
			if err = c.runComponentCommand(); err == nil {
				writeCGI(w, c.out)
			}
		case KindHTTPComponent:
			err = c.handleHTTP(c.req, body, w)
		default:
			err = c.handleComponent(c.req, body, w)
		}
		h.stats.leave()
	}
	c.closeComponent()
	c.closeStdout()
	return h.outcome(c, err)
}

// runCore calls a core-ABI plugin and writes its response from linear
// memory to w.
func (h *Host) runCore(in *wasmInstance, body []byte, w http.ResponseWriter) error {
	var handle, alloc wasmFunc
	if !in.lookupMemory("memory") || !in.lookupFunc("handle", &handle) {
		return abiError("instance lacks export memory or handle")
	}
	var ptr uint32
	n := uint32(0)
	if len(body) > 0 && h.plugin.hasAlloc && in.lookupFunc("alloc", &alloc) {
		n = uint32(len(body))
		r, err := in.call(&alloc, int64(n))
		if err != nil {
			return err
		}
		ptr = uint32(rawI32(r))
		data := in.memory()
		if uint64(ptr)+uint64(n) > uint64(len(data)) {
			return abiError("alloc(%d) returned %d, outside linear memory of %d bytes", n, ptr, len(data))
		}
		copy(data[ptr:], body)
	}
	r, err := in.call(&handle, int64(ptr), int64(n))
	if err != nil {
		return err
	}
	v := uint64(r)
	rp, rl := v>>32, v&0xffffffff
	data := in.memory() // re-read: handle may have grown memory
	if rp+rl > uint64(len(data)) {
		return abiError("handle returned response [%d, %d), outside linear memory of %d bytes", rp, rp+rl, len(data))
	}
	writeBody(w, http.StatusOK, nil, data[rp:rp+rl])
	return nil
}

// runCommand runs a WASI command's _start; exit status 0 is success.
func (h *Host) runCommand(c *call) error {
	var start wasmFunc
	if !c.wasm.lookupFunc("_start", &start) {
		return abiError("instance lacks export _start")
	}
	_, err := c.wasm.call(&start)
	return c.exited(err)
}

// exited reads a WASI command's error: exit status 0 is success, another
// status a failed request; any other error is returned as it is. (Through
// the preview-1 adapter of a wasi:cli/run component, proc_exit(0) comes
// back as an error with status 0, and every other status as 1.)
func (c *call) exited(err error) error {
	if we, ok := err.(*wasmError); ok && we.exitCode {
		if we.exit == 0 {
			return nil
		}
		return &Error{Reason: Trap, Msg: fmt.Sprintf("plugin exited with status %d", we.exit),
			Detail: fmt.Sprintf("plugin exited with status %d; stdout: %q", we.exit, truncate(c.out, 200))}
	}
	return err
}

func abiError(format string, args ...any) *Error {
	msg := "core ABI: " + fmt.Sprintf(format, args...)
	return &Error{Reason: Other, Msg: msg, Detail: msg}
}

func truncate(b []byte, n int) []byte {
	if len(b) > n {
		return b[:n]
	}
	return b
}

var textPlain = []string{"text/plain; charset=utf-8"}

// writeBody writes a complete response with an explicit Content-Length.
func writeBody(w http.ResponseWriter, status int, contentType []string, b []byte) {
	hdr := w.Header()
	if contentType == nil {
		contentType = textPlain
	}
	hdr["Content-Type"] = contentType
	hdr["Content-Length"] = []string{strconv.Itoa(len(b))}
	w.WriteHeader(status)
	_, _ = w.Write(b) // a client gone away is not the plugin's failure
}
