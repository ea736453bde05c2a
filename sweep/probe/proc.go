package probe

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// clockTick is the length of one /proc/PID/stat clock tick. Linux reports
// utime/stime in USER_HZ units, which is 100 on every architecture Go
// supports (sysconf(_SC_CLK_TCK) returns that constant; Go has no sysconf).
const clockTick = 10 * time.Millisecond

type stat struct {
	cpu       time.Duration // utime + stime
	user, sys time.Duration // utime, stime
	minflt    int64
}

// readStat parses /proc/PID/stat. The command name (field 2) is in
// parentheses and may itself contain spaces and parentheses, so fields are
// counted from the last ')'.
func readStat(pid int) (stat, error) {
	p := "/proc/" + strconv.Itoa(pid) + "/stat"
	b, err := readProc(pid, p)
	if err != nil {
		return stat{}, err
	}
	return parseStat(p, b)
}

func parseStat(p string, b []byte) (stat, error) {
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return stat{}, fmt.Errorf("probe: %s: no command name in %q", p, b)
	}
	f := strings.Fields(string(b[i+1:]))
	// f[0] is field 3 (state); minflt is field 10, utime 14, stime 15.
	const first = 3
	if len(f) < 15-first+1 {
		return stat{}, fmt.Errorf("probe: %s: %d fields, want at least 15", p, len(f)+first-1)
	}
	var v [3]int64
	for j, field := range []int{10, 14, 15} {
		n, err := strconv.ParseInt(f[field-first], 10, 64)
		if err != nil {
			return stat{}, fmt.Errorf("probe: %s: field %d: %w", p, field, err)
		}
		v[j] = n
	}
	return stat{minflt: v[0], cpu: time.Duration(v[1]+v[2]) * clockTick,
		user: time.Duration(v[1]) * clockTick, sys: time.Duration(v[2]) * clockTick}, nil
}

// readRSS returns resident pages (field 2 of /proc/PID/statm) in bytes.
func readRSS(pid int) (int64, error) {
	p := "/proc/" + strconv.Itoa(pid) + "/statm"
	b, err := readProc(pid, p)
	if err != nil {
		return 0, err
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0, fmt.Errorf("probe: %s: %q has no resident field", p, b)
	}
	pages, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("probe: %s: resident: %w", p, err)
	}
	return pages * int64(os.Getpagesize()), nil
}

// readCtxSwitches sums voluntary_ctxt_switches and
// nonvoluntary_ctxt_switches over the live threads of pid. A thread that
// exits between listing and reading is skipped.
func readCtxSwitches(pid int) (vol, invol int64, err error) {
	dir := "/proc/" + strconv.Itoa(pid) + "/task"
	tasks, err := os.ReadDir(dir)
	if err != nil {
		return 0, 0, procErr(pid, err)
	}
	for _, t := range tasks {
		p := dir + "/" + t.Name() + "/status"
		b, err := os.ReadFile(p)
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, unix.ESRCH) {
			continue
		}
		if err != nil {
			return 0, 0, fmt.Errorf("probe: %w", err)
		}
		v, n, err := parseCtxSwitches(p, b)
		if err != nil {
			return 0, 0, err
		}
		vol += v
		invol += n
	}
	return vol, invol, nil
}

func parseCtxSwitches(p string, b []byte) (vol, invol int64, err error) {
	found := 0
	for _, line := range strings.Split(string(b), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		var dst *int64
		switch k {
		case "voluntary_ctxt_switches":
			dst = &vol
		case "nonvoluntary_ctxt_switches":
			dst = &invol
		default:
			continue
		}
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if err != nil {
			return 0, 0, fmt.Errorf("probe: %s: %s: %w", p, k, err)
		}
		*dst = n
		found++
	}
	if found != 2 {
		return 0, 0, fmt.Errorf("probe: %s: no voluntary_ctxt_switches/nonvoluntary_ctxt_switches lines", p)
	}
	return vol, invol, nil
}

func readProc(pid int, p string) ([]byte, error) {
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, procErr(pid, err)
	}
	return b, nil
}

// procErr wraps ErrNoProcess when pid's /proc entry is gone.
func procErr(pid int, err error) error {
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, unix.ESRCH) {
		return fmt.Errorf("probe: process %d: %w (%v)", pid, ErrNoProcess, err)
	}
	return fmt.Errorf("probe: process %d: %w", pid, err)
}
