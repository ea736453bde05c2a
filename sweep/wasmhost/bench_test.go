package wasmhost

import (
	"context"
	"net/http"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// discardResponse is an http.ResponseWriter that drops the body, so the
// benchmark measures the host, not HTTP.
type discardResponse struct{ h http.Header }

func (d *discardResponse) Header() http.Header         { return d.h }
func (d *discardResponse) Write(p []byte) (int, error) { return len(p), nil }
func (d *discardResponse) WriteHeader(int)             {}

// processCost is this process's CPU clock (all threads, as sweep's probe
// reads a server's) and its minor page faults.
type processCost struct {
	cpu    time.Duration
	minflt int64
}

func readCost(b *testing.B) processCost {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_PROCESS_CPUTIME_ID, &ts); err != nil {
		b.Fatal(err)
	}
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return processCost{cpu: time.Duration(ts.Nano()), minflt: ru.Minflt}
}

// reportCost adds cpu-ns/op (process CPU per op, the benchmark's analogue
// of a server's CPU per request) and minflt/op. ns/op is wall time, which
// on a shared machine includes time the process waited for a CPU.
func reportCost(b *testing.B, before processCost) {
	after := readCost(b)
	n := float64(b.N)
	b.ReportMetric(float64(after.cpu-before.cpu)/n, "cpu-ns/op")
	b.ReportMetric(float64(after.minflt-before.minflt)/n, "minflt/op")
}

// BenchmarkInvoke is the single-thread reference loop of the original
// investigation: instantiate + call + close of the workload plugin with
// touch = 64KiB, for several linear_memory_keep_resident values, from one
// goroutine (serial) and from GOMAXPROCS goroutines (parallel). It is the
// in-process part of the per-request floor in BENCHMARKS.md.
func BenchmarkInvoke(b *testing.B) {
	for _, keep := range []string{"0", "64KiB", "1MiB"} {
		h := newTestHost(b, Workload, map[string]string{
			"linear_memory_keep_resident": keep, "touch": "64KiB", "response_bytes": "64",
		})
		ctx := context.Background()
		b.Run("keep_resident="+keep+"/serial", func(b *testing.B) {
			b.ReportAllocs()
			w := &discardResponse{h: http.Header{}}
			before := readCost(b)
			for b.Loop() {
				if err := h.Invoke(ctx, nil, w); err != nil {
					b.Fatal(err)
				}
			}
			reportCost(b, before)
		})
		b.Run("keep_resident="+keep+"/parallel", func(b *testing.B) {
			b.ReportAllocs()
			before := readCost(b)
			b.RunParallel(func(pb *testing.PB) {
				w := &discardResponse{h: http.Header{}}
				for pb.Next() {
					if err := h.Invoke(ctx, nil, w); err != nil {
						b.Error(err)
						return
					}
				}
			})
			reportCost(b, before)
		})
	}
}
