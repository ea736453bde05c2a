package probe

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// childEnv makes the test binary act as a measured child (see childMain).
const childEnv = "SWEEP_PROBE_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		childMain()
		return
	}
	os.Exit(m.Run())
}

// childMain is a process that does measurable work on command. It prints
// "ready", then for every stdin line runs the command and answers "ok ...":
//
//	burn D           spin on one thread until this process used D more CPU
//	threads N D      N locked OS threads each spin D of their own CPU, then exit
//	touch M          mmap M MiB (no huge pages) and write every page
//	sleep N          sleep 2ms N times (voluntary context switches)
//
// It exits at EOF on stdin.
func childMain() {
	// Keep the main thread to the main goroutine: the main thread can never
	// exit, so a burner goroutine must not land on it.
	runtime.LockOSThread()
	out := bufio.NewWriter(os.Stdout)
	say := func(s string) { fmt.Fprintln(out, s); out.Flush() }
	say("ready")
	in := bufio.NewScanner(os.Stdin)
	var keep [][]byte
	for in.Scan() {
		f := strings.Fields(in.Text())
		switch f[0] {
		case "burn":
			d, _ := time.ParseDuration(f[1])
			start, _ := Self()
			for {
				now, _ := Self()
				if now-start >= d {
					break
				}
				spin()
			}
			say("ok")
		case "threads":
			n, _ := strconv.Atoi(f[1])
			d, _ := time.ParseDuration(f[2])
			tids := make(chan int, n)
			var wg sync.WaitGroup
			for i := 0; i < n; i++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					// Never unlocked: the runtime ends the thread when
					// this goroutine returns.
					runtime.LockOSThread()
					tids <- unix.Gettid()
					start, _ := clock(unix.CLOCK_THREAD_CPUTIME_ID)
					for {
						now, _ := clock(unix.CLOCK_THREAD_CPUTIME_ID)
						if now-start >= d {
							return
						}
						spin()
					}
				}()
			}
			wg.Wait()
			close(tids)
			deadline := time.Now().Add(3 * time.Second)
			var left []int
			for tid := range tids {
				left = append(left, tid)
			}
			for time.Now().Before(deadline) && anyAlive(left) {
				time.Sleep(10 * time.Millisecond)
			}
			say(fmt.Sprintf("ok exited=%t", !anyAlive(left)))
		case "touch":
			mib, _ := strconv.Atoi(f[1])
			b, err := unix.Mmap(-1, 0, mib<<20, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS)
			if err != nil {
				say("error " + err.Error())
				continue
			}
			_ = unix.Madvise(b, unix.MADV_NOHUGEPAGE)
			for i := 0; i < len(b); i += os.Getpagesize() {
				b[i] = 1
			}
			keep = append(keep, b)
			say("ok")
		case "sleep":
			n, _ := strconv.Atoi(f[1])
			for i := 0; i < n; i++ {
				time.Sleep(2 * time.Millisecond)
			}
			say("ok")
		}
	}
	_ = keep
}

var sink uint64

func spin() {
	for i := 0; i < 10000; i++ {
		sink = sink*31 + uint64(i)
	}
}

// anyAlive reports whether one of the threads tids still exists.
func anyAlive(tids []int) bool {
	for _, tid := range tids {
		if _, err := os.Stat("/proc/self/task/" + strconv.Itoa(tid)); err == nil {
			return true
		}
	}
	return false
}

// child is a running childMain process.
type child struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Scanner
}

func startChild(t *testing.T) *child {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"=1")
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &child{cmd: cmd, in: in, out: bufio.NewScanner(out)}
	t.Cleanup(func() { _ = in.Close(); _ = cmd.Process.Kill(); _ = cmd.Wait() })
	if !c.out.Scan() || c.out.Text() != "ready" {
		t.Fatalf("child did not start: %q %v", c.out.Text(), c.out.Err())
	}
	return c
}

// do sends a command and returns the child's answer.
func (c *child) do(t *testing.T, cmd string) string {
	t.Helper()
	if _, err := fmt.Fprintln(c.in, cmd); err != nil {
		t.Fatal(err)
	}
	if !c.out.Scan() {
		t.Fatalf("%s: child died: %v", cmd, c.out.Err())
	}
	if a := c.out.Text(); !strings.HasPrefix(a, "ok") {
		t.Fatalf("%s: child says %q", cmd, a)
	}
	return c.out.Text()
}

