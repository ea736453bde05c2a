package driver

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/awake"
	"github.com/sweep-dev/sweep/sweep/config"
	"github.com/sweep-dev/sweep/sweep/cpuset"
	"github.com/sweep-dev/sweep/sweep/load"
	"github.com/sweep-dev/sweep/sweep/probe"
	"github.com/sweep-dev/sweep/sweep/schedule"
	"github.com/sweep-dev/sweep/sweep/target"
)

// slotState is one slot's live server and bookkeeping.
type slotState struct {
	slot     schedule.Slot
	srv      *target.Server
	port     int
	url      string
	crashes  int  // restarts caused by crashes or failed starts
	givenUp  bool // too many crashes: remaining windows are recorded as failed
	lastFail string
}

// runner implements schedule.Runner against real server processes.
type runner struct {
	c      *config.Config
	o      Options
	slots  []*slotState
	gens   map[genKey]*load.Generator
	pinned cpuset.Set      // affinity read back from a server
	awake  *awake.Spinners // nil: CPUs not kept awake
	failed int
	onStep func(schedule.Step)
}

type genKey struct{ slot, conc int }

func newRunner(c *config.Config, o Options, slots []schedule.Slot) *runner {
	r := &runner{c: c, o: o, gens: map[genKey]*load.Generator{}}
	for _, s := range slots {
		r.slots = append(r.slots, &slotState{slot: s})
	}
	return r
}

// RoundStart restarts every server when restarts = "round"; otherwise the
// servers started for the first round live for the whole run.
func (r *runner) RoundStart(ctx context.Context, conc, round int) error {
	if r.c.Run.Restarts == "round" && round >= 0 {
		r.stopAll()
	}
	return nil
}

// Warmup runs one discarded window on the slot.
func (r *runner) Warmup(ctx context.Context, s schedule.Step) error {
	if r.onStep != nil {
		r.onStep(s)
	}
	st := r.slots[s.Slot.Index]
	if st.givenUp {
		return nil
	}
	if _, err := r.ensure(ctx, st); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return r.fatalOrNil(st, err)
	}
	if st.givenUp {
		return nil
	}
	g, err := r.generator(st, s.Concurrency)
	if err != nil {
		return err
	}
	_, err = g.Run(ctx, r.c.Load.Warmup)
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if err != nil {
		return fmt.Errorf("warmup of %s at c=%d: %w", st.slot.Config, s.Concurrency, err)
	}
	return nil
}

// measurement is one slot's measured window in progress.
type measurement struct {
	w     sweep.Window
	st    *slotState
	g     *load.Generator
	lw    *load.Window
	delta probe.Delta
	self  time.Duration // the driver's own CPU over the window's slices
	// serverCPUs and loadCPUs are the /proc/stat times (idle, steal) of
	// the server and load CPUs over the window's slices (the load CPUs'
	// idle time includes their spinners' CPU time: run.keep_awake), and
	// cpuWall the time those readings spanned; cpusOK is false once a
	// reading failed, and the window's fields from them stay unset.
	serverCPUs, loadCPUs probe.CPUTimes
	cpuWall              time.Duration
	cpusOK               bool
	done                 bool // failed: it takes no more slices
}

// MeasureRound measures the round's windows. With load.slice = 0 (one
// slice per window) each window is measured in one piece, one slot after
// the other, and emitted as soon as it ends. Otherwise every slot is
// made ready first, then the windows are measured in Slices() passes of
// duration/Slices() each over the slots in schedule.SliceOrder, so the
// machine's drift over the round falls alike on every slot; the windows
// are emitted when the last pass ends.
//
// A crash of the target or a failed restart yields a Failed window (and
// no error) and the slot takes no more slices this round, so the sweep
// goes on; only fatal problems return an error.
func (r *runner) MeasureRound(ctx context.Context, steps []schedule.Step, emit func(int, sweep.Window) error) error {
	n := r.c.Load.Slices()
	if n == 1 {
		for i, s := range steps {
			m, err := r.begin(ctx, s)
			if err != nil {
				return err
			}
			if err := r.slice(ctx, m, r.c.Load.Duration); err != nil {
				return err
			}
			if err := emit(i, r.finish(m)); err != nil {
				return err
			}
		}
		return nil
	}
	ms := make([]*measurement, len(steps))
	for i, s := range steps {
		m, err := r.begin(ctx, s)
		if err != nil {
			return err
		}
		ms[i] = m
	}
	d := r.c.Load.Piece()
	for pass := range n {
		for _, i := range schedule.SliceOrder(len(ms), pass) {
			if err := r.slice(ctx, ms[i], d); err != nil {
				return err
			}
		}
	}
	for i, m := range ms {
		if err := emit(i, r.finish(m)); err != nil {
			return err
		}
	}
	return nil
}

