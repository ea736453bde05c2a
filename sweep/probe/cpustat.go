package probe

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// procStat is the file ReadCPUTimes reads; tests point it at fixtures.
var procStat = "/proc/stat"

// CPUTimes is what a set of CPUs did with their time, summed over the set,
// from the per-CPU lines of /proc/stat (shown in 10 ms ticks).
//
// Idle is idle plus iowait: time nothing on this machine wanted the CPU.
// Steal is time a virtual CPU was ready to run while the hypervisor ran
// something else: on a shared VM it is the machine's own noise, invisible
// to every per-process clock; 0 on bare metal and on hypervisors that do
// not report it. Both are precise counters (a tickless kernel measures
// idle time at every idle entry and exit, and adds steal up from the
// hypervisor's steal clock), unlike the busy columns, which it samples at
// ticks and undercounts; so busy time is best taken as wall − idle − steal.
type CPUTimes struct {
	Idle, Steal time.Duration
}

// Sub returns t − u.
func (t CPUTimes) Sub(u CPUTimes) CPUTimes {
	return CPUTimes{Idle: t.Idle - u.Idle, Steal: t.Steal - u.Steal}
}

// Add adds u to t (the pieces of a sliced window).
func (t *CPUTimes) Add(u CPUTimes) {
	t.Idle += u.Idle
	t.Steal += u.Steal
}

// ReadCPUTimes reads /proc/stat once and returns the times of each given
// set of CPUs, in order (all CPUs for an empty set). It fails when the
// file cannot be read or lacks one of the CPUs.
func ReadCPUTimes(sets ...[]int) ([]CPUTimes, error) {
	b, err := os.ReadFile(procStat)
	if err != nil {
		return nil, fmt.Errorf("probe: %w", err)
	}
	out := make([]CPUTimes, len(sets))
	for i, cpus := range sets {
		if out[i], err = parseCPUTimes(procStat, b, cpus); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func parseCPUTimes(p string, b []byte, cpus []int) (CPUTimes, error) {
	want := map[string]bool{}
	for _, c := range cpus {
		want["cpu"+strconv.Itoa(c)] = true
	}
	if len(cpus) == 0 {
		want["cpu"] = true // the line that sums all CPUs
	}
	var t CPUTimes
	found := 0
	for line := range bytes.Lines(b) {
		f := strings.Fields(string(line))
		if len(f) == 0 || !want[f[0]] {
			continue
		}
		// cpuN user nice system idle iowait irq softirq steal [guest guest_nice]
		const idle, iowait, steal = 4, 5, 8
		if len(f) <= steal {
			return CPUTimes{}, fmt.Errorf("probe: %s: %s has %d times, want at least %d", p, f[0], len(f)-1, steal)
		}
		var v [3]int64
		for i, field := range []int{idle, iowait, steal} {
			n, err := strconv.ParseInt(f[field], 10, 64)
			if err != nil {
				return CPUTimes{}, fmt.Errorf("probe: %s: %s field %d: %w", p, f[0], field, err)
			}
			v[i] = n
		}
		t.Idle += time.Duration(v[0]+v[1]) * clockTick
		t.Steal += time.Duration(v[2]) * clockTick
		found++
	}
	if found != len(want) {
		return CPUTimes{}, fmt.Errorf("probe: %s: found %d of the %d CPU lines wanted (CPUs %v)", p, found, len(want), cpus)
	}
	return t, nil
}

// Share is d as a share of n CPUs' time over wall, 0 when wall or n is
// not positive.
func Share(d, wall time.Duration, n int) float64 {
	if wall <= 0 || n <= 0 {
		return 0
	}
	return float64(d) / (float64(wall) * float64(n))
}
