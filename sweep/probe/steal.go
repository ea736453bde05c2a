package probe

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// procStat is the file ReadSteal reads; tests point it at fixtures.
var procStat = "/proc/stat"

// ReadSteal returns the steal time of the given CPUs (all CPUs when cpus is
// empty), summed, from the per-CPU lines of /proc/stat: time a virtual CPU
// was ready to run while the hypervisor ran something else. On a shared VM
// it is the machine's own noise, invisible to every per-process clock. The
// kernel adds it up from the hypervisor's steal clock, so it is a precise
// counter shown in 10 ms ticks (unlike the busy columns of /proc/stat,
// which a tickless kernel samples and undercounts). It is 0 on bare metal
// and on hypervisors that do not report it.
func ReadSteal(cpus []int) (time.Duration, error) {
	b, err := os.ReadFile(procStat)
	if err != nil {
		return 0, fmt.Errorf("probe: %w", err)
	}
	return parseSteal(procStat, b, cpus)
}

func parseSteal(p string, b []byte, cpus []int) (time.Duration, error) {
	want := map[string]bool{}
	for _, c := range cpus {
		want["cpu"+strconv.Itoa(c)] = true
	}
	if len(cpus) == 0 {
		want["cpu"] = true // the line that sums all CPUs
	}
	var steal time.Duration
	found := 0
	for line := range bytes.Lines(b) {
		f := strings.Fields(string(line))
		if len(f) == 0 || !want[f[0]] {
			continue
		}
		// cpuN user nice system idle iowait irq softirq steal [guest guest_nice]
		const stealField = 8
		if len(f) <= stealField {
			return 0, fmt.Errorf("probe: %s: %s has %d times, want at least %d", p, f[0], len(f)-1, stealField)
		}
		n, err := strconv.ParseInt(f[stealField], 10, 64)
		if err != nil {
			return 0, fmt.Errorf("probe: %s: %s steal: %w", p, f[0], err)
		}
		steal += time.Duration(n) * clockTick
		found++
	}
	if found != len(want) {
		return 0, fmt.Errorf("probe: %s: found %d of the %d CPU lines wanted (CPUs %v)", p, found, len(want), cpus)
	}
	return steal, nil
}

// StealFraction is the share of n CPUs' time over wall that steal took,
// 0 when wall or n is not positive.
func StealFraction(steal, wall time.Duration, n int) float64 {
	if wall <= 0 || n <= 0 {
		return 0
	}
	return float64(steal) / (float64(wall) * float64(n))
}
