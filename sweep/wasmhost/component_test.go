package wasmhost

import (
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// noCache keeps a test's compiles out of the user's cache.
var noCache = &Cache{}

// TestComponentTwin serves the workload and its component twin with the
// same knobs: same response, and each says what it is and what a request
// takes from the pool (by Wasmtime's own count for the component).
func TestComponentTwin(t *testing.T) {
	knobs := map[string]string{"touch": "64KiB", "compute": "3", "response_bytes": "100"}
	_, core, _ := serve(t, Options{Settings: settingsOf(t, knobs), Cache: noCache})
	knobs["component"] = "true"
	h, twin, _ := serve(t, Options{Settings: settingsOf(t, knobs), Cache: noCache})
	a, b := do(t, "POST", core.URL+"/", "abc"), do(t, "GET", twin.URL+"/x?y=1", "abc")
	if a.status != 200 || b.status != 200 || a.body != b.body || len(b.body) != 100 {
		t.Fatalf("core %d %q, component %d %q; want the same 100-byte body", a.status, a.body, b.status, b.body)
	}
	if h.Info().Kind != KindHandlerComponent {
		t.Errorf("twin kind = %v", h.Info().Kind)
	}
	info, err := Describe(Options{Settings: settingsOf(t, knobs), Cache: noCache})
	if err != nil {
		t.Fatal(err)
	}
	// The workload's module and the glue module: two core instances, one
	// memory (the glue imports it), no table.
	if info.CoreInstances != 2 || info.Memories != 1 || info.Tables != 0 {
		t.Errorf("twin needs %d instances, %d memories, %d tables; want 2, 1, 0", info.CoreInstances, info.Memories, info.Tables)
	}
	delete(knobs, "component")
	info, err = Describe(Options{Settings: settingsOf(t, knobs), Cache: noCache})
	if err != nil || info.Kind != KindCoreModule || info.CoreInstances != 1 || info.Memories != 1 || info.Tables != 0 {
		t.Errorf("core workload: %+v, %v", info, err)
	}
}

// TestComponentHandler checks what crosses the sweep:plugin interface:
// method, path with query, headers, body in; status, headers, body out.
func TestComponentHandler(t *testing.T) {
	_, srv, _ := serve(t, Options{Plugin: "testdata/echo-component.wat", Cache: noCache})
	req, _ := http.NewRequest("PUT", srv.URL+"/a/b?c=d", strings.NewReader("héllo"))
	req.Header.Set("X-One", "1")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body := readAll(t, resp)
	// Go's client sends Host, User-Agent, Content-Length, Accept-Encoding
	// and X-One: 5 headers.
	if resp.StatusCode != 201 || resp.Header.Get("X-Echo") != "yes" || body != "PUT /a/b?c=d 5|héllo" {
		t.Errorf("got %d x-echo=%q %q; want 201, yes, %q", resp.StatusCode, resp.Header.Get("X-Echo"), body, "PUT /a/b?c=d 5|héllo")
	}
	if r := do(t, "POST", srv.URL+"/", "\xff\xfe"); r.status != 400 || !strings.Contains(r.body, "UTF-8") {
		t.Errorf("non-UTF-8 body: %d %q; want 400 naming UTF-8", r.status, r.body)
	}
}

// TestComponentFailures: a trap is a 500, a loop past the deadline a 504,
// each counted under its reason; the host goes on serving.
func TestComponentFailures(t *testing.T) {
	h, srv, _ := serve(t, Options{Plugin: "testdata/echo-component.wat", Timeout: 100 * time.Millisecond, Cache: noCache})
	if r := do(t, "POST", srv.URL+"/", "trap"); r.status != 500 || !strings.Contains(r.body, "plugin trapped") {
		t.Errorf("trap: %d %q", r.status, r.body)
	}
	if r := do(t, "POST", srv.URL+"/", "loop"); r.status != 504 || !strings.Contains(r.body, "timed out") {
		t.Errorf("loop: %d %q", r.status, r.body)
	}
	if r := do(t, "POST", srv.URL+"/", "fine"); r.status != 201 {
		t.Errorf("after failures: %d %q", r.status, r.body)
	}
	st := h.Stats()
	if st.Errors["trap"] != 1 || st.Errors["timeout"] != 1 || st.OK != 1 {
		t.Errorf("stats %+v", st)
	}
}

// TestComponentIOWait: the twin's io-wait blocks in the host, and a wait
// past the deadline is a timeout.
func TestComponentIOWait(t *testing.T) {
	s := settingsOf(t, map[string]string{"component": "true", "io_wait": "50ms"})
	_, srv, _ := serve(t, Options{Settings: s, Cache: noCache})
	if r := do(t, "GET", srv.URL+"/", ""); r.status != 200 || r.elapsed < 50*time.Millisecond {
		t.Errorf("io_wait 50ms: %d after %v", r.status, r.elapsed)
	}
	_, short, _ := serve(t, Options{Settings: s, Timeout: 20 * time.Millisecond, Cache: noCache})
	if r := do(t, "GET", short.URL+"/", ""); r.status != 504 {
		t.Errorf("io_wait past a 20ms deadline: %d %q; want 504", r.status, r.body)
	}
}

// TestComponentInstancesExhausted: past total_component_instances a
// request gets a 503 naming the limit, counted as pool_component_instances
// and logged.
func TestComponentInstancesExhausted(t *testing.T) {
	s := settingsOf(t, map[string]string{"component": "true", "io_wait": "300ms", "total_component_instances": "2"})
	h, srv, logs := serve(t, Options{Settings: s, Cache: noCache})
	var wg sync.WaitGroup
	got := make([]response, 6)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = do(t, "GET", srv.URL+"/", "")
		}()
	}
	wg.Wait()
	ok, busy := 0, 0
	for _, r := range got {
		switch {
		case r.status == 200:
			ok++
		case r.status == 503 && strings.Contains(r.body, "pool exhausted: total_component_instances (2) — maximum concurrent limit of 2 for component instances reached"):
			busy++
		default:
			t.Errorf("unexpected %d %q", r.status, r.body)
		}
	}
	st := h.Stats()
	if ok < 2 || busy == 0 || st.Errors["pool_component_instances"] != uint64(busy) || st.Errors["pool_other"] != 0 || st.LiveInstancesHighWater > 2 {
		t.Errorf("%d ok, %d busy, stats %+v", ok, busy, st)
	}
	h.Close()
	if !strings.Contains(logs.String(), "reason=pool_component_instances") {
		t.Errorf("no log line for the exhaustion:\n%s", logs.String())
	}
}

