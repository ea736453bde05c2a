package report

import (
	"fmt"
	"strings"
)

// pluginLines writes the environment's lines about what the servers ran:
// each plugin (kind, size, what a request takes from the pool, the
// compile), and whether the kernel offers PAGEMAP_SCAN.
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
	if e.PagemapScan != nil {
		if *e.PagemapScan {
			m.f("- Kernel offers PAGEMAP_SCAN: Wasmtime resets only the dirty pages of keep_resident memory\n")
		} else {
			m.f("- Kernel lacks PAGEMAP_SCAN (Linux < 6.7): Wasmtime resets all keep_resident bytes of a slot on every free\n")
		}
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
