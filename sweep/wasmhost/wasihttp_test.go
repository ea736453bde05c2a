package wasmhost

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// The wasi:http guests of plugins/http-handler (make http-plugin; make
// test-http requires them): handler.wasm, a fetch-event JS component
// serving js-handler's routes plus stream routes, and misbehave.wasm,
// incoming-handler by hand, breaking the protocol one way per path.
var (
	httpPlugin    = filepath.Join("..", "..", "plugins", "http-handler", "handler.wasm")
	httpMisbehave = filepath.Join("..", "..", "plugins", "http-handler", "misbehave.wasm")
)

// TestHTTPComponent serves the fetch-event guest: GET with a JSON body
// and headers, POST with its body read back (JSON and raw bytes), 404,
// bodies from 0 to 1 MiB each way, a streamed body, concurrently; every
// function of wasi:http/types, wasi:io and monotonic-clock that the guest
// calls is on these paths (incoming-request, fields, incoming-body and its
// input-stream, outgoing-response, outgoing-body and its output-stream,
// response-outparam.set, pollables for the stream and timers).
func TestHTTPComponent(t *testing.T) {
	wasm := guest(t, httpPlugin, "http-plugin", "SWEEP_REQUIRE_HTTP")
	h, srv, _ := serve(t, Options{Plugin: wasm})
	if k := h.Info().Kind; k != KindHTTPComponent {
		t.Fatalf("kind %v", k)
	}

	r := do(t, "GET", srv.URL+"/", "")
	if r.status != 200 || r.header.Get("Content-Type") != "application/json" || r.body != `{"message":"Hello from JS on a component!"}` {
		t.Errorf("GET /: %d %q %q", r.status, r.header.Get("Content-Type"), r.body)
	}
	if r := do(t, "GET", srv.URL+"/nowhere?x=1", ""); r.status != 404 || r.body != `{"error":"not found","path":"/nowhere"}` {
		t.Errorf("GET /nowhere: %d %q", r.status, r.body)
	}
	if r := do(t, "POST", srv.URL+"/", "x"); r.status != 405 {
		t.Errorf("POST /: %d %q", r.status, r.body)
	}

	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequest("POST", srv.URL+"/echo?n="+strconv.Itoa(i)+"&tag=t"+strconv.Itoa(i), strings.NewReader(`{"user":"sweep","i":`+strconv.Itoa(i)+`}`))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Add("X-Multi", "a")
			req.Header.Add("X-Multi", "b")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			var got struct {
				Method  string            `json:"method"`
				Path    string            `json:"path"`
				Query   map[string]string `json:"query"`
				Headers map[string]string `json:"headers"`
				Body    map[string]any    `json:"body"`
				Items   []map[string]any  `json:"items"`
			}
			if err := json.Unmarshal([]byte(readAll(t, resp)), &got); err != nil || resp.StatusCode != 200 {
				t.Errorf("status %d, %v", resp.StatusCode, err)
				return
			}
			if got.Method != "POST" || got.Path != "/echo" || got.Query["tag"] != "t"+strconv.Itoa(i) ||
				got.Body["user"] != "sweep" || got.Body["i"] != float64(i) || len(got.Items) != i ||
				got.Headers["x-multi"] != "a, b" || !strings.HasPrefix(got.Headers["host"], "127.0.0.1:") ||
				resp.Header.Get("Content-Type") != "application/json" {
				t.Errorf("n=%d: %+v", i, got)
			}
		}()
	}
	wg.Wait()

	// Bytes both ways, not UTF-8, of sizes around the stream's chunks.
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 4095, 65536, 1 << 20} {
		body := make([]byte, n)
		for i := range body {
			body[i] = byte(rng.Uint32())
		}
		req, _ := http.NewRequest("POST", srv.URL+"/raw", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/x-test")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !bytes.Equal(got, body) || resp.Header.Get("Content-Type") != "application/x-test" {
			t.Errorf("POST /raw of %d bytes: %d, %d bytes back, type %q", n, resp.StatusCode, len(got), resp.Header.Get("Content-Type"))
		}
		r := do(t, "GET", srv.URL+"/bytes?n="+strconv.Itoa(n), "")
		if r.status != 200 || r.body != strings.Repeat("x", n) || r.header.Get("Content-Length") != strconv.Itoa(n) {
			t.Errorf("GET /bytes?n=%d: %d, %d bytes, content-length %q", n, r.status, len(r.body), r.header.Get("Content-Length"))
		}
	}
	if r := do(t, "GET", srv.URL+"/chunks?n=5", ""); r.status != 200 || r.body != strings.Repeat("y", 5*1024) {
		t.Errorf("GET /chunks?n=5: %d, %d bytes", r.status, len(r.body))
	}
	// A JS stream that errors half-way: StarlingMonkey finishes the body
	// where it broke, so the host sees a complete (short) response.
	if r := do(t, "GET", srv.URL+"/throw-stream", ""); r.status != 200 || r.body != "first half;" {
		t.Errorf("GET /throw-stream: %d %q", r.status, r.body)
	}
	st := stats(t, srv)
	if st.Requests != st.OK || st.LiveInstances != 0 {
		t.Errorf("stats = %+v", st)
	}
	t.Logf("wasi:http guest: %d bytes, compiled in %v (cached: %v); %d requests", h.Info().Bytes, h.Info().CompileTime, h.Info().Cached, st.Requests)
}

