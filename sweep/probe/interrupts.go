package probe

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// procInterrupts is the file ReadIPIs reads; tests point it at fixtures.
var procInterrupts = "/proc/interrupts"

// IPIs are the inter-processor interrupt counts of /proc/interrupts, per
// CPU: TLB is the "TLB:" line (TLB shootdowns: another CPU asked this one
// to flush its TLB, as a munmap or madvise(DONTNEED) of a process running
// on several CPUs does), CAL the "CAL:" line (function call interrupts:
// smp_call_function requests, which on recent x86 kernels carry most
// remote TLB flushes too). The counts are the whole machine's, per
// receiving CPU, not one process's: over a window they are the interrupts
// the window's CPUs took, whoever caused them.
//
// A map lacks a CPU the file does not list (an offline CPU); TLB or CAL
// is nil when the kernel has no such line (e.g. on arm64, which names its
// IPIs differently).
type IPIs struct {
	TLB, CAL map[int]int64
}

// ReadIPIs reads /proc/interrupts once.
func ReadIPIs() (IPIs, error) {
	b, err := os.ReadFile(procInterrupts)
	if err != nil {
		return IPIs{}, fmt.Errorf("probe: %w", err)
	}
	return ParseIPIs(procInterrupts, b)
}

// ParseIPIs parses the text of /proc/interrupts (read from path p, for
// errors): the header names the columns ("CPU0 CPU1 CPU3" — only online
// CPUs), and each of the lines "TLB:" and "CAL:" has one count per
// column. Other lines are ignored.
func ParseIPIs(p string, b []byte) (IPIs, error) {
	var cols []int
	var out IPIs
	for line := range bytes.Lines(b) {
		f := strings.Fields(string(line))
		if len(f) == 0 {
			continue
		}
		if cols == nil {
			for _, name := range f {
				n, err := strconv.Atoi(strings.TrimPrefix(name, "CPU"))
				if !strings.HasPrefix(name, "CPU") || err != nil {
					return IPIs{}, fmt.Errorf("probe: %s: header column %q: want CPUn", p, name)
				}
				cols = append(cols, n)
			}
			continue
		}
		var dst *map[int]int64
		switch f[0] {
		case "TLB:":
			dst = &out.TLB
		case "CAL:":
			dst = &out.CAL
		default:
			continue
		}
		if len(f)-1 < len(cols) {
			return IPIs{}, fmt.Errorf("probe: %s: %s has %d counts for %d CPUs", p, f[0], len(f)-1, len(cols))
		}
		m := make(map[int]int64, len(cols))
		for i, c := range cols {
			n, err := strconv.ParseInt(f[1+i], 10, 64)
			if err != nil {
				return IPIs{}, fmt.Errorf("probe: %s: %s count of CPU%d: %w", p, f[0], c, err)
			}
			m[c] = n
		}
		*dst = m
	}
	if cols == nil {
		return IPIs{}, fmt.Errorf("probe: %s: no header line", p)
	}
	return out, nil
}

// Sum returns the TLB and CAL counts summed over cpus (every CPU listed
// for an empty set), and ok = false when the kernel has no TLB or no CAL
// line.
func (x IPIs) Sum(cpus []int) (tlb, cal int64, ok bool) {
	if x.TLB == nil || x.CAL == nil {
		return 0, 0, false
	}
	sum := func(m map[int]int64) int64 {
		var n int64
		if len(cpus) == 0 {
			for _, v := range m {
				n += v
			}
			return n
		}
		for _, c := range cpus {
			n += m[c]
		}
		return n
	}
	return sum(x.TLB), sum(x.CAL), true
}
