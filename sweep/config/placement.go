package config

import (
	"maps"
	"strconv"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/cpuset"
)

// ServerCPUsAxis is the [grid] axis that places each point's servers on
// CPUs of their own, for either target kind: grid.server_cpus = ["0",
// "0-1"] puts a server on one CPU beside the same server on two, paired in
// one run. It is not a Wasmtime option (a builtin server never sees it in
// its settings) and a command target's templates may use it but need not.
// With it, run.server_cpus may not be set.
const ServerCPUsAxis = "server_cpus"

// wantCPUs is what a CPU list value must look like.
const wantCPUs = `a CPU list such as "0", "2-3" or "0,2" ("" = unpinned)`

// ServerCPUsOf returns the CPUs the servers of point p run on: p's value
// of grid.server_cpus when the grid has that axis, else run.server_cpus
// (empty: not pinned).
func (c *Config) ServerCPUsOf(p sweep.Point) cpuset.Set {
	if v, ok := p[ServerCPUsAxis]; ok && c.Run.PointCPUs != nil {
		return c.Run.PointCPUs[v]
	}
	return c.Run.ServerCPUs
}

// SharesCPUs reports whether a server on set shares CPUs with the load
// generator: both pinned and overlapping (allowed only with
// run.share_cpus).
func (c *Config) SharesCPUs(set cpuset.Set) bool {
	return len(set) > 0 && len(c.Run.LoadCPUs) > 0 && set.Overlaps(c.Run.LoadCPUs)
}

// Settings returns the settings a builtin server of point p runs with:
// [workload] and [settings] with p's axes over them, without
// grid.server_cpus (a placement, not a setting).
func (c *Config) Settings(p sweep.Point) map[string]string {
	m := maps.Clone(c.Fixed)
	if m == nil {
		m = map[string]string{}
	}
	maps.Copy(m, p)
	delete(m, ServerCPUsAxis)
	return m
}

// cpus reads and checks the placement: server_cpus, load_cpus and
// share_cpus of [run], and the axis grid.server_cpus. With none of the
// CPU keys set the placement is cpuset.Split's over the CPUs this process
// may use; with one set, the other is the usable CPUs it leaves. With the
// axis, the load CPUs default to the usable CPUs that no point's server
// takes (with share_cpus, when there are none: those that not every
// point's server takes). A server's CPUs may overlap the load CPUs only
// with share_cpus.
func (p *parser) cpus(t *table) {
	r := &p.c.Run
	r.ShareCPUs = t.boolean("share_cpus", false)
	server, hasServer := p.cpuList(t, "server_cpus")
	load, hasLoad := p.cpuList(t, "load_cpus")
	axis, points := p.axisCPUs()
	if p.err != nil {
		return
	}
	if axis >= 0 && hasServer {
		p.failf("run.server_cpus: not allowed with the axis grid.%s, which places each point's server; set one of them", ServerCPUsAxis)
		return
	}
	m, err := thisMachine()
	if err != nil {
		if hasServer || hasLoad || axis >= 0 {
			p.fail(err, "run: cannot check the server and load CPUs: %v", err)
			return
		}
		r.CPURule = "not pinned: the CPUs could not be read (" + err.Error() + ")"
		return
	}
	if axis >= 0 && !p.placePoints(m, axis, points) {
		return
	}
	switch {
	case axis >= 0:
		server = cpuset.Union(points...)
		if !hasLoad {
			load = p.axisLoad(m, points)
		}
	case !hasServer && !hasLoad:
		d := cpuset.Split(m)
		server, load = d.Server, d.Load
		r.CPURule = d.Rule
	case !hasLoad:
		load = m.Usable.Subset(server)
		r.CPURule = "load_cpus: the usable CPUs that server_cpus leaves"
	case !hasServer:
		server = m.Usable.Subset(load)
		r.CPURule = "server_cpus: the usable CPUs that load_cpus leaves"
	}
	if p.err != nil {
		return
	}
	if axis < 0 && !p.onMachine(m, "run.server_cpus", server) || !p.onMachine(m, "run.load_cpus", load) {
		return
	}
	if !r.ShareCPUs {
		if axis >= 0 {
			for i, set := range points {
				if set.Overlaps(load) {
					v := p.c.Axes[axis].Values[i]
					p.failf("grid.%s[%d] = %q overlaps run.load_cpus = %q; a point's server and the load generator need disjoint CPUs (usable: %s), or set run.share_cpus = true to let them share (the report flags those cells)",
						ServerCPUsAxis, i, v, load.String(), m.Usable.String())
					return
				}
			}
		} else if server.Overlaps(load) {
			p.failf("run.server_cpus = %q and run.load_cpus = %q overlap; the server and the load generator need disjoint CPUs (usable: %s), or set run.share_cpus = true to let them share (the report flags those cells)",
				server.String(), load.String(), m.Usable.String())
			return
		}
	}
	r.ServerCPUs, r.LoadCPUs = server, load
	if axis >= 0 {
		r.PointCPUs = map[string]cpuset.Set{}
		for i, v := range p.c.Axes[axis].Values {
			r.PointCPUs[v] = points[i]
		}
	}
}