// TestComponentLoadLimits: each per-component limit below what the
// component needs refuses it at load, naming the option, its value and
// the need; the need Describe measured is exactly enough.
func TestComponentLoadLimits(t *testing.T) {
	const echo = "testdata/echo-component.wat"
	info, err := Describe(Options{Plugin: echo, Cache: noCache})
	if err != nil {
		t.Fatal(err)
	}
	if info.CoreInstances != 1 || info.Memories != 1 || info.Tables != 1 {
		t.Fatalf("echo needs %+v; want 1 instance, 1 memory, 1 table", info)
	}
	for _, tc := range []struct {
		option, low, enough, what string
	}{
		{"max_component_instance_size", "16", "1MiB", "VMComponentContext"},
		{"max_memories_per_component", "", "1", "linear memories"},
		{"max_tables_per_component", "", "1", "tables"},
		{"max_core_instances_per_component", "", "1", "core module instances"},
	} {
		if tc.low != "" {
			_, err := New(Options{Plugin: echo, Cache: noCache, Settings: settingsOf(t, map[string]string{tc.option: tc.low})})
			var le *LimitError
			if !errors.As(err, &le) || le.Option != tc.option || le.Need <= 16 || !strings.Contains(err.Error(), tc.option+" = 16B is below what the component needs") || !strings.Contains(err.Error(), tc.what) {
				t.Errorf("%s = %s: %v", tc.option, tc.low, err)
			}
		}
		h, err := New(Options{Plugin: echo, Cache: noCache, Settings: settingsOf(t, map[string]string{tc.option: tc.enough})})
		if err != nil {
			t.Errorf("%s = %s: %v", tc.option, tc.enough, err)
			continue
		}
		h.Close()
	}
	// The twin needs 2 core instances: 1 is refused at load.
	_, err = New(Options{Cache: noCache, Settings: settingsOf(t, map[string]string{"component": "true", "max_core_instances_per_component": "1"})})
	var le *LimitError
	if !errors.As(err, &le) || le.Need != 2 || err.Error() != "plugin workload: max_core_instances_per_component = 1 is below what the component needs: 2 core module instances" {
		t.Errorf("twin with max_core_instances_per_component = 1: %v", err)
	}
}

