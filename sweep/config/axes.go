package config

import (
	"strconv"
	"strings"
	"time"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/cpuset"
	"github.com/sweep-dev/sweep/sweep/grid"
	"github.com/sweep-dev/sweep/sweep/setting"
	"github.com/sweep-dev/sweep/sweep/spelling"
	"github.com/sweep-dev/sweep/sweep/units"
)

// fixed reads [workload] (knobs) and [settings] (Wasmtime options) of a
// builtin target into Config.Fixed. A command target may have neither.
func (p *parser) fixed(root *table) {
	builtin := p.c.Target.Kind == sweep.TargetBuiltin
	p.c.Fixed = map[string]string{}
	for _, section := range []string{"workload", "settings"} {
		t := root.sub(section)
		if p.err != nil {
			return
		}
		if root.has(section) && !builtin {
			p.failf("[%s]: only allowed with target.kind = %q; a command target takes its settings from its own command line", section, sweep.TargetBuiltin)
			return
		}
		knobs := section == "workload"
		for _, name := range p.keysOf(t) {
			o, ok := setting.Lookup(name)
			switch {
			case !ok:
				p.failf("unknown key %q: not a %s%s", t.key(name), describe(knobs), hintName(t.name, name, names(knobs)))
				return
			case o.Knob && !knobs:
				p.failf("%s: %q is a workload knob; put it in [workload]", t.key(name), name)
				return
			case !o.Knob && knobs:
				p.failf("%s: %q is a Wasmtime option, not a workload knob; put it in [settings]", t.key(name), name)
				return
			}
			v, ok := t.scalar(t.key(name), t.m[name])
			if !ok {
				return
			}
			if !p.validate(t.key(name), name, v, t.m[name]) {
				return
			}
			p.c.Fixed[name] = v
		}
	}
}

// describe names what a [workload] or [settings] key must be.
func describe(knobs bool) string {
	if knobs {
		return "workload knob"
	}
	return "Wasmtime option"
}

// names returns the knob names, or the Wasmtime option names.
func names(knobs bool) []string {
	var out []string
	for _, o := range setting.Options() {
		if o.Knob == knobs {
			out = append(out, o.Name)
		}
	}
	return out
}

// hintName suggests a close name in section, or lists the allowed ones.
func hintName(section, name string, allowed []string) string {
	if s := spelling.Closest(name, allowed); s != "" {
		return ` (did you mean "` + section + "." + s + `"?)`
	}
	return "; allowed: " + strings.Join(allowed, ", ")
}

// validate checks a builtin setting's value with package setting and
// records a one-line error naming key.
func (p *parser) validate(key, name, value string, raw any) bool {
	err := setting.Validate(name, value)
	if err == nil {
		return true
	}
	msg := strings.TrimPrefix(err.Error(), name+" = "+strconv.Quote(value)+": ")
	p.fail(err, "%s = %s: %s", key, show(raw), msg)
	return false
}

