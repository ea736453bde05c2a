package driver

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"path/filepath"
	"strconv"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/config"
	"github.com/sweep-dev/sweep/sweep/schedule"
	"github.com/sweep-dev/sweep/sweep/target"
)

// AASuffix marks the A/A twin's config label.
const AASuffix = " [A/A]"

// Slots returns one server slot per grid point, in grid order, plus the
// baseline's A/A twin (when aa = true) right after the baseline.
func Slots(c *config.Config) []schedule.Slot {
	var slots []schedule.Slot
	for _, p := range c.Points {
		base := p.Equal(c.Baseline)
		slots = append(slots, schedule.Slot{Index: len(slots), Config: p.Label(), Point: p, Baseline: base})
		if base && c.Load.AA {
			slots = append(slots, schedule.Slot{Index: len(slots), Config: p.Label() + AASuffix, Point: p, AA: true})
		}
	}
	return slots
}

// BaselineLabel and AALabel name the baseline and its twin.
func BaselineLabel(c *config.Config) string { return c.Baseline.Label() }

// AALabel is "" when the run has no A/A twin.
func AALabel(c *config.Config) string {
	if !c.Load.AA {
		return ""
	}
	return c.Baseline.Label() + AASuffix
}

// serverSpec builds the process spec and the request URL template for a
// slot. For command targets the port is chosen by the caller.
func serverSpec(c *config.Config, exe string, p sweep.Point, port int) (target.Spec, error) {
	spec := target.Spec{CPUs: c.Run.ServerCPUs, Batch: c.Run.ServerSched == sweep.SchedBatch, ReadyTimeout: c.Target.ReadyTimeout, TailLines: 20}
	switch c.Target.Kind {
	case sweep.TargetCommand:
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
		settings := maps.Clone(c.Fixed)
		if settings == nil {
			settings = map[string]string{}
		}
		maps.Copy(settings, p)
		js, err := json.Marshal(settings)
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

// requestURL is where the load goes for a started server.
func requestURL(c *config.Config, p sweep.Point, port int, addr string) (string, error) {
	if c.Target.Kind == sweep.TargetCommand {
		return c.RequestURL(p, port)
	}
	u := url.URL{Scheme: "http", Host: addr, Path: c.Load.Path}
	return u.String(), nil
}

// Plan is the run's schedule. With restarts = "round" every measured
// window's server is fresh and is warmed up when it starts (at that
// window's concurrency), so the level warmups of schedule.Plan would only
// warm processes about to be replaced, and are left out.
func Plan(c *config.Config) []schedule.Step {
	steps := schedule.Plan(Slots(c), c.Load.Concurrency, c.Load.Rounds, c.Run.Seed)
	if c.Run.Restarts != sweep.RestartsRound {
		return steps
	}
	out := steps[:0]
	for _, s := range steps {
		if !s.Warmup {
			out = append(out, s)
		}
	}
	return out
}