func mustRead(t *testing.T, pid int, useClock bool) Sample {
	t.Helper()
	s, err := read(pid, useClock)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// between fails unless lo ≤ got ≤ hi.
func between(t *testing.T, what string, got, lo, hi time.Duration) {
	t.Helper()
	if got < lo || got > hi {
		t.Errorf("%s = %v, want within [%v, %v]", what, got, lo, hi)
	}
}

// TestCPUOfBurningChild: a child that burns 300ms of CPU shows a CPU delta
// of about that much, from the process clock, and the /proc ticks agree.
func TestCPUOfBurningChild(t *testing.T) {
	c := startChild(t)
	pid := c.cmd.Process.Pid
	before := mustRead(t, pid, true)
	c.do(t, "burn 300ms")
	after := mustRead(t, pid, true)
	d := Diff(before, after)
	if d.Source != SourceClock {
		t.Fatalf("Source = %q, want %q (is the process CPU clock readable here?)", d.Source, SourceClock)
	}
	burn := 300 * time.Millisecond
	between(t, "CPU delta", d.CPU, burn*8/10, burn*15/10)
	if d.Wall <= 0 {
		t.Errorf("Wall = %v, want > 0", d.Wall)
	}

	// The fallback: ticks agree with the clock within 20ms + a tick, as
	// absolute readings and as deltas.
	tol := 20*time.Millisecond + clockTick
	stat := mustRead(t, pid, false)
	if stat.Source != SourceProcStat {
		t.Errorf("fallback Source = %q", stat.Source)
	}
	between(t, "proc_stat CPU vs clock CPU", stat.CPU-after.CPU, -tol, tol)
	fb := Diff(Sample{Source: SourceProcStat, StatCPU: before.StatCPU}, stat)
	if fb.Source != SourceProcStat {
		t.Errorf("mixed-source Diff Source = %q, want proc_stat", fb.Source)
	}
	between(t, "proc_stat CPU delta vs clock delta", fb.CPU-d.CPU, -tol, tol)
}

// TestCPUOfExitedThreads: four OS threads each burn 100ms and exit before
// the second reading; the process clock still counts all of them.
func TestCPUOfExitedThreads(t *testing.T) {
	c := startChild(t)
	pid := c.cmd.Process.Pid
	before := mustRead(t, pid, true)
	answer := c.do(t, "threads 4 100ms")
	after := mustRead(t, pid, true)
	if answer != "ok exited=true" {
		t.Fatalf("burner threads had not all exited before the second reading (%s)", answer)
	}
	d := Diff(before, after)
	total := 400 * time.Millisecond
	between(t, "CPU delta of 4 threads", d.CPU, total*8/10, total*15/10)
	// The /proc/PID/stat sums include exited threads too.
	between(t, "proc_stat delta of 4 threads", after.StatCPU-before.StatCPU, total*8/10-clockTick, total*15/10+clockTick)
}

// TestFaultsAndRSS: touching 32 MiB of fresh anonymous memory costs at
// least one minor fault per page and grows the resident set by about that.
func TestFaultsAndRSS(t *testing.T) {
	c := startChild(t)
	pid := c.cmd.Process.Pid
	before := mustRead(t, pid, true)
	if before.RSSBytes <= 0 {
		t.Fatalf("RSS = %d, want > 0", before.RSSBytes)
	}
	const mib = 32
	c.do(t, "touch "+strconv.Itoa(mib))
	after := mustRead(t, pid, true)
	d := Diff(before, after)
	pages := int64(mib<<20) / int64(os.Getpagesize())
	if d.MinorFaults < pages {
		t.Errorf("MinorFaults delta = %d, want ≥ %d (one per touched page)", d.MinorFaults, pages)
	}
	if grow := d.RSSBytes - before.RSSBytes; grow < mib<<20*9/10 {
		t.Errorf("RSS grew by %d bytes, want ≥ 90%% of %d", grow, mib<<20)
	}
	if d.RSSBytes != after.RSSBytes {
		t.Errorf("Delta.RSSBytes = %d, want the end value %d", d.RSSBytes, after.RSSBytes)
	}
}

// TestContextSwitches: a child that sleeps 50 times blocks voluntarily
// (many times); switches are summed over its threads.
func TestContextSwitches(t *testing.T) {
	c := startChild(t)
	pid := c.cmd.Process.Pid
	before := mustRead(t, pid, true)
	c.do(t, "sleep 50")
	after := mustRead(t, pid, true)
	d := Diff(before, after)
	if d.VolCtxSwitches < 25 {
		t.Errorf("voluntary switches delta = %d after 50 sleeps, want ≥ 25", d.VolCtxSwitches)
	}
	if d.InvolCtxSwitches < 0 {
		t.Errorf("involuntary switches delta = %d, want ≥ 0", d.InvolCtxSwitches)
	}
}

// TestGoneProcess: a reaped child reads as ErrNoProcess.
func TestGoneProcess(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	_, err := Read(cmd.Process.Pid)
	if !errors.Is(err, ErrNoProcess) {
		t.Errorf("Read(exited pid) err = %v, want ErrNoProcess", err)
	}
	if _, err := Read(0); err == nil || !strings.Contains(err.Error(), "invalid pid 0") {
		t.Errorf("Read(0) err = %v", err)
	}
}

// TestSelf: burning 100ms on a locked thread advances the own process clock
// by at least that.
func TestSelf(t *testing.T) {
	before, err := Self()
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan time.Duration)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		start, _ := clock(unix.CLOCK_THREAD_CPUTIME_ID)
		for {
			now, _ := clock(unix.CLOCK_THREAD_CPUTIME_ID)
			if now-start >= 100*time.Millisecond {
				done <- now - start
				return
			}
			spin()
		}
	}()
	burned := <-done
	after, err := Self()
	if err != nil {
		t.Fatal(err)
	}
	if after-before < burned {
		t.Errorf("Self advanced %v, less than one thread burned (%v)", after-before, burned)
	}
}

// TestPagemapScan: the kernels this project runs on (6.18 here) have
// PAGEMAP_SCAN; older ones (before 6.7) must say no.
func TestPagemapScan(t *testing.T) {
	ok, err := PagemapScan()
	if err != nil {
		t.Fatal(err)
	}
	var u unix.Utsname
	if err := unix.Uname(&u); err != nil {
		t.Fatal(err)
	}
	var major, minor int
	fmt.Sscanf(unix.ByteSliceToString(u.Release[:]), "%d.%d", &major, &minor)
	if want := major > 6 || major == 6 && minor >= 7; ok != want {
		t.Errorf("PagemapScan() = %v on kernel %d.%d; want %v", ok, major, minor, want)
	}
}
