package probe

import (
	"os"
	"path/filepath"
	"slices"
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

func TestParseCPUTimes(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		cpus []int
		want CPUTimes
		err  string
	}{
		{"all CPUs", procStatFixture, nil, CPUTimes{Idle: (36611 + 117) * clockTick, Steal: 6247 * clockTick}, ""},
		{"one CPU", procStatFixture, []int{1}, CPUTimes{Idle: (20830 + 93) * clockTick, Steal: 3690 * clockTick}, ""},
		{"a set", procStatFixture, []int{0, 1}, CPUTimes{Idle: (15781 + 23 + 20830 + 93) * clockTick, Steal: (2557 + 3690) * clockTick}, ""},
		{"missing CPU", procStatFixture, []int{2}, CPUTimes{}, "found 0 of the 1 CPU lines wanted (CPUs [2])"},
		{"old kernel without steal", "cpu0 1 2 3 4 5 6 7\n", []int{0}, CPUTimes{}, "cpu0 has 7 times, want at least 8"},
		{"bad number", "cpu0 1 2 3 4 5 6 7 x 0 0\n", []int{0}, CPUTimes{}, "cpu0 field 8"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseCPUTimes("/proc/stat", []byte(tc.in), tc.cpus)
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

func TestReadCPUTimes(t *testing.T) {
	// The real file: counters that never go back.
	a, err := ReadCPUTimes(nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := ReadCPUTimes(nil)
	if err != nil || b[0].Idle < a[0].Idle || b[0].Steal < a[0].Steal {
		t.Fatalf("times went from %+v to %+v (err %v)", a, b, err)
	}
	if _, err := ReadCPUTimes([]int{0}); err != nil {
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
	want := []CPUTimes{
		{Idle: (15781 + 23) * clockTick, Steal: 2557 * clockTick},
		{Idle: (20830 + 93) * clockTick, Steal: 3690 * clockTick},
	}
	if got, err := ReadCPUTimes([]int{0}, []int{1}); err != nil || !slices.Equal(got, want) {
		t.Fatalf("ReadCPUTimes(cpu0, cpu1) = %+v, %v; want %+v", got, err, want)
	}
	if _, err := ReadCPUTimes([]int{0}, []int{7}); err == nil || !strings.Contains(err.Error(), "CPUs [7]") {
		t.Fatalf("a missing CPU in the second set: err %v", err)
	}
	procStat = filepath.Join(t.TempDir(), "missing")
	if _, err := ReadCPUTimes(nil); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Fatalf("missing file: err %v", err)
	}
}

func TestCPUTimesArithmetic(t *testing.T) {
	a := CPUTimes{Idle: 5 * time.Second, Steal: time.Second}
	b := CPUTimes{Idle: 7 * time.Second, Steal: 3 * time.Second}
	d := b.Sub(a)
	if d != (CPUTimes{Idle: 2 * time.Second, Steal: 2 * time.Second}) {
		t.Fatalf("Sub = %+v", d)
	}
	d.Add(CPUTimes{Idle: time.Second})
	if d != (CPUTimes{Idle: 3 * time.Second, Steal: 2 * time.Second}) {
		t.Fatalf("Add = %+v", d)
	}
}

func TestShare(t *testing.T) {
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
		if got := Share(tc.steal, tc.wall, tc.n); got != tc.want {
			t.Errorf("Share(%v, %v, %d) = %v, want %v", tc.steal, tc.wall, tc.n, got, tc.want)
		}
	}
}
