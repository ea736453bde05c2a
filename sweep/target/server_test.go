package target

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sweep-dev/sweep/sweep/cpuset"
	"golang.org/x/sys/unix"
)

// TestReadyLine: the ready line gives the address, which serves; the pid is
// the started process; lines before it stay in the stdout tail.
func TestReadyLine(t *testing.T) {
	s := helper("-ready-line")
	s.ReadyLine = true
	srv := startT(t, s)
	if got := get(t, srv.Addr); got != "ok" {
		t.Errorf("GET %s = %q, want ok", srv.Addr, got)
	}
	if srv.PID != srv.pgid || !alive(srv.PID) {
		t.Errorf("PID %d, started process %d", srv.PID, srv.pgid)
	}
	if !strings.Contains(srv.stdoutTail(), "starting up") {
		t.Errorf("stdout tail %q lacks the line before the ready line", srv.stdoutTail())
	}
	if exited, _ := srv.Exited(); exited {
		t.Error("Exited() = true for a running server")
	}
	if err := srv.Stop(2 * time.Second); err != nil {
		t.Fatal(err)
	}
	exited, status := srv.Exited()
	if !exited || status != "signal: terminated" {
		t.Errorf("after Stop: Exited() = %t, %q; want true, signal: terminated", exited, status)
	}
	if alive(srv.PID) {
		t.Errorf("pid %d still in the process table after Stop", srv.PID)
	}
	if err := srv.Stop(time.Second); err != nil {
		t.Errorf("second Stop: %v", err)
	}
}

// TestReadyURL: a command server that listens only after 300ms on a port
// chosen by FreePort becomes ready by polling.
func TestReadyURL(t *testing.T) {
	port, err := FreePort()
	if err != nil {
		t.Fatal(err)
	}
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	s := helper("-listen", addr, "-delay", "300ms")
	s.ReadyURL = "http://" + addr + "/health"
	srv := startT(t, s)
	if srv.Addr != addr {
		t.Errorf("Addr = %q, want %q", srv.Addr, addr)
	}
	if got := get(t, srv.Addr); got != "ok" {
		t.Errorf("GET = %q", got)
	}
}

// TestNeverReady: readiness is bounded; the error has the stderr tail and
// the process is gone afterwards.
func TestNeverReady(t *testing.T) {
	s := helper("-never-ready")
	s.ReadyLine = true
	s.ReadyTimeout = 700 * time.Millisecond
	_, err := Start(context.Background(), s)
	if !errors.Is(err, ErrNeverReady) {
		t.Fatalf("err = %v, want ErrNeverReady", err)
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, "target never became ready within 700ms: stderr tail:") || !strings.Contains(msg, "still starting") {
		t.Errorf("err = %q", msg)
	}
	pid := pidFrom(t, msg, `helper pid (\d+)`)
	if alive(pid) {
		t.Errorf("never-ready process %d still exists", pid)
	}
}

// TestExitBeforeReady: an early exit is reported with status and stderr.
func TestExitBeforeReady(t *testing.T) {
	s := helper("-crash-before-ready")
	s.ReadyLine = true
	_, err := Start(context.Background(), s)
	if !errors.Is(err, ErrExitedEarly) {
		t.Fatalf("err = %v, want ErrExitedEarly", err)
	}
	for _, want := range []string{"exit status 3", "boom: bad config value"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("err %q lacks %q", err, want)
		}
	}
}

// TestCrashAfterReady: Done closes and Exited reports the status.
func TestCrashAfterReady(t *testing.T) {
	s := helper("-ready-line", "-crash-after", "200ms")
	s.ReadyLine = true
	srv := startT(t, s)
	wait(t, srv.Done(), "the crash")
	exited, status := srv.Exited()
	if !exited || status != "exit status 3" {
		t.Errorf("Exited() = %t, %q; want true, exit status 3", exited, status)
	}
	srv.drain(time.Second)
	if !strings.Contains(srv.StderrTail(), "crashing now") {
		t.Errorf("stderr tail %q lacks the last words", srv.StderrTail())
	}
}

// TestStopKillsGroup: Stop takes the server's own children with it.
func TestStopKillsGroup(t *testing.T) {
	s := helper("-ready-line", "-grandchild")
	s.ReadyLine = true
	srv := startT(t, s)
	gc := pidFrom(t, waitTail(t, srv, "grandchild pid"), `grandchild pid (\d+)`)
	if !alive(gc) {
		t.Fatalf("grandchild %d not running", gc)
	}
	if err := srv.Stop(2 * time.Second); err != nil {
		t.Fatal(err)
	}
	// The dead grandchild is re-parented to this process (a subreaper,
	// see TestMain); reaping it removes it from the process table. A
	// grandchild that survived would block this Wait4 forever, so it runs
	// with a bound.
	reaped := make(chan error, 1)
	go func() {
		var ws unix.WaitStatus
		for {
			_, err := unix.Wait4(gc, &ws, 0, nil)
			if err == unix.ECHILD { // not yet re-parented
				time.Sleep(10 * time.Millisecond)
				continue
			}
			if err == nil && !ws.Signaled() {
				err = errors.New("grandchild exited by itself: " + strconv.Itoa(ws.ExitStatus()))
			}
			reaped <- err
			return
		}
	}()
	select {
	case err := <-reaped:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("grandchild %d still running after Stop", gc)
	}
	if alive(gc) {
		t.Errorf("grandchild %d still in the process table", gc)
	}
}

