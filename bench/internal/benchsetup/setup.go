// Package benchsetup is the start-up the side-by-side bench programs
// (floor, loadcmp, interleave) share: their -c list of concurrency levels,
// and pinning themselves to the load CPUs the way the sweep driver does.
package benchsetup

import (
	"fmt"
	"runtime"
	"strconv"
	"strings"

	"github.com/sweep-dev/sweep/sweep/cpuset"
)

// Levels parses a -c flag: comma-separated positive integers.
func Levels(list string) ([]int, error) {
	var levels []int
	for _, f := range strings.Split(list, ",") {
		c, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || c < 1 {
			return nil, fmt.Errorf("-c %q: want positive integers, e.g. 1,16", list)
		}
		levels = append(levels, c)
	}
	return levels, nil
}

// Pin parses -server-cpus and -load-cpus, pins this process to the load
// CPUs and sets GOMAXPROCS to procs, or to the number of load CPUs when
// procs is 0 (what the driver does). It returns the server CPUs (to start
// servers on) and the load CPUs.
func Pin(serverList, loadList string, procs int) (server, load cpuset.Set, err error) {
	if server, err = cpuset.Parse(serverList); err != nil {
		return nil, nil, fmt.Errorf("-server-cpus: %w", err)
	}
	if load, err = cpuset.Parse(loadList); err != nil {
		return nil, nil, fmt.Errorf("-load-cpus: %w", err)
	}
	if err := cpuset.PinProcess(0, load); err != nil {
		return nil, nil, fmt.Errorf("pinning to -load-cpus %s: %w", load, err)
	}
	if procs <= 0 {
		procs = len(load)
	}
	if procs > 0 {
		runtime.GOMAXPROCS(procs)
	}
	return server, load, nil
}
