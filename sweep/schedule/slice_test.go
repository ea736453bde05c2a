package schedule

import (
	"context"
	"reflect"
	"testing"

	"github.com/sweep-dev/sweep/sweep"
)

func TestSliceOrder(t *testing.T) {
	for _, tc := range []struct {
		n, pass int
		want    []int
	}{
		{1, 0, []int{0}},
		{1, 1, []int{0}},
		{3, 0, []int{0, 1, 2}},
		{3, 1, []int{2, 1, 0}},
		{3, 2, []int{0, 1, 2}},
		{4, 7, []int{3, 2, 1, 0}},
	} {
		if got := SliceOrder(tc.n, tc.pass); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("SliceOrder(%d, %d) = %v, want %v", tc.n, tc.pass, got, tc.want)
		}
	}
}

// TestExecuteRounds: the runner gets each round's measured steps at once,
// in position order, without the ones already done (-resume).
func TestExecuteRounds(t *testing.T) {
	steps := Steps(abc, []int{1}, 2, 2)
	done := map[sweep.WindowKey]bool{{Slot: 1, Concurrency: 1, Round: 0}: true}
	var rounds []string
	f := &fakeRunner{rounds: &rounds}
	if err := Execute(context.Background(), steps, done, f, f.emit); err != nil {
		t.Fatal(err)
	}
	want := []string{"c=1 r=0 AC", "c=1 r=1 CBA"}
	if !reflect.DeepEqual(rounds, want) {
		t.Errorf("rounds %q, want %q", rounds, want)
	}
	if len(f.emitted) != 5 {
		t.Errorf("%d windows emitted, want 5", len(f.emitted))
	}
}
