package driver

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	pprof "github.com/google/pprof/profile"

	"github.com/sweep-dev/sweep/sweep/profile"
	"github.com/sweep-dev/sweep/sweep/report"
	"github.com/sweep-dev/sweep/sweep/rundir"
)

// profileGrid is the built-in host with 64 KiB dirtied per request,
// keep_resident 0 against 64KiB, at c = 1 and 16; extra is appended.
const profileGrid = `
name = "profiles"
[workload]
touch = "64KiB"
[grid]
linear_memory_keep_resident = [0, "64KiB"]
[load]
concurrency = [1, 16]
warmup = "200ms"
duration = "1s"
rounds = 2
aa = false
`

// perfWatch records the times at which a perf process was seen, until
// stop is closed.
func perfWatch(stop <-chan struct{}) func() []time.Time {
	var mu sync.Mutex
	var seen []time.Time
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
			ps, _ := filepath.Glob("/proc/[0-9]*/cmdline")
			for _, p := range ps {
				if b, err := os.ReadFile(p); err == nil && bytes.HasPrefix(b, []byte("perf\x00record")) {
					mu.Lock()
					seen = append(seen, time.Now())
					mu.Unlock()
					break
				}
			}
		}
	}()
	return func() []time.Time { <-done; mu.Lock(); defer mu.Unlock(); return seen }
}

// TestProfileCells: with analysis.profile every cell gets a pprof
// profile of its server that go tool pprof opens, profiles.json names
// them, keep_resident 0 spends more µs per request in page faults and
// madvise than 64KiB at both levels, summary.md (rendered from the run)
// has the section, and perf
// ran only after the last measured window.
func TestProfileCells(t *testing.T) {
	if err := profile.Check(t.Context()); err != nil {
		t.Skip(err)
	}
	stop := make(chan struct{})
	seen := perfWatch(stop)
	dir, _, ws := run(t, profileGrid+"[analysis]\nprofile = true\n")
	close(stop)
	ps, err := report.ReadProfiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 4 {
		t.Fatalf("%d profiles, want 4 (2 configs × 2 levels)", len(ps))
	}
	memory := map[string]map[int]float64{} // config → level → page fault + madvise µs/req
	for _, p := range ps {
		f, err := os.Open(filepath.Join(dir, p.File))
		if err != nil {
			t.Fatal(err)
		}
		prof, err := pprof.Parse(f)
		f.Close()
		if err != nil || prof.CheckValid() != nil || len(prof.Sample) == 0 {
			t.Errorf("%s: %v, valid: %v, %d samples", p.File, err, prof.CheckValid(), len(prof.Sample))
		}
		if p.Requests <= 0 || p.Samples <= 0 || len(p.Families) == 0 {
			t.Errorf("%s c=%d: %d requests, %d samples, %d families", p.Config, p.Concurrency, p.Requests, p.Samples, len(p.Families))
		}
		if memory[p.Config] == nil {
			memory[p.Config] = map[int]float64{}
		}
		for _, fam := range p.Families {
			if fam.Name == profile.PageFault || fam.Name == profile.Madvise {
				memory[p.Config][p.Concurrency] += fam.UsPerReq
			}
		}
	}
	for _, c := range []int{1, 16} {
		zero, kept := memory["linear_memory_keep_resident=0"][c], memory["linear_memory_keep_resident=64KiB"][c]
		if zero <= kept {
			t.Errorf("c=%d: page fault + madvise %.1f µs/req at keep_resident 0, %.1f at 64KiB; want more at 0", c, zero, kept)
		}
	}
	if out, err := exec.Command("go", "tool", "pprof", "-top", filepath.Join(dir, ps[0].File)).CombinedOutput(); err != nil || !bytes.Contains(out, []byte("flat%")) {
		t.Errorf("go tool pprof -top: %v\n%s", err, out)
	}
	if err := report.Render(dir); err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(dir, rundir.SummaryMD))
	if err != nil || !bytes.Contains(md, []byte("## Profiles: where the CPU goes")) || !bytes.Contains(md, []byte("page fault −")) {
		t.Errorf("summary.md lacks the profiles section or a page-fault difference (%v)", err)
	}
	var last time.Time
	for _, w := range ws {
		if end := w.Start.Add(time.Duration(w.Seconds * float64(time.Second))); end.After(last) {
			last = end
		}
	}
	ts := seen()
	if len(ts) == 0 {
		t.Fatal("no perf process seen")
	}
	if ts[0].Before(last) {
		t.Errorf("perf ran at %s, before the last measured window ended (%s)", ts[0].Format(time.StampMilli), last.Format(time.StampMilli))
	}
}

// TestProfileOff: without analysis.profile no perf process starts and no
// profile is written; with it but no perf on PATH, the run goes on and
// summary.json carries one no_profile warning.
func TestProfileOff(t *testing.T) {
	stop := make(chan struct{})
	seen := perfWatch(stop)
	dir, _, _ := run(t, profileGrid)
	close(stop)
	if ts := seen(); len(ts) != 0 {
		t.Errorf("a perf process ran %d times without analysis.profile", len(ts))
	}
	if _, err := os.Stat(filepath.Join(dir, rundir.ProfilesFile)); err == nil {
		t.Errorf("profiles.json written without analysis.profile")
	}

	t.Setenv("PATH", t.TempDir()) // no perf
	_, s, _ := run(t, profileGrid+"[analysis]\nprofile = true\n")
	var n int
	for _, w := range s.Warnings {
		if w.Code == "no_profile" {
			n++
		}
	}
	if n != 1 || !s.Complete {
		t.Errorf("without perf: %d no_profile warnings, complete %v; want 1 and a complete run (%+v)", n, s.Complete, s.Warnings)
	}
}

// TestProfileCommandTarget: a command target's server is profiled by its
// PID like the built-in host (issue 19, item 4): the Go burner, whose
// handler spins, gets a profile of its own samples whose largest family
// is user code, not the kernel.
func TestProfileCommandTarget(t *testing.T) {
	if err := profile.Check(t.Context()); err != nil {
		t.Skip(err)
	}
	dir, _, _ := run(t, fmt.Sprintf(`
name = "profile-command"
[target]
kind = "command"
command = [%q, "-port", "{{port}}", "-burn", "{{burn}}"]
url = "http://127.0.0.1:{{port}}/"
[grid]
burn = ["500us", "1ms"]
[load]
concurrency = [1]
warmup = "200ms"
duration = "1s"
rounds = 2
aa = false
[analysis]
profile = true
`, bins.burner))
	ps, err := report.ReadProfiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 2 {
		t.Fatalf("%d profiles, want 2", len(ps))
	}
	for _, p := range ps {
		if p.Samples == 0 || len(p.Families) == 0 {
			t.Fatalf("%s: %d samples, %d families", p.Config, p.Samples, len(p.Families))
		}
		if top := p.Families[0].Name; top != profile.GoRuntime && top != profile.OtherUser {
			t.Errorf("%s: largest family %q (%+v), want the burner's user code", p.Config, top, p.Families)
		}
	}
}
