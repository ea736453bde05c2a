package wasmhost

import (
	"encoding/json"
	"fmt"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/setting"
)

// PreflightPoint is one grid point for Preflight: its label and its full
// settings (the fixed ones included).
type PreflightPoint struct {
	Label    string
	Settings map[string]string
}

// PointError is a grid point whose host cannot serve its plugin: a
// corrupt plugin, a missing export, or (for a component) a per-component
// pool limit below what the component needs.
type PointError struct {
	Label string
	Err   error
}

func (e *PointError) Error() string { return fmt.Sprintf("config %s: %v", e.Label, e.Err) }
func (e *PointError) Unwrap() error { return e.Err }

// Preflight loads plugin as the servers of a builtin target will, before
// anything is measured: once per distinct settings of the points that
// serve a component (Wasmtime checks the per-component limits when it
// loads one), once for the points that serve a core module. It returns
// the plugins the grid serves, with what a request takes from the pool
// (Describe). compiling, if not nil, is told when a compile runs.
func Preflight(plugin string, points []PreflightPoint, compiling func(plugin string, bytes int) (done func())) ([]sweep.Plugin, error) {
	var out []sweep.Plugin
	group := map[bool]int{} // component knob → index in out
	checked := map[string]bool{}
	for _, p := range points {
		s, err := setting.FromMap(p.Settings)
		if err != nil {
			return nil, &PointError{p.Label, err}
		}
		twin := s.Bool(setting.Component)
		opts := Options{Plugin: plugin, Settings: s, Compiling: compiling}
		i, seen := group[twin]
		key, _ := json.Marshal(p.Settings)
		if seen {
			out[i].Configs = append(out[i].Configs, p.Label)
			if !out[i].IsComponent() || checked[string(key)] {
				continue
			}
			checked[string(key)] = true
			h, err := New(opts)
			if err != nil {
				return nil, &PointError{p.Label, err}
			}
			h.Close()
			continue
		}
		checked[string(key)] = true
		info, err := Describe(opts)
		if err != nil {
			return nil, &PointError{p.Label, err}
		}
		group[twin] = len(out)
		out = append(out, pluginOf(opts.Plugin, info, p.Label))
	}
	if len(out) == 1 {
		out[0].Configs = nil
	}
	return out, nil
}

// pluginOf is the data model's description of a host's plugin.
func pluginOf(name string, info Info, label string) sweep.Plugin {
	if name == "" {
		name = Workload
	}
	return sweep.Plugin{
		Name: name, Kind: info.Kind.String(), Bytes: info.Bytes,
		CoreInstances: info.CoreInstances, Memories: info.Memories, Tables: info.Tables,
		CompileSeconds: info.CompileTime.Seconds(), LoadSeconds: info.LoadTime.Seconds(), Cached: info.Cached,
		Imports: info.Imports, Exports: info.Exports, Configs: []string{label},
	}
}
