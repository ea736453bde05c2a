package profile

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// Frequency is the sampling rate Record asks perf for, per CPU, in Hz.
//
// 999 Hz gives about 1000 samples per busy CPU-second: a family holding 5%
// of a 1 s window is then ~50 samples, known to ±15% (Poisson), which is
// enough to rank families; a higher rate costs the profiled CPUs more (each
// sample with a callchain takes a few µs, ~0.3% of a CPU at 999 Hz) and
// makes perf script slower. It is 999, not 1000, so that the sampling timer
// does not run in lockstep with the kernel's 1000 Hz tick and the periodic
// work aligned with it, which would over- or under-sample that work.
const Frequency = 999

// recordOverhead bounds perf record's own start and stop: on the 2-CPU VM
// sweep was built on, recording "sleep 1" system-wide takes ~2.2 s in all
// (synthesizing the mappings of every process, then writing the file).
const recordOverhead = 30 * time.Second

// Record samples the given CPUs (all when cpus is empty) system-wide for d
// with "perf record -e cpu-clock -g -a" at Frequency Hz and writes the
// recording to out. It returns when perf is done, at most d plus a margin
// for perf's own start and stop later, or when ctx ends; the error then
// carries perf's stderr.
//
// Sampling is system-wide because per-process sampling ("-p PID") records
// no samples on some VMs; Convert keeps the samples of one process. Pass
// the server's CPUs so that the load generator's CPUs are not sampled.
// Build ids are not recorded (-B -N, which saves about a second per
// recording): Convert must read the recording while the profiled binaries
// are still in place.
func Record(ctx context.Context, cpus []int, d time.Duration, out string) error {
	if d <= 0 {
		return fmt.Errorf("profile: recording duration %v: want > 0", d)
	}
	args := []string{"record", "-q", "-e", "cpu-clock", "-g", "-a",
		"-F", strconv.Itoa(Frequency), "-B", "-N", "-o", out}
	if len(cpus) > 0 {
		args = append(args, "-C", cpuList(cpus))
	}
	args = append(args, "--", "sleep", strconv.FormatFloat(d.Seconds(), 'f', -1, 64))
	ctx, cancel := context.WithTimeout(ctx, d+recordOverhead)
	defer cancel()
	if _, err := runPerf(ctx, args...); err != nil {
		return fmt.Errorf("profile: recording CPUs %q for %v: %w", cpuList(cpus), d, err)
	}
	return nil
}

// cpuList formats CPU numbers as perf's -C list ("0,1").
func cpuList(cpus []int) string {
	s := make([]string, len(cpus))
	for i, c := range cpus {
		s[i] = strconv.Itoa(c)
	}
	return strings.Join(s, ",")
}

// PerfError is a perf command that failed: its arguments, how it ended and
// the start of its stderr.
type PerfError struct {
	Args   []string
	Err    error
	Stderr string
}

func (e *PerfError) Error() string {
	msg := fmt.Sprintf("perf %s: %v", strings.Join(e.Args, " "), e.Err)
	if e.Stderr != "" {
		msg += ": " + e.Stderr
	}
	return msg
}

func (e *PerfError) Unwrap() error { return e.Err }

// runPerf runs perf with args and returns its stdout. When ctx ends, perf
// gets SIGINT (so that perf record still writes a readable file) and,
// 5 s later, SIGKILL.
func runPerf(ctx context.Context, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "perf", args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 5 * time.Second
	err := cmd.Run()
	if err == nil {
		return stdout.Bytes(), nil
	}
	if ctx.Err() != nil {
		err = fmt.Errorf("%w (%w)", ctx.Err(), err)
	}
	return nil, &PerfError{Args: args, Err: err, Stderr: firstLines(stderr.String(), 3)}
}

// firstLines returns the first n non-empty lines of s, joined by "; ".
func firstLines(s string, n int) string {
	var out []string
	for line := range strings.Lines(s) {
		if line = strings.TrimSpace(line); line != "" && len(out) < n {
			out = append(out, line)
		}
	}
	return strings.Join(out, "; ")
}