// axisCPUs returns the index of the axis grid.server_cpus in Config.Axes
// and its values' CPU sets (already parsed by the grid), or -1.
func (p *parser) axisCPUs() (int, []cpuset.Set) {
	for i, a := range p.c.Axes {
		if a.Name != ServerCPUsAxis {
			continue
		}
		sets := make([]cpuset.Set, len(a.Values))
		for j, v := range a.Values {
			sets[j], _ = cpuset.Parse(v) // checked by cpuValue
		}
		return i, sets
	}
	return -1, nil
}

// placePoints checks that every point's CPUs are on this machine.
func (p *parser) placePoints(m cpuset.Machine, axis int, points []cpuset.Set) bool {
	for i, set := range points {
		if !p.onMachine(m, "grid."+ServerCPUsAxis+"["+strconv.Itoa(i)+"]", set) {
			return false
		}
	}
	return true
}

// axisLoad is the default load CPUs beside the axis' points, or a
// config error when there are none.
func (p *parser) axisLoad(m cpuset.Machine, points []cpuset.Set) cpuset.Set {
	all := cpuset.Union(points...)
	if free := m.Usable.Subset(all); len(free) > 0 {
		p.c.Run.CPURule = "load_cpus: the usable CPUs that no point's server_cpus takes"
		return free
	}
	if !p.c.Run.ShareCPUs {
		p.failf("grid.%s: the points' servers take every usable CPU (%s), which leaves none for the load generator; give the points fewer CPUs, or set run.load_cpus and run.share_cpus = true to let them share (the report flags those cells)",
			ServerCPUsAxis, m.Usable.String())
		return nil
	}
	every := points[0]
	for _, s := range points[1:] {
		every = every.Intersect(s)
	}
	if free := m.Usable.Subset(every); len(free) > 0 {
		p.c.Run.CPURule = "load_cpus: the usable CPUs that not every point's server_cpus takes (run.share_cpus: shared with the servers that take them)"
		return free
	}
	p.failf("grid.%s: every point's server takes every usable CPU (%s); set run.load_cpus to the CPUs the load generator shares with them", ServerCPUsAxis, m.Usable.String())
	return nil
}

// onMachine checks that set's CPUs are online and usable by this process.
func (p *parser) onMachine(m cpuset.Machine, key string, set cpuset.Set) bool {
	if missing := set.Subset(m.Online); len(missing) > 0 {
		p.failf("%s = %q: CPU %s not online; this machine has CPUs %s", key, set.String(), missing.String(), m.Online.String())
		return false
	}
	if missing := set.Subset(m.Usable); len(missing) > 0 {
		p.failf("%s = %q: CPU %s not usable by this process (its affinity or cgroup cpuset allows CPUs %s)", key, set.String(), missing.String(), m.Usable.String())
		return false
	}
	return true
}

// cpuList reads one CPU list key: a kernel-format string or an integer.
func (p *parser) cpuList(t *table, k string) (cpuset.Set, bool) {
	v, ok := t.get(k)
	if !ok {
		return nil, false
	}
	var s string
	switch x := v.(type) {
	case string:
		s = x
	case int64:
		s = strconv.FormatInt(x, 10)
	default:
		t.wrongType(k, v, wantCPUs)
		return nil, true
	}
	set, err := cpuset.Parse(s)
	if err != nil {
		p.fail(err, `%s = %s: want %s`, t.key(k), show(v), wantCPUs)
		return nil, true
	}
	return set, true
}

// cpuValue checks one value of grid.server_cpus (key names it): a
// non-empty CPU list. Whether its CPUs exist is checked with the rest of
// the placement (cpus).
func (p *parser) cpuValue(key, v string, raw any) bool {
	set, err := cpuset.Parse(v)
	if err != nil {
		p.fail(err, `%s = %s: want a CPU list such as "0", "2-3" or "0,2"`, key, show(raw))
		return false
	}
	if len(set) == 0 {
		p.failf(`%s = %s: a point's server needs at least one CPU; want a CPU list such as "0", "2-3" or "0,2"`, key, show(raw))
		return false
	}
	return true
}
