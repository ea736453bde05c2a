package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sweep-dev/sweep/configs"
	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/config"
)

// TestHelp: every help path prints to stdout, exits 0, and lists the
// command's flags.
func TestHelp(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want []string // on stdout
	}{
		{[]string{"-h"}, []string{"usage:", "sweep init", "sweep check [flags] -baseline OLD", "-config", "-dry-run", "-resume"}},
		{[]string{"--help"}, []string{"usage:", "-config"}},
		{[]string{"help"}, []string{"usage:", "sweep serve [flags]", "sweep version", "exit codes: 0 ok"}},
		{[]string{"help", "run"}, []string{"-config", "-out"}},
		{[]string{"help", "check"}, []string{"usage: sweep check [flags] RUN_DIR", "-baseline", "-candidate", "-cpu", "-markdown"}},
		{[]string{"check", "-h"}, []string{"usage: sweep check", "-json", "-p99"}},
		{[]string{"report", "-h"}, []string{"usage: sweep report DIR"}},
		{[]string{"help", "report"}, []string{"usage: sweep report DIR"}},
		{[]string{"serve", "-h"}, []string{"usage: sweep serve [flags]", "-listen", "-linear_memory_keep_resident", "-cpus"}},
		{[]string{"help", "serve"}, []string{"usage: sweep serve", "-gomaxprocs"}},
		{[]string{"init", "-help"}, []string{"usage: sweep init", "-target"}},
		{[]string{"version", "-h"}, []string{"usage: sweep version"}},
		{[]string{"help", "help"}, []string{"usage: sweep help [COMMAND]"}},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			r := sweepCmd(t, tt.args...)
			if r.code != 0 || r.stderr != "" {
				t.Errorf("exit %d, stderr %q; want 0 and nothing", r.code, r.stderr)
			}
			for _, w := range tt.want {
				if !strings.Contains(r.stdout, w) {
					t.Errorf("stdout lacks %q:\n%s", w, r.stdout)
				}
			}
		})
	}
}

// TestVersion: sweep version names sweep's build, Go, Wasmtime and the
// summary schema; -version is the same.
func TestVersion(t *testing.T) {
	for _, arg := range []string{"version", "-version", "--version"} {
		r := sweepCmd(t, arg)
		ls := lines(r.stdout)
		if r.code != 0 || len(ls) != 4 {
			t.Fatalf("%s: exit %d\n%s%s", arg, r.code, r.stdout, r.stderr)
		}
		for i, prefix := range []string{"sweep ", "go go1.", "wasmtime 39.0.1", "summary.json schema " + strconv.Itoa(sweep.SchemaVersion)} {
			if !strings.HasPrefix(ls[i], prefix) {
				t.Errorf("%s: line %d = %q, want prefix %q", arg, i+1, ls[i], prefix)
			}
		}
	}
}

// sweepCmdIn is sweepCmd with dir as the working directory.
func sweepCmdIn(t *testing.T, dir string, args ...string) result {
	t.Helper()
	cmd := exec.Command(sweepBin(t), args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("running sweep %q: %v", args, err)
	}
	return result{code: cmd.ProcessState.ExitCode(), stdout: stdout.String(), stderr: stderr.String()}
}

// TestInit: sweep init writes the embedded config, which loads as a
// config; it never overwrites a file; "-" prints it.
func TestInit(t *testing.T) {
	dir := t.TempDir()
	// The command template runs `sweep` from PATH: a placeholder is enough
	// to load it (it is looked up, not run).
	binDir := t.TempDir()
	if err := os.WriteFile(filepath.Join(binDir, "sweep"), []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", binDir+string(os.PathListSeparator)+os.Getenv("PATH"))
	for _, tt := range []struct {
		args []string
		file string
		kind sweep.TargetKind
		text string
	}{
		{nil, "sweep.toml", sweep.TargetBuiltin, configs.Builtin},
		{[]string{"-target", "command", "mine.toml"}, "mine.toml", sweep.TargetCommand, configs.Command},
	} {
		t.Run(tt.file, func(t *testing.T) {
			cmd := sweepCmdIn(t, dir, append([]string{"init"}, tt.args...)...)
			if cmd.code != 0 || !strings.Contains(cmd.stdout, "wrote "+tt.file+" (target "+string(tt.kind)+"); next: sweep -config "+tt.file+" -dry-run") {
				t.Fatalf("exit %d\n%s%s", cmd.code, cmd.stdout, cmd.stderr)
			}
			path := filepath.Join(dir, tt.file)
			b, err := os.ReadFile(path)
			if err != nil || string(b) != tt.text {
				t.Fatalf("%s: %v; the file is not the embedded config", path, err)
			}
			c, err := config.Load(path)
			if err != nil {
				t.Fatalf("the written config does not load: %v", err)
			}
			if c.Target.Kind != tt.kind {
				t.Errorf("target %q, want %q", c.Target.Kind, tt.kind)
			}
			// Again: the file is there, so nothing is written and exit is 2.
			if err := os.WriteFile(path, []byte("mine"), 0o644); err != nil {
				t.Fatal(err)
			}
			again := sweepCmdIn(t, dir, append([]string{"init"}, tt.args...)...)
			if again.code != 2 || !strings.Contains(again.stderr, tt.file+" exists; remove it or name another FILE") {
				t.Errorf("over an existing file: exit %d, stderr %q", again.code, again.stderr)
			}
			if b, _ := os.ReadFile(path); string(b) != "mine" {
				t.Errorf("the existing file was overwritten")
			}
		})
	}
	r := sweepCmd(t, "init", "-target", "command", "-")
	if r.code != 0 || r.stdout != configs.Command {
		t.Errorf("init -: exit %d, stdout is not the command config", r.code)
	}
}
