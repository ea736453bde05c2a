package driver

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/cpuset"
	"github.com/sweep-dev/sweep/sweep/load"
	"github.com/sweep-dev/sweep/sweep/schedule"
	"github.com/sweep-dev/sweep/sweep/target"
)

// slotState is one slot's live server and bookkeeping.
type slotState struct {
	slot     schedule.Slot
	cpus     cpuset.Set // the CPUs its servers run on (SlotCPUs)
	srv      *target.Server
	url      string
	crashes  int  // restarts caused by crashes or failed starts
	givenUp  bool // too many crashes: remaining windows are recorded as failed
	lastFail string
}

// genKey names a slot's load generator for one concurrency level.
type genKey struct{ slot, conc int }

// Messages logged when a slot is given up.
const (
	giveUpCrashes = "giving up on slot after repeated crashes"
	giveUpStarts  = "giving up on slot: server does not start"
)

// countFailure counts a crash or a failed start of st's server, why being
// what happened, and gives the slot up (logging giveUp) once that has
// happened more than run.max_restarts times. It reports whether the slot
// is given up.
func (r *runner) countFailure(st *slotState, why, giveUp string) bool {
	st.crashes++
	st.lastFail = why
	if st.crashes > r.c.Run.MaxRestarts {
		st.givenUp = true
		r.o.Log.Error(giveUp, "config", st.slot.Config, "crashes", st.crashes, "last", why)
	}
	return st.givenUp
}

// forget stops st's exited (or dying) server, which also drains its
// output, and drops its generators, so the next window starts a new one.
// It returns the server's exit status and stderr tail.
func (r *runner) forget(st *slotState, grace time.Duration) (status, tail string) {
	if st.srv != nil {
		_ = st.srv.Stop(grace)
		_, status = st.srv.Exited()
		tail = st.srv.StderrTail()
		st.srv = nil
	}
	r.dropGenerators(st)
	return status, tail
}

// crashed records a window lost to a target crash and forgets the server
// so the next window restarts it.
func (r *runner) crashed(w sweep.Window, st *slotState, reason string) sweep.Window {
	status, tail := r.forget(st, 2*time.Second) // the tail has its last words
	why := reason
	if status != "" {
		why += " (" + status + ")"
	}
	if !r.countFailure(st, why, giveUpCrashes) {
		r.o.Log.Warn("target crashed; restarting it for the next window", "config", st.slot.Config, "status", status)
	}
	return r.fail(w, reason, status, tail)
}

// startFailed counts a failed start of st's server (ensure's error) and
// returns the reason and the server's output tail for its window.
func (r *runner) startFailed(st *slotState, err error) (reason, tail string) {
	reason, tail = startFailure(st.slot.Config, err)
	r.countFailure(st, reason, giveUpStarts)
	return reason, tail
}

// startErr is the error of a failed start of config's server.
func startErr(config string, err error) error {
	return fmt.Errorf("starting %s: %w", config, err)
}

// startFailure is the one-line reason of a failed start of config's
// server and the output tail that explains it. When err carries a
// *target.StartError, the reason is its cause followed by the server's
// last output line; otherwise it is err's text and there is no tail.
func startFailure(config string, err error) (reason, tail string) {
	var se *target.StartError
	if !errors.As(err, &se) || se.Stream == "" {
		return strings.TrimSpace(err.Error()), ""
	}
	reason = startErr(config, se.Err).Error()
	if line := lastLine(se.Tail); line != "" {
		reason += ": " + line
	}
	return reason, strings.TrimRightFunc(se.Tail, unicode.IsSpace)
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
		_, tail := r.forget(st, 0)
		why := "server exited between windows (" + status + ")"
		if line := lastLine(tail); line != "" {
			why += ": " + line
		}
		if r.countFailure(st, why, giveUpCrashes) {
			return false, nil
		}
	}
	var lastErr error
	for try := 0; try < 3; try++ {
		port := 0
		if commandSlot(r.c, st.slot) {
			p, err := target.FreePort()
			if err != nil {
				return false, err
			}
			port = p
		}
		spec, err := serverSpec(r.c, r.o.Exe, st.slot, port)
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
		u, err := requestURL(r.c, st.slot, port, srv.Addr)
		if err != nil {
			_ = srv.Stop(2 * time.Second)
			return false, err
		}
		st.srv, st.url = srv, u
		if len(srv.Pinned) > 0 {
			r.pinned = srv.Pinned
		}
		r.o.Log.Info("server ready", "config", st.slot.Config, "pid", srv.PID, "url", u, "cpus", srv.Pinned.String())
		return true, nil
	}
	return false, startErr(st.slot.Config, lastErr)
}

// generator returns the slot's load generator for a concurrency level.
func (r *runner) generator(st *slotState, conc int) (*load.Generator, error) {
	k := genKey{st.slot.Index, conc}
	if g, ok := r.gens[k]; ok {
		return g, nil
	}
	h := http.Header{}
	method, body := r.c.Load.Method, []byte(r.c.Load.Body)
	if st.slot.Reference {
		method, body = http.MethodGet, nil // the reference takes the same request in every run
	} else {
		for k, v := range r.c.Load.Headers {
			h.Set(k, v)
		}
	}
	g, err := load.New(load.Options{
		URL: st.url, Method: method, Body: body, Header: h,
		Concurrency: conc, Timeout: r.c.Load.Timeout, AllowRemote: r.c.Target.AllowRemote,
	})
	if err != nil {
		return nil, fmt.Errorf("load generator for %s: %w", st.slot.Config, err)
	}
	r.gens[k] = g
	return g, nil
}

// dropGenerators closes and forgets every generator of st.
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

// lastLine is the last non-blank line of s.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}
