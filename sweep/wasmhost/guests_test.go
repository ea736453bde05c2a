package wasmhost

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// The real guests of plugins/, built with npm: `make components` builds
// the hello component (part of `make test`), `make js-plugin` the
// JavaScript one (its own target, `make test-js`: about a minute to build
// and 20 s for Wasmtime to compile).
var (
	helloComponent = filepath.Join("..", "..", "plugins", "hello-wasip1", "hello.component.wasm")
	jsPlugin       = filepath.Join("..", "..", "plugins", "js-handler", "handler.wasm")
)

// guest returns the path of a built guest; a missing one fails the test
// when required (make test, make test-js) and skips it otherwise.
func guest(t *testing.T, path, target, requireEnv string) string {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		if os.Getenv(requireEnv) != "" {
			t.Fatalf("%s is missing; build it with make %s", path, target)
		}
		t.Skipf("%s not built (make %s); set %s=1 to require it", path, target, requireEnv)
	}
	return path
}

// TestRunComponent serves plugins/hello-wasip1 wrapped by jco new
// --wasi-command: a wasi:cli/run component behind the preview-1 adapter,
// with the request body on stdin and the response from stdout.
func TestRunComponent(t *testing.T) {
	wasm := guest(t, helloComponent, "components", "SWEEP_REQUIRE_COMPONENTS")
	h, srv, _ := serve(t, Options{Plugin: wasm, Cache: noCache})
	if k := h.Info().Kind; k != KindRunComponent {
		t.Errorf("kind %v", k)
	}
	for _, body := range []string{"", "twelve bytes", strings.Repeat("z", 100000)} {
		r := do(t, "POST", srv.URL+"/", body)
		want := "Hello from Go on wasip1! You sent " + strconv.Itoa(len(body)) + " bytes.\n"
		if r.status != 200 || r.body != want {
			t.Errorf("body of %d bytes: %d %q, want 200 %q", len(body), r.status, r.body, want)
		}
	}
	if st := stats(t, srv); st.OK != 3 || st.LiveInstances != 0 {
		t.Errorf("stats = %+v", st)
	}
	info, err := Describe(Options{Plugin: wasm, Cache: noCache})
	if err != nil {
		t.Fatal(err)
	}
	// The Go program's module, the preview-1 adapter and the adapter's
	// shim and fixup modules: 4 core instances per request (measured:
	// 4 instances, 1 memory, 2 tables).
	if info.CoreInstances != 4 || info.Memories < 1 {
		t.Errorf("hello component needs %d core instances, %d memories, %d tables; want 4 instances, 1+ memories", info.CoreInstances, info.Memories, info.Tables)
	}
	t.Logf("hello component: %d core instances, %d memories, %d tables per request; imports %v", info.CoreInstances, info.Memories, info.Tables, info.Imports)
}

// TestJSPlugin serves the JavaScript plugin (componentize-js) and checks
// that it parses the request and answers per request, concurrently.
func TestJSPlugin(t *testing.T) {
	wasm := guest(t, jsPlugin, "js-plugin", "SWEEP_REQUIRE_JS")
	h, srv, _ := serve(t, Options{Plugin: wasm})
	if k := h.Info().Kind; k != KindHandlerComponent {
		t.Errorf("kind %v", k)
	}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequest("POST", srv.URL+"/echo?n="+strconv.Itoa(i), strings.NewReader(`{"user":"sweep"}`))
			req.Header.Set("Content-Type", "application/json")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			var got struct {
				Method string            `json:"method"`
				Path   string            `json:"path"`
				Query  map[string]string `json:"query"`
				Body   map[string]any    `json:"body"`
				Items  []map[string]any  `json:"items"`
			}
			if err := json.Unmarshal([]byte(readAll(t, resp)), &got); err != nil || resp.StatusCode != 200 {
				t.Errorf("status %d, %v", resp.StatusCode, err)
				return
			}
			if got.Method != "POST" || got.Path != "/echo" || got.Body["user"] != "sweep" || len(got.Items) != i ||
				resp.Header.Get("Content-Type") != "application/json" {
				t.Errorf("n=%d: %+v", i, got)
			}
		}()
	}
	wg.Wait()
	if r := do(t, "GET", srv.URL+"/nowhere", ""); r.status != 404 {
		t.Errorf("unknown path: %d %q", r.status, r.body)
	}
	t.Logf("JS plugin: %d bytes, compiled in %v (cached: %v)", h.Info().Bytes, h.Info().CompileTime, h.Info().Cached)
}
