package profile

import (
	"reflect"
	"testing"
	"time"
)

func TestPerRequest(t *testing.T) {
	fams := []Family{
		{Name: PageFault, Samples: 30, CPU: 30 * time.Millisecond},
		{Name: Wasmtime, Samples: 5, CPU: 5 * time.Millisecond},
	}
	for _, tc := range []struct {
		requests int64
		want     map[string]float64
	}{
		{1000, map[string]float64{PageFault: 30, Wasmtime: 5}},
		{4000, map[string]float64{PageFault: 7.5, Wasmtime: 1.25}},
		{0, map[string]float64{}},
		{-1, map[string]float64{}},
	} {
		if got := PerRequest(fams, tc.requests); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("PerRequest(%d) = %v, want %v", tc.requests, got, tc.want)
		}
	}
}

func TestDiff(t *testing.T) {
	for _, tc := range []struct {
		name       string
		base, cand map[string]float64
		want       []Delta
	}{
		{"by size of change", map[string]float64{PageFault: 10, Madvise: 20, Wasmtime: 5},
			map[string]float64{PageFault: 12, Madvise: 8, Wasmtime: 5},
			[]Delta{{Madvise, 20, 8, -12}, {PageFault, 10, 12, 2}, {Wasmtime, 5, 5, 0}}},
		{"missing families count 0", map[string]float64{Scheduler: 3},
			map[string]float64{Network: 1},
			[]Delta{{Scheduler, 3, 0, -3}, {Network, 0, 1, 1}}},
		{"ties in family order, then by name", map[string]float64{"zzz": 1, "aaa": 1, OtherUser: 1, PageFault: 1},
			map[string]float64{},
			[]Delta{{PageFault, 1, 0, -1}, {OtherUser, 1, 0, -1}, {"aaa", 1, 0, -1}, {"zzz", 1, 0, -1}}},
		{"empty", nil, nil, []Delta{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Diff(tc.base, tc.cand); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Diff:\n got %+v\nwant %+v", got, tc.want)
			}
		})
	}
}
