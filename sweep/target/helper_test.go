package target

import (
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// helperEnv makes the test binary act as a test server (helperMain), or
// with the value "sleep" as a grandchild that only sleeps.
const helperEnv = "SWEEP_TARGET_HELPER"

func TestMain(m *testing.M) {
	switch os.Getenv(helperEnv) {
	case "server":
		helperMain(os.Args[1:])
		return
	case "sleep":
		time.Sleep(60 * time.Second)
		return
	}
	// Orphaned grandchildren are re-parented to this process instead of
	// PID 1 (which does not reap them in this container), so a test can
	// reap one and see it leave the process table.
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		fmt.Fprintln(os.Stderr, "PR_SET_CHILD_SUBREAPER:", err)
		os.Exit(1)
	}
	os.Exit(m.Run())
}

// helperMain is a small HTTP server with misbehaviour on demand. Every
// mode is bounded: nothing runs longer than 60 s.
func helperMain(args []string) {
	fs := flag.NewFlagSet("helper", flag.ExitOnError)
	listen := fs.String("listen", "127.0.0.1:0", "address to serve on")
	readyLine := fs.Bool("ready-line", false, "print the ready line once listening")
	readyPID := fs.Int("ready-pid", -1, "pid to put in the ready line (-1: own)")
	delay := fs.Duration("delay", 0, "wait before listening")
	crashBefore := fs.Bool("crash-before-ready", false, "complain on stderr and exit 3 before listening")
	crashAfter := fs.Duration("crash-after", 0, "exit 3 this long after becoming ready")
	neverReady := fs.Bool("never-ready", false, "print progress on stderr but never listen")
	grandchild := fs.Bool("grandchild", false, "spawn a sleeping grandchild and name it on stderr")
	ignoreTerm := fs.Bool("ignore-term", false, "ignore SIGTERM")
	noise := fs.Int("noise", 0, "print this many numbered stderr lines, then one 1 MiB line")
	_ = fs.Parse(args)

	fmt.Fprintf(os.Stderr, "helper pid %d\n", os.Getpid())
	if *ignoreTerm {
		signal.Ignore(syscall.SIGTERM)
	}
	if *grandchild {
		c := exec.Command(os.Args[0])
		c.Env = append(os.Environ(), helperEnv+"=sleep")
		if err := c.Start(); err != nil {
			fmt.Fprintln(os.Stderr, "grandchild:", err)
			os.Exit(4)
		}
		fmt.Fprintf(os.Stderr, "grandchild pid %d\n", c.Process.Pid)
	}
	for i := 0; i < *noise; i++ {
		fmt.Fprintf(os.Stderr, "noise %d\n", i)
	}
	if *noise > 0 {
		fmt.Fprintln(os.Stderr, strings.Repeat("x", 1<<20))
		fmt.Fprintln(os.Stderr, "last words")
	}
	if *crashBefore {
		fmt.Fprintln(os.Stderr, "boom: bad config value")
		os.Exit(3)
	}
	if *neverReady {
		for i := 0; i < 600; i++ {
			fmt.Fprintln(os.Stderr, "still starting")
			time.Sleep(100 * time.Millisecond)
		}
		os.Exit(5)
	}
	time.Sleep(*delay)
	l, err := net.Listen("tcp", *listen)
	if err != nil {
		fmt.Fprintln(os.Stderr, "listen:", err)
		os.Exit(2)
	}
	fmt.Println("starting up (not the ready line)")
	if *readyLine {
		pid := os.Getpid()
		if *readyPID >= 0 {
			pid = *readyPID
		}
		b, _ := json.Marshal(map[string]any{"event": "ready", "addr": l.Addr().String(), "pid": pid})
		fmt.Println(string(b))
	}
	if *crashAfter > 0 {
		go func() {
			time.Sleep(*crashAfter)
			fmt.Fprintln(os.Stderr, "crashing now")
			os.Exit(3)
		}()
	}
	go func() { time.Sleep(60 * time.Second); os.Exit(6) }()
	_ = http.Serve(l, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "ok")
	}))
}

// helper is the Spec of a helper server with the given flags.
func helper(flags ...string) Spec {
	return Spec{
		Argv:         append([]string{os.Args[0]}, flags...),
		Env:          []string{helperEnv + "=server"},
		ReadyTimeout: 20 * time.Second,
	}
}

// alive reports whether pid is in the process table (zombies included).
func alive(pid int) bool {
	_, err := os.Stat(fmt.Sprintf("/proc/%d", pid))
	return err == nil
}

// startT starts s and stops it at the end of the test.
func startT(t *testing.T, s Spec) *Server {
	t.Helper()
	srv, err := Start(t.Context(), s)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Stop(time.Second) })
	return srv
}

func get(t *testing.T, addr string) string {
	t.Helper()
	resp, err := http.Get("http://" + addr + "/")
	if err != nil {
		t.Fatalf("GET %s: %v", addr, err)
	}
	defer resp.Body.Close()
	b := make([]byte, 16)
	n, _ := resp.Body.Read(b)
	return string(b[:n])
}

// wait waits up to 10 s for ch.
func wait(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(10 * time.Second):
		t.Fatalf("timed out waiting for %s", what)
	}
}
