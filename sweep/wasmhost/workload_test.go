package wasmhost

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
)

// runWorkload serves one request with the workload plugin and returns the
// response and a copy of the instance's linear memory before its store is
// closed.
func runWorkload(t *testing.T, h *Host, body []byte) (string, []byte) {
	t.Helper()
	c := h.newCall(context.Background())
	defer c.release()
	store, err := c.open(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	rec := httptest.NewRecorder()
	if err := h.runCore(&c.wasm, body, rec); err != nil {
		t.Fatal(err)
	}
	return rec.Body.String(), append([]byte(nil), c.wasm.memory()...)
}

// computeResult is the workload's compute loop in Go.
func computeResult(seq int64, bodyLen int, units uint64) uint64 {
	x := uint64(seq) ^ uint64(bodyLen) ^ 0x9E3779B97F4A7C15
	for n := units * 1000; n > 0; n-- {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		x *= 0x2545F4914F6CDD1D
	}
	return x
}

func TestWorkloadTouchAndCompute(t *testing.T) {
	const touch = 100001 // two pages, not page-aligned
	for _, units := range []uint64{0, 1, 37} {
		t.Run(fmt.Sprint(units), func(t *testing.T) {
			h := newTestHost(t, Workload, map[string]string{
				"touch": fmt.Sprint(touch), "compute": fmt.Sprint(units), "response_bytes": "64",
			})
			body := []byte("request body")
			for req := 0; req < 2; req++ {
				resp, mem := runWorkload(t, h, body)
				seq := h.seq.Load() // param(4) is read once per request
				want := fmt.Sprintf("%016x", computeResult(seq, len(body), units))
				if !strings.HasPrefix(resp, want) || len(resp) != 64 || !strings.HasSuffix(resp, ".\n") {
					t.Errorf("response %q, want %s then dots and a newline, 64 bytes", resp, want)
				}
				if len(mem) != int(DefaultInitialMemory) {
					t.Fatalf("memory is %d bytes, want the default initial memory %d", len(mem), DefaultInitialMemory)
				}
				if string(mem[:64]) != resp {
					t.Errorf("response is not at [0, 64) of linear memory")
				}
				v := byte(seq) | 1
				for i := 64; i < touch; i++ {
					if mem[i] != v {
						t.Fatalf("request %d: byte %d = %#x, want %#x (touched)", req, i, mem[i], v)
					}
				}
				for i := touch; i < len(mem); i++ {
					if mem[i] != 0 {
						t.Fatalf("byte %d past the touched range = %#x, want 0", i, mem[i])
					}
				}
			}
		})
	}
}

// TestWorkloadDataSegment: with nothing touched, page 0 still holds the
// data segment that memory_init_cow maps from the module's memory image.
func TestWorkloadDataSegment(t *testing.T) {
	for _, cow := range []string{"true", "false"} {
		h := newTestHost(t, Workload, map[string]string{"memory_init_cow": cow})
		resp, mem := runWorkload(t, h, nil)
		if resp != "" || !strings.HasPrefix(string(mem), "sweep builtin workload plugin: a data segment") || len(mem) != int(DefaultInitialMemory) {
			t.Errorf("memory_init_cow=%s: response %q, memory %d bytes starting %q", cow, resp, len(mem), mem[:32])
		}
	}
}

// TestWorkloadMemorySize: the initial memory is initial_memory, raised to
// hold touch and response_bytes.
func TestWorkloadMemorySize(t *testing.T) {
	tests := []struct {
		knobs map[string]string
		want  int
	}{
		{nil, 17 * 65536},
		{map[string]string{"initial_memory": "64KiB"}, 65536},
		{map[string]string{"initial_memory": "100000"}, 2 * 65536},
		{map[string]string{"initial_memory": "64KiB", "touch": "200KiB"}, 4 * 65536},
		{map[string]string{"touch": "2MiB"}, 32 * 65536},
		{map[string]string{"initial_memory": "64KiB", "response_bytes": "65537"}, 2 * 65536},
	}
	for _, tt := range tests {
		h := newTestHost(t, Workload, tt.knobs)
		if _, mem := runWorkload(t, h, nil); len(mem) != tt.want {
			t.Errorf("%v: memory is %d bytes, want %d", tt.knobs, len(mem), tt.want)
		}
	}
}
