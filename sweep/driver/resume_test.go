package driver

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/sweep-dev/sweep/sweep/results"
	"github.com/sweep-dev/sweep/sweep/rundir"
)

// TestInterruptAndResume cancels a real run part-way, checks that every
// finished window is on disk and a summary was written for them, then
// resumes it: the run completes without redoing (or losing) any window.
func TestInterruptAndResume(t *testing.T) {
	dir := t.TempDir()
	toml := fmt.Sprintf(`
name = "resume"
[target]
kind = "command"
command = [%q, "{{port}}", "{{burn_us}}"]
[grid]
burn_us = [100, 200]
[load]
concurrency = [1]
warmup = "100ms"
duration = "300ms"
rounds = 5
aa = false
[run]
restarts = "never" # written for one process per slot
`, bins.truth)
	cfg := loadConfig(t, dir, toml)
	out := filepath.Join(dir, "run")
	resPath := filepath.Join(out, rundir.ResultsFile)

	ctx, cancel := context.WithCancel(context.Background())
	go func() { // cancel once a few windows are on disk
		defer cancel()
		for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if ws, err := results.Read(resPath); err == nil && len(ws) >= 3 {
				return
			}
		}
	}()
	oc, err := Run(ctx, Options{Config: cfg, Dir: out, Exe: bins.sweep})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted Run error = %v, want context.Canceled", err)
	}
	first, err := results.Read(resPath)
	if err != nil {
		t.Fatal(err)
	}
	if len(first) < 3 || len(first) >= oc.Planned || oc.Complete {
		t.Fatalf("after interrupt: %d windows of %d planned, complete=%v", len(first), oc.Planned, oc.Complete)
	}
	s, err := os.ReadFile(filepath.Join(out, rundir.SummaryFile))
	if err != nil || len(s) == 0 {
		t.Fatalf("no summary after interrupt: %v", err)
	}

	oc2, err := Run(context.Background(), Options{Config: cfg, Dir: out, Exe: bins.sweep, Resume: true})
	if err != nil {
		t.Fatalf("resumed Run: %v", err)
	}
	all, err := results.Read(resPath)
	if err != nil {
		t.Fatal(err)
	}
	if !oc2.Complete || len(all) != oc2.Planned {
		t.Fatalf("after resume: %d windows, planned %d, complete %v", len(all), oc2.Planned, oc2.Complete)
	}
	if !reflect.DeepEqual(all[:len(first)], first) {
		t.Error("resume rewrote windows that were already on disk")
	}
	seen := map[any]bool{}
	for _, w := range all {
		if seen[w.Key()] {
			t.Errorf("window %+v measured twice", w.Key())
		}
		seen[w.Key()] = true
	}
}
