// Package benchsetup is the start-up the side-by-side bench programs
// (floor, loadcmp, interleave) share: their -c list of concurrency levels,
// pinning themselves to the load CPUs and keeping the CPUs awake the way
// the sweep driver does.
package benchsetup

import (
	"flag"
	"fmt"
	"runtime"
	"strconv"
	"strings"

	"github.com/sweep-dev/sweep/sweep/awake"
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
// CPUs, sets GOMAXPROCS to procs, or to the number of load CPUs when procs
// is 0 (what the driver does), and keeps both sets of CPUs awake with the
// spinners of awakeExe (see AwakeFlag; "" or an unpinned side: none). It
// returns the server CPUs (to start servers on), the load CPUs and the
// function that stops the spinners.
func Pin(serverList, loadList string, procs int, awakeExe string) (server, load cpuset.Set, stop func(), err error) {
	if server, err = cpuset.Parse(serverList); err != nil {
		return nil, nil, nil, fmt.Errorf("-server-cpus: %w", err)
	}
	if load, err = cpuset.Parse(loadList); err != nil {
		return nil, nil, nil, fmt.Errorf("-load-cpus: %w", err)
	}
	if err := cpuset.PinProcess(0, load); err != nil {
		return nil, nil, nil, fmt.Errorf("pinning to -load-cpus %s: %w", load, err)
	}
	if procs <= 0 {
		procs = len(load)
	}
	if procs > 0 {
		runtime.GOMAXPROCS(procs)
	}
	stop = func() {}
	if awakeExe != "" && len(server) > 0 && len(load) > 0 {
		s, err := awake.Start(awakeExe, server, load)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("-awake %s: %w", awakeExe, err)
		}
		stop = s.Stop
	}
	return server, load, stop, nil
}

// AwakeFlag registers -awake: the sweep binary whose spinners keep the
// server and load CPUs awake during the measurement, as the driver does by
// default (run.keep_awake); "" measures with CPUs that may halt.
func AwakeFlag() *string {
	return flag.String("awake", "bin/sweep", "sweep binary whose spinners keep the server and load CPUs awake, as run.keep_awake does; \"\" = none")
}
