package driver

import (
	"time"

	"github.com/sweep-dev/sweep/sweep/cpuset"
	"github.com/sweep-dev/sweep/sweep/probe"
)

// readCPUTimes reads the /proc/stat times of the server CPUs and of the
// load CPUs (all CPUs for a side that is not pinned), and when. The CPU
// time of the load CPUs' spinners counts as their idle time: a spinner
// runs only when its CPU has nothing else to do.
func (r *runner) readCPUTimes() (server, load probe.CPUTimes, at time.Time, err error) {
	at = time.Now()
	ts, err := probe.ReadCPUTimes(r.c.Run.ServerCPUs, r.c.Run.LoadCPUs)
	if err != nil {
		return server, load, at, err
	}
	if r.awake != nil {
		spun, err := r.awake.CPU(r.c.Run.LoadCPUs)
		if err != nil {
			return server, load, at, err
		}
		ts[1].Idle += spun
	}
	return ts[0], ts[1], at, nil
}

// readIPIs reads the TLB shootdowns and function call interrupts the
// server CPUs (all CPUs when not pinned) have taken since boot; ok is
// false when /proc/interrupts cannot be read or lacks either line.
func (r *runner) readIPIs() (tlb, cal int64, ok bool) {
	x, err := probe.ReadIPIs()
	if err != nil {
		return 0, 0, false
	}
	return x.Sum(r.c.Run.ServerCPUs)
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

// serverCPUs is the number of CPUs the servers may use.
func (r *runner) serverCPUs() int { return countCPUs(r.c.Run.ServerCPUs) }

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
