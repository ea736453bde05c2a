package target

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/sweep-dev/sweep/sweep/cpuset"
)

// Server is a started, ready server process.
type Server struct {
	PID    int        // the process to measure (the started process unless its ready line names another)
	Addr   string     // host:port it serves on
	Pinned cpuset.Set // CPU affinity read back from the kernel once ready

	argv0  string
	pgid   int // process group = pid of the started process
	cmd    *exec.Cmd
	done   chan struct{} // closed when the started process has exited and been reaped
	status string        // exit status text, set before done is closed

	stdout, stderr *tail
	outEOF, errEOF chan struct{}   // closed when a stream reached EOF
	pipes          []io.ReadCloser // read ends, closed by Stop

	stopOnce sync.Once
	stopErr  error
}

// stopWait bounds the wait for a SIGKILLed process to be reaped.
const stopWait = 10 * time.Second

// Start starts the process of s in its own process group and waits until it
// is ready, at most s.ReadyTimeout. When it exits first, is not ready in
// time, or ctx ends, the process group is killed; a process that exited
// or was not ready gives a *StartError, with the exit status and the
// output tail.
func Start(ctx context.Context, s Spec) (*Server, error) {
	s, urlAddr, err := s.normalize()
	if err != nil {
		return nil, err
	}
	srv := &Server{argv0: s.Argv[0], done: make(chan struct{}), outEOF: make(chan struct{}), errEOF: make(chan struct{})}
	ready := make(chan readyLine, 1)
	lineErr := make(chan error, 1)
	var once sync.Once
	onLine := func(string) {}
	if s.ReadyLine {
		onLine = func(l string) {
			r, ok, err := parseReadyLine(l)
			if !ok {
				return
			}
			once.Do(func() {
				if err != nil {
					lineErr <- err
				} else {
					ready <- r
				}
			})
		}
	}
	srv.stdout = newTail(s.TailLines, onLine)
	srv.stderr = newTail(s.TailLines, nil)
	if err := srv.start(s); err != nil {
		return nil, err
	}
	fail := func(e error) (*Server, error) {
		_ = srv.Stop(0)
		return nil, e
	}

	timer := time.NewTimer(s.ReadyTimeout)
	defer timer.Stop()
	pollCtx, cancelPoll := context.WithCancel(ctx)
	defer cancelPoll()
	if s.ReadyURL != "" {
		go pollURL(pollCtx, s.ReadyURL, ready, urlAddr)
	}
	select {
	case r := <-ready:
		srv.PID, srv.Addr = srv.pgid, r.Addr
		if r.PID != 0 && r.PID != srv.pgid {
			if g, err := processGroup(r.PID); err != nil || g != srv.pgid {
				return fail(fmt.Errorf("target %q: ready line names pid %d, which is not in the target's process group %d", s.Argv[0], r.PID, srv.pgid))
			}
			srv.PID = r.PID
		}
	case err := <-lineErr:
		return fail(&StartError{Err: fmt.Errorf("target %q: %w", s.Argv[0], err),
			Stream: StreamStdout, Tail: srv.stdout.String(), readyLine: true})
	case <-srv.done:
		srv.drain(time.Second)
		return fail(srv.startError(fmt.Errorf("%w: %q %s", ErrExitedEarly, s.Argv[0], srv.status)))
	case <-timer.C:
		return fail(srv.startError(fmt.Errorf("%w within %v", ErrNeverReady, s.ReadyTimeout)))
	case <-ctx.Done():
		return fail(fmt.Errorf("target %q: start interrupted: %w", s.Argv[0], ctx.Err()))
	}
	pinned, err := cpuset.Allowed(srv.PID)
	if err != nil {
		return fail(fmt.Errorf("target %q: %w", s.Argv[0], err))
	}
	if len(s.CPUs) > 0 && !slices.Equal(pinned, s.CPUs) {
		return fail(fmt.Errorf("target %q runs on CPUs %s, want %s", s.Argv[0], pinned, s.CPUs))
	}
	srv.Pinned = pinned
	return srv, nil
}

