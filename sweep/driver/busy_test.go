package driver

import (
	"os/exec"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/sweep-dev/sweep/sweep/cpuset"
	"github.com/sweep-dev/sweep/sweep/stats"
)

// TestBusyMachine runs the built-in host on CPU 0 while a CPU hog (a shell
// loop at normal priority) is pinned there for the whole run: every
// window records the share of CPU 0's time other work took, and every
// cell gets the busy_machine warning. (The quiet side is not asserted
// here: the machine need not be quiet.)
func TestBusyMachine(t *testing.T) {
	m, err := cpuset.ThisMachine()
	if err != nil || !slices.Contains(m.Usable, 0) || !slices.Contains(m.Usable, 1) {
		t.Skipf("needs CPUs 0 and 1 (usable: %v, %v)", m.Usable, err)
	}
	hog := exec.Command("sh", "-c", "while :; do :; done")
	hog.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cpuset.StartPinned(hog, cpuset.Set{0}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Kill(-hog.Process.Pid, syscall.SIGKILL); _ = hog.Wait() })
	time.Sleep(100 * time.Millisecond)

	_, s, ws := run(t, `
name = "busy"
[grid]
linear_memory_keep_resident = [0, "64KiB"]
[load]
concurrency = [1, 4]
warmup = "200ms"
duration = "400ms"
rounds = 2
aa = false
[run]
server_cpus = "0"
load_cpus = "1"
`)
	for _, w := range ws {
		if w.ServerOther == nil || w.LoadOther == nil {
			t.Fatalf("%s c=%d round %d: no other-work figures", w.Config, w.Concurrency, w.Round)
		}
		if *w.ServerOther < 0.2 {
			t.Errorf("%s c=%d round %d: server_other %.3f with a hog on the server CPU, want at least 0.2", w.Config, w.Concurrency, w.Round, *w.ServerOther)
		}
	}
	for _, c := range s.Cells {
		found := false
		for _, w := range c.Warnings {
			found = found || w.Code == "busy_machine"
		}
		if !found || c.ServerOther == nil || *c.ServerOther <= stats.DefaultBusyWarn {
			t.Errorf("%s c=%d: busy_machine %v, server_other %v: want the warning above %.0f%%", c.Config, c.Concurrency, found, c.ServerOther, 100*stats.DefaultBusyWarn)
		}
	}
}
