package profile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/google/pprof/profile"
)

// ErrNoSamples is wrapped by Convert's error when a recording holds no
// sample of the process: it did not run on the recorded CPUs, or it was
// idle.
var ErrNoSamples = errors.New("no samples of the process")

// convertTimeout bounds perf script: it reads ~15k lines per busy
// CPU-second in about 0.1 s on sweep's 2-CPU VM, plus ~1 s to load symbols.
const convertTimeout = 2 * time.Minute

// Convert reads a recording made by Record with perf script and returns the
// samples of process pid (all its threads) as a pprof CPU profile: sample
// types samples/count and cpu/nanoseconds (a cpu-clock sample's period is
// its CPU time in ns), one mapping per DSO (the kernel's is
// "[kernel.kallsyms]"), one function per symbol and DSO (an unresolved one
// is "[unknown]", or "[unknown libc.so.6]" when its DSO is known), stacks
// leaf first, each sample labelled with its pid, tid and thread's comm, and
// the executable's mapping first. The profile is valid (CheckValid) and
// opens with go tool pprof; write it with its Write method.
//
// Convert must run while the profiled binaries are still on disk. Its
// error wraps ErrNoSamples when the recording holds no sample of pid.
func Convert(ctx context.Context, perfData string, pid int) (*profile.Profile, error) {
	ctx, cancel := context.WithTimeout(ctx, convertTimeout)
	defer cancel()
	b := newBuilder(pid)
	args := []string{"script", "-i", perfData, "-F", scriptFields, "--ns", "--no-inline"}
	err := streamPerf(ctx, func(r io.Reader) error { return ParseScript(r, b.add) }, args...)
	if err != nil {
		return nil, fmt.Errorf("profile: converting %s: %w", perfData, err)
	}
	if len(b.p.Sample) == 0 {
		return nil, fmt.Errorf("profile: %s: pid %d: %w", perfData, pid, ErrNoSamples)
	}
	p := b.finish()
	if err := p.CheckValid(); err != nil {
		return nil, fmt.Errorf("profile: converting %s: invalid profile: %w", perfData, err)
	}
	return p, nil
}

// builder assembles a pprof profile from perf samples of one process.
type builder struct {
	pid       int
	p         *profile.Profile
	mappings  map[string]*profile.Mapping
	functions map[[2]string]*profile.Function
	locations map[Frame]*profile.Location
	roots     map[string]int // samples by the DSO of their outermost user frame
	first     int64          // time of the first sample of any process, 0 = none yet
	last      int64
	comm      string
}

func newBuilder(pid int) *builder {
	return &builder{
		pid: pid,
		p: &profile.Profile{
			SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
			PeriodType: &profile.ValueType{Type: "cpu", Unit: "nanoseconds"},
		},
		mappings:  map[string]*profile.Mapping{},
		functions: map[[2]string]*profile.Function{},
		locations: map[Frame]*profile.Location{},
		roots:     map[string]int{},
	}
}

// add takes one perf sample: every sample counts towards the recording's
// span, only those of b.pid go into the profile.
func (b *builder) add(s *ScriptSample) error {
	if b.first == 0 || s.Time < b.first {
		b.first = s.Time
	}
	b.last = max(b.last, s.Time)
	if s.PID != b.pid {
		return nil
	}
	if b.p.Period == 0 {
		b.p.Period = s.Period
	}
	if s.PID == s.TID || b.comm == "" {
		b.comm = s.Comm
	}
	ps := &profile.Sample{
		Value:    []int64{1, s.Period},
		Label:    map[string][]string{"comm": {s.Comm}},
		NumLabel: map[string][]int64{"pid": {int64(s.PID)}, "tid": {int64(s.TID)}},
	}
	for _, f := range s.Stack {
		ps.Location = append(ps.Location, b.location(f))
	}
	if k := len(s.Stack); k > 0 && !s.Stack[k-1].Kernel() {
		b.roots[s.Stack[k-1].DSO]++
	}
	b.p.Sample = append(b.p.Sample, ps)
	return nil
}

// location returns the location of frame f, creating it (and its mapping
// and function) on first use.
func (b *builder) location(f Frame) *profile.Location {
	if l := b.locations[f]; l != nil {
		return l
	}
	m := b.mappings[f.DSO]
	if m == nil {
		m = &profile.Mapping{ID: uint64(len(b.p.Mapping) + 1), File: f.DSO, Start: f.Addr, Limit: f.Addr + 1, HasFunctions: true}
		b.mappings[f.DSO] = m
		b.p.Mapping = append(b.p.Mapping, m)
	}
	m.Start = min(m.Start, f.Addr)
	m.Limit = max(m.Limit, f.Addr+1)
	name := f.Func
	if name == unknown && f.DSO != unknown {
		name = "[unknown " + filepath.Base(f.DSO) + "]"
	}
	key := [2]string{name, f.DSO}
	fn := b.functions[key]
	if fn == nil {
		fn = &profile.Function{ID: uint64(len(b.p.Function) + 1), Name: name, SystemName: name, Filename: f.DSO}
		b.functions[key] = fn
		b.p.Function = append(b.p.Function, fn)
	}
	l := &profile.Location{ID: uint64(len(b.p.Location) + 1), Mapping: m, Address: f.Addr, Line: []profile.Line{{Function: fn}}}
	b.locations[f] = l
	b.p.Location = append(b.p.Location, l)
	return l
}

// finish sets the profile's duration (the span of the recording's samples,
// of any process, plus one period) and comment, and puts the mapping of
// the executable first, where pprof looks for the main binary: the DSO
// most samples' outermost user frame is in (_start, runtime.goexit).
func (b *builder) finish() *profile.Profile {
	main, most := "", 0
	for dso, n := range b.roots {
		if n > most || n == most && dso < main {
			main, most = dso, n
		}
	}
	if m := b.mappings[main]; m != nil && main != unknown {
		i := slices.Index(b.p.Mapping, m)
		copy(b.p.Mapping[1:i+1], b.p.Mapping[:i])
		b.p.Mapping[0] = m
		for i, m := range b.p.Mapping {
			m.ID = uint64(i + 1)
		}
	}
	if b.last > b.first {
		b.p.DurationNanos = b.last - b.first + b.p.Period
	}
	b.p.Comments = []string{fmt.Sprintf("perf record -e cpu-clock -a -F %d; samples of pid %d (%s)", Frequency, b.pid, b.comm)}
	return b.p
}

// streamPerf runs perf with args and hands its stdout to read as it comes.
// When ctx ends perf gets SIGINT, then SIGKILL 5 s later. An error of read
// stops perf.
func streamPerf(ctx context.Context, read func(io.Reader) error, args ...string) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cmd := exec.CommandContext(ctx, "perf", args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.StdoutPipe()
	if err != nil {
		return fmt.Errorf("perf %s: %w", args[0], err)
	}
	if err := cmd.Start(); err != nil {
		return &PerfError{Args: args, Err: err}
	}
	rerr := read(out)
	if rerr != nil {
		cancel()
		_, _ = io.Copy(io.Discard, out)
	}
	werr := cmd.Wait()
	switch {
	case rerr != nil:
		return rerr
	case werr != nil:
		if ctx.Err() != nil {
			werr = fmt.Errorf("%w (%w)", ctx.Err(), werr)
		}
		return &PerfError{Args: args, Err: werr, Stderr: firstLines(stderr.String(), 3)}
	}
	return nil
}
