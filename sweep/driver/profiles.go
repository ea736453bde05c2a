package driver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/config"
	"github.com/sweep-dev/sweep/sweep/profile"
	"github.com/sweep-dev/sweep/sweep/rundir"
	"github.com/sweep-dev/sweep/sweep/schedule"
)

// perfSettle is how long perf record is given to start sampling before
// the profiled window's load begins; the recording runs on for as long
// again after it (the server is idle then, and idle costs no samples).
const perfSettle = 500 * time.Millisecond

// ProfileCellTime is how long one profiled cell (analysis.profile) keeps
// its server loaded or sampled: a warmup, one window and perf's settling
// on both sides of it. The server's start and perf's conversion of the
// samples are not in it.
func ProfileCellTime(c *config.Config) time.Duration {
	return c.Load.Warmup + c.Load.Duration + 2*perfSettle
}

// ProfiledCells is the number of cells analysis.profile profiles in
// blocks: every level of every profiled slot.
func ProfiledCells(c *config.Config, blocks [][]schedule.Slot) int {
	cells := 0
	for _, slots := range blocks {
		for _, s := range slots {
			if profiled(s) {
				cells += len(c.Load.Concurrency)
			}
		}
	}
	return cells
}

// profiled reports whether analysis.profile profiles slot s: the
// baseline and the configs, not an A/A twin or a reference.
func profiled(s schedule.Slot) bool { return !s.AA && !s.Reference }

// profileCells is analysis.profile: after the measured windows, for every
// block, level and profiled slot (the baseline and the configs), a fresh
// warmup and one window of load.duration with perf sampling the slot's
// CPUs; the server's samples become a pprof profile in profiles/ and a
// sweep.CellProfile in profiles.json. A cell that cannot be profiled (its
// server does not start, perf fails) is skipped with a note; when perf
// cannot sample here at all, the returned warning says why and nothing
// else happens. Only completed cells are written, as each ends.
func (r *runner) profileCells(ctx context.Context, blocks [][]schedule.Slot) ([]sweep.CellProfile, []sweep.Warning) {
	if err := profile.Check(ctx); err != nil {
		return nil, []sweep.Warning{{Code: sweep.WarnNoProfile, Message: "analysis.profile: no profiles: " + err.Error()}}
	}
	dir := rundir.Dir(r.o.Dir).ProfilesDir()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, []sweep.Warning{{Code: sweep.WarnNoProfile, Message: "analysis.profile: " + err.Error()}}
	}
	var out []sweep.CellProfile
	var warns []sweep.Warning
	for _, slots := range blocks {
		for _, conc := range r.c.Load.Concurrency {
			for _, s := range slots {
				if !profiled(s) {
					continue
				}
				if ctx.Err() != nil {
					return out, warns
				}
				cp, err := r.profileCell(ctx, s, conc, dir)
				if err != nil {
					warns = append(warns, sweep.Warning{Code: sweep.WarnNoProfile, Config: s.Config, Conc: conc,
						Message: fmt.Sprintf("no profile of %s at c=%d: %v", s.Config, conc, err)})
					continue
				}
				out = append(out, cp)
				if err := writeProfiles(r.o.Dir, out); err != nil {
					return out, append(warns, sweep.Warning{Code: sweep.WarnNoProfile, Message: "analysis.profile: " + err.Error()})
				}
			}
			r.stopAll()
		}
	}
	return out, warns
}

// profileCell profiles one slot at one level.
func (r *runner) profileCell(ctx context.Context, s schedule.Slot, conc int, dir string) (sweep.CellProfile, error) {
	cp := sweep.CellProfile{Config: s.Config, Baseline: s.Baseline, Concurrency: conc, Block: s.Block}
	st := r.slots[s.Index]
	if st.givenUp {
		return cp, errors.New("the slot was given up")
	}
	if _, err := r.ensure(ctx, st); err != nil || st.srv == nil {
		return cp, fmt.Errorf("server did not start: %v", err)
	}
	g, err := r.generator(st, conc)
	if err != nil {
		return cp, err
	}
	if _, err := g.Run(ctx, r.c.Load.Warmup); err != nil {
		return cp, fmt.Errorf("warmup: %w", err)
	}
	name := fileName(s, conc)
	data := filepath.Join(dir, name+".perf.data")
	defer os.Remove(data)
	d := r.c.Load.Duration
	rec := make(chan error, 1)
	go func() { rec <- profile.Record(ctx, st.cpus, d+2*perfSettle, data) }()
	time.Sleep(perfSettle)
	res, loadErr := g.Run(ctx, d)
	if err := <-rec; err != nil {
		return cp, err
	}
	if loadErr != nil {
		return cp, fmt.Errorf("load: %w", loadErr)
	}
	p, err := profile.Convert(ctx, data, st.srv.PID)
	if err != nil {
		return cp, err
	}
	f, err := os.Create(filepath.Join(dir, name+".pb.gz"))
	if err != nil {
		return cp, err
	}
	if err := p.Write(f); err != nil {
		f.Close()
		return cp, fmt.Errorf("writing profile: %w", err)
	}
	if err := f.Close(); err != nil {
		return cp, err
	}
	cp.File = filepath.Join(rundir.ProfilesDir, name+".pb.gz")
	cp.Requests, cp.Seconds = res.Requests, res.Seconds
	for _, fam := range profile.Families(p) {
		cp.Samples += fam.Samples
		fc := sweep.FamilyCPU{Name: fam.Name, CPUNs: fam.CPU.Nanoseconds(), Share: fam.Share}
		if res.Requests > 0 {
			fc.UsPerReq = float64(fam.CPU) / 1e3 / float64(res.Requests)
		}
		cp.Families = append(cp.Families, fc)
	}
	return cp, nil
}

// fileName is a profile's file name: the config label with everything but
// letters, digits, '.' and '-' as '_', the level, and the block when
// there are several.
func fileName(s schedule.Slot, conc int) string {
	label := strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '.' || r == '-' {
			return r
		}
		return '_'
	}, s.Config)
	return fmt.Sprintf("%s-c%d-b%d", label, conc, s.Block)
}

// writeProfiles writes profiles.json (rundir.WriteFile: whole or not at all).
func writeProfiles(dir string, ps []sweep.CellProfile) error {
	b, err := json.MarshalIndent(ps, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding profiles: %w", err)
	}
	return rundir.WriteFile(rundir.Dir(dir).Profiles(), append(b, '\n'))
}