// begin gets a step's slot ready to be measured: its server running (and
// warmed up when it was just started) and its generator made. A slot that
// cannot be made ready gives a measurement that is already done (Failed).
func (r *runner) begin(ctx context.Context, s schedule.Step) (*measurement, error) {
	if r.onStep != nil {
		r.onStep(s)
	}
	st := r.slots[s.Slot.Index]
	m := &measurement{st: st, lw: load.NewWindow(), cpusOK: true, w: sweep.Window{
		Config: st.slot.Config, Point: st.slot.Point, Slot: st.slot.Index,
		Baseline: st.slot.Baseline, AA: st.slot.AA,
		Concurrency: s.Concurrency, Round: s.Round, Position: s.Position,
		Start: time.Now().UTC(),
	}}
	givenUp := func() *measurement {
		m.w = r.fail(m.w, fmt.Sprintf("slot given up after %d failures (crashes or failed starts; max_restarts = %d); last: %s", st.crashes, r.c.Run.MaxRestarts, st.lastFail), "", "")
		m.done = true
		return m
	}
	if st.givenUp {
		return givenUp(), nil
	}
	started, err := r.ensure(ctx, st)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if ferr := r.fatalOrNil(st, err); ferr != nil {
			return nil, ferr
		}
		reason, tail := startFailure(err)
		m.w = r.fail(m.w, "server failed to start: "+reason, "", tail)
		m.done = true
		return m, nil
	}
	if st.givenUp { // it exited between windows once too often
		return givenUp(), nil
	}
	g, err := r.generator(st, s.Concurrency)
	if err != nil {
		return nil, err
	}
	m.g = g
	if started {
		// A fresh process (restarts = "round", or after a crash) is warmed
		// up before it is measured, like every other slot.
		if _, err := g.Run(ctx, r.c.Load.Warmup); ctx.Err() != nil {
			return nil, ctx.Err()
		} else if err != nil {
			return nil, fmt.Errorf("warmup of %s at c=%d: %w", st.slot.Config, s.Concurrency, err)
		}
	}
	m.w.Start = time.Now().UTC()
	return m, nil
}

// slice measures one slice of d of m's window (the whole window when it
// is not sliced): the server's CPU and the driver's own over the load.
func (r *runner) slice(ctx context.Context, m *measurement, d time.Duration) error {
	if m.done {
		return nil
	}
	st := m.st
	pid := st.srv.PID
	selfBefore, err := probe.Self()
	if err != nil {
		return fmt.Errorf("reading driver CPU: %w", err)
	}
	before, err := probe.Read(pid)
	if err != nil {
		m.w, m.done = r.crashed(m.w, st, "server vanished before the window: "+err.Error()), true
		return nil
	}
	srvBefore, loadBefore, t0, cerr := r.readCPUTimes()
	lerr := m.g.RunSlice(ctx, d, m.lw)
	srvAfter, loadAfter, t1, cerr2 := r.readCPUTimes()
	after, perr := probe.Read(pid)
	selfAfter, _ := probe.Self()
	if ctx.Err() != nil {
		return ctx.Err() // an interrupted window is not a result
	}
	if exited, _ := st.srv.Exited(); exited || perr != nil {
		m.w, m.done = r.crashed(m.w, st, "server exited during the window"), true
		return nil
	}
	if lerr != nil {
		return fmt.Errorf("load on %s at c=%d: %w", st.slot.Config, m.w.Concurrency, lerr)
	}
	m.delta.Add(probe.Diff(before, after))
	m.self += selfAfter - selfBefore
	if cerr != nil || cerr2 != nil {
		if m.cpusOK {
			r.o.Log.Warn("reading CPU times (/proc/stat, spinners) failed: the window has no steal or load-CPU idle figures", "err", errors.Join(cerr, cerr2))
		}
		m.cpusOK = false
	} else {
		m.serverCPUs.Add(srvAfter.Sub(srvBefore))
		m.loadCPUs.Add(loadAfter.Sub(loadBefore))
		m.cpuWall += t1.Sub(t0)
	}
	return nil
}