// start forks the process; output goes through pipes into the tails.
func (srv *Server) start(s Spec) error {
	outR, outW, err := os.Pipe()
	if err != nil {
		return fmt.Errorf("target %q: %w", s.Argv[0], err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		return fmt.Errorf("target %q: %w", s.Argv[0], err)
	}
	cmd := exec.Command(s.Argv[0], s.Argv[1:]...)
	cmd.Env = append(os.Environ(), s.Env...)
	cmd.Dir = s.Dir
	// *os.File outputs: the child writes to the pipes directly, so Wait
	// returns when the process exits even if a grandchild keeps them open.
	cmd.Stdout, cmd.Stderr = outW, errW
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Setpgid: true,
		// Killed if the driver dies without cleaning up. (Strictly: if the
		// OS thread that forked it exits; Go keeps that thread unless a
		// goroutine locked to it exits.)
		Pdeathsig: syscall.SIGKILL,
	}
	srv.cmd = cmd
	err = register(srv, func() error { return cpuset.Start(cmd, s.CPUs, s.Batch) })
	outW.Close()
	errW.Close()
	if err != nil {
		outR.Close()
		errR.Close()
		return fmt.Errorf("target %q: starting: %w", s.Argv[0], err)
	}
	srv.pgid = cmd.Process.Pid
	srv.pipes = []io.ReadCloser{outR, errR}
	go copyInto(srv.stdout, outR, srv.outEOF)
	go copyInto(srv.stderr, errR, srv.errEOF)
	go func() {
		_ = cmd.Wait()
		srv.status = cmd.ProcessState.String()
		close(srv.done)
	}()
	return nil
}

func copyInto(t *tail, r io.Reader, eof chan struct{}) {
	_, _ = io.Copy(t, r)
	close(eof)
}

// drain waits up to d for both output streams to reach EOF, so a tail
// includes the last words of an exited process.
func (srv *Server) drain(d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	for _, c := range []chan struct{}{srv.outEOF, srv.errEOF} {
		select {
		case <-c:
		case <-t.C:
			return
		}
	}
}

// startError is a StartError for cause with the output tail that
// explains it: stderr's, or stdout's when stderr said nothing.
func (srv *Server) startError(cause error) *StartError {
	e := &StartError{Err: cause}
	if s := srv.stderr.String(); strings.TrimSpace(s) != "" {
		e.Stream, e.Tail = StreamStderr, s
	} else if s := srv.stdout.String(); strings.TrimSpace(s) != "" {
		e.Stream, e.Tail = StreamStdout, s
	}
	return e
}

// Stop ends the server: SIGTERM to its whole process group, SIGKILL to the
// group after grace (or at once if the started process has exited by
// then, for members that outlived it), and waits for the started process.
// It is idempotent: later calls return the first call's result.
func (srv *Server) Stop(grace time.Duration) error {
	srv.stopOnce.Do(func() { srv.stopErr = srv.stop(grace) })
	return srv.stopErr
}

func (srv *Server) stop(grace time.Duration) error {
	defer unregister(srv)
	var errs []error
	if err := signalGroup(srv.pgid, syscall.SIGTERM); err != nil {
		errs = append(errs, err)
	}
	t := time.NewTimer(grace)
	select {
	case <-srv.done:
	case <-t.C:
	}
	t.Stop()
	if err := signalGroup(srv.pgid, syscall.SIGKILL); err != nil {
		errs = append(errs, err)
	}
	select {
	case <-srv.done:
	case <-time.After(stopWait):
		errs = append(errs, fmt.Errorf("target %q (pid %d) still running %v after SIGKILL", srv.argv0, srv.pgid, stopWait))
	}
	srv.drain(time.Second)
	for _, p := range srv.pipes {
		_ = p.Close() // unblocks the copiers if an escaped process holds the pipes
	}
	return errors.Join(errs...)
}

// signalGroup signals process group pgid; a group that is gone is fine.
func signalGroup(pgid int, sig syscall.Signal) error {
	err := syscall.Kill(-pgid, sig)
	if err == nil || errors.Is(err, syscall.ESRCH) {
		return nil
	}
	return fmt.Errorf("target: sending %v to process group %d: %w", sig, pgid, err)
}

// Exited reports, without blocking, whether the started process has exited,
// and its exit status text ("exit status 3", "signal: killed").
func (srv *Server) Exited() (bool, string) {
	select {
	case <-srv.done:
		return true, srv.status
	default:
		return false, ""
	}
}

// Done is closed when the started process has exited.
func (srv *Server) Done() <-chan struct{} { return srv.done }

// StderrTail returns the last lines the server wrote to stderr.
func (srv *Server) StderrTail() string { return srv.stderr.String() }

// stdoutTail returns the last lines the server wrote to stdout.
func (srv *Server) stdoutTail() string { return srv.stdout.String() }
