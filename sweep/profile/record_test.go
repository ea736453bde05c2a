//go:build linux

package profile

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/pprof/profile"
	"github.com/sweep-dev/sweep/sweep/cpuset"
	"github.com/sweep-dev/sweep/sweep/probe"
	"golang.org/x/sys/unix"
)

// childEnv makes the test binary run churn instead of the tests.
const childEnv = "SWEEP_PROFILE_TEST_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "churn" {
		churn()
		return
	}
	os.Exit(m.Run())
}

// churn is the profiled child: it maps 1 MiB, then over and over touches
// each of its pages (a page fault each) and gives them back with
// madvise(MADV_DONTNEED), the way Wasmtime's pooling allocator resets a
// memory slot. It says "ready" once busy and stops after 20 s at most.
func churn() {
	mem, err := unix.Mmap(-1, 0, 1<<20, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println("ready")
	for end := time.Now().Add(20 * time.Second); time.Now().Before(end); {
		for i := 0; i < len(mem); i += 4096 {
			mem[i] = 1
		}
		if err := unix.Madvise(mem, unix.MADV_DONTNEED); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}

// startChurn starts churn pinned to cpu and waits until it is busy.
func startChurn(t *testing.T, cpu int) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), childEnv+"=churn")
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cpuset.StartPinned(cmd, cpuset.Set{cpu}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || line != "ready\n" {
		t.Fatalf("child said %q, %v; want ready", line, err)
	}
	return cmd
}

