package driver

// Faults during a run, with real processes: targets that crash, never
// become ready or lose their port, plugins that trap or loop, a full disk
// under results.jsonl, and Ctrl-C to the real sweep binary.

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/bytecodealliance/wasmtime-go/v39"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/config"
	"github.com/sweep-dev/sweep/sweep/results"
	"github.com/sweep-dev/sweep/sweep/rundir"
)

// squatEnv makes this test binary a port squatter (see squat): it is
// re-executed by the port-collision test's server script.
const squatEnv = "SWEEP_FAULT_SQUAT"

func init() {
	if spec := os.Getenv(squatEnv); spec != "" {
		squat(spec)
	}
}

// squat takes "PORT:MARKFILE": it listens on 127.0.0.1:PORT without ever
// answering, writes MARKFILE once it holds the port, and exits after 30 s
// at the latest.
func squat(spec string) {
	port, mark, _ := strings.Cut(spec, ":")
	l, err := net.Listen("tcp", "127.0.0.1:"+port)
	if err != nil {
		fmt.Fprintln(os.Stderr, "squatter:", err)
		os.Exit(1)
	}
	defer l.Close()
	if err := os.WriteFile(mark, []byte(port), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "squatter:", err)
		os.Exit(1)
	}
	time.Sleep(30 * time.Second)
	os.Exit(0)
}

// syncBuffer is a bytes.Buffer safe for the driver's concurrent writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// faultRun is one driver run that may fail.
type faultRun struct {
	cfg      *config.Config
	dir      string // run directory
	outcome  Outcome
	err      error
	log      syncBuffer // warnings and errors the driver logged
	progress syncBuffer
}

