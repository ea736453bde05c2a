package wasmhost

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
)

// StatsPath serves the host's counters as JSON (see Stats).
const StatsPath = "/__sweep/stats"

// ServeHTTP serves GET StatsPath, and every other request with the plugin:
// 200 with the plugin's response; 503 when a pool is exhausted (the body
// names the limit); 504 when the request timed out; 500 when the plugin
// trapped or misbehaved; 413 when the body exceeds Options.MaxBodyBytes.
// Plugin misbehaviour and host panics never crash the server.
func (h *Host) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == StatsPath {
		h.serveStats(w)
		return
	}
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			e := &Error{Reason: Other, Msg: fmt.Sprintf("host panic: %v", v)}
			h.recordFailure(e)
			http.Error(w, e.Msg, http.StatusInternalServerError)
		}
	}()
	body, bufp, err := h.readBody(r)
	if bufp != nil {
		defer h.putBody(bufp)
	}
	if err != nil {
		h.stats.requests.Add(1)
		h.recordFailure(err)
		http.Error(w, err.Msg, err.httpStatus())
		return
	}
	var req *request
	if h.comp != nil && (h.comp.kind == KindHandlerComponent || h.comp.kind == KindHTTPComponent) {
		req = newRequest(r)
	}
	if err := h.invoke(r.Context(), req, body, w); err != nil {
		e := err.(*Error)
		http.Error(w, e.Msg, e.httpStatus())
	}
}

func (h *Host) serveStats(w http.ResponseWriter) {
	b, _ := json.Marshal(h.Stats())
	w.Header()["Content-Type"] = []string{"application/json"}
	_, _ = w.Write(append(b, '\n'))
}

// readBody reads the request body once into a pooled buffer (nil for an
// empty body). The caller returns bufp to h.bodies when done.
func (h *Host) readBody(r *http.Request) ([]byte, *[]byte, *Error) {
	if r.Body == nil || r.Body == http.NoBody || r.ContentLength == 0 {
		return nil, nil, nil
	}
	if r.ContentLength > h.maxBody {
		return nil, nil, bodyTooLarge(h.maxBody)
	}
	bufp, _ := h.bodies.Get().(*[]byte)
	if bufp == nil {
		bufp = new([]byte)
	}
	buf := (*bufp)[:0]
	if r.ContentLength > 0 && int64(cap(buf)) < r.ContentLength {
		buf = make([]byte, 0, r.ContentLength)
	}
	lr := io.LimitReader(r.Body, h.maxBody+1)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := lr.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			*bufp = buf
			return nil, bufp, &Error{Reason: Other, Msg: "read request body: " + err.Error(), status: http.StatusBadRequest}
		}
	}
	*bufp = buf
	if int64(len(buf)) > h.maxBody {
		return nil, bufp, bodyTooLarge(h.maxBody)
	}
	return buf, bufp, nil
}

func bodyTooLarge(limit int64) *Error {
	return &Error{Reason: Other, Msg: fmt.Sprintf("request body larger than %d bytes", limit), status: http.StatusRequestEntityTooLarge}
}

// putBody returns a body buffer to the pool unless it grew large.
func (h *Host) putBody(bufp *[]byte) {
	if cap(*bufp) <= 1<<20 {
		*bufp = (*bufp)[:0]
		h.bodies.Put(bufp)
	}
}
