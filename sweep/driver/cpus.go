package driver

import (
	"time"

	"github.com/sweep-dev/sweep/sweep/cpuset"
	"github.com/sweep-dev/sweep/sweep/probe"
)

// cpuReading is one reading of /proc/stat for a slot's window: the times
// of its server CPUs, of the load CPUs, and of both together (all CPUs
// for a side that is not pinned), and when. A spinner's CPU time counts
// as idle time of its CPU: a spinner runs only when its CPU has nothing
// else to do.
type cpuReading struct {
	server, load, both probe.CPUTimes
	at                 time.Time
}

// readCPUTimes reads /proc/stat for a slot whose servers run on srv.
func (r *runner) readCPUTimes(srv cpuset.Set) (cpuReading, error) {
	at := time.Now()
	ld := r.c.Run.LoadCPUs
	both := cpuset.Union(srv, ld)
	if len(srv) == 0 || len(ld) == 0 {
		both = nil // a side not pinned: all CPUs
	}
	ts, err := probe.ReadCPUTimes(srv, ld, both)
	if err != nil {
		return cpuReading{at: at}, err
	}
	if r.awake != nil {
		spun := map[int]time.Duration{}
		for _, cpu := range r.awake.CPUs() {
			d, err := r.awake.CPU([]int{cpu})
			if err != nil {
				return cpuReading{at: at}, err
			}
			spun[cpu] = d
		}
		for i, set := range []cpuset.Set{srv, ld, both} {
			for _, cpu := range set {
				ts[i].Idle += spun[cpu]
			}
		}
	}
	return cpuReading{server: ts[0], load: ts[1], both: ts[2], at: at}, nil
}

// sub returns the times of a piece: r − earlier.
func (c cpuReading) sub(earlier cpuReading) cpuReading {
	return cpuReading{server: c.server.Sub(earlier.server), load: c.load.Sub(earlier.load),
		both: c.both.Sub(earlier.both), at: earlier.at}
}

// otherWork is the share of n CPUs' time over wall that went to work other
// than own (the CPU time of sweep's processes there): wall·n − idle −
// steal − own, over wall·n. Spinners count as idle (readCPUTimes).
func otherWork(t probe.CPUTimes, wall time.Duration, n int, own time.Duration) float64 {
	if wall <= 0 || n <= 0 {
		return 0
	}
	total := wall * time.Duration(n)
	return float64(total-t.Idle-t.Steal-own) / float64(total)
}

// readIPIs reads the TLB shootdowns and function call interrupts a
// slot's server CPUs (srv; all CPUs when not pinned) have taken since
// boot; ok is false when /proc/interrupts cannot be read or lacks either
// line.
func readIPIs(srv cpuset.Set) (tlb, cal int64, ok bool) {
	x, err := probe.ReadIPIs()
	if err != nil {
		return 0, 0, false
	}
	return x.Sum(srv)
}

// loadBusy is the share of the time the hypervisor gave the load CPUs
// that they spent busy: (1 − idle − steal) / (1 − steal).
func loadBusy(idle, steal float64) float64 {
	if steal >= 1 {
		return 1
	}
	return (1 - idle - steal) / (1 - steal)
}

// loadCPUs is the number of CPUs the generator may use.
func (r *runner) loadCPUs() int { return countCPUs(r.c.Run.LoadCPUs) }

// countCPUs is len(set), or the number of online CPUs for an empty set.
func countCPUs(set cpuset.Set) int {
	if n := len(set); n > 0 {
		return n
	}
	if online, err := cpuset.Online(); err == nil && len(online) > 0 {
		return len(online)
	}
	return 1
}
