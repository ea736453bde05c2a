package report

import (
	"fmt"
	"strings"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/units"
)

// environment is summary.md's section "Environment": the machine, the
// versions, the plugins, the CPUs the servers and the load ran on, and
// what else took those CPUs' time.
func (m *mdWriter) environment() {
	e := m.s.Environment
	m.f("## Environment\n\n")
	cpu := orUnknown(e.CPUModel)
	if e.Cores > 0 {
		cpu += fmt.Sprintf(" (%d cores)", e.Cores)
	}
	m.f("- Host: %s, %s, kernel %s\n", orUnknown(e.Host), cpu, orUnknown(e.Kernel))
	m.f("- Go %s, Wasmtime %s, target %s\n", orUnknown(e.GoVersion), orUnknown(e.WasmtimeVersion), orUnknown(string(e.Target)))
	m.pluginLines()
	m.f("- Server CPUs %s (read back: %s); load generator CPUs %s (read back: %s)\n",
		orUnknown(e.ServerCPUs), orUnknown(e.ServerPinned), orUnknown(e.LoadCPUs), orUnknown(e.LoadPinned))
	if e.ServerCPUsAxis {
		m.f("- Each config's servers on its own CPUs (grid.server_cpus; the server CPUs above are their union)\n")
	}
	if e.ShareCPUs {
		m.f("- Servers allowed to share CPUs with the load generator (run.share_cpus); each level names the configs that did\n")
	}
	if e.CPURule != "" {
		m.f("- CPUs chosen by default (run.server_cpus / run.load_cpus): %s\n", e.CPURule)
	}
	if e.AwakeCPUs != "" {
		m.f("- CPUs %s kept awake (run.keep_awake: an idle-priority spinner on each, so no request waits for a halted CPU to wake)\n", e.AwakeCPUs)
	} else {
		m.f("- No CPUs kept awake (run.keep_awake off, or CPUs not pinned): idle CPUs halt, and at low concurrency requests wait for them to wake\n")
	}
	if e.ServerSched != "" {
		m.f("- Servers ran at SCHED_%s (run.server_sched), not the default SCHED_OTHER\n", strings.ToUpper(string(e.ServerSched)))
	}
	if len(m.s.Cells) > 0 {
		var srv, ld float64
		for _, c := range m.s.Cells {
			srv, ld = max(srv, c.ServerSteal), max(ld, c.LoadSteal)
		}
		m.f("- Hypervisor steal (the cells' medians, at most): %s of the server CPUs' time, %s of the load CPUs'\n",
			units.Rate(srv), units.Rate(ld))
		var so, lo *float64
		for _, c := range m.s.Cells {
			if c.ServerOther != nil && (so == nil || *c.ServerOther > *so) {
				so = c.ServerOther
			}
			if c.LoadOther != nil && (lo == nil || *c.LoadOther > *lo) {
				lo = c.LoadOther
			}
		}
		if so != nil && lo != nil {
			m.f("- Other work on the pinned CPUs (anything but this window's server, the driver and the spinners; the cells' medians, at most): server CPUs %s; load CPUs %s\n",
				otherText(*so), otherText(*lo))
		}
	}
	m.f("\n")
}

// otherText is a share of other work on the pinned CPUs. Below zero the
// known work's clocks summed to more than the CPUs' busy time, which is
// the accounting's error, not work: it says none was measured.
func otherText(f float64) string {
	if f < 0 {
		return "none measured (" + units.Change(f) + ": within the accounting's error)"
	}
	return units.Rate(f) + " of their time"
}

// orUnknown is s, or "unknown" when s is empty.
func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

// pluginLines writes the environment's lines about what the servers ran:
// each plugin (kind, size, what a request takes from the pool, the
// compile), and whether the kernel offers PAGEMAP_SCAN and the engine
// uses it.
func (m *mdWriter) pluginLines() {
	e := m.s.Environment
	for _, p := range e.Plugins {
		m.f("- Plugin %s: %s, %s; per request %s, %s, %s",
			code(p.Name), p.Kind, mebibytes(p.Bytes),
			plural(p.CoreInstances, "core instance"), memories(p.Memories), plural(p.Tables, "table"))
		if p.IsComponent() {
			m.f(" and one component instance")
		}
		switch {
		case p.Cached:
			m.f("; compiled in %s (from the compile cache: loaded in %s)", seconds(p.CompileSeconds), seconds(p.LoadSeconds))
		default:
			m.f("; compiled in %s", seconds(p.CompileSeconds))
		}
		if len(p.Configs) > 0 {
			m.f("; served %s", strings.Join(codes(p.Configs), ", "))
		}
		m.f("\n")
	}
	if line := pagemapLine(e); line != "" {
		m.f("- %s\n", line)
	}
}

// pagemapLine says whether the kernel offers PAGEMAP_SCAN and whether the
// servers' engine uses it, which decides how a freed slot's keep_resident
// memory is reset; "" when the run recorded neither.
func pagemapLine(e sweep.Environment) string {
	on, known := e.EnginePagemap()
	if e.PagemapScan == nil && e.EnginePagemapScan == nil {
		return ""
	}
	kernel := "Whether the kernel offers PAGEMAP_SCAN is not recorded"
	if e.PagemapScan != nil && *e.PagemapScan {
		kernel = "Kernel offers PAGEMAP_SCAN"
	} else if e.PagemapScan != nil {
		kernel = "Kernel lacks PAGEMAP_SCAN (Linux < 6.7)"
	}
	wasmtime := "Wasmtime"
	if n := sweep.WasmtimeMajor(e.WasmtimeVersion); n > 0 {
		wasmtime = fmt.Sprintf("Wasmtime %d", n)
	}
	const memset = "a freed slot's lowest keep_resident bytes are memset"
	switch {
	case !known:
		return kernel + "; whether the servers' engine uses it is not recorded"
	case on && e.PagemapScan != nil && *e.PagemapScan:
		return kernel + "; " + wasmtime + " uses it: a freed slot's keep_resident memory is reset only where a request dirtied it"
	case on:
		return kernel + "; " + wasmtime + " would use it where offered; without it " + memset
	case e.Target == sweep.TargetBuiltin:
		anyway := ""
		if e.PagemapScan != nil && !*e.PagemapScan {
			anyway = " anyway"
		}
		return kernel + "; " + wasmtime + " leaves it off" + anyway + " (no C API setter): " + memset
	default:
		return kernel + "; " + wasmtime + " leaves it off: " + memset
	}
}

func codes(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = code(s)
	}
	return out
}

// memories is "1 linear memory", "2 linear memories".
func memories(n int) string {
	if n == 1 {
		return "1 linear memory"
	}
	return fmt.Sprintf("%d linear memories", n)
}

func mebibytes(n int) string {
	if n < 1<<20 {
		return fmt.Sprintf("%.1f KiB", float64(n)/1024)
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}

func seconds(s float64) string {
	switch {
	case s >= 60:
		return fmt.Sprintf("%d min %.0f s", int(s)/60, s-float64(int(s)/60*60))
	case s >= 1:
		return fmt.Sprintf("%.1f s", s)
	}
	return fmt.Sprintf("%.0f ms", s*1000)
}