// runDriver writes toml into a fresh directory (or into cfgDir when not
// ""), loads it and runs it into outDir (default: a "run" directory
// beside the config).
func runDriver(t *testing.T, cfgDir, outDir, toml string) *faultRun {
	t.Helper()
	if cfgDir == "" {
		cfgDir = t.TempDir()
	}
	path := filepath.Join(cfgDir, "grid.toml")
	if err := os.WriteFile(path, []byte(toml), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if outDir == "" {
		outDir = filepath.Join(cfgDir, "run")
	}
	fr := &faultRun{cfg: cfg, dir: outDir}
	log := slog.New(slog.NewTextHandler(&fr.log, &slog.HandlerOptions{Level: slog.LevelWarn}))
	fr.outcome, fr.err = Run(context.Background(), Options{Config: cfg, Dir: outDir, Exe: bins.sweep, Log: log, Progress: &fr.progress})
	return fr
}

// windows reads the run's results.jsonl.
func (fr *faultRun) windows(t *testing.T) []sweep.Window {
	t.Helper()
	ws, err := results.Read(filepath.Join(fr.dir, rundir.ResultsFile))
	if err != nil {
		t.Fatal(err)
	}
	return ws
}

// bySlot groups windows by config label, checking that every key is
// unique but for a failed window's re-measure.
func bySlot(t *testing.T, ws []sweep.Window) map[string][]sweep.Window {
	t.Helper()
	seen := map[sweep.WindowKey]bool{}
	m := map[string][]sweep.Window{}
	for _, w := range ws {
		if seen[w.Key()] && !w.Remeasured {
			t.Errorf("window %+v recorded twice", w.Key())
		}
		seen[w.Key()] = true
		m[w.Config] = append(m[w.Config], w)
	}
	return m
}

// checkMeasured fails unless every window is a real measurement.
func checkMeasured(t *testing.T, what string, ws []sweep.Window, n int) {
	t.Helper()
	if len(ws) != n {
		t.Errorf("%s: %d windows, want %d", what, len(ws), n)
	}
	for _, w := range ws {
		if w.Failed || w.Requests == 0 || w.Success != w.Requests || w.CPUSeconds <= 0 {
			t.Errorf("%s round %d: not a clean measurement: failed=%t (%s) requests %d success %d cpu %.4fs",
				what, w.Round, w.Failed, w.FailReason, w.Requests, w.Success, w.CPUSeconds)
		}
	}
}

// TestCrashMidWindow: a target that dies 400ms after every start crashes
// in every window it gets. Each such window is recorded as failed with
// the exit status and the stderr tail, the slot is restarted, and after
// max_restarts = 1 it is given up with a message saying so; the healthy
// slot loses nothing. Both ways of measuring a round: continuous windows
// one after the other, and interleaved pieces (the default).
func TestCrashMidWindow(t *testing.T) {
	for _, slice := range []string{"0", "50ms"} {
		t.Run("slice="+slice, func(t *testing.T) { testCrashMidWindow(t, slice) })
	}
}

func testCrashMidWindow(t *testing.T, slice string) {
	fr := runDriver(t, "", "", fmt.Sprintf(`
name = "crash"
[target]
kind = "command"
command = [%q, "-port", "{{port}}", "-burn", "200us", "-crash-after", "{{crash_after}}"]
[grid]
crash_after = ["0s", "400ms"]
[load]
concurrency = [1]
warmup = "100ms"
duration = "500ms"
slice = %q
rounds = 4
aa = false
[run]
restarts = "never" # written for one process per slot
max_restarts = 1
remeasure = false # the give-up path, one window per step
`, bins.burner, slice))
	if fr.err != nil {
		t.Fatalf("Run: %v", fr.err)
	}
	if !fr.outcome.Complete || fr.outcome.Measured != 8 {
		t.Errorf("outcome %+v: want 8 windows, complete", fr.outcome)
	}
	slots := bySlot(t, fr.windows(t))
	checkMeasured(t, "healthy slot", slots["crash_after=0s"], 4)

	crashing := slots["crash_after=400ms"]
	if len(crashing) != 4 {
		t.Fatalf("crashing slot: %d windows, want 4", len(crashing))
	}
	crashes := 0
	for _, w := range crashing {
		t.Logf("crashing slot, round %d: %s", w.Round, w.FailReason)
		switch {
		case !w.Failed:
			t.Errorf("round %d of the crashing slot not failed: %d requests", w.Round, w.Requests)
		case strings.HasPrefix(w.FailReason, "slot given up"):
		default: // the window the server died in (or, on a slow start, right before)
			crashes++
			if w.ExitStatus != "exit status 3" || !strings.Contains(w.StderrTail, "burner: crashing on purpose") {
				t.Errorf("round %d: %q, exit status %q, stderr tail %q; want exit status 3 and the burner's last words",
					w.Round, w.FailReason, w.ExitStatus, w.StderrTail)
			}
		}
	}
	if crashes == 0 {
		t.Errorf("no window recorded a crash: %+v", crashing)
	}
	// Two crashes at most (the first, and the one after the restart), then
	// the slot is given up: the last rounds say so and why.
	if fr.outcome.Failed != 4 {
		t.Errorf("outcome counts %d failed windows, want 4", fr.outcome.Failed)
	}
	for _, w := range crashing[2:] {
		if !strings.HasPrefix(w.FailReason, "slot given up after ") || !strings.Contains(w.FailReason, "exit status 3") {
			t.Errorf("round %d: fail reason %q, want the slot given up after crashes with exit status 3", w.Round, w.FailReason)
		}
	}
	if !strings.Contains(fr.log.String(), "giving up on slot after repeated crashes") {
		t.Errorf("no give-up message logged:\n%s", fr.log.String())
	}
}

// TestCrashRemeasured: a server that crashes once, in the middle of a
// round's window (its first process to live 600ms), leaves that window
// failed with the exit status and the burner's last words; the slot's
// server is started afresh and the window measured again in the same
// round, so every round of both slots has a good window, the summary
// counts one re-measure, and no cliff is made of the crash. Both ways of
// measuring a round, with the default restarts = "round".
func TestCrashRemeasured(t *testing.T) {
	for _, slice := range []string{"0", "50ms"} {
		t.Run("slice="+slice, func(t *testing.T) { testCrashRemeasured(t, slice) })
	}
}

func testCrashRemeasured(t *testing.T, slice string) {
	mark := filepath.Join(t.TempDir(), "crashed")
	fr := runDriver(t, "", "", fmt.Sprintf(`
name = "crash-once"
[target]
kind = "command"
command = [%q, "-port", "{{port}}", "-burn", "200us", "-crash-after", "{{crash_after}}", "-crash-mark", %q]
[grid]
crash_after = ["0s", "600ms"]
[load]
concurrency = [1]
warmup = "100ms"
duration = "500ms"
slice = %q
rounds = 3
aa = false
`, bins.burner, mark, slice))
	if fr.err != nil {
		t.Fatalf("Run: %v", fr.err)
	}
	if _, err := os.Stat(mark); err != nil {
		t.Fatalf("the burner never crashed: %v", err)
	}
	if !fr.outcome.Complete || fr.outcome.Measured != 6 || fr.outcome.Failed != 1 {
		t.Errorf("outcome %+v: want 6 windows, complete, 1 failed", fr.outcome)
	}
	slots := bySlot(t, fr.windows(t))
	checkMeasured(t, "healthy slot", slots["crash_after=0s"], 3)
	crashing := slots["crash_after=600ms"]
	if len(crashing) != 4 {
		t.Fatalf("crashing slot: %d windows, want 4 (3 rounds and one re-measure)", len(crashing))
	}
	rounds := map[int]int{}
	var failed, again *sweep.Window
	for i, w := range crashing {
		t.Logf("crashing slot, round %d: failed=%t remeasured=%t %d requests %s", w.Round, w.Failed, w.Remeasured, w.Requests, w.FailReason)
		switch {
		case w.Failed:
			failed = &crashing[i]
		case w.Remeasured:
			again = &crashing[i]
		}
		if !w.Failed {
			rounds[w.Round]++
		}
	}
	if failed == nil || again == nil {
		t.Fatalf("want one failed window and one re-measure, got %+v", crashing)
	}
	if failed.ExitStatus != "exit status 3" || !strings.Contains(failed.StderrTail, "burner: crashing on purpose") {
		t.Errorf("failed window: %q, exit status %q, tail %q; want exit status 3 and the burner's last words", failed.FailReason, failed.ExitStatus, failed.StderrTail)
	}
	if again.Round != failed.Round || again.Requests == 0 || again.CPUUsPerReq <= 0 {
		t.Errorf("re-measure: round %d (failed round %d), %d requests, %.1f µs/req; want the same round, measured", again.Round, failed.Round, again.Requests, again.CPUUsPerReq)
	}
	if len(rounds) != 3 {
		t.Errorf("good windows by round %v: want one in each of 3 rounds", rounds)
	}
	if !strings.Contains(fr.log.String(), "re-measuring a failed window") {
		t.Errorf("no re-measure logged:\n%s", fr.log.String())
	}
	s, err := rundir.ReadSummary(fr.dir)
	if err != nil {
		t.Fatal(err)
	}
	if s.Plan.Remeasured != 1 || s.Plan.Measured != 6 || len(s.Cliffs) != 0 {
		t.Errorf("summary: %d re-measured, %d of %d measured, cliffs %v; want 1, 6 of 6, none", s.Plan.Remeasured, s.Plan.Measured, s.Plan.Windows, s.Cliffs)
	}
	for _, c := range s.Cells {
		if c.Config == "crash_after=600ms" && c.Rounds != 3 {
			t.Errorf("crashing cell: %d rounds, want 3 (the re-measure keeps the pair)", c.Rounds)
		}
	}
}

// TestNeverReady: a target that never listens is waited for at most
// ready_timeout per start, its windows fail with the reason and its last
// stderr line, it is given up, and the other slot is still measured.
func TestNeverReady(t *testing.T) {
	fr := runDriver(t, "", "", fmt.Sprintf(`
name = "never-ready"
[target]
kind = "command"
command = [%q, "-port", "{{port}}", "-burn", "200us", "-never-ready={{never}}"]
ready_timeout = "1s"
[grid]
never = [false, true]
[load]
concurrency = [1]
warmup = "100ms"
duration = "300ms"
rounds = 3
aa = false
[run]
restarts = "never" # written for one process per slot
max_restarts = 1
`, bins.burner))
	if fr.err != nil {
		t.Fatalf("Run: %v", fr.err)
	}
	slots := bySlot(t, fr.windows(t))
	checkMeasured(t, "healthy slot", slots["never=false"], 3)
	stuck := slots["never=true"]
	if len(stuck) != 3 {
		t.Fatalf("never-ready slot: %d windows, want 3", len(stuck))
	}
	const why = "target never became ready within 1s: burner: refusing to become ready, as asked"
	// The warmup's start fails (1st try), round 0's start fails (2nd,
	// more than max_restarts = 1): round 0 records the start failure,
	// the later rounds the slot given up, both with the reason.
	for _, w := range stuck {
		t.Logf("never-ready slot, round %d: %s", w.Round, w.FailReason)
	}
	w := stuck[0]
	if !w.Failed || !strings.HasPrefix(w.FailReason, "server failed to start: ") || !strings.Contains(w.FailReason, why) ||
		!strings.Contains(w.StderrTail, "refusing to become ready") {
		t.Errorf("round 0: failed=%t reason %q tail %q; want the start failure, %q and the stderr tail", w.Failed, w.FailReason, w.StderrTail, why)
	}
	for _, w := range stuck[1:] {
		if !w.Failed || !strings.HasPrefix(w.FailReason, "slot given up") || !strings.Contains(w.FailReason, why) {
			t.Errorf("round %d: failed=%t reason %q; want the slot given up because %q", w.Round, w.Failed, w.FailReason, why)
		}
	}
	if strings.Count(fr.log.String(), "giving up on slot") != 1 {
		t.Errorf("want one give-up message in the log:\n%s", fr.log.String())
	}
}

// TestPortCollision: the first server finds its port taken by another
// process (a squatter that holds it without speaking HTTP) and exits; the
// driver starts it again on another free port and no window is lost.
func TestPortCollision(t *testing.T) {
	dir := t.TempDir()
	mark := filepath.Join(dir, "squatted")
	script := filepath.Join(dir, "server.sh")
	// The first start (mkdir succeeds once) starts the squatter on its own
	// port, waits until it holds it, then runs the server there: its bind
	// fails and it exits before it is ready.
	err := os.WriteFile(script, []byte(fmt.Sprintf(`#!/bin/sh
port=$1
if mkdir %[1]q 2>/dev/null; then
	%[2]s=$port:%[3]s %[4]q &
	squatter=$!
	i=0
	while [ ! -e %[3]q ] && [ $i -lt 1000 ]; do sleep 0.01; i=$((i+1)); done
	%[5]q -port "$port"
	status=$?
	kill $squatter
	wait $squatter
	exit $status
fi
exec %[5]q -port "$port" -burn 200us
`, filepath.Join(dir, "first"), squatEnv, mark, os.Args[0], bins.burner)), 0o755)
	if err != nil {
		t.Fatal(err)
	}
	fr := runDriver(t, dir, "", fmt.Sprintf(`
name = "collision"
[target]
kind = "command"
command = [%q, "{{port}}"]
[load]
concurrency = [1]
warmup = "100ms"
duration = "300ms"
rounds = 2
[run]
restarts = "never" # written for one process per slot
`, script))
	if fr.err != nil {
		t.Fatalf("Run: %v", fr.err)
	}
	b, err := os.ReadFile(mark)
	if err != nil {
		t.Fatalf("the squatter never held a port: %v", err)
	}
	if _, err := strconv.Atoi(string(b)); err != nil {
		t.Fatalf("squatter mark %q", b)
	}
	slots := bySlot(t, fr.windows(t))
	checkMeasured(t, "baseline", slots["(default)"], 2)
	checkMeasured(t, "A/A twin", slots["(default)"+AASuffix], 2)
	if !strings.Contains(fr.log.String(), "retrying on another port") {
		t.Errorf("no retry logged:\n%s", fr.log.String())
	}
}

// TestDiskFull runs out of space in results.jsonl (a 64 KiB tmpfs with
// room for one page of results): the run fails with an error naming
// results.jsonl, every window recorded as written is on disk, and once
// there is room again -resume completes the run without losing any.
func TestDiskFull(t *testing.T) {
	mnt := t.TempDir()
	if err := syscall.Mount("tmpfs", mnt, "tmpfs", 0, "size=64k"); err != nil {
		t.Skipf("cannot mount a tmpfs (needs root): %v", err)
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(mnt, 0); err != nil {
			t.Errorf("unmount %s: %v", mnt, err)
		}
	})
	// All pages but three: they hold config.toml, origin.json and one
	// page of results.jsonl (a window line is under 1 KiB).
	filler := filepath.Join(mnt, "filler")
	if err := os.WriteFile(filler, make([]byte, 64<<10-3*os.Getpagesize()), 0o644); err != nil {
		t.Fatal(err)
	}
	toml := fmt.Sprintf(`
name = "disk-full"
[target]
kind = "command"
command = [%q, "{{port}}", "{{burn_us}}"]
[grid]
burn_us = [100, 200]
[load]
concurrency = [1]
warmup = "100ms"
duration = "200ms"
rounds = 6
aa = false
[run]
restarts = "never" # written for one process per slot
`, bins.truth)
	cfgDir := t.TempDir()
	out := filepath.Join(mnt, "run")
	fr := runDriver(t, cfgDir, out, toml)
	if fr.err == nil {
		t.Fatal("Run on a full disk succeeded")
	}
	resPath := filepath.Join(out, rundir.ResultsFile)
	if msg := fr.err.Error(); !strings.Contains(msg, resPath) || !strings.Contains(msg, "no space left on device") {
		t.Errorf("error %q does not name %s and the cause", msg, resPath)
	}
	var written int
	if _, err := fmt.Sscanf(fr.progress.String()[strings.LastIndex(fr.progress.String(), "measured "):], "measured %d windows", &written); err != nil {
		t.Fatalf("no final progress line in %q", fr.progress.String())
	}
	ws := fr.windows(t)
	if written == 0 || written >= fr.outcome.Planned {
		t.Fatalf("%d windows written of %d planned; want some, then a full disk", written, fr.outcome.Planned)
	}
	if len(ws) != written {
		t.Errorf("results.jsonl holds %d windows, the driver reported %d as written", len(ws), written)
	}
	t.Logf("%d of %d windows written before: %v", written, fr.outcome.Planned, fr.err)

	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	cfg := fr.cfg
	oc, err := Run(context.Background(), Options{Config: cfg, Dir: out, Exe: bins.sweep, Resume: true})
	if err != nil {
		t.Fatalf("resume: %v", err)
	}
	all := fr.windows(t)
	if !oc.Complete || len(all) != oc.Planned {
		t.Errorf("after resume: %d windows of %d, complete %t", len(all), oc.Planned, oc.Complete)
	}
	if len(all) >= len(ws) && !reflect.DeepEqual(all[:len(ws)], ws) {
		t.Error("resume changed windows written before the disk filled")
	}
	slots := bySlot(t, all)
	checkMeasured(t, "burn_us=100", slots["burn_us=100"], 6)
	checkMeasured(t, "burn_us=200", slots["burn_us=200"], 6)
}

