package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestWithoutCgo builds sweep with CGO_ENABLED=0 (what a macOS or Windows
// user without a C toolchain gets; `make cross` builds those) and runs it:
// report, check, init, version and help work, and running a sweep or
// serving says it needs Linux with cgo, exit 1, writing nothing.
func TestWithoutCgo(t *testing.T) {
	dir := t.TempDir()
	exe := buildNoCgo(t, dir)
	const fix = "../../sweep/gate/testdata/"
	run := func(args ...string) result {
		cmd := exec.Command(exe, args...)
		cmd.Dir = dir
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		_ = cmd.Run()
		return result{code: cmd.ProcessState.ExitCode(), stdout: stdout.String(), stderr: stderr.String()}
	}
	abs := func(p string) string {
		a, err := filepath.Abs(p)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	for _, tt := range []struct {
		args []string
		code int
		want string // in stdout + stderr
	}{
		{[]string{"version"}, 0, "wasmtime none (this build cannot run sweeps: it needs Linux with cgo)"},
		{[]string{"help"}, 0, "sweep check [flags] RUN_DIR"},
		{[]string{"-h"}, 0, "sweep init"},
		{[]string{"check", "-baseline", abs(fix + "base"), abs(fix + "aa")}, 0, "ok "},
		{[]string{"check", "-baseline", abs(fix + "base"), abs(fix + "regressed")}, 1, "REGRESSED"},
		{[]string{"init", "-"}, 0, "[grid]"},
		{[]string{"-config", abs("../../configs/grid.toml")}, 1, "sweep: running a sweep needs Linux and a cgo build"},
		{[]string{"serve"}, 1, "sweep: sweep serve needs Linux and a cgo build"},
	} {
		r := run(tt.args...)
		if r.code != tt.code || !strings.Contains(r.stdout+r.stderr, tt.want) {
			t.Errorf("sweep %q: exit %d, output\n%s%s\nwant exit %d and %q", tt.args, r.code, r.stdout, r.stderr, tt.code, tt.want)
		}
	}
	runDir := t.TempDir()
	for _, f := range []string{"summary.json", "results.jsonl"} {
		b, err := os.ReadFile(filepath.Join("../../sweep/report/testdata/one-config", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(runDir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if r := run("report", runDir); r.code != 0 {
		t.Errorf("sweep report: exit %d\n%s", r.code, r.stderr)
	}
	for _, f := range []string{"summary.md", "throughput.png"} {
		if _, err := os.Stat(filepath.Join(runDir, f)); err != nil {
			t.Errorf("sweep report did not write %s: %v", f, err)
		}
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) != 1 {
		t.Errorf("%d entries in the working directory, want only the binary (nothing written by the refused run)", len(ents))
	}
}

// TestMergeWithoutCgo merges the shards of a real sharded run (made on
// this machine: sweep/merge/testdata, blocks.toml as -shard 0/2 and 1/2)
// with a CGO_ENABLED=0 build confined to one CPU (taskset -c 0, where
// taskset exists) and with the cgo build: both succeed and write the
// same bytes, report included. `make merge-check` does the same with
// shards it measures first.
func TestMergeWithoutCgo(t *testing.T) {
	dir := t.TempDir()
	nocgo := buildNoCgo(t, dir)
	shards := []string{"../../sweep/merge/testdata/shard-1", "../../sweep/merge/testdata/shard-0"}
	merge := func(argv0 string, pre []string, out string) {
		t.Helper()
		args := append(append(pre[1:], argv0, "merge", "-out", out), shards...)
		cmd := exec.Command(pre[0], args...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", cmd, err, out)
		}
	}
	one := []string{"env"}
	if p, err := exec.LookPath("taskset"); err == nil {
		one = []string{p, "-c", "0"}
	} else {
		t.Log("no taskset: the CGO_ENABLED=0 merge runs unconfined")
	}
	a, b := filepath.Join(dir, "nocgo"), filepath.Join(dir, "cgo")
	merge(nocgo, one, a)
	merge(sweepBin(t), []string{"env"}, b)
	ents, err := os.ReadDir(b)
	if err != nil {
		t.Fatal(err)
	}
	names := []string{}
	for _, e := range ents {
		names = append(names, e.Name())
		x, err := os.ReadFile(filepath.Join(a, e.Name()))
		if err != nil {
			t.Errorf("the CGO_ENABLED=0 merge lacks %s", e.Name())
			continue
		}
		y, err := os.ReadFile(filepath.Join(b, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(x, y) {
			t.Errorf("%s differs between the CGO_ENABLED=0 and the cgo merge", e.Name())
		}
	}
	if other, _ := os.ReadDir(a); len(other) != len(ents) {
		t.Errorf("the CGO_ENABLED=0 merge wrote %d files, the cgo merge %d", len(other), len(ents))
	}
	for _, want := range []string{"summary.json", "summary.md", "tradeoff.png", "results.jsonl"} {
		if !slices.Contains(names, want) {
			t.Errorf("the merge wrote no %s (files: %v)", want, names)
		}
	}
}

// TestRaceMergeWithoutCgo: a race run summarised again by a CGO_ENABLED=0
// build (sweep merge of the one whole run reports/race-example: a real
// race of configs/race.toml) gives the summary.json the run's directory
// holds, byte for byte, race block and race-only cells included, and the
// same summary.md: summarize replays the race from its head and
// results.jsonl with no config and no cgo. (The driver's TestRaceBurner
// holds the same for a run just measured.)
func TestRaceMergeWithoutCgo(t *testing.T) {
	dir := t.TempDir()
	exe := buildNoCgo(t, dir)
	run := "../../reports/race-example"
	out := filepath.Join(dir, "again")
	if b, err := exec.Command(exe, "merge", "-out", out, run).CombinedOutput(); err != nil {
		t.Fatalf("sweep merge %s: %v\n%s", run, err, b)
	}
	for _, f := range []string{"summary.json", "summary.md"} {
		want, err := os.ReadFile(filepath.Join(run, f))
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(out, f))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s of the race summarised again without cgo differs from the run's", f)
		}
	}
}

// buildNoCgo builds sweep with CGO_ENABLED=0 into dir and returns its path.
func buildNoCgo(t *testing.T, dir string) string {
	t.Helper()
	exe := filepath.Join(dir, "sweep-nocgo")
	build := exec.Command("go", "build", "-o", exe, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("CGO_ENABLED=0 go build: %v\n%s", err, out)
	}
	return exe
}