// readCPUTimes reads the /proc/stat times of the server CPUs and of the
// load CPUs (all CPUs for a side that is not pinned), and when. The CPU
// time of the load CPUs' spinners counts as their idle time: a spinner
// runs only when its CPU has nothing else to do.
func (r *runner) readCPUTimes() (server, load probe.CPUTimes, at time.Time, err error) {
	at = time.Now()
	ts, err := probe.ReadCPUTimes(r.c.Run.ServerCPUs, r.c.Run.LoadCPUs)
	if err != nil {
		return server, load, at, err
	}
	if r.awake != nil {
		spun, err := r.awake.CPU(r.c.Run.LoadCPUs)
		if err != nil {
			return server, load, at, err
		}
		ts[1].Idle += spun
	}
	return ts[0], ts[1], at, nil
}

// finish returns m's window, filled in unless it failed.
func (r *runner) finish(m *measurement) sweep.Window {
	if m.done {
		return m.w
	}
	fill(&m.w, m.lw.Result(), m.delta, m.self, r.loadCPUs())
	m.w.Slices = m.lw.Slices()
	if m.cpusOK {
		m.w.ServerSteal = probe.Share(m.serverCPUs.Steal, m.cpuWall, r.serverCPUs())
		m.w.LoadSteal = probe.Share(m.loadCPUs.Steal, m.cpuWall, r.loadCPUs())
		m.w.LoadIdle = probe.Share(m.loadCPUs.Idle, m.cpuWall, r.loadCPUs())
	}
	m.w.GeneratorBound = r.generatorBound(m.w, m.cpusOK)
	return m.w
}

// generatorBound reports whether w's RPS may be the client side's limit:
// the driver's own CPU utilisation was above GeneratorBoundUtil, or (with
// /proc/stat figures) load CPUs of their own had little time to spare,
// whoever took it (the generator, the kernel's loopback work on its
// behalf, another process) — what the driver's CPU clock cannot see. Load
// CPUs shared with the servers (or not pinned) are busy whenever the
// servers are, so they do not count.
func (r *runner) generatorBound(w sweep.Window, cpusOK bool) bool {
	if w.DriverCPUUtil > GeneratorBoundUtil {
		return true
	}
	ld, srv := r.c.Run.LoadCPUs, r.c.Run.ServerCPUs
	return cpusOK && len(ld) > 0 && len(srv) > 0 && !ld.Overlaps(srv) &&
		loadBusy(w.LoadIdle, w.LoadSteal) > GeneratorBoundBusy
}