// Plugins for TestBadPlugin, core ABI.
const (
	trapWAT = `(module
  (memory (export "memory") 1)
  (func (export "handle") (param i32 i32) (result i64)
    unreachable))`
	loopWAT = `(module
  (memory (export "memory") 1)
  (func (export "handle") (param i32 i32) (result i64)
    (loop $forever (br $forever))
    (i64.const 0)))`
)

// TestBadPlugin runs the built-in host with a plugin that traps on every
// request and one that never returns: every request is an error (a 500,
// or a timeout at load.timeout), the windows are measurements, not
// failures, and the host survives them all.
func TestBadPlugin(t *testing.T) {
	for _, p := range []struct{ name, wat string }{{"trap", trapWAT}, {"loop", loopWAT}} {
		t.Run(p.name, func(t *testing.T) {
			dir := t.TempDir()
			wasm, err := wasmtime.Wat2Wasm(p.wat)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, p.name+".wasm"), wasm, 0o644); err != nil {
				t.Fatal(err)
			}
			fr := runDriver(t, dir, "", fmt.Sprintf(`
name = %q
[target]
plugin = "%s.wasm"
[load]
concurrency = [1]
warmup = "100ms"
duration = "300ms"
timeout = "250ms"
rounds = 2
`, p.name, p.name))
			if fr.err != nil {
				t.Fatalf("Run: %v", fr.err)
			}
			ws := fr.windows(t)
			if len(ws) != 4 {
				t.Fatalf("%d windows, want 4", len(ws))
			}
			for _, w := range ws {
				var terr int64
				for _, n := range w.TransportErrors {
					terr += n
				}
				if w.Failed || w.ExitStatus != "" {
					t.Errorf("%s round %d: the host did not survive: %s (%s)", w.Config, w.Round, w.FailReason, w.ExitStatus)
				}
				if w.Requests == 0 || w.Success != 0 || w.Errors5xx+terr != w.Requests || w.ErrorRate != 1 {
					t.Errorf("%s round %d: %d requests, %d ok, %d 5xx, transport errors %v, error rate %.2f; want every request an error",
						w.Config, w.Round, w.Requests, w.Success, w.Errors5xx, w.TransportErrors, w.ErrorRate)
				}
				if p.name == "trap" && w.StatusCodes["500"] != w.Requests {
					t.Errorf("%s round %d: status codes %v, want only 500s", w.Config, w.Round, w.StatusCodes)
				}
			}
		})
	}
}

