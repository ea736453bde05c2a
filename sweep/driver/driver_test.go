package driver

import (
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/awake"
	"github.com/sweep-dev/sweep/sweep/config"
	"github.com/sweep-dev/sweep/sweep/cpuset"
	"github.com/sweep-dev/sweep/sweep/results"
	"github.com/sweep-dev/sweep/sweep/rundir"
)

// bins holds the real binaries the tests drive: the sweep binary itself
// (the builtin target is `sweep serve`), the Go burner (crashes, never
// ready) and the single-threaded C ground-truth server.
var bins struct{ sweep, burner, truth string }

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "sweep-driver-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	bins.sweep = filepath.Join(dir, "sweep")
	bins.burner = filepath.Join(dir, "burner")
	bins.truth = filepath.Join(dir, "truth")
	cc := exec.Command("cc", "-O2", "-o", bins.truth, "testdata/truth/truth.c")
	cc.Stdout, cc.Stderr = os.Stderr, os.Stderr
	if err := cc.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building testdata/truth/truth.c:", err)
		os.Exit(1)
	}
	for _, b := range []struct{ out, pkg string }{
		{bins.sweep, "github.com/sweep-dev/sweep/cmd/sweep"},
		{bins.burner, "./testdata/burner"},
	} {
		cmd := exec.Command("go", "build", "-o", b.out, b.pkg)
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		if err := cmd.Run(); err != nil {
			fmt.Fprintln(os.Stderr, "building", b.pkg, ":", err)
			os.Exit(1)
		}
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// loadConfig writes a config given in the test to dir/grid.toml and loads it.
func loadConfig(t *testing.T, dir, toml string) *config.Config {
	t.Helper()
	cfgPath := filepath.Join(dir, "grid.toml")
	if err := os.WriteFile(cfgPath, []byte(toml), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// run parses a config written in the test and runs it into a fresh dir.
func run(t *testing.T, toml string) (string, sweep.Summary, []sweep.Window) {
	t.Helper()
	dir := t.TempDir()
	cfg := loadConfig(t, dir, toml)
	out := filepath.Join(dir, "run")
	oc, err := Run(context.Background(), Options{Config: cfg, Dir: out, Exe: bins.sweep})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if !oc.Complete || oc.Measured != oc.Planned {
		t.Fatalf("outcome %+v: want a complete run", oc)
	}
	s, err := rundir.ReadSummaryFile(filepath.Join(out, rundir.SummaryFile))
	if err != nil {
		t.Fatal(err)
	}
	ws, err := results.Read(filepath.Join(out, rundir.ResultsFile))
	if err != nil {
		t.Fatal(err)
	}
	return out, s, ws
}

func cell(t *testing.T, s sweep.Summary, config string, c int) sweep.Cell {
	t.Helper()
	for _, cl := range s.Cells {
		if cl.Config == config && cl.Concurrency == c {
			return cl
		}
	}
	t.Fatalf("no cell %q c=%d in %d cells", config, c, len(s.Cells))
	return sweep.Cell{}
}

// TestGroundTruthCPU runs the C truth server, a single-threaded command
// target that burns a known amount of CPU per request (and almost nothing
// else: no runtime threads), at two amounts. The server also really spends
// a fixed cost per request (its read, write and clock syscalls): 26 µs on
// a quiet day here, up to ~140 µs while the hypervisor stole a third of the
// CPUs. So sweep's CPU/request must never come out below a burn, the two
// must differ by the difference of the burns within ±10% (the fixed cost
// cancels), and neither may exceed its burn by more than 400 µs.
//
// (A Go server is no ground truth: its runtime — sysmon, P hand-offs
// around syscalls — adds 10–20% CPU on top of a handler's own burn on
// this machine; that is real server CPU, and sweep counts it.)
func TestGroundTruthCPU(t *testing.T) {
	_, s, _ := run(t, fmt.Sprintf(`
name = "ground-truth"
[target]
kind = "command"
command = [%q, "{{port}}", "{{burn_us}}"]
url = "http://127.0.0.1:{{port}}/"
[grid]
burn_us = [1000, 3000]
[load]
slice = "0"  # continuous windows: absolute CPU per request
concurrency = [1]
warmup = "300ms"
duration = "1500ms"
rounds = 2
aa = false
[run]
restarts = "never" # written for one process per slot
`, bins.truth))
	low := cell(t, s, "burn_us=1000", 1).CPUUsPerReq
	high := cell(t, s, "burn_us=3000", 1).CPUUsPerReq
	t.Logf("CPU/req: burn=1ms → %.0f µs, burn=3ms → %.0f µs (difference %.0f µs)", low, high, high-low)
	for _, c := range []struct {
		name      string
		got, burn float64
	}{{"1ms", low, 1000}, {"3ms", high, 3000}} {
		if c.got < 0.98*c.burn || c.got > c.burn+400 {
			t.Errorf("burn=%s: CPU/req = %.0f µs, want from %.0f (the burn, 2%% slack) to %.0f (plus a fixed cost of at most 400 µs)",
				c.name, c.got, 0.98*c.burn, c.burn+400)
		}
	}
	if d := high - low; math.Abs(d-2000)/2000 > 0.10 {
		t.Errorf("CPU/req difference 3ms − 1ms = %.0f µs, want 2000 ±10%%", d)
	}
}

// TestBuiltinSweep is a small real sweep of the built-in host: 2 points ×
// 2 concurrency levels × 2 rounds (+ the A/A twin), where a tiny memory
// pool with io_wait forces 503s at c=8 but not at c=1.
func TestBuiltinSweep(t *testing.T) {
	dir, s, ws := run(t, `
name = "builtin-small"
[workload]
touch = "16KiB"
io_wait = "5ms"
[grid]
total_memories = [1000, 2]
[load]
concurrency = [1, 8]
warmup = "300ms"
duration = "1s"
rounds = 2
[run]
restarts = "never" # written for one process per slot
`)
	if want := 3 * 2 * 2; len(ws) != want {
		t.Fatalf("results.jsonl has %d windows, want %d", len(ws), want)
	}
	for _, w := range ws {
		if w.Failed {
			t.Errorf("window failed: %+v", w)
		}
		if w.Requests == 0 || w.RPS <= 0 || w.CPUUsPerReq <= 0 || w.CPUSeconds <= 0 {
			t.Errorf("implausible window %s c=%d: requests %d rps %.1f cpu/req %.1f", w.Config, w.Concurrency, w.Requests, w.RPS, w.CPUUsPerReq)
		}
		// Steal is a share of the CPUs' time: 0 on bare metal, never
		// beyond the whole (a tick of slack for the 10 ms counter).
		if w.ServerSteal < 0 || w.ServerSteal > 1.01 || w.LoadSteal < 0 || w.LoadSteal > 1.01 {
			t.Errorf("window %s c=%d: steal server %v load %v, want shares in [0, 1]", w.Config, w.Concurrency, w.ServerSteal, w.LoadSteal)
		}
		// This machine's kernel (x86) has the TLB and CAL lines: every
		// window carries their deltas, counts that never go down.
		if w.TLBShootdowns == nil || w.CallIPIs == nil || w.TLBShootdownsPerReq == nil || *w.TLBShootdowns < 0 || *w.CallIPIs < 0 {
			t.Errorf("window %s c=%d: interrupt figures %v, %v; want counts ≥ 0", w.Config, w.Concurrency, w.TLBShootdowns, w.CallIPIs)
		}
	}
	base := cell(t, s, "total_memories=1000", 8)
	tiny1 := cell(t, s, "total_memories=2", 1)
	tiny8 := cell(t, s, "total_memories=2", 8)
	if base.Errors5xx != 0 || tiny1.Errors5xx != 0 {
		t.Errorf("unexpected 5xx: baseline c=8 %d, tiny pool c=1 %d", base.Errors5xx, tiny1.Errors5xx)
	}
	if tiny8.Errors5xx == 0 || tiny8.ErrorRate <= 0.001 {
		t.Errorf("tiny pool at c=8: 5xx %d rate %.4f, want errors", tiny8.Errors5xx, tiny8.ErrorRate)
	}
	// The cliff is found at the right concurrency, for the right config only.
	if len(s.Cliffs) != 1 || s.Cliffs[0].Config != "total_memories=2" || s.Cliffs[0].Concurrency != 8 {
		t.Errorf("cliffs = %+v, want exactly total_memories=2 at c=8", s.Cliffs)
	}
	if tiny8.Cliff == nil || tiny8.Cliff.At != 8 {
		t.Errorf("tiny pool c=8 cell not marked at the cliff: %+v", tiny8.Cliff)
	}
	// With io_wait = 5ms a request cannot take less than 5ms.
	if base.P50Ms < 5 {
		t.Errorf("baseline p50 %.2f ms < io_wait 5ms", base.P50Ms)
	}
	for _, f := range []string{"config.toml", "results.jsonl", "summary.json"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("run directory lacks %s", f)
		}
	}
	if s.Environment.ServerPinned == "" && len(s.Environment.ServerCPUs) > 0 {
		t.Errorf("server pinning not read back: %+v", s.Environment)
	}
	checkAwake(t, s, true)
	// The spinners' CPU time counts as the load CPU's idle time: at c=1,
	// with every request waiting 5 ms in the server, the generator has
	// little to do (without the correction load_idle would read ~0 and
	// generator_bound would fire).
	if s.Environment.AwakeCPUs != "" {
		for _, w := range ws {
			if w.Concurrency == 1 && (w.LoadIdle < 0.5 || w.LoadIdle > 1.05 || w.GeneratorBound) {
				t.Errorf("%s c=1 round %d: load_idle %.3f, generator_bound %v; want the idle load CPU seen as idle",
					w.Config, w.Round, w.LoadIdle, w.GeneratorBound)
			}
		}
	}
}

// checkAwake checks a run's record of run.keep_awake and that no spinner
// outlived it.
func checkAwake(t *testing.T, s sweep.Summary, on bool) {
	t.Helper()
	e := s.Environment
	pinned := e.ServerCPUs != "" && e.LoadCPUs != ""
	if want := on && pinned; (e.AwakeCPUs != "") != want {
		t.Errorf("environment awake_cpus = %q with keep_awake = %v, server CPUs %q, load CPUs %q", e.AwakeCPUs, on, e.ServerCPUs, e.LoadCPUs)
	}
	if on && pinned {
		server, _ := cpuset.Parse(e.ServerCPUs)
		load, _ := cpuset.Parse(e.LoadCPUs)
		want := append(server, load...)
		slices.Sort(want)
		if e.AwakeCPUs != want.String() {
			t.Errorf("awake_cpus = %q, want the server and load CPUs %q", e.AwakeCPUs, want)
		}
	}
	if n := spinnersOf(t, os.Getpid()); n > 0 {
		t.Errorf("%d spinner processes (%s) still running after the run", n, awake.Subcommand)
	}
}

// spinnersOf counts the live spinner processes whose parent is ppid.
func spinnersOf(t *testing.T, ppid int) int {
	t.Helper()
	procs, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, p := range procs {
		pid, err := strconv.Atoi(p.Name())
		if err != nil {
			continue
		}
		stat, err1 := os.ReadFile(filepath.Join("/proc", p.Name(), "stat"))
		cmd, err2 := os.ReadFile(filepath.Join("/proc", p.Name(), "cmdline"))
		if err1 != nil || err2 != nil || pid == ppid {
			continue
		}
		// stat: "pid (comm) state ppid ..."; comm may hold spaces.
		f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
		args := strings.Split(string(cmd), "\x00")
		if len(f) > 1 && f[1] == strconv.Itoa(ppid) && len(args) > 1 && args[1] == awake.Subcommand && f[0] != "Z" {
			n++
		}
	}
	return n
}
