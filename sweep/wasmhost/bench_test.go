package wasmhost

import (
	"context"
	"net/http"
	"testing"
)

// discardResponse is an http.ResponseWriter that drops the body, so the
// benchmark measures the host, not HTTP.
type discardResponse struct{ h http.Header }

func (d *discardResponse) Header() http.Header         { return d.h }
func (d *discardResponse) Write(p []byte) (int, error) { return len(p), nil }
func (d *discardResponse) WriteHeader(int)             {}

// BenchmarkInvoke is the single-thread reference loop of the original
// investigation: instantiate + call + close of the workload plugin with
// touch = 64KiB, for several linear_memory_keep_resident values, from one
// goroutine (serial) and from GOMAXPROCS goroutines (parallel).
func BenchmarkInvoke(b *testing.B) {
	for _, keep := range []string{"0", "64KiB", "1MiB"} {
		h := newTestHost(b, Workload, map[string]string{
			"linear_memory_keep_resident": keep, "touch": "64KiB", "response_bytes": "64",
		})
		ctx := context.Background()
		b.Run("keep_resident="+keep+"/serial", func(b *testing.B) {
			b.ReportAllocs()
			w := &discardResponse{h: http.Header{}}
			for b.Loop() {
				if err := h.Invoke(ctx, nil, w); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("keep_resident="+keep+"/parallel", func(b *testing.B) {
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				w := &discardResponse{h: http.Header{}}
				for pb.Next() {
					if err := h.Invoke(ctx, nil, w); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	}
}