// TestHTTPDeadline: a guest that never finishes its body, waiting on a
// timer in wasi:io/poll, is ended by the request deadline (504), and the
// server keeps serving.
func TestHTTPDeadline(t *testing.T) {
	wasm := guest(t, httpPlugin, "http-plugin", "SWEEP_REQUIRE_HTTP")
	_, srv, _ := serve(t, Options{Plugin: wasm, Timeout: time.Second})
	r := do(t, "GET", srv.URL+"/hang-stream", "")
	if r.status != 504 || !strings.Contains(r.body, "timed out") || r.elapsed < time.Second || r.elapsed > 5*time.Second {
		t.Errorf("GET /hang-stream: %d %q after %v; want 504 after about 1s", r.status, r.body, r.elapsed)
	}
	if r := do(t, "GET", srv.URL+"/health", ""); r.status != 200 || r.body != `{"ok":true}` {
		t.Errorf("after the timeout: %d %q", r.status, r.body)
	}
	if st := stats(t, srv); st.Errors["timeout"] != 1 || st.OK != 1 || st.LiveInstances != 0 {
		t.Errorf("stats = %+v", st)
	}
}

// TestHTTPMisbehave: each way a guest can break the wasi:http protocol
// gets a clear status and message, is counted by reason, and the server
// keeps serving.
func TestHTTPMisbehave(t *testing.T) {
	wasm := guest(t, httpMisbehave, "http-plugin", "SWEEP_REQUIRE_HTTP")
	h, srv, _ := serve(t, Options{Plugin: wasm, Timeout: time.Second})
	if k := h.Info().Kind; k != KindHTTPComponent {
		t.Fatalf("kind %v", k)
	}
	want := map[string]int{}
	for _, tc := range []struct {
		path   string
		status int
		reason string
		msg    string
	}{
		{"/no-set", 500, "http_guest", "without setting the response"},
		{"/set-twice", 500, "http_guest", "was the outparam set twice?"},
		{"/error-code", 500, "http_guest", "error code internal-error"},
		{"/bad-length", 500, "http_guest", "body is 5 bytes, its content-length says 10"},
		{"/unfinished", 500, "http_guest", "without finishing the response body"},
		{"/trap-half", 500, "trap", "plugin trapped"},
		{"/spin", 504, "timeout", "timed out"},
	} {
		r := do(t, "GET", srv.URL+tc.path, "")
		if r.status != tc.status || !strings.Contains(r.body, tc.msg) {
			t.Errorf("%s: %d %q; want %d with %q", tc.path, r.status, r.body, tc.status, tc.msg)
		}
		want[tc.reason]++
		if r := do(t, "GET", srv.URL+"/ok", ""); r.status != 200 || r.body != "ok" || r.header.Get("Content-Type") != "text/plain" {
			t.Errorf("after %s: %d %q", tc.path, r.status, r.body)
		}
	}
	st := stats(t, srv)
	for reason, n := range want {
		if st.Errors[reason] != uint64(n) {
			t.Errorf("errors[%s] = %d, want %d (%v)", reason, st.Errors[reason], n, st.Errors)
		}
	}
	if st.OK != 7 || st.LiveInstances != 0 {
		t.Errorf("stats = %+v", st)
	}
}

