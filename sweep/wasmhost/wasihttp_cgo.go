package wasmhost

// The Go side of wasihttp.c: one request of a component that exports
// wasi:http/incoming-handler. The request's strings and body go to C in
// one buffer (as for sweep:plugin/handler); the response's status,
// headers and body come back as pointers into the request's C state,
// valid until closeComponent.

/*
#include "wasihttp.h"
*/
import "C"

import (
	"fmt"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"unsafe"
)

// handleHTTP calls incoming-handler.handle with the request and writes
// the response the guest set to w.
func (c *call) handleHTTP(req *request, body []byte, w http.ResponseWriter) error {
	buf, spans := req.flatten(c.flat[:0], c.spans[:0], body)
	c.flat, c.spans = buf, spans
	var bp *C.uint8_t
	if len(buf) > 0 {
		bp = (*C.uint8_t)(unsafe.Pointer(&buf[0]))
	}
	r := c.comp.http
	e := C.sweep_http_handle(&c.comp.c, r, bp, (*C.size_t)(unsafe.Pointer(&spans[0])), C.size_t((len(spans)-6)/4))
	runtime.KeepAlive(buf)
	runtime.KeepAlive(spans)
	var status C.uint16_t
	var nh, blen C.size_t
	var bodyp *C.uint8_t
	var msg *C.char
	p := C.sweep_http_result(r, &status, &nh, &bodyp, &blen, &msg)
	if e != nil {
		err := takeError(e, nil)
		if text := cleanMessage(err.Error()); p == C.SWEEP_HTTP_OK && C.sweep_http_sets(r) > 0 && strings.Contains(text, "unknown handle index") {
			// Wasmtime refuses a handle the guest gave away; after the
			// outparam was set, that is most likely the outparam again.
			m := "wasi:http: the guest used a handle it had given away, after response-outparam.set (" +
				causeLine(text) + "): was the outparam set twice?"
			return &Error{Reason: HTTPGuest, Msg: m, Detail: m + c.stderrNote()}
		}
		if p == C.SWEEP_HTTP_OK || c.timedOut {
			return c.withStderr(err)
		}
		// The guest broke the protocol, was told so, and then failed:
		// the protocol is the cause.
		m := "wasi:http: " + C.GoString(msg)
		return &Error{Reason: HTTPGuest, Msg: m, Detail: m + "; then: " + cleanMessage(err.Error()) + c.stderrNote()}
	}
	if p != C.SWEEP_HTTP_OK {
		m := "wasi:http: " + C.GoString(msg)
		return &Error{Reason: HTTPGuest, Msg: m, Detail: m + c.stderrNote()}
	}
	hdr := w.Header()
	for i := C.size_t(0); i < nh; i++ {
		var n, v *C.uint8_t
		var nl, vl C.size_t
		C.sweep_http_header(r, i, &n, &nl, &v, &vl)
		name := http.CanonicalHeaderKey(C.GoStringN((*C.char)(unsafe.Pointer(n)), C.int(nl)))
		if name == "Content-Length" || name == "Transfer-Encoding" {
			continue // set from the body
		}
		hdr.Add(name, C.GoStringN((*C.char)(unsafe.Pointer(v)), C.int(vl)))
	}
	hdr["Content-Length"] = []string{strconv.Itoa(int(blen))}
	w.WriteHeader(int(status))
	if blen > 0 {
		_, _ = w.Write(unsafe.Slice((*byte)(unsafe.Pointer(bodyp)), int(blen)))
	}
	return nil
}

// stderrNote is what the guest wrote to stderr, for a failure's detail.
func (c *call) stderrNote() string {
	if c.comp.http == nil {
		return ""
	}
	var p *C.uint8_t
	n := C.sweep_http_stderr(c.comp.http, &p)
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("; guest stderr: %q", C.GoStringN((*C.char)(unsafe.Pointer(p)), C.int(n)))
}

// withStderr adds the guest's stderr to the detail of a failed call.
func (c *call) withStderr(err error) error {
	note := c.stderrNote()
	if note == "" {
		return err
	}
	return &stderrError{err: err, note: note}
}

// stderrError is a call's error with what the guest wrote to stderr.
type stderrError struct {
	err  error
	note string
}

func (e *stderrError) Error() string { return e.err.Error() + e.note }
func (e *stderrError) Unwrap() error { return e.err }