// TestStopEscalates: a server ignoring SIGTERM is SIGKILLed after grace.
func TestStopEscalates(t *testing.T) {
	s := helper("-ready-line", "-ignore-term")
	s.ReadyLine = true
	srv := startT(t, s)
	if err := srv.Stop(300 * time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if exited, status := srv.Exited(); !exited || status != "signal: killed" {
		t.Errorf("Exited() = %t, %q; want true, signal: killed", exited, status)
	}
}

// TestPinned: the server runs on exactly the requested CPUs, as the kernel
// reports them.
func TestPinned(t *testing.T) {
	online, err := cpuset.Online()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []cpuset.Set{{online[len(online)-1]}, {online[0]}} {
		s := helper("-ready-line")
		s.ReadyLine, s.CPUs = true, want
		srv := startT(t, s)
		got, err := cpuset.Allowed(srv.PID)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(srv.Pinned, want) || !slices.Equal(got, want) {
			t.Errorf("Pinned = %v, kernel says %v, want %v", srv.Pinned, got, want)
		}
		_ = srv.Stop(time.Second)
	}
	// Unpinned: the recorded affinity is the inherited one.
	s := helper("-ready-line")
	s.ReadyLine = true
	srv := startT(t, s)
	self, _ := cpuset.Allowed(0)
	if !slices.Equal(srv.Pinned, self) {
		t.Errorf("unpinned Pinned = %v, want the driver's %v", srv.Pinned, self)
	}
}

// TestBatch: a server started with Spec.Batch runs every thread at
// SCHED_BATCH (inherited from birth), and the driver's thread keeps its
// own policy.
func TestBatch(t *testing.T) {
	s := helper("-ready-line")
	s.ReadyLine, s.Batch = true, true
	srv := startT(t, s)
	defer func() { _ = srv.Stop(time.Second) }()
	tasks, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", srv.PID))
	if err != nil {
		t.Fatal(err)
	}
	for _, task := range tasks {
		tid, _ := strconv.Atoi(task.Name())
		a, err := unix.SchedGetAttr(tid, 0)
		if err != nil {
			t.Fatal(err)
		}
		if a.Policy != unix.SCHED_BATCH {
			t.Errorf("thread %d of the server: policy %d, want SCHED_BATCH (%d)", tid, a.Policy, unix.SCHED_BATCH)
		}
	}
	if len(tasks) < 2 {
		t.Errorf("server has %d threads; a Go server has several", len(tasks))
	}
	self, err := unix.SchedGetAttr(0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if self.Policy != unix.SCHED_NORMAL {
		t.Errorf("the test's thread has policy %d after Start, want SCHED_NORMAL", self.Policy)
	}
}

// TestReadyLinePID: a ready line naming a process outside the group is
// refused.
func TestReadyLinePID(t *testing.T) {
	s := helper("-ready-line", "-ready-pid", "1")
	s.ReadyLine = true
	_, err := Start(context.Background(), s)
	if err == nil || !strings.Contains(err.Error(), "names pid 1, which is not in the target's process group") {
		t.Errorf("err = %v", err)
	}
}

// TestKillAll: every live server is killed and reaped.
func TestKillAll(t *testing.T) {
	var srvs []*Server
	for i := 0; i < 2; i++ {
		s := helper("-ready-line", "-ignore-term")
		s.ReadyLine = true
		srvs = append(srvs, startT(t, s))
	}
	KillAll()
	for _, srv := range srvs {
		if exited, status := srv.Exited(); !exited || status != "signal: killed" {
			t.Errorf("pid %d: Exited() = %t, %q after KillAll", srv.PID, exited, status)
		}
	}
	registry.mu.Lock()
	n := len(registry.servers)
	registry.mu.Unlock()
	if n != 0 {
		t.Errorf("registry holds %d servers after KillAll", n)
	}
}

// TestInterruptedStart: cancelling ctx ends the wait and the process.
func TestInterruptedStart(t *testing.T) {
	s := helper("-never-ready")
	s.ReadyLine = true
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	_, err := Start(ctx, s)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want context.DeadlineExceeded", err)
	}
}

// TestNoisyOutputBounded: lots of output, including a 1 MiB line, leaves a
// tail of TailLines capped lines and never blocks the server.
func TestNoisyOutputBounded(t *testing.T) {
	s := helper("-ready-line", "-noise", "5000")
	s.ReadyLine, s.TailLines = true, 5
	srv := startT(t, s)
	waitTail(t, srv, "last words")
	if get(t, srv.Addr) != "ok" {
		t.Error("server not serving after noisy output")
	}
	lines := strings.Split(srv.StderrTail(), "\n")
	if len(lines) != 5 || lines[4] != "last words" || lines[2] != "noise 4999" {
		t.Errorf("tail has %d lines, ends %q", len(lines), lines[len(lines)-1])
	}
	for _, l := range lines {
		if len(l) > maxLine+len("…") {
			t.Errorf("line of %d bytes kept", len(l))
		}
	}
}

// TestMissingProgram: a program that does not exist fails to start.
func TestMissingProgram(t *testing.T) {
	_, err := Start(context.Background(), Spec{Argv: []string{"/nonexistent/server"}, ReadyLine: true})
	if err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("err = %v", err)
	}
}

// waitTail waits up to 10 s for the stderr tail to contain want (stderr is
// read concurrently with the ready line on stdout) and returns the tail.
func waitTail(t *testing.T, srv *Server, want string) string {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		if tail := srv.StderrTail(); strings.Contains(tail, want) {
			return tail
		}
	}
	t.Fatalf("stderr tail %q never contained %q", srv.StderrTail(), want)
	return ""
}

func pidFrom(t *testing.T, text, re string) int {
	t.Helper()
	m := regexp.MustCompile(re).FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no %q in %q", re, text)
	}
	pid, _ := strconv.Atoi(m[1])
	return pid
}
