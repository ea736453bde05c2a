package wasmhost

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/bytecodealliance/wasmtime-go/v39"

	"github.com/sweep-dev/sweep/sweep/setting"
)

// newTestHost builds a host or fails the test; it is closed at cleanup.
func newTestHost(t testing.TB, plugin string, settings map[string]string) *Host {
	t.Helper()
	s, err := setting.FromMap(settings)
	if err != nil {
		t.Fatal(err)
	}
	h, err := New(Options{Plugin: plugin, Settings: s})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

// TestPoolLimitsReachEngine proves the pooling settings reach Wasmtime:
// with a limit of N, instance N+1 fails while N are live, with Wasmtime's
// own message, and succeeds again once one store is closed.
func TestPoolLimitsReachEngine(t *testing.T) {
	tests := []struct {
		setting string
		limit   int
		plugin  string
		wasm    string // Wasmtime's message
		reason  Reason
		msg     string // the host's message
	}{
		{"total_core_instances", 2, Workload,
			"maximum concurrent limit of 2 for core instances reached", PoolCoreInstances,
			"pool exhausted: total_core_instances (2) — maximum concurrent limit of 2 for core instances reached"},
		{"total_memories", 1, Workload,
			"maximum concurrent limit of 1 for memory stripe 0 reached", PoolMemories,
			"pool exhausted: total_memories (1) — maximum concurrent limit of 1 for memory stripe 0 reached"},
		{"total_tables", 3, "testdata/table.wat",
			"maximum concurrent limit of 3 for tables reached", PoolTables,
			"pool exhausted: total_tables (3) — maximum concurrent limit of 3 for tables reached"},
	}
	for _, tt := range tests {
		t.Run(tt.setting, func(t *testing.T) {
			h := newTestHost(t, tt.plugin, map[string]string{tt.setting: strconv.Itoa(tt.limit)})
			var live []*wasmtime.Store
			defer func() {
				for _, s := range live {
					s.Close()
				}
			}()
			for i := 0; i < tt.limit; i++ {
				c := h.newCall(context.Background())
				store, err := c.open(nil)
				if err != nil {
					t.Fatalf("instance %d of %d: %v", i+1, tt.limit, err)
				}
				live = append(live, store)
			}
			c := h.newCall(context.Background())
			_, err := c.open(nil)
			if err == nil {
				t.Fatalf("instance %d succeeded with %s = %d", tt.limit+1, tt.setting, tt.limit)
			}
			if !strings.Contains(err.Error(), tt.wasm) {
				t.Errorf("error = %q, want Wasmtime's %q", err, tt.wasm)
			}
			e := classify(err, h)
			if e.Reason != tt.reason || e.Msg != tt.msg {
				t.Errorf("classified as %v %q, want %v %q", e.Reason, e.Msg, tt.reason, tt.msg)
			}
			if strings.Contains(e.Msg, "backtrace") || strings.Contains(e.Detail, "Stack backtrace") {
				t.Errorf("Rust backtrace not stripped: %q", e.Detail)
			}
			live[0].Close()
			live = live[1:]
			store, err := c.open(nil)
			if err != nil {
				t.Fatalf("after closing a store, instantiation still fails: %v", err)
			}
			live = append(live, store)
		})
	}
}
