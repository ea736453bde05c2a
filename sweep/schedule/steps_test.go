package schedule

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/sweep-dev/sweep/sweep"
)

// abc are three slots named by one letter each.
var abc = []Slot{
	{Index: 0, Config: "A", Baseline: true},
	{Index: 1, Config: "B"},
	{Index: 2, Config: "C", AA: true},
}

// orders renders a plan as one "c=C r=R: XYZ" line per round, warmup as
// r=-1; each slot's letters in position order.
func orders(t *testing.T, steps []Step) []string {
	t.Helper()
	var lines []string
	var cur string
	for i, s := range steps {
		head := fmt.Sprintf("c=%d r=%d: ", s.Concurrency, s.Round)
		if s.Warmup != (s.Round == -1) {
			t.Fatalf("step %d: Warmup=%v with Round=%d", i, s.Warmup, s.Round)
		}
		if !strings.HasPrefix(cur, head) {
			if cur != "" {
				lines = append(lines, cur)
			}
			cur = head
		}
		if want := len(cur) - len(head); s.Position != want {
			t.Fatalf("step %d: Position=%d, want %d", i, s.Position, want)
		}
		cur += s.Slot.Config
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	return lines
}

func TestStepsOrder(t *testing.T) {
	// Seed 2 gives base order A C B at c=1 and B A C at c=4; each round
	// shifts the base left by the round index.
	got := orders(t, Steps(abc, []int{1, 4}, 3, 2))
	want := []string{
		"c=1 r=-1: ACB",
		"c=1 r=0: ACB",
		"c=1 r=1: CBA",
		"c=1 r=2: BAC",
		"c=4 r=-1: BAC",
		"c=4 r=0: BAC",
		"c=4 r=1: ACB",
		"c=4 r=2: CBA",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Steps order:\n got %q\nwant %q", got, want)
	}
	steps := Steps(abc, []int{1, 4}, 3, 2)
	if s := steps[7]; s.Slot.Index != 1 || !reflect.DeepEqual(s.Slot, abc[1]) {
		t.Errorf("step 7 slot = %+v, want slot B carried whole", s.Slot)
	}
}

func TestStepsBalance(t *testing.T) {
	for _, tc := range []struct {
		slots, rounds int
		seed          int64
	}{
		{3, 3, 2}, {3, 6, 7}, {4, 8, 1}, {5, 5, 99}, {7, 14, -3}, {2, 10, 0}, {4, 6, 5}, {1, 3, 1},
	} {
		name := fmt.Sprintf("%dslots_%drounds_seed%d", tc.slots, tc.rounds, tc.seed)
		t.Run(name, func(t *testing.T) {
			slots := make([]Slot, tc.slots)
			for i := range slots {
				slots[i] = Slot{Index: 10 + i, Config: fmt.Sprint("cfg", i)}
			}
			levels := []int{1, 16, 64}
			steps := Steps(slots, levels, tc.rounds, tc.seed)
			if got, want := len(steps), len(levels)*tc.slots*(tc.rounds+1); got != want {
				t.Fatalf("len = %d, want %d", got, want)
			}
			if got, want := Measured(steps), len(levels)*tc.slots*tc.rounds; got != want {
				t.Fatalf("Measured = %d, want %d", got, want)
			}
			// at[c][round][position] = slot index
			at := map[int]map[int][]int{}
			for _, s := range steps {
				if at[s.Concurrency] == nil {
					at[s.Concurrency] = map[int][]int{}
				}
				at[s.Concurrency][s.Round] = append(at[s.Concurrency][s.Round], s.Slot.Index)
			}
			for _, c := range levels {
				if !reflect.DeepEqual(at[c][-1], at[c][0]) {
					t.Errorf("c=%d: warmup order %v != round 0 order %v", c, at[c][-1], at[c][0])
				}
				for r := range tc.rounds {
					seen := map[int]bool{}
					for _, idx := range at[c][r] {
						seen[idx] = true
					}
					if len(seen) != tc.slots || len(at[c][r]) != tc.slots {
						t.Errorf("c=%d round %d = %v: not every slot exactly once", c, r, at[c][r])
					}
				}
				// Every run of len(slots) consecutive rounds is a Latin square.
				for first := 0; first+tc.slots <= tc.rounds; first++ {
					count := map[[2]int]int{} // (slot, position)
					for r := first; r < first+tc.slots; r++ {
						for p, idx := range at[c][r] {
							count[[2]int{idx, p}]++
						}
					}
					if len(count) != tc.slots*tc.slots {
						t.Errorf("c=%d rounds %d..%d: %d (slot, position) pairs, want %d",
							c, first, first+tc.slots-1, len(count), tc.slots*tc.slots)
					}
				}
				// Over all rounds (a multiple of len(slots)) each slot holds
				// each position rounds/slots times.
				if tc.rounds%tc.slots == 0 {
					count := map[[2]int]int{}
					for r := range tc.rounds {
						for p, idx := range at[c][r] {
							count[[2]int{idx, p}]++
						}
					}
					for k, n := range count {
						if n != tc.rounds/tc.slots {
							t.Errorf("c=%d slot %d at position %d %d times, want %d", c, k[0], k[1], n, tc.rounds/tc.slots)
						}
					}
				}
			}
		})
	}
}

func TestStepsSeeds(t *testing.T) {
	if !reflect.DeepEqual(Steps(abc, []int{1, 4}, 3, 11), Steps(abc, []int{1, 4}, 3, 11)) {
		t.Fatal("Steps is not deterministic for a fixed seed")
	}
	base := func(seed int64, c int) string {
		line := orders(t, Steps(abc, []int{c}, 1, seed))[1]
		return line[strings.Index(line, ": ")+2:]
	}
	if a, b := base(2, 1), base(7, 1); a == b {
		t.Errorf("seeds 2 and 7 give the same base order %q", a)
	}
	// The seed must actually drive the shuffle: over 600 seeds all six
	// orders of three slots appear, each a fair share of the time.
	seen := map[string]int{}
	for seed := range int64(600) {
		seen[base(seed, 1)]++
	}
	if len(seen) != 6 {
		t.Fatalf("600 seeds gave %d distinct base orders, want 6: %v", len(seen), seen)
	}
	for o, n := range seen {
		if n < 60 || n > 140 { // expected 100; a stuck or biased shuffle lands far outside
			t.Errorf("base order %q drawn %d times of 600", o, n)
		}
	}
	// The seed varies per level: some level orders differ for one seed.
	differ := 0
	for _, c := range []int{2, 4, 8, 16, 32, 64, 128, 256} {
		if base(5, 1) != base(5, c) {
			differ++
		}
	}
	if differ == 0 {
		t.Error("seed 5 gives the same base order at every concurrency level")
	}
}

func TestStepsEmpty(t *testing.T) {
	for _, tc := range []struct {
		name   string
		slots  []Slot
		levels []int
		rounds int
	}{
		{"no slots", nil, []int{1}, 3},
		{"no levels", abc, nil, 3},
		{"zero rounds", abc, []int{1}, 0},
		{"negative rounds", abc, []int{1}, -1},
	} {
		if got := Steps(tc.slots, tc.levels, tc.rounds, 1); got != nil {
			t.Errorf("%s: Steps = %d steps, want nil", tc.name, len(got))
		}
	}
}

func TestEstimate(t *testing.T) {
	steps := Steps(abc, []int{1, 4}, 3, 2) // 6 warmups, 18 measured
	for _, tc := range []struct {
		warmup, duration, overhead time.Duration
		want                       time.Duration
	}{
		{2 * time.Second, 3 * time.Second, 500 * time.Millisecond, 78 * time.Second}, // 12 + 54 + 12
		{0, time.Second, 0, 18 * time.Second},
		{time.Second, 0, 0, 6 * time.Second},
		{0, 0, time.Second, 24 * time.Second},
	} {
		if got := Estimate(steps, tc.warmup, tc.duration, tc.overhead); got != tc.want {
			t.Errorf("Estimate(warmup %v, duration %v, overhead %v) = %v, want %v",
				tc.warmup, tc.duration, tc.overhead, got, tc.want)
		}
	}
	if got := Estimate(nil, time.Second, time.Second, time.Second); got != 0 {
		t.Errorf("Estimate(nil) = %v, want 0", got)
	}
}

func TestStepKey(t *testing.T) {
	s := Step{Slot: Slot{Index: 3}, Concurrency: 16, Round: 2, Position: 1}
	if got, want := s.Key(), (sweep.WindowKey{Slot: 3, Concurrency: 16, Round: 2}); got != want {
		t.Errorf("Key = %+v, want %+v", got, want)
	}
}

// TestStarts: one start per slot of a block while it runs, again for a
// later block and, with restarts = "round", for every measured round.
func TestStarts(t *testing.T) {
	a := Slot{Index: 0, Config: "a"}
	b := Slot{Index: 1, Config: "b"}
	c := Slot{Index: 2, Config: "c", Block: 1}
	one := Steps([]Slot{a, b}, []int{1, 4}, 3, 1) // 2 levels × (2 warmups + 3 rounds × 2)
	two := append(append([]Step(nil), one...), Steps([]Slot{c}, []int{1}, 2, 1)...)
	for _, tc := range []struct {
		name   string
		steps  []Step
		rounds bool
		want   int
	}{
		{"one block", one, false, 2},
		// The first level's warmups start both servers; every measured
		// round starts them again; the second level's warmups reuse the
		// last round's (the driver leaves warmups out with restarts =
		// "round").
		{"one block, restarts every round", one, true, 2 + 2*3*2},
		{"two blocks", two, false, 3},
		{"none", nil, false, 0},
	} {
		if got := Starts(tc.steps, tc.rounds); got != tc.want {
			t.Errorf("%s: %d starts, want %d", tc.name, got, tc.want)
		}
	}
}
