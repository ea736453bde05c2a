package probe

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// procStatFixture is /proc/stat of a 2-CPU guest (trimmed after cpu1).
const procStatFixture = `cpu  16251 0 16670 36611 117 0 4587 6247 0 0
cpu0 8790 0 10875 15781 23 0 2900 2557 0 0
cpu1 7460 0 5795 20830 93 0 1686 3690 0 0
intr 1 2 3
`

func TestParseSteal(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		cpus []int
		want time.Duration
		err  string
	}{
		{"all CPUs", procStatFixture, nil, 6247 * clockTick, ""},
		{"one CPU", procStatFixture, []int{1}, 3690 * clockTick, ""},
		{"a set", procStatFixture, []int{0, 1}, (2557 + 3690) * clockTick, ""},
		{"missing CPU", procStatFixture, []int{2}, 0, "found 0 of the 1 CPU lines wanted (CPUs [2])"},
		{"old kernel without steal", "cpu0 1 2 3 4 5 6 7\n", []int{0}, 0, "cpu0 has 7 times, want at least 8"},
		{"bad number", "cpu0 1 2 3 4 5 6 7 x 0 0\n", []int{0}, 0, "cpu0 steal"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseSteal("/proc/stat", []byte(tc.in), tc.cpus)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want one containing %q", err, tc.err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("got %v, %v; want %v", got, err, tc.want)
			}
		})
	}
}

func TestReadSteal(t *testing.T) {
	// The real file: a counter that never goes back.
	a, err := ReadSteal(nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := ReadSteal(nil)
	if err != nil || b < a {
		t.Fatalf("steal went from %v to %v (err %v)", a, b, err)
	}
	if _, err := ReadSteal([]int{0}); err != nil {
		t.Fatal(err)
	}

	// A fixture in place of /proc/stat.
	p := filepath.Join(t.TempDir(), "stat")
	if err := os.WriteFile(p, []byte(procStatFixture), 0o600); err != nil {
		t.Fatal(err)
	}
	old := procStat
	procStat = p
	t.Cleanup(func() { procStat = old })
	if got, err := ReadSteal([]int{0}); err != nil || got != 2557*clockTick {
		t.Fatalf("ReadSteal(cpu0) = %v, %v; want %v", got, err, 2557*clockTick)
	}
	procStat = filepath.Join(t.TempDir(), "missing")
	if _, err := ReadSteal(nil); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Fatalf("missing file: err %v", err)
	}
}

func TestStealFraction(t *testing.T) {
	for _, tc := range []struct {
		steal, wall time.Duration
		n           int
		want        float64
	}{
		{100 * time.Millisecond, 2 * time.Second, 1, 0.05},
		{100 * time.Millisecond, 2 * time.Second, 2, 0.025},
		{0, 2 * time.Second, 1, 0},
		{time.Second, 0, 1, 0},
		{time.Second, time.Second, 0, 0},
	} {
		if got := StealFraction(tc.steal, tc.wall, tc.n); got != tc.want {
			t.Errorf("StealFraction(%v, %v, %d) = %v, want %v", tc.steal, tc.wall, tc.n, got, tc.want)
		}
	}
}
