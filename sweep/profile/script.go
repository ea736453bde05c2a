package profile

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// scriptFields are the fields Convert asks perf script for. perf prints them
// in its own fixed order whatever the order here: a header line
// "comm pid/tid time: period" per sample, then (the recording has
// callchains) one line per frame, leaf first, "\taddr sym (dso)", then an
// empty line.
const scriptFields = "comm,pid,tid,time,period,ip,sym,dso"

// unknown is perf's name for a symbol or DSO it could not resolve.
const unknown = "[unknown]"

// Frame is one frame of a sampled stack as perf script names it.
type Frame struct {
	// Addr is the address perf prints: the kernel address for kernel
	// frames, for user frames usually the offset in the DSO.
	Addr uint64
	// Func is the symbol, "[unknown]" when perf could not resolve it.
	Func string
	// DSO is the binary or library, "[kernel.kallsyms]" for the kernel,
	// "[unknown]" when the address is in no known mapping (e.g. JIT code).
	DSO string
}

// Kernel reports whether f is a kernel frame: its DSO is the kernel
// ("[kernel.kallsyms]", or a "[kernel.*]" name), or its address is in the
// upper half of the address space, where x86-64 and arm64 kernels live.
func (f Frame) Kernel() bool {
	return strings.HasPrefix(f.DSO, "[kernel") || f.Addr >= 1<<63
}

// ScriptSample is one sample of perf script's output.
type ScriptSample struct {
	Comm     string
	PID, TID int
	// Time is perf's timestamp (the kernel's monotonic clock) in ns.
	Time int64
	// Period is the sample's weight: for cpu-clock, nanoseconds of CPU.
	Period int64
	// Stack holds the frames leaf first.
	Stack []Frame
}

// SyntaxError reports a line of perf script output that ParseScript could
// not read.
type SyntaxError struct {
	Line int
	Text string
	Msg  string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("perf script output line %d: %s: %q", e.Line, e.Msg, e.Text)
}

// ParseScript reads the output of "perf script -F "+scriptFields+" --ns"
// of a recording with callchains and calls fn for each sample, in order.
// It stops at the first error fn returns and returns it.
func ParseScript(r io.Reader, fn func(*ScriptSample) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	var cur *ScriptSample
	flush := func() error {
		if cur == nil {
			return nil
		}
		s := cur
		cur = nil
		return fn(s)
	}
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		switch {
		case strings.TrimSpace(line) == "":
			if err := flush(); err != nil {
				return err
			}
		case line[0] == ' ' || line[0] == '\t':
			if cur == nil {
				return &SyntaxError{n, line, "frame outside a sample"}
			}
			f, ok := parseFrame(line)
			if !ok {
				return &SyntaxError{n, line, `want "addr sym (dso)"`}
			}
			cur.Stack = append(cur.Stack, f)
		default:
			if err := flush(); err != nil {
				return err
			}
			s, ok := parseHeader(line)
			if !ok {
				return &SyntaxError{n, line, `want "comm pid/tid time: period"`}
			}
			cur = s
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("reading perf script output: %w", err)
	}
	return flush()
}

// parseHeader reads "comm pid/tid time: period". The comm may hold spaces,
// so the line is read from the right.
func parseHeader(line string) (*ScriptSample, bool) {
	f := strings.Fields(line)
	if len(f) < 4 {
		return nil, false
	}
	k := len(f)
	period, err := strconv.ParseInt(f[k-1], 10, 64)
	if err != nil {
		return nil, false
	}
	t, ok := parseTime(f[k-2])
	if !ok {
		return nil, false
	}
	p, tid, ok := strings.Cut(f[k-3], "/")
	if !ok {
		return nil, false
	}
	pid, err1 := strconv.Atoi(p)
	tidN, err2 := strconv.Atoi(tid)
	if err1 != nil || err2 != nil {
		return nil, false
	}
	comm := strings.TrimSpace(line[:strings.LastIndex(line, f[k-3])])
	return &ScriptSample{Comm: comm, PID: pid, TID: tidN, Time: t, Period: period}, true
}

// parseTime reads perf's "seconds.nanoseconds:" timestamp.
func parseTime(s string) (int64, bool) {
	s, ok := strings.CutSuffix(s, ":")
	if !ok {
		return 0, false
	}
	sec, frac, _ := strings.Cut(s, ".")
	secN, err := strconv.ParseInt(sec, 10, 64)
	if err != nil || len(frac) > 9 {
		return 0, false
	}
	var ns int64
	if frac != "" {
		n, err := strconv.ParseInt(frac+strings.Repeat("0", 9-len(frac)), 10, 64)
		if err != nil {
			return 0, false
		}
		ns = n
	}
	return secN*1e9 + ns, true
}

// parseFrame reads "\taddr sym (dso)". The symbol may hold spaces and
// parentheses (demangled C++ and Rust), so the DSO is the last
// parenthesised group of the line.
func parseFrame(line string) (Frame, bool) {
	line = strings.TrimSpace(line)
	addr, rest, ok := strings.Cut(line, " ")
	if !ok {
		return Frame{}, false
	}
	a, err := strconv.ParseUint(addr, 16, 64)
	if err != nil {
		return Frame{}, false
	}
	rest = " " + strings.TrimSpace(rest)
	i := strings.LastIndex(rest, " (")
	if i < 0 || !strings.HasSuffix(rest, ")") {
		return Frame{}, false
	}
	sym := strings.TrimSpace(rest[:i])
	if sym == "" {
		sym = unknown
	}
	return Frame{Addr: a, Func: sym, DSO: rest[i+2 : len(rest)-1]}, true
}
