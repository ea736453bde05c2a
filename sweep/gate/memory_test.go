package gate

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/sweep-dev/sweep/sweep"
)

// withRSS gives inRunRun's windows an RSS: 40 MiB for the old build (and
// its twin) and 40 MiB × (1 + grow) for the new one, ±0.25 MiB per window.
func withRSS(ws []sweep.Window, grow float64) []sweep.Window {
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range ws {
		mib := 40.0
		if ws[i].Config == "build=new" {
			mib *= 1 + grow
		}
		ws[i].RSSBytes = int64((mib + 0.5*(rng.Float64()-0.5)) * sweep.MiB)
	}
	return ws
}

func TestCheckRSS(t *testing.T) {
	for _, tc := range []struct {
		name      string
		grow, rss float64
		want      bool
	}{
		{"same RSS passes -rss 10%", 0, 0.10, false},
		{"+15% RSS fails -rss 10%", 0.15, 0.10, true},
		{"+15% RSS passes -rss 20%", 0.15, 0.20, false},
		{"+15% RSS not judged without -rss", 0.15, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, ws := inRunRun(9, 0)
			r, err := CheckRSS(s, withRSS(ws, tc.grow), "build=new", DefaultThresholds(), tc.rss)
			if err != nil {
				t.Fatal(err)
			}
			rows := 0
			for _, row := range r.Rows {
				if row.Metric != MetricRSS {
					continue
				}
				rows++
				if row.Confidence == 0 || row.CILow > row.Change || row.Change > row.CIHigh {
					t.Errorf("c=%d: RSS row without a proper interval: %+v", row.Concurrency, row)
				}
			}
			if wantRows := map[bool]int{true: 2, false: 0}[tc.rss > 0]; rows != wantRows {
				t.Errorf("%d RSS rows, want %d", rows, wantRows)
			}
			if r.Regressed != tc.want {
				t.Errorf("regressed %v, want %v:\n%+v", r.Regressed, tc.want, r.Rows)
			}
		})
	}
	s, ws := inRunRun(9, 0)
	if _, err := CheckRSS(s, ws, "build=new", DefaultThresholds(), -0.1); !errors.Is(err, ErrThreshold) {
		t.Errorf("negative -rss: %v, want ErrThreshold", err)
	}
}
