// Command burner is the ground-truth target of the driver's tests: an HTTP
// server that burns a known amount of CPU per request (spinning until its
// own thread's CPU clock has advanced by -burn), so that sweep's measured
// CPU per request can be checked against the truth. With -work it does a
// fixed amount of work instead (a build's cost, which takes longer on a
// slower machine, as a real server's does).
//
//	burner -port 8080 -burn 2ms [-crash-after 500ms [-crash-mark DIR]] [-never-ready]
//	burner -port 8080 -work 40000
package main

import (
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"runtime"
	"strconv"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// threadCPU reads this thread's CPU clock with a raw syscall: a plain
// syscall would enter the Go scheduler's syscall state on every check and
// keep sysmon busy, so the "truth" would itself cost ~15% extra CPU.
func threadCPU() time.Duration {
	var ts unix.Timespec
	unix.RawSyscall(unix.SYS_CLOCK_GETTIME, unix.CLOCK_THREAD_CPUTIME_ID, uintptr(unsafe.Pointer(&ts)), 0)
	return time.Duration(ts.Nano())
}

// burn spins until this thread has used d of CPU.
func burn(d time.Duration) uint64 {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	start := threadCPU()
	var x uint64 = 88172645463325252
	for threadCPU()-start < d {
		for i := 0; i < 5000; i++ { // a few µs between clock checks
			x ^= x << 13
			x ^= x >> 7
			x ^= x << 17
		}
	}
	return x
}

// work does n rounds of xorshift: a fixed amount of work, whatever it
// costs in CPU time on this machine at this moment.
func work(n int) uint64 {
	var x uint64 = 88172645463325252
	for range n {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
	}
	return x
}

func main() {
	port := flag.Int("port", 0, "port to listen on (127.0.0.1)")
	d := flag.Duration("burn", time.Millisecond, "CPU to burn per request")
	n := flag.Int("work", 0, "rounds of xorshift per request instead of -burn (0 = use -burn)")
	crashAfter := flag.Duration("crash-after", 0, "exit with status 3 this long after start (0 = never)")
	crashMark := flag.String("crash-mark", "", "with -crash-after: crash only if this directory can be made (so once across restarts)")
	neverReady := flag.Bool("never-ready", false, "never listen")
	flag.String("build", "", "a name that changes nothing: a grid axis of it plants identical builds (bench/race24-tied.toml)")
	flag.Parse()
	if *neverReady {
		fmt.Fprintln(os.Stderr, "burner: refusing to become ready, as asked")
		time.Sleep(time.Hour)
	}
	if *crashAfter > 0 {
		go func() {
			time.Sleep(*crashAfter)
			if *crashMark != "" && os.Mkdir(*crashMark, 0o755) != nil {
				return // crashed once already
			}
			fmt.Fprintln(os.Stderr, "burner: crashing on purpose")
			os.Exit(3)
		}()
	}
	ln, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(*port))
	if err != nil {
		fmt.Fprintln(os.Stderr, "burner:", err)
		os.Exit(1)
	}
	http.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		var x uint64
		if *n > 0 {
			x = work(*n)
		} else {
			x = burn(*d)
		}
		fmt.Fprintf(w, "%d\n", x&0xff)
	})
	fmt.Fprintln(os.Stderr, "burner: listening on", ln.Addr())
	if err := http.Serve(ln, nil); err != nil {
		fmt.Fprintln(os.Stderr, "burner:", err)
		os.Exit(1)
	}
}