// fill copies load and probe figures into w.
func fill(w *sweep.Window, res load.Result, d probe.Delta, self time.Duration, loadCPUs int) {
	// The load's own span: the probes' reading between slices is not
	// time under load.
	w.Seconds = res.Seconds
	w.Requests, w.Success = res.Requests, res.Success
	w.StatusCodes, w.TransportErrors = res.StatusCodes, res.TransportErrors
	w.Errors5xx = res.Errors5xx
	var terr int64
	for _, n := range res.TransportErrors {
		terr += n
	}
	if w.Seconds > 0 {
		w.RPS = float64(w.Requests) / w.Seconds
		w.SuccessRPS = float64(w.Success) / w.Seconds
		w.DriverCPUUtil = self.Seconds() / (w.Seconds * float64(loadCPUs))
	}
	if w.Requests > 0 {
		w.ErrorRate = float64(w.Errors5xx+terr) / float64(w.Requests)
		w.CPUUsPerReq = d.CPU.Seconds() * 1e6 / float64(w.Requests)
		w.MinorFaultsPerReq = float64(d.MinorFaults) / float64(w.Requests)
	}
	w.P50Ms, w.P95Ms, w.P99Ms, w.MaxMs = ms(res.P50), ms(res.P95), ms(res.P99), ms(res.Max)
	w.CPUSeconds = d.CPU.Seconds()
	w.CPUSource = d.Source
	w.RSSBytes = d.RSSBytes
	w.MinorFaults = d.MinorFaults
	w.VolCtxSwitches, w.InvolCtxSwitches = d.VolCtxSwitches, d.InvolCtxSwitches
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// loadBusy is the share of the time the hypervisor gave the load CPUs
// that they spent busy: (1 − idle − steal) / (1 − steal).
func loadBusy(idle, steal float64) float64 {
	if steal >= 1 {
		return 1
	}
	return (1 - idle - steal) / (1 - steal)
}

// loadCPUs is the number of CPUs the generator may use.
func (r *runner) loadCPUs() int { return countCPUs(r.c.Run.LoadCPUs) }

// serverCPUs is the number of CPUs the servers may use.
func (r *runner) serverCPUs() int { return countCPUs(r.c.Run.ServerCPUs) }

// countCPUs is len(set), or the number of online CPUs for an empty set.
func countCPUs(set cpuset.Set) int {
	if n := len(set); n > 0 {
		return n
	}
	if online, err := cpuset.Online(); err == nil && len(online) > 0 {
		return len(online)
	}
	return 1
}

// crashed records a window lost to a target crash and forgets the server
// so the next window restarts it.
func (r *runner) crashed(w sweep.Window, st *slotState, reason string) sweep.Window {
	status, tail := "", ""
	if st.srv != nil {
		_ = st.srv.Stop(2 * time.Second) // also drains its output: the tail has its last words
		_, status = st.srv.Exited()
		tail = st.srv.StderrTail()
		st.srv = nil
	}
	r.dropGenerators(st)
	st.crashes++
	st.lastFail = reason
	if status != "" {
		st.lastFail += " (" + status + ")"
	}
	if st.crashes > r.c.Run.MaxRestarts {
		st.givenUp = true
		r.o.Log.Error("giving up on slot after repeated crashes", "config", st.slot.Config, "crashes", st.crashes, "last", st.lastFail)
	} else {
		r.o.Log.Warn("target crashed; restarting it for the next window", "config", st.slot.Config, "status", status)
	}
	return r.fail(w, reason, status, tail)
}

func (r *runner) fail(w sweep.Window, reason, status, tail string) sweep.Window {
	r.failed++
	w.Failed, w.FailReason, w.ExitStatus, w.StderrTail = true, reason, status, tail
	return w
}

// fatalOrNil turns a start failure into a given-up slot after too many
// tries; the sweep goes on with the other slots.
func (r *runner) fatalOrNil(st *slotState, err error) error {
	st.crashes++
	st.lastFail, _ = startFailure(err)
	if st.crashes > r.c.Run.MaxRestarts {
		st.givenUp = true
		r.o.Log.Error("giving up on slot: server does not start", "config", st.slot.Config, "err", st.lastFail)
	}
	return nil
}

// ensure starts the slot's server if it is not running and reports
// whether it did. A server that exited since the last window counts as a
// crash (the slot may be given up: ensure then starts nothing). Starting
// is retried with a fresh port only when the server exits before it is
// ready, which is what a port taken between FreePort and bind looks like.
func (r *runner) ensure(ctx context.Context, st *slotState) (bool, error) {
	if st.srv != nil {
		exited, status := st.srv.Exited()
		if !exited {
			return false, nil
		}
		r.o.Log.Warn("target exited between windows; restarting", "config", st.slot.Config, "status", status)
		_ = st.srv.Stop(0) // drains its output
		tail := st.srv.StderrTail()
		st.srv = nil
		r.dropGenerators(st)
		st.crashes++
		st.lastFail = "server exited between windows (" + status + ")"
		if line := lastLine(tail); line != "" {
			st.lastFail += ": " + line
		}
		if st.crashes > r.c.Run.MaxRestarts {
			st.givenUp = true
			r.o.Log.Error("giving up on slot after repeated crashes", "config", st.slot.Config, "crashes", st.crashes, "last", st.lastFail)
			return false, nil
		}
	}
	var lastErr error
	for try := 0; try < 3; try++ {
		port := 0
		if r.c.Target.Kind == "command" {
			p, err := target.FreePort()
			if err != nil {
				return false, err
			}
			port = p
		}
		spec, err := serverSpec(r.c, r.o.Exe, st.slot.Point, port)
		if err != nil {
			return false, err
		}
		srv, err := target.Start(ctx, spec)
		if err != nil {
			lastErr = err
			if ctx.Err() != nil {
				return false, ctx.Err()
			}
			if errors.Is(err, target.ErrExitedEarly) && port != 0 {
				r.o.Log.Warn("target exited before it was ready; retrying on another port", "config", st.slot.Config, "port", port)
				continue
			}
			break
		}
		u, err := requestURL(r.c, st.slot.Point, port, srv.Addr)
		if err != nil {
			_ = srv.Stop(2 * time.Second)
			return false, err
		}
		st.srv, st.port, st.url = srv, port, u
		if len(srv.Pinned) > 0 {
			r.pinned = srv.Pinned
		}
		r.o.Log.Info("server ready", "config", st.slot.Config, "pid", srv.PID, "url", u, "cpus", srv.Pinned.String())
		return true, nil
	}
	return false, fmt.Errorf("starting %s: %w", st.slot.Config, lastErr)
}

// generator returns the slot's load generator for a concurrency level.
func (r *runner) generator(st *slotState, conc int) (*load.Generator, error) {
	k := genKey{st.slot.Index, conc}
	if g, ok := r.gens[k]; ok {
		return g, nil
	}
	h := http.Header{}
	for k, v := range r.c.Load.Headers {
		h.Set(k, v)
	}
	g, err := load.New(load.Options{
		URL: st.url, Method: r.c.Load.Method, Body: []byte(r.c.Load.Body), Header: h,
		Concurrency: conc, Timeout: r.c.Load.Timeout, AllowRemote: r.c.Target.AllowRemote,
	})
	if err != nil {
		return nil, fmt.Errorf("load generator for %s: %w", st.slot.Config, err)
	}
	r.gens[k] = g
	return g, nil
}

func (r *runner) dropGenerators(st *slotState) {
	for k, g := range r.gens {
		if k.slot == st.slot.Index {
			g.Close()
			delete(r.gens, k)
		}
	}
}

// stopAll stops every server and generator.
func (r *runner) stopAll() {
	for _, st := range r.slots {
		r.dropGenerators(st)
		if st.srv != nil {
			if err := st.srv.Stop(3 * time.Second); err != nil && !errors.Is(err, context.Canceled) {
				r.o.Log.Warn("stopping server", "config", st.slot.Config, "err", err)
			}
			st.srv = nil
		}
	}
}

// startFailure splits a start error (its first line, then the output
// tail target.Start appends) into a one-line reason ending with the
// server's last output line, and that tail.
func startFailure(err error) (reason, tail string) {
	first, rest, _ := strings.Cut(strings.TrimSpace(err.Error()), "\n")
	first = strings.TrimSpace(first)
	for _, h := range []string{"no stderr output; stdout tail:", "stderr tail:"} {
		first = strings.TrimSpace(strings.TrimSuffix(first, h))
	}
	first = strings.TrimSuffix(first, ":")
	if line := lastLine(rest); line != "" {
		first += ": " + line
	}
	return first, rest
}

// lastLine is the last non-blank line of s.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}