// TestHTTPNotUTF8Path: the component model's string cannot carry a path
// that is not UTF-8; the host answers 400 without calling the guest.
func TestHTTPNotUTF8Path(t *testing.T) {
	wasm := guest(t, httpPlugin, "http-plugin", "SWEEP_REQUIRE_HTTP")
	h, err := New(Options{Plugin: wasm})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	req := &request{method: "GET", path: "/\xff"}
	rec := &recorder{header: http.Header{}}
	err = h.invoke(t.Context(), req, nil, rec)
	if e, ok := err.(*Error); !ok || e.httpStatus() != 400 {
		t.Errorf("got %v", err)
	}
}

type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header         { return r.header }
func (r *recorder) WriteHeader(s int)           { r.status = s }
func (r *recorder) Write(p []byte) (int, error) { return r.body.Write(p) }

// BenchmarkHTTPBody: the JS wasi:http guest answering GET /bytes?n=N in
// process (no HTTP), serially; cpu-ns/op is the process CPU per request.
// The difference between 64 KiB and 64 bytes is what the bigger body
// costs: the guest filling and writing it, Wasmtime converting each byte
// to and from a C API value, and the host copying it out. The same for
// POST /raw, which also reads the body in.
func BenchmarkHTTPBody(b *testing.B) {
	if _, err := os.Stat(httpPlugin); err != nil {
		b.Skipf("%s not built (make http-plugin)", httpPlugin)
	}
	h, err := New(Options{Plugin: httpPlugin})
	if err != nil {
		b.Fatal(err)
	}
	defer h.Close()
	for _, tc := range []struct {
		name, method, path string
		body               []byte
	}{
		{"get-64B", "GET", "/bytes?n=64", nil},
		{"get-64KiB", "GET", "/bytes?n=65536", nil},
		{"raw-64B", "POST", "/raw", bytes.Repeat([]byte{'z'}, 64)},
		{"raw-64KiB", "POST", "/raw", bytes.Repeat([]byte{'z'}, 65536)},
	} {
		b.Run(tc.name, func(b *testing.B) {
			req := &request{method: tc.method, path: tc.path, headers: [][2]string{{"host", "bench"}}}
			w := &discardResponse{h: http.Header{}}
			before := readCost(b)
			for b.Loop() {
				clear(w.h)
				if err := h.invoke(context.Background(), req, tc.body, w); err != nil {
					b.Fatal(err)
				}
			}
			reportCost(b, before)
		})
	}
}

