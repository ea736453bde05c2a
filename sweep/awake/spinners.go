package awake

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"syscall"
	"time"

	"github.com/sweep-dev/sweep/sweep/cpuset"
	"github.com/sweep-dev/sweep/sweep/probe"
	"golang.org/x/sys/unix"
)

// Spinners are the running spinner processes, one per CPU.
type Spinners struct {
	cpus  cpuset.Set        // ascending
	procs map[int]*exec.Cmd // by CPU
	done  map[int]chan struct{}
}

// Start starts one spinner per CPU of the given sets (each CPU once):
// `exe awake -cpu N`, born pinned to CPU N (exe is the sweep binary). The
// spinners are killed when the process that started them dies; Stop ends
// them before that. On failure the spinners already started are stopped.
func Start(exe string, sets ...cpuset.Set) (*Spinners, error) {
	var cpus cpuset.Set
	for _, set := range sets {
		cpus = append(cpus, set...)
	}
	slices.Sort(cpus)
	cpus = slices.Compact(cpus)
	if len(cpus) == 0 {
		return nil, errors.New("awake: no CPUs to keep awake")
	}
	s := &Spinners{cpus: cpus, procs: map[int]*exec.Cmd{}, done: map[int]chan struct{}{}}
	for _, cpu := range cpus {
		cmd := exec.Command(exe, Subcommand, "-cpu", strconv.Itoa(cpu))
		cmd.Stderr = os.Stderr
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
		if err := cpuset.StartPinned(cmd, cpuset.Set{cpu}); err != nil {
			s.Stop()
			return nil, fmt.Errorf("awake: starting the spinner of CPU %d: %w", cpu, err)
		}
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		s.procs[cpu], s.done[cpu] = cmd, done
		if err := s.lowered(cpu); err != nil {
			s.Stop()
			return nil, err
		}
	}
	return s, nil
}

// lowered waits (at most 2 s) until cpu's spinner runs at SCHED_IDLE: a
// spinner at normal priority would take CPU time from the servers.
func (s *Spinners) lowered(cpu int) error {
	pid := s.procs[cpu].Process.Pid
	deadline := time.Now().Add(2 * time.Second)
	for {
		a, err := unix.SchedGetAttr(pid, 0)
		if err == nil && a.Policy == unix.SCHED_IDLE {
			return nil
		}
		select {
		case <-s.done[cpu]:
			return fmt.Errorf("awake: the spinner of CPU %d exited at start (%v)", cpu, s.procs[cpu].ProcessState)
		case <-time.After(time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("awake: the spinner of CPU %d did not reach SCHED_IDLE within 2 s", cpu)
		}
	}
}

// CPUs returns the CPUs kept awake, ascending.
func (s *Spinners) CPUs() cpuset.Set { return slices.Clone(s.cpus) }

// pid returns the process id of cpu's spinner, or 0.
func (s *Spinners) pid(cpu int) int {
	if cmd, ok := s.procs[cpu]; ok {
		return cmd.Process.Pid
	}
	return 0
}

// CPU returns the CPU time the spinners of the given CPUs have used so far
// (those of other CPUs, or none, add nothing). A spinner runs only when
// its CPU would otherwise be idle, so the difference of two readings is
// idle time of those CPUs. It fails when a spinner has exited.
func (s *Spinners) CPU(cpus []int) (time.Duration, error) {
	var sum time.Duration
	for _, cpu := range cpus {
		cmd, ok := s.procs[cpu]
		if !ok {
			continue
		}
		select {
		case <-s.done[cpu]:
			return 0, fmt.Errorf("awake: the spinner of CPU %d exited (%v)", cpu, cmd.ProcessState)
		default:
		}
		d, err := probe.CPU(cmd.Process.Pid)
		if err != nil {
			return 0, fmt.Errorf("awake: reading the spinner of CPU %d: %w", cpu, err)
		}
		sum += d
	}
	return sum, nil
}

// Stop kills the spinners and waits for them (at most 5 s in all). It is
// safe on a nil *Spinners and more than once.
func (s *Spinners) Stop() {
	if s == nil {
		return
	}
	deadline := time.After(5 * time.Second)
	for cpu, cmd := range s.procs {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		select {
		case <-s.done[cpu]:
		case <-deadline:
		}
	}
}