// TestRecordConvert profiles a real process that page-faults and madvises
// on one CPU, for 1 s.
func TestRecordConvert(t *testing.T) {
	ctx := context.Background()
	if err := Check(ctx); err != nil {
		var ue *UnavailableError
		if !errors.As(err, &ue) {
			t.Fatalf("Check: %v, want an *UnavailableError", err)
		}
		t.Skip(err)
	}
	online, err := cpuset.Online()
	if err != nil {
		t.Fatal(err)
	}
	cpu := online[len(online)-1]
	child := startChurn(t, cpu)
	pid := child.Process.Pid

	dir := t.TempDir()
	data := filepath.Join(dir, "perf.data")
	start := time.Now()
	cpuBefore, err := probe.CPU(pid)
	if err != nil {
		t.Fatal(err)
	}
	if err := Record(ctx, []int{cpu}, time.Second, data); err != nil {
		t.Fatal(err)
	}
	cpuAfter, err := probe.CPU(pid)
	if err != nil {
		t.Fatal(err)
	}
	recorded := time.Since(start)
	start = time.Now()
	p, err := Convert(ctx, data, pid)
	if err != nil {
		t.Fatal(err)
	}
	converted := time.Since(start)
	tasks, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	if err != nil {
		t.Fatal(err)
	}
	_ = child.Process.Kill()

	if err := p.CheckValid(); err != nil {
		t.Fatalf("CheckValid: %v", err)
	}
	threads := map[int64]bool{}
	for _, task := range tasks {
		tid, _ := strconv.ParseInt(task.Name(), 10, 64)
		threads[tid] = true
	}
	cpuIdx := valueIndex(p, "cpu")
	var cpuNs int64
	for _, s := range p.Sample {
		if got := s.NumLabel["pid"]; len(got) != 1 || got[0] != int64(pid) {
			t.Fatalf("sample of pid %v, want only pid %d", got, pid)
		}
		if tid := s.NumLabel["tid"]; len(tid) != 1 || !threads[tid[0]] {
			t.Fatalf("sample of tid %v, not a thread of pid %d", tid, pid)
		}
		cpuNs += s.Value[cpuIdx]
	}
	if exe, _ := os.Executable(); p.Mapping[0].File != exe {
		t.Errorf("main mapping %q, want the child's executable %q", p.Mapping[0].File, exe)
	}
	span := time.Duration(p.DurationNanos)
	t.Logf("recording took %v, conversion %v; %d samples of pid %d over %v (%.0f/s), %v of CPU (kernel: %v during Record)",
		recorded.Round(time.Millisecond), converted.Round(time.Millisecond), len(p.Sample), pid,
		span.Round(time.Millisecond), float64(len(p.Sample))/span.Seconds(), time.Duration(cpuNs).Round(time.Millisecond),
		(cpuAfter - cpuBefore).Round(time.Millisecond))
	// The child is busy all along, but shares CPU cpu with whatever else
	// runs there; the kernel's account of its CPU time during Record (perf's
	// start and stop included) bounds what the samples may credit it with.
	used := cpuAfter - cpuBefore
	if sampled := time.Duration(cpuNs); sampled > used+used/10+10*time.Millisecond {
		t.Errorf("samples credit the child with %v of CPU, the kernel with %v", sampled, used)
	}
	if len(p.Sample) < 50 {
		t.Errorf("%d samples of a process busy on CPU %d for 1 s (its CPU during Record: %v), want at least 50", len(p.Sample), cpu, used)
	}

	fams := Families(p)
	var share float64
	for _, f := range fams {
		t.Logf("%-16s %5d samples %8v %5.1f%%", f.Name, f.Samples, f.CPU.Round(time.Millisecond), 100*f.Share)
		if f.Name == PageFault || f.Name == Madvise {
			share += f.Share
		}
	}
	if share < 0.2 {
		t.Errorf("page fault + madvise/munmap = %.0f%% of a page-faulting, madvising process, want > 20%%", 100*share)
	}

	// The written profile reads back and opens with the real go tool pprof.
	file := filepath.Join(dir, "cpu.pb.gz")
	f, err := os.Create(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Write(f); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	back, err := profile.ParseData(b)
	if err != nil {
		t.Fatalf("reading the written profile: %v", err)
	}
	if len(back.Sample) != len(p.Sample) {
		t.Errorf("written profile has %d samples, want %d", len(back.Sample), len(p.Sample))
	}
	goTool := filepath.Join(goroot(t), "bin", "go")
	cmd := exec.Command(goTool, "tool", "pprof", "-top", file)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("go tool pprof -top: %v\n%s", err, stderr.String())
	}
	top := stdout.String()
	t.Logf("go tool pprof -top:\n%s", firstN(top, 12))
	if !strings.Contains(top, "flat%") || !strings.Contains(top, "do_madvise") && !strings.Contains(top, "handle_mm_fault") {
		t.Errorf("go tool pprof -top prints no table of the madvise and fault functions:\n%s", top)
	}

	if _, err := Convert(ctx, data, 1<<22); !errors.Is(err, ErrNoSamples) {
		t.Errorf("Convert of an absent pid: %v, want ErrNoSamples", err)
	}
}

// goroot is the GOROOT of the go command on PATH.
func goroot(t *testing.T) string {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Skipf("no go command: %v", err)
	}
	return strings.TrimSpace(string(out))
}

// firstN returns the first n lines of s.
func firstN(s string, n int) string {
	lines := strings.SplitAfter(s, "\n")
	return strings.Join(lines[:min(n, len(lines))], "")
}

func TestRecordErrors(t *testing.T) {
	if err := Record(context.Background(), nil, 0, filepath.Join(t.TempDir(), "x")); err == nil {
		t.Error("Record for 0 s: no error")
	}
	if _, err := exec.LookPath("perf"); err != nil {
		t.Skip(err)
	}
	bad := filepath.Join(t.TempDir(), "bad.data")
	if err := os.WriteFile(bad, []byte("not a recording"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Convert(context.Background(), bad, 1)
	var pe *PerfError
	if !errors.As(err, &pe) || !slices.Contains(pe.Args, bad) {
		t.Errorf("Convert of a bad file: %v, want a *PerfError naming it", err)
	}
}

func TestCPUList(t *testing.T) {
	if got := cpuList([]int{0, 1, 3}); got != "0,1,3" {
		t.Errorf("cpuList = %q, want 0,1,3", got)
	}
}
