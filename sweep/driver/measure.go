package driver

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/cpuset"
	"github.com/sweep-dev/sweep/sweep/load"
	"github.com/sweep-dev/sweep/sweep/probe"
	"github.com/sweep-dev/sweep/sweep/schedule"
)

// measurement is one slot's measured window in progress.
type measurement struct {
	w     sweep.Window
	st    *slotState
	g     *load.Generator
	lw    *load.Window
	delta probe.Delta
	self  time.Duration // the driver's own CPU over the window's slices
	// cpus are the /proc/stat times (idle, steal) of the server CPUs, the
	// load CPUs and both over the window's slices (idle time includes the
	// spinners' CPU time: run.keep_awake), and cpuWall the time those
	// readings spanned; cpusOK is false once a reading failed, and the
	// window's fields from them stay unset.
	cpus    cpuReading
	cpuWall time.Duration
	cpusOK  bool
	// tlb and cal are the TLB shootdowns and function call interrupts
	// the server CPUs took over the window's slices (/proc/interrupts);
	// ipisOK is false once a reading failed or lacked a line.
	tlb, cal int64
	ipisOK   bool
	done     bool // failed: it takes no more slices
	mem      memoryWindow
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
// goes on; only fatal problems return an error. With run.remeasure, a
// failed window whose slot is not given up is measured once more, in one
// piece, as soon as the round's other windows are done (remeasure).
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
			w := r.finish(ctx, m)
			if err := emit(i, w); err != nil {
				return err
			}
			if err := r.remeasure(ctx, s, i, w, emit); err != nil {
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
	ws := make([]sweep.Window, len(ms))
	for i, m := range ms {
		ws[i] = r.finish(ctx, m)
		if err := emit(i, ws[i]); err != nil {
			return err
		}
	}
	for i, w := range ws {
		if err := r.remeasure(ctx, steps[i], i, w, emit); err != nil {
			return err
		}
	}
	return nil
}

// remeasure measures step s (steps[i] of the round) once more when its
// window w failed, run.remeasure is on and the slot has not been given
// up: the slot's server is started afresh and warmed up (begin), and the
// window measured in one piece and emitted with Remeasured set, so the
// round keeps its pair while the failed window stays on record. A failed
// re-measure is recorded too, and not retried.
func (r *runner) remeasure(ctx context.Context, s schedule.Step, i int, w sweep.Window, emit func(int, sweep.Window) error) error {
	if !w.Failed || !r.c.Run.Remeasure || r.slots[s.Slot.Index].givenUp {
		return nil
	}
	r.o.Log.Warn("re-measuring a failed window", "config", s.Slot.Config, "c", s.Concurrency, "round", s.Round+1, "failed", w.FailReason)
	m, err := r.begin(ctx, s)
	if err != nil {
		return err
	}
	if err := r.slice(ctx, m, r.c.Load.Duration); err != nil {
		return err
	}
	rw := r.finish(ctx, m)
	rw.Remeasured = true
	return emit(i, rw)
}

// begin gets a step's slot ready to be measured: its server running (and
// warmed up when it was just started) and its generator made. A slot that
// cannot be made ready gives a measurement that is already done (Failed).
func (r *runner) begin(ctx context.Context, s schedule.Step) (*measurement, error) {
	if r.onStep != nil {
		r.onStep(s)
	}
	st := r.slots[s.Slot.Index]
	m := &measurement{st: st, lw: load.NewWindow(), cpusOK: true, ipisOK: true, w: sweep.Window{
		Config: st.slot.Config, Point: st.slot.Point, Slot: st.slot.Index,
		Baseline: st.slot.Baseline, AA: st.slot.AA, Reference: st.slot.Reference,
		Concurrency: s.Concurrency, Round: s.Round, Position: s.Position,
		Start: time.Now().UTC(), ServerCPUCount: countCPUs(st.cpus),
		SharesCPUs: r.c.SharesCPUs(st.cpus),
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
		reason, tail := r.startFailed(st, err)
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
	r.memoryStart(m)
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
	cpus0, cerr := r.readCPUTimes(st.cpus)
	tlb0, cal0, iok := readIPIs(st.cpus)
	lerr := m.g.RunSlice(ctx, d, m.lw)
	m.mem.loadEnd = time.Now()
	tlb1, cal1, iok2 := readIPIs(st.cpus)
	cpus1, cerr2 := r.readCPUTimes(st.cpus)
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
	if iok && iok2 {
		m.tlb += tlb1 - tlb0
		m.cal += cal1 - cal0
	} else {
		m.ipisOK = false
	}
	m.self += selfAfter - selfBefore
	if cerr != nil || cerr2 != nil {
		if m.cpusOK {
			r.o.Log.Warn("reading CPU times (/proc/stat, spinners) failed: the window has no steal or load-CPU idle figures", "err", errors.Join(cerr, cerr2))
		}
		m.cpusOK = false
	} else {
		piece := cpus1.sub(cpus0)
		m.cpus.server.Add(piece.server)
		m.cpus.load.Add(piece.load)
		m.cpus.both.Add(piece.both)
		m.cpuWall += cpus1.at.Sub(cpus0.at)
	}
	return nil
}

// finish returns m's window, filled in unless it failed.
func (r *runner) finish(ctx context.Context, m *measurement) sweep.Window {
	if m.done {
		return m.w
	}
	fill(&m.w, m.lw.Result(), m.delta, m.self, r.loadCPUs())
	r.memoryFinish(ctx, m)
	m.w.Slices = m.lw.Slices()
	if m.cpusOK {
		m.w.ServerSteal = probe.Share(m.cpus.server.Steal, m.cpuWall, countCPUs(m.st.cpus))
		m.w.LoadSteal = probe.Share(m.cpus.load.Steal, m.cpuWall, r.loadCPUs())
		m.w.LoadIdle = probe.Share(m.cpus.load.Idle, m.cpuWall, r.loadCPUs())
		r.setOtherWork(m)
	}
	if m.ipisOK {
		setIPIs(&m.w, m.tlb, m.cal)
	}
	m.w.GeneratorBound = r.generatorBound(m.w, m.st.cpus, m.cpusOK)
	return m.w
}

// setOtherWork records the share of the server CPUs' and of the load
// CPUs' time that went to anything but this window's server, the driver
// and the spinners (Window.ServerOther, LoadOther): other processes, or
// the kernel's own work. Only when both sides are pinned (else the sets
// are every CPU, and the other slots' idle servers are in them). When
// the server shares CPUs with the load generator the two cannot be told
// apart, and both figures are the share over the two sets together.
func (r *runner) setOtherWork(m *measurement) {
	srv, ld := m.st.cpus, r.c.Run.LoadCPUs
	if len(srv) == 0 || len(ld) == 0 {
		return
	}
	if r.c.SharesCPUs(srv) {
		o := otherWork(m.cpus.both, m.cpuWall, len(cpuset.Union(srv, ld)), m.delta.CPU+m.self)
		m.w.ServerOther, m.w.LoadOther = &o, &o
		return
	}
	s := otherWork(m.cpus.server, m.cpuWall, len(srv), m.delta.CPU)
	l := otherWork(m.cpus.load, m.cpuWall, len(ld), m.self)
	m.w.ServerOther, m.w.LoadOther = &s, &l
}

// generatorBound reports whether w's RPS (of a server on srv) may be the client side's limit:
// the driver's own CPU utilisation was above GeneratorBoundUtil, or (with
// /proc/stat figures) load CPUs of their own had little time to spare,
// whoever took it (the generator, the kernel's loopback work on its
// behalf, another process) — what the driver's CPU clock cannot see. Load
// CPUs shared with the servers (or not pinned) are busy whenever the
// servers are, so they do not count.
func (r *runner) generatorBound(w sweep.Window, srv cpuset.Set, cpusOK bool) bool {
	if w.DriverCPUUtil > GeneratorBoundUtil {
		return true
	}
	ld := r.c.Run.LoadCPUs
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
	setSplit(w, d.User, d.Sys)
}

// setSplit records the user/kernel split of the server's CPU over w:
// the tick counts, the kernel's share of them, and CPU per request split
// by that share. Nothing when no tick was counted.
func setSplit(w *sweep.Window, user, sys time.Duration) {
	if user+sys <= 0 {
		return
	}
	u, k := user.Seconds(), sys.Seconds()
	share := k / (u + k)
	w.UserCPUSeconds, w.KernelCPUSeconds, w.KernelShare = &u, &k, &share
	if w.Requests > 0 {
		ku := w.CPUUsPerReq * share
		uu := w.CPUUsPerReq - ku
		w.UserUsPerReq, w.KernelUsPerReq = &uu, &ku
	}
}

// setIPIs records the server CPUs' TLB shootdowns and function call
// interrupts over w, and per request when w completed any.
func setIPIs(w *sweep.Window, tlb, cal int64) {
	w.TLBShootdowns, w.CallIPIs = &tlb, &cal
	if w.Requests > 0 {
		t, c := float64(tlb)/float64(w.Requests), float64(cal)/float64(w.Requests)
		w.TLBShootdownsPerReq, w.CallIPIsPerReq = &t, &c
	}
}

// ms is d in milliseconds.
func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// fail records w as a failed window.
func (r *runner) fail(w sweep.Window, reason, status, tail string) sweep.Window {
	r.failed++
	w.Failed, w.FailReason, w.ExitStatus, w.StderrTail = true, reason, status, tail
	return w
}
