package wasmhost

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// buildHello builds plugins/hello-wasip1 for GOOS=wasip1 into dir.
func buildHello(t testing.TB, dir string) string {
	t.Helper()
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go command not found; it is needed to build the wasip1 plugin")
	}
	out := filepath.Join(dir, "hello.wasm")
	cmd := exec.Command(gobin, "build", "-o", out, "./plugins/hello-wasip1")
	cmd.Dir = filepath.Join("..", "..")
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm", "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build hello-wasip1: %v\n%s", err, b)
	}
	return out
}

// TestGoWasip1Plugin serves the Go wasip1 sample plugin over HTTP with
// the default settings of `sweep serve`.
func TestGoWasip1Plugin(t *testing.T) {
	wasm := buildHello(t, t.TempDir())
	_, srv, _ := serve(t, Options{Plugin: wasm})
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
}