// grid reads [grid] in file order and expands it.
func (p *parser) grid(t *table) {
	if p.err != nil {
		return
	}
	builtin := p.c.Target.Kind == sweep.TargetBuiltin
	for _, name := range p.keysOf(t) {
		key := t.key(name)
		cpus := name == ServerCPUsAxis // a placement, for either kind: its values are CPU lists
		switch {
		case cpus:
		case builtin:
			if _, ok := setting.Lookup(name); !ok {
				p.failf("unknown key %q: a builtin axis is a Wasmtime pooling option, memory_init_cow, a workload knob or server_cpus%s",
					key, hintName("grid", name, setting.Names()))
				return
			}
			if _, dup := p.c.Fixed[name]; dup {
				p.failf("%s: %q is also set in [workload] or [settings]; a setting is either fixed or an axis", key, name)
				return
			}
		case !identifier.MatchString(name) || name == "port":
			p.failf("%s: axis name %q is not allowed; a command axis is a template variable: [A-Za-z_][A-Za-z0-9_]*, not \"port\"", key, name)
			return
		}
		raw, isArr := t.m[name].([]any)
		if !isArr {
			t.wrongType(name, t.m[name], `an array of values, e.g. [0, "64KiB", "1MiB"]`)
			return
		}
		if len(raw) == 0 {
			p.failf("%s = []: an axis needs at least one value", key)
			return
		}
		axis := grid.Axis{Name: name}
		seen := map[string]int{}
		for i, e := range raw {
			ekey := key + "[" + strconv.Itoa(i) + "]"
			v, ok := t.scalar(ekey, e)
			if !ok {
				return
			}
			if cpus && !p.cpuValue(ekey, v, e) || !cpus && builtin && !p.validate(ekey, name, v, e) {
				return
			}
			norm := p.normalize(name, v)
			if j, dup := seen[norm]; dup {
				p.failf("%s = %s: duplicate of %s[%d] = %q (the same value)", ekey, show(e), key, j, axis.Values[j])
				return
			}
			seen[norm] = i
			axis.Values = append(axis.Values, v)
		}
		p.c.Axes = append(p.c.Axes, axis)
	}
	if n := grid.Size(p.c.Axes, MaxPoints); n > MaxPoints {
		p.failf("[grid] has more than %d points (the product of the axes' lengths); split the sweep", MaxPoints)
		return
	}
	p.c.Points = grid.Expand(p.c.Axes)
}

// normalize returns a comparison key for an axis value: values that mean
// the same setting ("64KiB" and 65536, "1ms" and "1000us") get the same
// key. Values have already been validated for a builtin target; for a
// command target, values that parse as sizes are compared as sizes and
// everything else verbatim.
func (p *parser) normalize(axis, v string) string {
	if axis == ServerCPUsAxis {
		if set, err := cpuset.Parse(v); err == nil {
			return "cpus " + set.String()
		}
		return v
	}
	if p.c.Target.Kind == sweep.TargetBuiltin {
		if o, ok := setting.Lookup(axis); ok {
			s := strings.TrimSpace(v)
			switch o.Kind {
			case setting.Size:
				if n, err := units.ParseSize(s); err == nil {
					return strconv.FormatUint(uint64(n), 10)
				}
			case setting.Count, setting.Int:
				if n, err := strconv.ParseUint(s, 10, 64); err == nil {
					return strconv.FormatUint(n, 10)
				}
			case setting.Duration:
				if d, err := time.ParseDuration(s); err == nil {
					return strconv.FormatInt(int64(d), 10)
				}
			}
			return s
		}
	}
	if n, err := units.ParseSize(v); err == nil {
		return "size " + strconv.FormatUint(uint64(n), 10)
	}
	return v
}

// baseline reads [baseline] and completes it with each axis' first value.
func (p *parser) baseline(t *table) {
	if p.err != nil {
		return
	}
	axes := make([]string, len(p.c.Axes))
	for i, a := range p.c.Axes {
		axes[i] = a.Name
	}
	b := sweep.Point{}
	for _, name := range p.keysOf(t) {
		key := t.key(name)
		i := indexOf(axes, name)
		if i < 0 {
			if len(axes) == 0 {
				p.failf("%s: not a grid axis; the grid is empty, so [baseline] must be empty too", key)
			} else {
				p.failf("%s: not a grid axis; [baseline] may only name axes of [grid]: %s", key, strings.Join(axes, ", "))
			}
			return
		}
		v, ok := t.scalar(key, t.m[name])
		if !ok {
			return
		}
		want := p.normalize(name, v)
		found := false
		for _, w := range p.c.Axes[i].Values {
			if p.normalize(name, w) == want {
				b[name], found = w, true
				break
			}
		}
		if !found {
			p.failf("%s = %s: not a value of grid.%s = [%s]; the baseline must be a grid point",
				key, show(t.m[name]), name, strings.Join(p.c.Axes[i].Values, ", "))
			return
		}
	}
	for _, a := range p.c.Axes {
		if _, set := b[a.Name]; !set {
			b[a.Name] = a.Values[0]
		}
	}
	p.c.Baseline = b
}

func indexOf(list []string, s string) int {
	for i, e := range list {
		if e == s {
			return i
		}
	}
	return -1
}