// TestComponentRefusals: what the host cannot serve is refused at load in
// one line that says why.
func TestComponentRefusals(t *testing.T) {
	corrupt := filepath.Join(t.TempDir(), "corrupt.wasm")
	if err := os.WriteFile(corrupt, append(append([]byte{}, componentHeader...), 0x07, 0x99, 0x01), 0o644); err != nil {
		t.Fatal(err)
	}
	odd := filepath.Join(t.TempDir(), "odd.wasm")
	if err := os.WriteFile(odd, []byte("\x00asm\x02\x00\x00\x00"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ plugin, want string }{
		{"testdata/http-import-component.wat", "component imports wasi:http/types@0.2.0, which the built-in host does not provide to this component: it serves wasi:http only to a component that exports wasi:http/incoming-handler"},
		{"testdata/http-outgoing-component.wat", "component imports wasi:sockets/tcp@0.2.0, wasi:keyvalue/store@0.2.0, which the built-in host's wasi:http does not provide"},
		{"testdata/other-export-component.wat", "component exports example:thing/api@1.0.0; want sweep:plugin/handler (handle) or wasi:cli/run (run), see plugins/wit/plugin.wit, or wasi:http/incoming-handler (handle)"},
		{corrupt, "plugin " + corrupt + ": compile: "},
		{odd, "unknown wasm version/layer 02 00 00 00"},
	} {
		_, err := New(Options{Plugin: tc.plugin, Cache: noCache})
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v; want one line containing %q", tc.plugin, err, tc.want)
		}
	}
}

// TestCompileCache: a plugin file is compiled once and then loaded from
// the cache; a corrupt or stale entry is compiled again and replaced.
func TestCompileCache(t *testing.T) {
	cache := &Cache{Dir: t.TempDir()}
	load := func() Info {
		t.Helper()
		h, err := New(Options{Plugin: "testdata/echo-component.wat", Cache: cache})
		if err != nil {
			t.Fatal(err)
		}
		defer h.Close()
		return h.Info()
	}
	if info := load(); info.Cached || info.CompileTime <= 0 || info.LoadTime != info.CompileTime {
		t.Fatalf("first load: %+v; want a compile", info)
	}
	cached := load()
	if !cached.Cached || cached.CompileTime <= 0 || cached.LoadTime <= 0 {
		t.Fatalf("second load: %+v; want the cache, with the first compile's time", cached)
	}
	entries, _ := filepath.Glob(filepath.Join(cache.Dir, "*.cwasm"))
	if len(entries) != 1 {
		t.Fatalf("cache holds %v", entries)
	}
	data, _ := os.ReadFile(entries[0])
	data[len(data)-10] ^= 0xff // corrupt: the checksum no longer matches
	os.WriteFile(entries[0], data, 0o644)
	if info := load(); info.Cached {
		t.Errorf("corrupt entry was used")
	}
	if info := load(); !info.Cached {
		t.Errorf("the corrupt entry was not replaced")
	}
	// Stale: a well-formed entry (good checksum) Wasmtime refuses.
	key := strings.TrimSuffix(filepath.Base(entries[0]), ".cwasm")
	if err := cache.store(key, []byte("not an artifact"), time.Second); err != nil {
		t.Fatal(err)
	}
	if info := load(); info.Cached {
		t.Errorf("stale entry was used")
	}
	if info := load(); !info.Cached {
		t.Errorf("the stale entry was not replaced")
	}
}

func readAll(t *testing.T, resp *http.Response) string {
	t.Helper()
	defer resp.Body.Close()
	var b strings.Builder
	buf := make([]byte, 4096)
	for {
		n, err := resp.Body.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			break
		}
	}
	return b.String()
}
