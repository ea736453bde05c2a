package awake

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/sweep-dev/sweep/sweep/cpuset"
	"golang.org/x/sys/unix"
)

// TestMain lets the test binary stand in for the sweep binary: run with
// the subcommand as its first argument, it is a spinner.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == Subcommand {
		os.Exit(Main(os.Args[2:], os.Stderr))
	}
	os.Exit(m.Run())
}

// TestSpinners starts real spinners and checks what the driver relies on:
// each is pinned to its CPU, runs at SCHED_IDLE, uses CPU time while its
// CPU has nothing else to do, and is gone after Stop.
func TestSpinners(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	online, err := cpuset.Online()
	if err != nil {
		t.Fatal(err)
	}
	cpus := online[:min(2, len(online))]
	s, err := Start(exe, cpus, cpus[:1]) // a CPU named twice gets one spinner
	if err != nil {
		t.Fatal(err)
	}
	defer s.Stop()
	if got := s.CPUs(); got.String() != cpus.String() {
		t.Errorf("CPUs() = %s, want %s", got, cpus)
	}
	var pids []int
	for _, cpu := range cpus {
		pid := s.pid(cpu)
		pids = append(pids, pid)
		a, err := unix.SchedGetAttr(pid, 0)
		if err != nil {
			t.Fatal(err)
		}
		if a.Policy != unix.SCHED_IDLE {
			t.Errorf("spinner of CPU %d: policy %d, want SCHED_IDLE (%d)", cpu, a.Policy, unix.SCHED_IDLE)
		}
		if got, err := cpuset.Allowed(pid); err != nil || got.String() != (cpuset.Set{cpu}).String() {
			t.Errorf("spinner of CPU %d: affinity %s (%v), want %d", cpu, got, err, cpu)
		}
	}
	if s.pid(1<<20) != 0 {
		t.Error("PID of a CPU without a spinner is not 0")
	}
	before, err := s.CPU(cpus)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond) // this test sleeps: the CPUs are free
	after, err := s.CPU(cpus)
	if err != nil {
		t.Fatal(err)
	}
	// Loose on purpose: other tests may be running; a spinner that does
	// not spin at all would show ~0.
	if used := after - before; used < 30*time.Millisecond {
		t.Errorf("spinners used %v of CPU over 300 ms of free CPUs; want them spinning", used)
	}
	if none, err := s.CPU(nil); err != nil || none != 0 {
		t.Errorf("CPU(nil) = %v, %v; want 0, nil", none, err)
	}
	s.Stop()
	s.Stop() // twice is fine
	for _, pid := range pids {
		if err := unix.Kill(pid, 0); err == nil {
			t.Errorf("spinner %d still alive after Stop", pid)
		}
	}
	if _, err := s.CPU(cpus); err == nil || !strings.Contains(err.Error(), "exited") {
		t.Errorf("CPU after Stop: err = %v, want one saying the spinner exited", err)
	}
}

func TestStartNoCPUs(t *testing.T) {
	if _, err := Start("/nonexistent", nil); err == nil {
		t.Error("Start with no CPUs: no error")
	}
}

func TestStartBadBinary(t *testing.T) {
	_, err := Start("/nonexistent/sweep", cpuset.Set{0})
	if err == nil || !strings.Contains(err.Error(), "CPU 0") {
		t.Errorf("Start(missing binary) err = %v, want one naming CPU 0", err)
	}
}

// TestSpinStops: Spin returns when its context ends and when its parent is
// gone, within its 100 ms check.
func TestSpinStops(t *testing.T) {
	for _, tc := range []struct {
		name   string
		ctx    func() (context.Context, context.CancelFunc)
		parent func() bool
	}{
		{"context", func() (context.Context, context.CancelFunc) {
			return context.WithTimeout(context.Background(), 150*time.Millisecond)
		}, func() bool { return true }},
		{"parent", func() (context.Context, context.CancelFunc) {
			return context.WithCancel(context.Background())
		}, func() bool { return false }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := tc.ctx()
			defer cancel()
			done := make(chan struct{})
			go func() { Spin(ctx, tc.parent); close(done) }()
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				t.Fatal("Spin did not return within 5 s")
			}
		})
	}
}

func TestMainUsage(t *testing.T) {
	for _, args := range [][]string{nil, {"-cpu", "-1"}, {"-cpu", "0", "extra"}, {"-bogus"}} {
		var b strings.Builder
		if code := Main(args, &b); code != 2 {
			t.Errorf("Main(%q) = %d, want 2 (stderr %q)", args, code, b.String())
		}
	}
}
