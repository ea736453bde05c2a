package wasmhost

import (
	"net/http"
	"strings"
	"unicode/utf8"
)

// cSize is C's size_t, which has the size of a pointer on every platform
// Go and Wasmtime support.
type cSize = uintptr

// request is what a sweep:plugin/handler component receives besides the
// body: the method, the path with its query, and the headers.
type request struct {
	method, path string
	headers      [][2]string
}

// defaultRequest stands in when Invoke is called without an HTTP request.
var defaultRequest = request{method: http.MethodPost, path: "/"}

// newRequest takes what handle needs from r: the header names in lower
// case, sorted by name (Go's header map keeps no order), and the Host
// header, which Go keeps apart.
func newRequest(r *http.Request) *request {
	req := &request{method: r.Method, path: r.URL.RequestURI()}
	for name, values := range r.Header {
		lower := strings.ToLower(name)
		for _, v := range values {
			req.headers = append(req.headers, [2]string{lower, v})
		}
	}
	if r.Host != "" {
		req.headers = append(req.headers, [2]string{"host", r.Host})
	}
	sortHeaders(req.headers)
	return req
}

func sortHeaders(h [][2]string) {
	for i := 1; i < len(h); i++ {
		for j := i; j > 0 && h[j][0] < h[j-1][0]; j-- {
			h[j], h[j-1] = h[j-1], h[j]
		}
	}
}

// text reports whether every string handle would receive is UTF-8, as
// the component model's string type requires.
func (r *request) text(body []byte) bool {
	if !utf8.Valid(body) || !utf8.ValidString(r.path) {
		return false
	}
	for _, h := range r.headers {
		if !utf8.ValidString(h[1]) {
			return false
		}
	}
	return true
}

// flatten appends the request's strings and body to buf and their
// (offset, length) spans to spans: method, path, body, then name and
// value per header, the layout component.c's sweep_call_handle reads.
func (r *request) flatten(buf []byte, spans []cSize, body []byte) ([]byte, []cSize) {
	add := func(s string) {
		spans = append(spans, cSize(len(buf)), cSize(len(s)))
		buf = append(buf, s...)
	}
	add(r.method)
	add(r.path)
	spans = append(spans, cSize(len(buf)), cSize(len(body)))
	buf = append(buf, body...)
	for _, h := range r.headers {
		add(h[0])
		add(h[1])
	}
	return buf, spans
}
