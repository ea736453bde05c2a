package driver

import (
	"encoding/json"
	"fmt"
	"net/url"
	"path/filepath"
	"strconv"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/config"
	"github.com/sweep-dev/sweep/sweep/cpuset"
	"github.com/sweep-dev/sweep/sweep/schedule"
	"github.com/sweep-dev/sweep/sweep/target"
)

// ReferenceCompute is the reference server's work per request (the
// workload's compute knob): about 200 µs of CPU on this project's VM,
// the order of a real handler's, so that a slower machine makes it
// dearer as it does a build under test, and so that 16 connections
// keep it busy without the load generator running out of CPU first
// (at the workload's default, ~30 µs, it did).
const ReferenceCompute = 40

// ReferenceArgv is the reference server's command line: the built-in
// host with a fixed workload (the "workload" plugin, ReferenceCompute,
// the other knobs and Wasmtime's pooling options at their defaults),
// whatever the run's target. Its cost is fixed by the sweep build alone,
// which summary.json records.
func ReferenceArgv(exe string) []string {
	return []string{exe, "serve", "-listen", "127.0.0.1:0", "-plugin", config.BuiltinPlugin, "-compute", strconv.Itoa(ReferenceCompute)}
}

// commandSlot reports whether the slot's server is the run's command
// target (the reference server is always the built-in host).
func commandSlot(c *config.Config, s schedule.Slot) bool {
	return c.Target.Kind == sweep.TargetCommand && !s.Reference
}

// serverSpec builds the process spec and the request URL template for a
// slot. For command targets the port is chosen by the caller.
func serverSpec(c *config.Config, exe string, slot schedule.Slot, port int) (target.Spec, error) {
	p := slot.Point
	spec := target.Spec{CPUs: SlotCPUs(c, slot), Batch: c.Run.ServerSched == sweep.SchedBatch, ReadyTimeout: c.Target.ReadyTimeout, TailLines: 20}
	switch {
	case slot.Reference:
		spec.Argv = ReferenceArgv(exe)
		spec.ReadyLine = true
	case c.Target.Kind == sweep.TargetCommand:
		vars := c.Vars(p, port)
		for i, a := range c.Target.Command {
			s, err := config.Render(a, vars)
			if err != nil {
				return spec, fmt.Errorf("target.command: %w", err)
			}
			if found, ok := c.Target.Programs[s]; ok && i == 0 {
				s = found // a templated program, resolved by config
			}
			spec.Argv = append(spec.Argv, s)
		}
		for k, v := range c.Target.Env {
			s, err := config.Render(v, vars)
			if err != nil {
				return spec, fmt.Errorf("target.env.%s: %w", k, err)
			}
			spec.Env = append(spec.Env, k+"="+s)
		}
		ready, err := c.ReadyURL(p, port)
		if err != nil {
			return spec, err
		}
		spec.ReadyURL = ready
		spec.Dir = filepath.Dir(c.Path)
	default:
		js, err := json.Marshal(c.Settings(p))
		if err != nil {
			return spec, fmt.Errorf("encoding settings: %w", err)
		}
		spec.Argv = []string{exe, "serve", "-listen", "127.0.0.1:0", "-plugin", c.Target.Plugin,
			"-settings-json", string(js), "-timeout", c.Load.Timeout.String()}
		if c.Target.GOMAXPROCS > 0 {
			spec.Argv = append(spec.Argv, "-gomaxprocs", strconv.Itoa(c.Target.GOMAXPROCS))
		}
		spec.ReadyLine = true
	}
	return spec, nil
}

// SlotCPUs returns the CPUs a slot's servers run on: its point's
// (config.ServerCPUsOf); the reference server runs on the baseline's.
func SlotCPUs(c *config.Config, s schedule.Slot) cpuset.Set {
	if s.Reference {
		return c.ServerCPUsOf(c.Baseline)
	}
	return c.ServerCPUsOf(s.Point)
}

// requestURL is where the load goes for a started server. The reference
// server takes its requests at "/".
func requestURL(c *config.Config, s schedule.Slot, port int, addr string) (string, error) {
	switch {
	case s.Reference:
		return (&url.URL{Scheme: "http", Host: addr, Path: "/"}).String(), nil
	case c.Target.Kind == sweep.TargetCommand:
		return c.RequestURL(s.Point, port)
	}
	// load.path may carry a query ("/api?x=1"): it is the request target
	// as written, not a URL path to escape (which sent "/echo%3Fn=32").
	return (&url.URL{Scheme: "http", Host: addr}).String() + c.Load.Path, nil
}
