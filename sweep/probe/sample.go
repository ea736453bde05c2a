package probe

import (
	"errors"
	"fmt"
	"time"

	"golang.org/x/sys/unix"
)

// Sources of a CPU reading.
const (
	SourceClock    = "clock"     // process CPU clock, nanoseconds
	SourceProcStat = "proc_stat" // /proc/PID/stat utime+stime, clock ticks
)

// ErrNoProcess is wrapped when the process does not exist (any more).
var ErrNoProcess = errors.New("no such process")

// Sample is one reading of a process.
type Sample struct {
	Mono    time.Duration // CLOCK_MONOTONIC at the reading
	CPU     time.Duration // user+system CPU of all threads, exited ones included
	Source  string        // SourceClock or SourceProcStat: where CPU came from
	StatCPU time.Duration // utime+stime from /proc/PID/stat (tick resolution), always read
	// StatUser and StatSys are utime and stime of /proc/PID/stat: the
	// process's CPU time in user mode and in the kernel, all threads,
	// exited ones included, in clock ticks (10 ms). The kernel scales
	// them so that they add up to its precise runtime (cputime_adjust)
	// and splits that by where its ticks found the threads, so the split
	// is a sample: good over many ticks, not within one.
	StatUser, StatSys time.Duration
	RSSBytes          int64 // resident set size (/proc/PID/statm)
	// MinorFaults is minflt of /proc/PID/stat: the whole process, exited
	// threads included, children excluded.
	MinorFaults int64
	// VolCtxSwitches and InvolCtxSwitches are summed over the threads alive
	// at the reading (/proc/PID/task/*/status). The kernel keeps the counts
	// of exited threads only for getrusage(RUSAGE_SELF), which cannot be
	// asked about another process, so a thread that exits during a window
	// takes its switches with it and the delta can undercount (or, in a
	// pathological case, go negative).
	VolCtxSwitches, InvolCtxSwitches int64
}

// Read samples process pid. It fails, wrapping ErrNoProcess, when the
// process is gone.
func Read(pid int) (Sample, error) {
	return read(pid, true)
}

// read is Read; useClock=false forces the /proc/PID/stat fallback.
func read(pid int, useClock bool) (Sample, error) {
	if pid <= 0 {
		return Sample{}, fmt.Errorf("probe: invalid pid %d", pid)
	}
	var s Sample
	mono, err := clock(unix.CLOCK_MONOTONIC)
	if err != nil {
		return s, fmt.Errorf("probe: reading monotonic clock: %w", err)
	}
	s.Mono = mono
	st, err := readStat(pid)
	if err != nil {
		return s, err
	}
	s.StatCPU, s.MinorFaults = st.cpu, st.minflt
	s.StatUser, s.StatSys = st.user, st.sys
	s.CPU, s.Source = st.cpu, SourceProcStat
	if useClock {
		// A zombie or a kernel without per-process clocks fails here; the
		// ticks read above stand in.
		if c, err := clock(processClock(pid)); err == nil {
			s.CPU, s.Source = c, SourceClock
		}
	}
	if s.RSSBytes, err = readRSS(pid); err != nil {
		return s, err
	}
	if s.VolCtxSwitches, s.InvolCtxSwitches, err = readCtxSwitches(pid); err != nil {
		return s, err
	}
	return s, nil
}

// Self returns the CPU time (user+system, all threads) of this process.
func Self() (time.Duration, error) {
	d, err := clock(unix.CLOCK_PROCESS_CPUTIME_ID)
	if err != nil {
		return 0, fmt.Errorf("probe: reading own CPU clock: %w", err)
	}
	return d, nil
}

// processClock is the clock id of the CPU clock of process pid, as the
// kernel's MAKE_PROCESS_CPUCLOCK(pid, CPUCLOCK_SCHED) builds it:
// (~pid << 3) | 2. Bit 2 clear selects the whole thread group (all threads,
// exited ones included); CPUCLOCK_SCHED counts scheduler runtime in ns.
func processClock(pid int) int32 {
	const cpuclockSched = 2
	return (^int32(pid))<<3 | cpuclockSched
}

func clock(id int32) (time.Duration, error) {
	var ts unix.Timespec
	if err := unix.ClockGettime(id, &ts); err != nil {
		return 0, err
	}
	return time.Duration(ts.Nano()), nil
}

// Delta is what happened to a process between two samples.
type Delta struct {
	Wall, CPU        time.Duration
	Source           string        // SourceClock when both samples had it, else SourceProcStat
	User, Sys        time.Duration // utime and stime deltas (ticks): the split of CPU
	MinorFaults      int64
	VolCtxSwitches   int64
	InvolCtxSwitches int64
	RSSBytes         int64 // at the end
}

// Diff returns after − before. CPU comes from the process clock when both
// samples read it, otherwise from the /proc ticks of both, so a delta never
// mixes sources.
func Diff(before, after Sample) Delta {
	d := Delta{
		Wall:             after.Mono - before.Mono,
		CPU:              after.StatCPU - before.StatCPU,
		Source:           SourceProcStat,
		User:             after.StatUser - before.StatUser,
		Sys:              after.StatSys - before.StatSys,
		MinorFaults:      after.MinorFaults - before.MinorFaults,
		VolCtxSwitches:   after.VolCtxSwitches - before.VolCtxSwitches,
		InvolCtxSwitches: after.InvolCtxSwitches - before.InvolCtxSwitches,
		RSSBytes:         after.RSSBytes,
	}
	if before.Source == SourceClock && after.Source == SourceClock {
		d.CPU, d.Source = after.CPU-before.CPU, SourceClock
	}
	return d
}

// Add accumulates e into d, for a window measured in slices: durations and
// counts are summed, RSSBytes is e's (the latest), and Source stays
// SourceClock only while every slice had it.
func (d *Delta) Add(e Delta) {
	if d.Source == "" || e.Source != SourceClock {
		d.Source = e.Source
	}
	d.Wall += e.Wall
	d.CPU += e.CPU
	d.User += e.User
	d.Sys += e.Sys
	d.MinorFaults += e.MinorFaults
	d.VolCtxSwitches += e.VolCtxSwitches
	d.InvolCtxSwitches += e.InvolCtxSwitches
	d.RSSBytes = e.RSSBytes
}

// CPU returns the CPU time of process pid (all threads) from its CPU
// clock: one system call, for readings that need nothing else.
func CPU(pid int) (time.Duration, error) {
	if pid <= 0 {
		return 0, fmt.Errorf("probe: invalid pid %d", pid)
	}
	d, err := clock(processClock(pid))
	if err != nil {
		return 0, procErr(pid, err)
	}
	return d, nil
}
