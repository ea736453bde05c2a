package wasmhost

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sweep-dev/sweep/sweep/setting"
)

// serve starts a real HTTP server on loopback for a host built from opts.
// The returned log buffer may be read after the host is closed.
func serve(t *testing.T, opts Options) (*Host, *httptest.Server, *lockedBuffer) {
	t.Helper()
	logs := &lockedBuffer{}
	opts.Logger = slog.New(slog.NewTextHandler(logs, nil))
	h, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(func() {
		srv.Close()
		h.Close()
	})
	return h, srv, logs
}

func settingsOf(t *testing.T, m map[string]string) setting.Settings {
	t.Helper()
	s, err := setting.FromMap(m)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

type response struct {
	status  int
	body    string
	header  http.Header
	elapsed time.Duration
}

func do(t *testing.T, method, url, body string) response {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return response{resp.StatusCode, string(b), resp.Header, time.Since(start)}
}

func stats(t *testing.T, srv *httptest.Server) Stats {
	t.Helper()
	r := do(t, "GET", srv.URL+StatsPath, "")
	if r.status != 200 || r.header.Get("Content-Type") != "application/json" {
		t.Fatalf("stats: %d %s", r.status, r.header.Get("Content-Type"))
	}
	var s Stats
	if err := json.Unmarshal([]byte(r.body), &s); err != nil {
		t.Fatalf("stats: %v in %q", err, r.body)
	}
	return s
}

var hexPrefix = regexp.MustCompile(`^[0-9a-f]{16}\.*\n$`)

func TestWorkloadOK(t *testing.T) {
	for _, size := range []int{0, 5, 16, 17, 100, 70000} {
		t.Run(strconv.Itoa(size), func(t *testing.T) {
			s := settingsOf(t, map[string]string{"response_bytes": strconv.Itoa(size), "touch": "128KiB", "compute": "10"})
			_, srv, _ := serve(t, Options{Settings: s})
			r := do(t, "GET", srv.URL+"/", "")
			if r.status != 200 {
				t.Fatalf("status %d: %s", r.status, r.body)
			}
			if len(r.body) != size || r.header.Get("Content-Length") != strconv.Itoa(size) {
				t.Errorf("body %d bytes, Content-Length %s, want %d", len(r.body), r.header.Get("Content-Length"), size)
			}
			if size > 16 && !hexPrefix.MatchString(r.body) {
				t.Errorf("body %q does not start with the 16 hex digits of the compute result", r.body[:20])
			}
		})
	}
}

func TestWorkloadIOWait(t *testing.T) {
	s := settingsOf(t, map[string]string{"io_wait": "50ms", "response_bytes": "32"})
	_, srv, _ := serve(t, Options{Settings: s})
	r := do(t, "POST", srv.URL+"/", "some body")
	if r.status != 200 || len(r.body) != 32 {
		t.Fatalf("status %d, %d bytes: %s", r.status, len(r.body), r.body)
	}
	// A lower bound only: the host sleeps at least io_wait.
	if r.elapsed < 50*time.Millisecond {
		t.Errorf("request took %v, less than io_wait 50ms", r.elapsed)
	}
}

// TestPoolExhausted: two slots, eight concurrent requests that each hold
// an instance for 200ms: the rest get 503 naming the limit, counted in
// stats and logged without one line per failure.
func TestPoolExhausted(t *testing.T) {
	s := settingsOf(t, map[string]string{"total_core_instances": "2", "io_wait": "200ms", "response_bytes": "20"})
	h, srv, logs := serve(t, Options{Settings: s})
	const n = 8
	var wg sync.WaitGroup
	results := make([]response, n)
	start := make(chan struct{})
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			results[i] = do(t, "GET", srv.URL+"/", "")
		}()
	}
	close(start)
	wg.Wait()
	ok, busy := 0, 0
	for _, r := range results {
		switch r.status {
		case 200:
			ok++
		case 503:
			busy++
			want := "pool exhausted: total_core_instances (2) — maximum concurrent limit of 2 for core instances reached\n"
			if r.body != want {
				t.Errorf("503 body = %q, want %q", r.body, want)
			}
		default:
			t.Errorf("unexpected status %d: %s", r.status, r.body)
		}
	}
	if busy == 0 {
		t.Fatalf("no 503 among %d concurrent requests with total_core_instances = 2", n)
	}
	st := stats(t, srv)
	if st.Requests != n || st.OK != uint64(ok) || st.Errors["pool_core_instances"] != uint64(busy) {
		t.Errorf("stats = %+v, want %d requests, %d ok, %d pool_core_instances", st, n, ok, busy)
	}
	if st.LiveInstancesHighWater != 2 || st.LiveInstances != 0 {
		t.Errorf("live = %d, high water = %d; want 0 and 2", st.LiveInstances, st.LiveInstancesHighWater)
	}

	h.Close() // flushes pending summaries
	var logged int
	lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
	summary := regexp.MustCompile(`pool exhausted (\d+) times in the last 1s: total_core_instances \(2\) — maximum concurrent limit of 2 for core instances reached`)
	for _, l := range lines {
		switch {
		case summary.MatchString(l):
			k, _ := strconv.Atoi(summary.FindStringSubmatch(l)[1])
			logged += k
		case strings.Contains(l, `msg="pool exhausted"`) && strings.Contains(l, "reason=pool_core_instances"):
			logged++
		default:
			t.Errorf("unexpected log line %q", l)
		}
	}
	if logged != busy || len(lines) > 3 {
		t.Errorf("%d log lines account for %d failures, want %d failures in at most 3 lines:\n%s", len(lines), logged, busy, logs)
	}
}

