package driver

import (
	"os"
	"runtime"
	"strings"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/config"
	"github.com/sweep-dev/sweep/sweep/cpuset"
	"github.com/sweep-dev/sweep/sweep/probe"
	"github.com/sweep-dev/sweep/sweep/version"
	"github.com/sweep-dev/sweep/sweep/wasmhost"
	"golang.org/x/sys/unix"
)

// Environment describes this machine and the pinning actually in force for
// the driver (read back from the kernel).
func Environment(c *config.Config) sweep.Environment {
	e := sweep.Environment{
		Cores:           runtime.NumCPU(),
		GoVersion:       runtime.Version(),
		WasmtimeVersion: version.Wasmtime(),
		SweepVersion:    version.Sweep(),
		Target:          c.Target.Kind,
		ServerCPUs:      c.Run.ServerCPUs.String(),
		LoadCPUs:        c.Run.LoadCPUs.String(),
		CPURule:         c.Run.CPURule,
		ServerCPUsAxis:  c.Run.PointCPUs != nil,
		ShareCPUs:       c.Run.ShareCPUs,
	}
	if c.Run.ServerSched != sweep.SchedOther {
		e.ServerSched = c.Run.ServerSched
	}
	e.Host, _ = os.Hostname()
	var u unix.Utsname
	if unix.Uname(&u) == nil {
		e.Kernel = unix.ByteSliceToString(u.Sysname[:]) + " " + unix.ByteSliceToString(u.Release[:])
	}
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				e.CPUModel = strings.TrimSpace(v)
				break
			}
		}
	}
	if s, err := cpuset.Allowed(0); err == nil {
		e.LoadPinned = s.String()
	}
	if ok, err := probe.PagemapScan(); err == nil {
		e.PagemapScan = &ok
	}
	if c.Target.Kind == sweep.TargetBuiltin {
		on := wasmhost.PagemapScan
		e.EnginePagemapScan = &on
	}
	return e
}
