package profile

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// UnavailableError says why CPU profiles cannot be recorded here, in one
// line a caller can print once before going on without profiles.
type UnavailableError struct {
	Reason string
	// Err is the underlying failure, if any.
	Err error
}

func (e *UnavailableError) Error() string { return "CPU profiling unavailable: " + e.Reason }

func (e *UnavailableError) Unwrap() error { return e.Err }

// paranoidFile holds the kernel's perf_event_paranoid setting.
const paranoidFile = "/proc/sys/kernel/perf_event_paranoid"

// Check reports whether Record and Convert can work here: perf is on PATH,
// and a real 50 ms system-wide cpu-clock recording succeeds and holds
// samples. The error is an *UnavailableError, or ctx's error when ctx ends
// first. It takes about a second (perf's own start and stop).
func Check(ctx context.Context) error {
	if _, err := exec.LookPath("perf"); err != nil {
		return &UnavailableError{Reason: "perf not found on PATH (install linux-perf)", Err: err}
	}
	dir, err := os.MkdirTemp("", "sweep-profile-check-")
	if err != nil {
		return &UnavailableError{Reason: "no temporary directory: " + err.Error(), Err: err}
	}
	defer os.RemoveAll(dir)
	data := filepath.Join(dir, "perf.data")
	tctx, cancel := context.WithTimeout(ctx, recordOverhead)
	defer cancel()
	_, err = runPerf(tctx, "record", "-q", "-e", "cpu-clock", "-a", "-B", "-N",
		"-o", data, "--", "sleep", "0.05")
	if ctx.Err() != nil {
		return fmt.Errorf("profile: checking perf: %w", ctx.Err())
	}
	if err != nil {
		v, ok := paranoid()
		return &UnavailableError{Reason: recordFailure(err, v, ok, os.Geteuid()), Err: err}
	}
	out, err := runPerf(tctx, "script", "-i", data, "-F", "pid")
	if ctx.Err() != nil {
		return fmt.Errorf("profile: checking perf: %w", ctx.Err())
	}
	if err != nil {
		return &UnavailableError{Reason: "perf script cannot read a recording: " + oneLine(err), Err: err}
	}
	if len(bytes.TrimSpace(out)) == 0 {
		return &UnavailableError{Reason: "a system-wide cpu-clock recording holds no samples"}
	}
	return nil
}

// recordFailure explains a failed test recording: by perf_event_paranoid
// (v, when ok) when that forbids system-wide sampling to a process without
// privileges (euid not 0), else by perf's own first lines.
func recordFailure(err error, v int, ok bool, euid int) string {
	if ok && v > 0 && euid != 0 {
		return fmt.Sprintf("perf_event_paranoid = %d forbids system-wide sampling (run as root, grant CAP_PERFMON, or set it to 0 or less)", v)
	}
	if pe := (*PerfError)(nil); errors.As(err, &pe) && pe.Stderr != "" {
		return "perf record fails: " + pe.Stderr
	}
	return "perf record fails: " + oneLine(err)
}

// paranoid reads perf_event_paranoid.
func paranoid() (int, bool) {
	b, err := os.ReadFile(paranoidFile)
	if err != nil {
		return 0, false
	}
	v, err := strconv.Atoi(strings.TrimSpace(string(b)))
	return v, err == nil
}

// oneLine is err's text up to its first line break.
func oneLine(err error) string {
	s, _, _ := strings.Cut(err.Error(), "\n")
	return s
}