func TestPluginFailures(t *testing.T) {
	tests := []struct {
		plugin  string
		timeout time.Duration
		knobs   map[string]string
		status  int
		body    string
		reason  string
		log     string
	}{
		{"testdata/trap.wat", 0, nil, 500,
			"plugin trapped: wasm trap: wasm `unreachable` instruction executed\n", "trap", `msg="plugin trapped"`},
		{"testdata/loop.wat", 200 * time.Millisecond, nil, 504,
			"plugin timed out after 200ms\n", "timeout", `msg="plugin timed out"`},
		{Workload, 100 * time.Millisecond, map[string]string{"io_wait": "10s"}, 504,
			"plugin timed out after 100ms\n", "timeout", `msg="plugin timed out"`},
		{"testdata/outofbounds.wat", 0, nil, 500,
			"core ABI: handle returned response [65520, 69616), outside linear memory of 65536 bytes\n", "other", `msg="request failed"`},
		{"testdata/exit.wat", 0, nil, 500,
			"plugin exited with status 3\n", "trap", `msg="plugin trapped"`},
	}
	for _, tt := range tests {
		t.Run(tt.plugin, func(t *testing.T) {
			h, srv, logs := serve(t, Options{Plugin: tt.plugin, Timeout: tt.timeout, Settings: settingsOf(t, tt.knobs)})
			for i := 0; i < 2; i++ {
				r := do(t, "GET", srv.URL+"/", "")
				if r.status != tt.status || r.body != tt.body {
					t.Errorf("request %d: %d %q, want %d %q", i, r.status, r.body, tt.status, tt.body)
				}
			}
			st := stats(t, srv) // the server still answers
			if st.Errors[tt.reason] != 2 || st.OK != 0 || st.LiveInstances != 0 {
				t.Errorf("stats = %+v, want 2 %s", st, tt.reason)
			}
			h.Close()
			if l := logs.String(); !strings.Contains(l, tt.log) {
				t.Errorf("log %q does not contain %q", l, tt.log)
			}
		})
	}
}

func TestEchoBody(t *testing.T) {
	_, srv, _ := serve(t, Options{Plugin: "testdata/echo.wat", MaxBodyBytes: 1 << 20})
	big := strings.Repeat("0123456789", 20000) // 200 KB: memory must grow
	for _, body := range []string{"", "hello", big} {
		r := do(t, "POST", srv.URL+"/echo", body)
		if r.status != 200 || r.body != body {
			t.Errorf("echo of %d bytes: %d, %d bytes back", len(body), r.status, len(r.body))
		}
	}
	r := do(t, "POST", srv.URL+"/echo", strings.Repeat("x", 1<<20+1))
	if r.status != 413 || r.body != "request body larger than 1048576 bytes\n" {
		t.Errorf("oversized body: %d %q", r.status, r.body)
	}
	if st := stats(t, srv); st.OK != 3 || st.Errors["other"] != 1 || st.Requests != 4 {
		t.Errorf("stats = %+v", st)
	}
}

func TestWasiCommandStatusHeader(t *testing.T) {
	_, srv, _ := serve(t, Options{Plugin: "testdata/status.wat"})
	r := do(t, "GET", srv.URL+"/", "")
	if r.status != 404 || r.body != "no such thing" || r.header.Get("X-Plugin") != "wat" {
		t.Errorf("got %d %q %v", r.status, r.body, r.header)
	}
}

// TestClientGoneEndsIOWait: when the client goes away, io_wait ends and
// the request is counted as "other", not as a plugin failure.
func TestClientGoneEndsIOWait(t *testing.T) {
	_, srv, _ := serve(t, Options{Settings: settingsOf(t, map[string]string{"io_wait": "5s"})})
	client := &http.Client{Timeout: 100 * time.Millisecond}
	if resp, err := client.Get(srv.URL + "/"); err == nil {
		resp.Body.Close()
		t.Fatalf("request returned %d before io_wait ended", resp.StatusCode)
	}
	var st Stats
	for deadline := time.Now().Add(4 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if st = stats(t, srv); st.Errors["other"] == 1 {
			break
		}
	}
	if st.Errors["other"] != 1 || st.Errors["trap"] != 0 || st.LiveInstances != 0 {
		t.Errorf("stats = %+v, want one other failure and no live instance before io_wait's 5s", st)
	}
}
