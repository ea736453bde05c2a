package probe

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Memory is a reading of a process's memory from /proc/PID/status, in
// bytes: the resident set (VmRSS), its high-water mark (VmHWM, since the
// process started or since ResetPeak) and the reserved address space
// (VmSize).
type Memory struct {
	RSS, Peak, Size int64
}

// ReadMemory reads pid's Memory. It fails, wrapping ErrNoProcess, when the
// process is gone.
func ReadMemory(pid int) (Memory, error) {
	if pid <= 0 {
		return Memory{}, fmt.Errorf("probe: invalid pid %d", pid)
	}
	p := "/proc/" + strconv.Itoa(pid) + "/status"
	b, err := readProc(pid, p)
	if err != nil {
		return Memory{}, err
	}
	return parseMemory(p, b)
}

// parseMemory reads the VmRSS, VmHWM and VmSize lines ("VmRSS:  1234 kB")
// of a /proc/PID/status file p.
func parseMemory(p string, b []byte) (Memory, error) {
	var m Memory
	want := map[string]*int64{"VmRSS": &m.RSS, "VmHWM": &m.Peak, "VmSize": &m.Size}
	found := 0
	for _, line := range strings.Split(string(b), "\n") {
		k, v, ok := strings.Cut(line, ":")
		dst := want[k]
		if !ok || dst == nil {
			continue
		}
		f := strings.Fields(v)
		if len(f) != 2 || f[1] != "kB" {
			return Memory{}, fmt.Errorf("probe: %s: %s: %q is not a size in kB", p, k, strings.TrimSpace(v))
		}
		n, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return Memory{}, fmt.Errorf("probe: %s: %s: %w", p, k, err)
		}
		*dst = n << 10
		found++
	}
	if found != len(want) {
		return Memory{}, fmt.Errorf("probe: %s: no VmRSS, VmHWM and VmSize lines (a kernel thread or a zombie?)", p)
	}
	return m, nil
}

// ResetPeak resets pid's resident high-water mark (VmHWM) to its current
// resident set: "5" written to /proc/PID/clear_refs (Linux ≥ 4.0). It
// needs the right to write there: the process's owner or CAP_SYS_PTRACE.
func ResetPeak(pid int) error {
	if pid <= 0 {
		return fmt.Errorf("probe: invalid pid %d", pid)
	}
	p := "/proc/" + strconv.Itoa(pid) + "/clear_refs"
	if err := os.WriteFile(p, []byte("5"), 0); err != nil {
		return procErr(pid, err)
	}
	return nil
}
