package driver

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestNodeHost runs a real WebAssembly host that is not Wasmtime —
// configs/node/host.mjs on Node.js (V8), a fresh instance per request —
// as a command target: every window succeeds with CPU measured, and each
// point is a cell. Skipped where node is not installed.
func TestNodeHost(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	host, err := filepath.Abs("../../configs/node/host.mjs")
	if err != nil {
		t.Fatal(err)
	}
	_, s, ws := run(t, fmt.Sprintf(`
name = "node"
[target]
kind = "command"
command = [%q, %q, "{{port}}", "{{touch}}"]
[grid]
touch = [4096, 65536]
[load]
concurrency = [1, 4]
warmup = "300ms"
duration = "500ms"
rounds = 2
aa = false
`, node, host))
	if len(ws) != 8 {
		t.Errorf("%d windows, want 8 (2 points × 2 levels × 2 rounds)", len(ws))
	}
	for _, w := range ws {
		if w.Failed || w.Requests == 0 || w.ErrorRate != 0 || w.CPUUsPerReq <= 0 {
			t.Errorf("%s c=%d round %d: failed %v (%s), %d requests, error rate %g, CPU/req %g µs",
				w.Config, w.Concurrency, w.Round, w.Failed, w.FailReason, w.Requests, w.ErrorRate, w.CPUUsPerReq)
		}
	}
	if len(s.Cells) != 4 {
		t.Errorf("%d cells, want 4", len(s.Cells))
	}
}
