package driver

import (
	"os"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/config"
	"github.com/sweep-dev/sweep/sweep/cpuset"
	"golang.org/x/sys/unix"
)

// Environment describes this machine and the pinning actually in force for
// the driver (read back from the kernel).
func Environment(c *config.Config) sweep.Environment {
	e := sweep.Environment{
		Cores:           runtime.NumCPU(),
		GoVersion:       runtime.Version(),
		WasmtimeVersion: wasmtimeVersion(),
		SweepVersion:    sweepVersion(),
		Target:          c.Target.Kind,
		ServerCPUs:      c.Run.ServerCPUs.String(),
		LoadCPUs:        c.Run.LoadCPUs.String(),
		CPURule:         c.Run.CPURule,
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
	return e
}

// wasmtimeVersion is the wasmtime-go module version this binary was built
// with (its major.minor.patch follow Wasmtime's).
func wasmtimeVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	for _, m := range bi.Deps {
		if strings.HasPrefix(m.Path, "github.com/bytecodealliance/wasmtime-go") {
			return strings.TrimPrefix(m.Version, "v")
		}
	}
	return ""
}

// sweepVersion is this binary's module version and, when it was built
// from a Git checkout, the commit ("(devel) 34a1c78", "+dirty" when the
// tree had uncommitted changes): what a cross-run check names when two
// runs were made by different builds of sweep.
func sweepVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	v := bi.Main.Version
	var rev, dirty string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "+dirty"
			}
		}
	}
	if len(rev) > 7 {
		rev = rev[:7]
	}
	if rev != "" {
		v = strings.TrimSpace(v + " " + rev + dirty)
	}
	return v
}