// procStat is a process's state, parent and process group from
// /proc/PID/stat.
func procStat(pid int) (state byte, ppid, pgid int, err error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, 0, 0, err
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 3 {
		return 0, 0, 0, fmt.Errorf("/proc/%d/stat: %q", pid, s)
	}
	ppid, _ = strconv.Atoi(f[1])
	pgid, _ = strconv.Atoi(f[2])
	return f[0][0], ppid, pgid, nil
}

// processes lists the live (not zombie) processes matching keep.
func processes(keep func(pid, ppid, pgid int) bool) []int {
	ents, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		state, ppid, pgid, err := procStat(pid)
		if err == nil && state != 'Z' && keep(pid, ppid, pgid) {
			out = append(out, pid)
		}
	}
	return out
}

// sweepProc is the real sweep binary running a config in its own process
// group, as a shell would start it.
type sweepProc struct {
	cmd            *exec.Cmd
	dir            string
	stdout, stderr syncBuffer
	exited         chan struct{}
}

func startSweep(t *testing.T, toml string) *sweepProc {
	t.Helper()
	dir := t.TempDir()
	cfg := filepath.Join(dir, "grid.toml")
	if err := os.WriteFile(cfg, []byte(toml), 0o644); err != nil {
		t.Fatal(err)
	}
	p := &sweepProc{dir: filepath.Join(dir, "run"), exited: make(chan struct{})}
	p.cmd = exec.Command(bins.sweep, "-config", cfg, "-out", p.dir)
	p.cmd.Stdout, p.cmd.Stderr = &p.stdout, &p.stderr
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { _ = p.cmd.Wait(); close(p.exited) }()
	t.Cleanup(func() {
		select {
		case <-p.exited:
		default:
			_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
			<-p.exited
		}
	})
	return p
}

