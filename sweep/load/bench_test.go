package load

import (
	"context"
	"net/http"
	"strconv"
	"testing"
	"time"
)

// BenchmarkGenerator measures the generator's request rate against a
// trivial in-process handler: one op is one request; req/s is reported.
// Client and server share this process's CPUs, so it is a lower bound on
// the generator alone.
func BenchmarkGenerator(b *testing.B) {
	for _, c := range []int{1, 16} {
		b.Run("c="+strconv.Itoa(c), func(b *testing.B) {
			s := newServer(b, func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("ok")) })
			g, err := New(Options{URL: s.URL, Concurrency: c, MaxRequests: int64(b.N)})
			if err != nil {
				b.Fatal(err)
			}
			defer g.Close()
			b.ResetTimer()
			start := time.Now()
			r, err := g.Run(context.Background(), 10*time.Minute)
			if err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			if r.Requests != int64(b.N) || r.Success != r.Requests {
				b.Fatalf("requests %d success %d, want %d", r.Requests, r.Success, b.N)
			}
			b.ReportMetric(float64(r.Requests)/time.Since(start).Seconds(), "req/s")
		})
	}
}
