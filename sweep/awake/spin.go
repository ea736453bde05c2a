package awake

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"syscall"
	"time"

	"github.com/sweep-dev/sweep/sweep/cpuset"
	"golang.org/x/sys/unix"
)

// Subcommand is the hidden subcommand of the sweep binary that runs one
// spinner: `sweep awake -cpu N`.
const Subcommand = "awake"

// Main is the spinner process: it parses args (-cpu N), pins itself to
// CPU N (Start has it born there already), lowers every one of its
// threads to SCHED_IDLE (the Go runtime's own threads too: a monitor
// thread at normal priority would preempt a server now and then) and
// spins until it is signalled or its parent exits. It returns the exit
// code: 2 for bad arguments, 1 when it cannot pin or lower itself.
func Main(args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("sweep "+Subcommand, flag.ContinueOnError)
	fs.SetOutput(stderr)
	cpu := fs.Int("cpu", -1, "the CPU this spinner keeps awake (it must be started pinned to it)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *cpu < 0 || fs.NArg() > 0 {
		fmt.Fprintf(stderr, "sweep %s: want -cpu N (N ≥ 0) and no arguments; it is started by the driver, not by hand\n", Subcommand)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	runtime.LockOSThread() // this thread spins; it is lowered with the rest
	err := cpuset.PinProcess(0, cpuset.Set{*cpu})
	if err == nil {
		err = lowerAll()
	}
	if err != nil {
		fmt.Fprintf(stderr, "sweep %s: %v\n", Subcommand, err)
		return 1
	}
	ppid := os.Getppid()
	Spin(ctx, func() bool { return os.Getppid() == ppid })
	return 0
}

// Spin keeps the calling goroutine busy until ctx is done or parentAlive
// reports false (checked every 100 ms: a spinner never outlives its
// driver by more than that, even when the parent-death signal is lost).
func Spin(ctx context.Context, parentAlive func() bool) {
	const check = 100 * time.Millisecond
	next := time.Now().Add(check)
	for {
		spin()
		if now := time.Now(); now.After(next) {
			if ctx.Err() != nil || !parentAlive() {
				return
			}
			next = now.Add(check)
		}
	}
}

// lowerAll sets SCHED_IDLE on every thread of this process; threads
// started later inherit it from the thread that starts them.
func lowerAll() error {
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return fmt.Errorf("listing own threads: %w", err)
	}
	for _, task := range tasks {
		tid, err := strconv.Atoi(task.Name())
		if err != nil {
			continue
		}
		err = unix.SchedSetAttr(tid, &unix.SchedAttr{Policy: unix.SCHED_IDLE}, 0)
		if err != nil && err != unix.ESRCH { // ESRCH: the thread has exited
			return fmt.Errorf("setting SCHED_IDLE on thread %d: %w", tid, err)
		}
	}
	return nil
}