// waitWindows waits (at most 60 s) until results.jsonl holds n windows.
func (p *sweepProc) waitWindows(t *testing.T, n int) {
	t.Helper()
	for end := time.Now().Add(60 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if ws, err := results.Read(filepath.Join(p.dir, rundir.ResultsFile)); err == nil && len(ws) >= n {
			return
		}
	}
	t.Fatalf("results.jsonl never reached %d windows; stderr:\n%s", n, p.stderr.String())
}

// servers returns the server processes sweep started (its children) and
// every live member of their process groups.
func (p *sweepProc) servers(t *testing.T) (children []int, groups map[int]bool) {
	t.Helper()
	children = processes(func(_, ppid, _ int) bool { return ppid == p.cmd.Process.Pid })
	groups = map[int]bool{}
	for _, c := range children {
		if _, _, g, err := procStat(c); err == nil {
			groups[g] = true
		}
	}
	return children, groups
}

// sigint sends SIGINT to sweep's process group, as Ctrl-C in a terminal
// does.
func (p *sweepProc) sigint(t *testing.T) {
	t.Helper()
	if err := syscall.Kill(-p.cmd.Process.Pid, syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
}

// waitStderr waits (at most 60 s) until sweep has said want on stderr.
func (p *sweepProc) waitStderr(t *testing.T, want string) {
	t.Helper()
	for end := time.Now().Add(60 * time.Second); time.Now().Before(end); time.Sleep(time.Millisecond) {
		if strings.Contains(p.stderr.String(), want) {
			return
		}
	}
	t.Fatalf("sweep never said %q; stderr:\n%s", want, p.stderr.String())
}

// wait waits (at most 60 s) for sweep to exit and returns its exit code.
func (p *sweepProc) wait(t *testing.T) int {
	t.Helper()
	select {
	case <-p.exited:
	case <-time.After(60 * time.Second):
		t.Fatalf("sweep still running 60 s after SIGINT; stderr:\n%s", p.stderr.String())
	}
	return p.cmd.ProcessState.ExitCode()
}

// checkNoOrphans fails if any server process or member of a server's
// process group is still alive.
func checkNoOrphans(t *testing.T, children []int, groups map[int]bool) {
	t.Helper()
	if len(children) == 0 {
		t.Fatal("sweep had no server processes when it was interrupted")
	}
	left := processes(func(pid, _, pgid int) bool { return groups[pgid] })
	if len(left) > 0 {
		t.Errorf("server processes left after sweep exited: %v (servers were %v)", left, children)
		for _, pid := range left {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// interruptConfig is a run of 2 slots × 4 rounds of the C truth server.
var interruptConfig = func() string {
	return fmt.Sprintf(`
name = "interrupt"
[target]
kind = "command"
command = [%q, "{{port}}", "{{burn_us}}"]
[grid]
burn_us = [100, 200]
[load]
concurrency = [1]
warmup = "100ms"
duration = "300ms"
rounds = 4
aa = false
[run]
restarts = "never" # written for one process per slot
`, bins.truth)
}

// TestCtrlC interrupts the real sweep binary with SIGINT part-way: it
// stops, leaves no server process behind, keeps what it measured with a
// summary and charts, exits 1; -resume then completes the run with every
// planned window exactly once.
func TestCtrlC(t *testing.T) {
	p := startSweep(t, interruptConfig())
	p.waitWindows(t, 2)
	children, groups := p.servers(t)
	p.sigint(t)
	if code := p.wait(t); code != 1 {
		t.Errorf("exit code %d after SIGINT, want 1; stderr:\n%s", code, p.stderr.String())
	}
	checkNoOrphans(t, children, groups)
	if !strings.Contains(p.stderr.String(), "sweep: interrupted; ") || !strings.Contains(p.stderr.String(), "continue with -resume "+p.dir) {
		t.Errorf("stderr does not say how to continue:\n%s", p.stderr.String())
	}
	first, err := results.Read(filepath.Join(p.dir, rundir.ResultsFile))
	if err != nil {
		t.Fatal(err)
	}
	if len(first) < 2 || len(first) >= 8 {
		t.Fatalf("%d windows kept after the interrupt, want 2..7", len(first))
	}
	for _, f := range []string{rundir.SummaryFile, "summary.md", "throughput.png", "cpu_per_request.png"} {
		if _, err := os.Stat(filepath.Join(p.dir, f)); err != nil {
			t.Errorf("no %s for the finished windows: %v", f, err)
		}
	}

	resume := exec.Command(bins.sweep, "-resume", p.dir, "-q")
	if out, err := resume.CombinedOutput(); err != nil {
		t.Fatalf("sweep -resume: %v\n%s", err, out)
	}
	all, err := results.Read(filepath.Join(p.dir, rundir.ResultsFile))
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 8 {
		t.Errorf("after -resume: %d windows, want the 8 planned", len(all))
	}
	if !reflect.DeepEqual(all[:len(first)], first) {
		t.Error("-resume rewrote windows measured before the interrupt")
	}
	slots := bySlot(t, all)
	checkMeasured(t, "burn_us=100", slots["burn_us=100"], 4)
	checkMeasured(t, "burn_us=200", slots["burn_us=200"], 4)
}

// TestCtrlCTwice: a second SIGINT while sweep is stopping its servers
// makes it exit at once with status 130, still without leaving a server
// behind. The servers ignore SIGTERM, so the orderly stop after the first
// SIGINT would wait out its grace period.
func TestCtrlCTwice(t *testing.T) {
	p := startSweep(t, fmt.Sprintf(`
name = "interrupt-twice"
[target]
kind = "command"
command = ["/bin/sh", "-c", "trap '' TERM; exec \"$0\" \"$@\"", %q, "{{port}}", "{{burn_us}}"]
[grid]
burn_us = [100, 200]
[load]
concurrency = [1]
warmup = "100ms"
duration = "300ms"
rounds = 4
aa = false
[run]
restarts = "never" # written for one process per slot
`, bins.truth))
	p.waitWindows(t, 1)
	children, groups := p.servers(t)
	p.sigint(t)
	// Two signals sent back to back would merge into one pending SIGINT:
	// the second one comes once sweep has seen the first.
	p.waitStderr(t, "Ctrl-C again to exit at once")
	p.sigint(t)
	if code := p.wait(t); code != 130 {
		t.Errorf("exit code %d after two SIGINTs, want 130; stderr:\n%s", code, p.stderr.String())
	}
	checkNoOrphans(t, children, groups)
	if msg := p.stderr.String(); !strings.Contains(msg, "sweep: exiting now") || strings.Contains(msg, "sweep: interrupted;") {
		t.Errorf("want the immediate exit, not the orderly stop; stderr:\n%s", msg)
	}
}
