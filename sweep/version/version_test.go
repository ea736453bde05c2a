package version

import (
	"runtime/debug"
	"testing"
)

func TestSweep(t *testing.T) {
	for _, tt := range []struct {
		name     string
		version  string
		settings map[string]string
		rev      string // the Makefile's -ldflags -X revision
		want     string
	}{
		{"release", "v1.2.0", nil, "", "v1.2.0"},
		{"checkout", "(devel)", map[string]string{"vcs.revision": "34a1c78e0f9a", "vcs.modified": "false"}, "", "(devel) 34a1c78"},
		{"dirty checkout", "(devel)", map[string]string{"vcs.revision": "34a1c78e0f9a", "vcs.modified": "true"}, "", "(devel) 34a1c78+dirty"},
		{"no version", "", map[string]string{"vcs.revision": "abc"}, "", "abc"},
		{"worktree", "(devel)", nil, "34a1c78", "(devel) 34a1c78"},
		{"dirty worktree", "(devel)", nil, "34a1c78+dirty", "(devel) 34a1c78+dirty"},
		{"stamped wins", "(devel)", map[string]string{"vcs.revision": "34a1c78e0f9a", "vcs.modified": "false"}, "0000000", "(devel) 34a1c78"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			bi := &debug.BuildInfo{Main: debug.Module{Version: tt.version}}
			for k, v := range tt.settings {
				bi.Settings = append(bi.Settings, debug.BuildSetting{Key: k, Value: v})
			}
			if got := sweep(bi, tt.rev); got != tt.want {
				t.Errorf("sweep() = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestWasmtime(t *testing.T) {
	bi := &debug.BuildInfo{Deps: []*debug.Module{{Path: "gonum.org/v1/plot", Version: "v0.17.0"}, {Path: "github.com/bytecodealliance/wasmtime-go/v39", Version: "v39.0.1"}}}
	if got := wasmtime(bi); got != "39.0.1" {
		t.Errorf("wasmtime() = %q, want 39.0.1", got)
	}
	if got := wasmtime(&debug.BuildInfo{}); got != "" {
		t.Errorf("no wasmtime-go: %q", got)
	}
}
