package cpuset

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// mask converts the set to the kernel's affinity mask.
func (s Set) mask() unix.CPUSet {
	var m unix.CPUSet
	for _, c := range s {
		m.Set(c)
	}
	return m
}

// PinProcess sets the affinity of every thread of process pid (0 = this
// process) to s. Threads created later inherit the affinity of the thread
// that creates them, so pinning all existing threads pins the process.
func PinProcess(pid int, s Set) error {
	if len(s) == 0 {
		return nil
	}
	dir := "/proc/self/task"
	if pid != 0 {
		dir = "/proc/" + strconv.Itoa(pid) + "/task"
	}
	m := s.mask()
	// Threads may appear while we walk; two passes catch the stragglers.
	for pass := 0; pass < 2; pass++ {
		tids, err := os.ReadDir(dir)
		if err != nil {
			return fmt.Errorf("pinning pid %d to CPUs %s: %w", pid, s, err)
		}
		for _, t := range tids {
			tid, err := strconv.Atoi(t.Name())
			if err != nil {
				continue
			}
			if err := unix.SchedSetaffinity(tid, &m); err != nil && err != unix.ESRCH {
				return fmt.Errorf("pinning thread %d to CPUs %s: %w", tid, s, err)
			}
		}
	}
	return nil
}

// StartPinned starts cmd so that the child is born with affinity s: the
// fork happens on an OS thread that is temporarily pinned to s (a child
// inherits its parent thread's mask), which is then restored. With an empty
// set it is cmd.Start().
func StartPinned(cmd *exec.Cmd, s Set) error { return Start(cmd, s, false) }

// Start is StartPinned, and with batch the child is also born at
// SCHED_BATCH (the fair scheduler without wake-up preemption; every thread
// the child starts inherits it): the forking thread takes that policy for
// the fork and then gets its own back.
func Start(cmd *exec.Cmd, s Set, batch bool) (err error) {
	if len(s) == 0 && !batch {
		return cmd.Start()
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if len(s) > 0 {
		var old unix.CPUSet
		if err := unix.SchedGetaffinity(0, &old); err != nil {
			return fmt.Errorf("reading affinity: %w", err)
		}
		m := s.mask()
		if err := unix.SchedSetaffinity(0, &m); err != nil {
			return fmt.Errorf("pinning to CPUs %s: %w", s, err)
		}
		defer func() {
			if e := unix.SchedSetaffinity(0, &old); e != nil && err == nil {
				err = fmt.Errorf("restoring affinity: %w", e)
			}
		}()
	}
	if batch {
		old, e := unix.SchedGetAttr(0, 0) // not err: the deferred restore below must set the result
		if e != nil {
			return fmt.Errorf("reading the scheduling policy: %w", e)
		}
		if err := unix.SchedSetAttr(0, &unix.SchedAttr{Policy: unix.SCHED_BATCH, Nice: old.Nice}, 0); err != nil {
			return fmt.Errorf("setting SCHED_BATCH: %w", err)
		}
		defer func() {
			if e := unix.SchedSetAttr(0, old, 0); e != nil && err == nil {
				err = fmt.Errorf("restoring the scheduling policy: %w", e)
			}
		}()
	}
	return cmd.Start()
}

// Allowed reads back the affinity of process pid (0 = self) from
// /proc/PID/status (Cpus_allowed_list), the kernel's own record.
func Allowed(pid int) (Set, error) {
	p := "/proc/self/status"
	if pid != 0 {
		p = filepath.Join("/proc", strconv.Itoa(pid), "status")
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, fmt.Errorf("reading affinity of pid %d: %w", pid, err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "Cpus_allowed_list:"); ok {
			return Parse(v)
		}
	}
	return nil, fmt.Errorf("reading affinity of pid %d: no Cpus_allowed_list in %s", pid, p)
}