// BenchmarkHTTPTwin: the same JS handler (POST /echo?n=32 with a JSON
// body, as configs/components-http-twin.toml) behind sweep:plugin/handler
// (plugins/js-handler) and behind wasi:http (plugins/http-handler), in
// process and serially: cpu-ns/op is the process CPU per request.
func BenchmarkHTTPTwin(b *testing.B) {
	body := []byte(`{"user":"sweep","tags":["a","b","c"],"count":3}`)
	for _, tc := range []struct{ name, plugin string }{{"plugin", jsPlugin}, {"http", httpPlugin}} {
		b.Run(tc.name, func(b *testing.B) {
			if _, err := os.Stat(tc.plugin); err != nil {
				b.Skipf("%s not built", tc.plugin)
			}
			h, err := New(Options{Plugin: tc.plugin})
			if err != nil {
				b.Fatal(err)
			}
			defer h.Close()
			req := &request{method: "POST", path: "/echo?n=32", headers: [][2]string{{"content-type", "application/json"}, {"host", "bench"}}}
			w := &discardResponse{h: http.Header{}}
			before := readCost(b)
			for b.Loop() {
				clear(w.h)
				if err := h.invoke(context.Background(), req, body, w); err != nil {
					b.Fatal(err)
				}
			}
			reportCost(b, before)
		})
	}
}

// TestHTTPTypes: the fields functions (from-list, get, has, set, append,
// delete, entries, clone, the request's immutable headers, invalid names
// and values) and the request body through incoming-body's stream (skip,
// blocking-read, subscribe, finish, future-trailers), called by hand from
// misbehave.js and checked against what the host answered.
func TestHTTPTypes(t *testing.T) {
	wasm := guest(t, httpMisbehave, "http-plugin", "SWEEP_REQUIRE_HTTP")
	_, srv, _ := serve(t, Options{Plugin: wasm})
	req, _ := http.NewRequest("POST", srv.URL+"/fields", strings.NewReader("x"))
	req.Header.Add("X-Test", "one")
	req.Header.Add("X-Test", "two")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	got := readAll(t, resp)
	want := `{"get":["1","3"],"has":[true,false],"entries":["x-b=4","x-b=5"],"cloneIndependent":[false,true],` +
		`"badName":"invalid-syntax","badValue":"invalid-syntax","requestHeader":["one","two"],"immutable":"immutable",` +
		`"method":"post","scheme":"HTTP","authority":true}`
	if resp.StatusCode != 200 || got != want {
		t.Errorf("/fields: %d\n got %s\nwant %s", resp.StatusCode, got, want)
	}
	for _, n := range []int{2, 3, 999, 1000, 100000} { // skip on an empty body is err(closed): the guest would throw
		r := do(t, "POST", srv.URL+"/body", strings.Repeat("b", n))
		var got struct {
			Bytes, Skipped int
			Trailers       any
			Second         string
		}
		if err := json.Unmarshal([]byte(r.body), &got); err != nil || r.status != 200 {
			t.Errorf("/body with %d bytes: %d %q", n, r.status, r.body)
			continue
		}
		// A second consume fails (the body was taken).
		if got.Bytes != n || got.Skipped != min(n, 3) || got.Trailers != nil || got.Second == "ok" {
			t.Errorf("/body with %d bytes: %s", n, r.body)
		}
	}
}

// TestHTTPShortBody: a request body shorter than its Content-Length never
// reaches the guest: 400, and the server keeps serving.
func TestHTTPShortBody(t *testing.T) {
	wasm := guest(t, httpPlugin, "http-plugin", "SWEEP_REQUIRE_HTTP")
	_, srv, _ := serve(t, Options{Plugin: wasm})
	conn, err := net.Dial("tcp", strings.TrimPrefix(srv.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.WriteString(conn, "POST /raw HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n12345")
	_ = conn.(*net.TCPConn).CloseWrite()
	b, _ := io.ReadAll(conn)
	conn.Close()
	if !strings.HasPrefix(string(b), "HTTP/1.1 400") {
		t.Errorf("short body: %q", b)
	}
	if r := do(t, "POST", srv.URL+"/raw", "12345"); r.status != 200 || r.body != "12345" {
		t.Errorf("after: %d %q", r.status, r.body)
	}
	if st := stats(t, srv); st.OK != 1 || st.Errors["other"] != 1 {
		t.Errorf("stats = %+v", st)
	}
}
