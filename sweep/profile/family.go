package profile

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/google/pprof/profile"
)

// The families Classify puts samples in.
const (
	PageFault   = "page fault"
	Madvise     = "madvise/munmap"
	Mmap        = "mmap/mprotect"
	TLB         = "TLB shootdown"
	Scheduler   = "scheduler"
	Network     = "network stack"
	OtherKernel = "other kernel"
	Wasmtime    = "Wasmtime"
	MemOps      = "memset/memcpy"
	GoRuntime   = "Go runtime"
	OtherUser   = "other user"
)

// FamilyNames lists every family in a fixed display order: the kernel's
// specific families, other kernel, then the user side.
var FamilyNames = []string{PageFault, Madvise, Mmap, TLB, Scheduler, Network, OtherKernel, Wasmtime, MemOps, GoRuntime, OtherUser}

// Family is the share of a profile's samples that Classify puts in one
// family.
type Family struct {
	Name    string
	Samples int64
	// CPU is the CPU time of the samples (their cpu/nanoseconds values).
	CPU time.Duration
	// Share is CPU over the profile's total, in [0, 1]; by sample counts
	// when the profile has no cpu values.
	Share float64
}

// Families classifies every sample of p (see Classify) and returns the
// families that hold samples, by CPU time, largest first (ties in
// FamilyNames order).
func Families(p *profile.Profile) []Family {
	ci, si := valueIndex(p, "cpu"), valueIndex(p, "samples")
	byName := map[string]*Family{}
	var total, totalSamples int64
	var stack []Frame
	for _, s := range p.Sample {
		stack = stack[:0]
		for _, l := range s.Location {
			stack = append(stack, framesOf(l)...)
		}
		name := Classify(stack)
		f := byName[name]
		if f == nil {
			f = &Family{Name: name}
			byName[name] = f
		}
		n := int64(1)
		if si >= 0 {
			n = s.Value[si]
		}
		f.Samples += n
		totalSamples += n
		if ci >= 0 {
			f.CPU += time.Duration(s.Value[ci])
			total += s.Value[ci]
		}
	}
	out := make([]Family, 0, len(byName))
	for _, f := range byName {
		switch {
		case total > 0:
			f.Share = float64(f.CPU) / float64(total)
		case totalSamples > 0:
			f.Share = float64(f.Samples) / float64(totalSamples)
		}
		out = append(out, *f)
	}
	slices.SortFunc(out, func(a, b Family) int {
		if c := cmp.Compare(b.CPU, a.CPU); c != 0 {
			return c
		}
		if c := cmp.Compare(b.Samples, a.Samples); c != 0 {
			return c
		}
		return cmp.Compare(familyRank(a.Name), familyRank(b.Name))
	})
	return out
}

// valueIndex is the index of p's sample type typ, or -1.
func valueIndex(p *profile.Profile, typ string) int {
	return slices.IndexFunc(p.SampleType, func(t *profile.ValueType) bool { return t.Type == typ })
}

// framesOf turns a pprof location into frames, leaf first (pprof lists a
// location's inlined functions before the function they are inlined into).
func framesOf(l *profile.Location) []Frame {
	dso := ""
	if l.Mapping != nil {
		dso = l.Mapping.File
	}
	if len(l.Line) == 0 {
		return []Frame{{Addr: l.Address, Func: unknown, DSO: dso}}
	}
	out := make([]Frame, 0, len(l.Line))
	for _, ln := range l.Line {
		name := unknown
		if ln.Function != nil {
			name = ln.Function.Name
		}
		out = append(out, Frame{Addr: l.Address, Func: name, DSO: dso})
	}
	return out
}

// Classify names the family of one sampled stack, given leaf first. The
// rule, in two steps:
//
//  1. Walk the kernel frames from the outermost (the system call or
//     exception entry) towards the leaf; the first frame that belongs to a
//     specific kernel family — page fault, madvise/munmap, mmap/mprotect,
//     TLB shootdown, scheduler, network stack — names the sample. Outermost
//     first, so that the page faults of a recv(2) count as network stack
//     and the TLB flushes or page freeing of madvise(2) as madvise/munmap:
//     the family is what the process asked for.
//  2. Otherwise, a sample whose leaf is in the kernel is other kernel
//     (interrupts, timers, other system calls). A leaf in the C library's
//     memset, memcpy or memmove is memset/memcpy, whoever called it: the
//     caller is usually lost (those routines keep no frame pointer, and
//     perf unwinds by frame pointers), and in a Wasmtime host they are
//     mostly the pooling allocator resetting the memory it keeps resident
//     (linear_memory_keep_resident). Any other user-space leaf is owned
//     by the innermost user frame that belongs to Wasmtime (its symbols,
//     its library, JIT code in a perf map), to the Go runtime (runtime.*,
//     cgo glue) or to other Go code (other user). Frames of the C and
//     Rust standard libraries and unresolved frames are transparent: the
//     Rust allocator or libc's malloc under Wasmtime, or unsymbolized JIT
//     code called from a Wasmtime trampoline, is Wasmtime's. A stack of
//     only transparent frames is other user.
func Classify(stack []Frame) string {
	for i := len(stack) - 1; i >= 0; i-- {
		if f := stack[i]; f.Kernel() {
			if fam := kernelFamily(f.Func); fam != "" {
				return fam
			}
		}
	}
	if len(stack) > 0 && stack[0].Kernel() {
		return OtherKernel
	}
	if len(stack) > 0 && isMemOp(stack[0].Func) {
		return MemOps
	}
	for _, f := range stack {
		if f.Kernel() {
			continue
		}
		if fam := userFamily(f); fam != "" {
			return fam
		}
	}
	return OtherUser
}

// isMemOp reports whether name is a C library memset, memcpy or memmove
// ("__memset_avx2_unaligned_erms"), not Go's runtime.memmove.
func isMemOp(name string) bool {
	name = strings.TrimLeft(name, "_")
	for _, p := range []string{"memset", "memcpy", "memmove", "mempcpy", "bzero"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// userFamily is the family owning user frame f, "" for a transparent one.
func userFamily(f Frame) string {
	lower := strings.ToLower(f.Func)
	switch {
	case strings.Contains(lower, "wasmtime") || strings.Contains(lower, "cranelift") ||
		strings.HasPrefix(f.Func, "wasm_") || isWasmtimeDSO(f.DSO):
		return Wasmtime
	case strings.HasPrefix(f.Func, "runtime.") || strings.HasPrefix(f.Func, "internal/runtime/") ||
		strings.HasPrefix(f.Func, "runtime/internal/") || strings.HasPrefix(f.Func, "_cgo_") ||
		strings.HasPrefix(f.Func, "x_cgo_") || strings.HasPrefix(f.Func, "crosscall"):
		return GoRuntime
	case isGoSymbol(f.Func):
		return OtherUser
	}
	return ""
}

// isWasmtimeDSO reports whether dso is Wasmtime's shared library or JIT
// code: a perf map (/tmp/perf-PID.map) or a jitdump DSO (jitted-*.so) —
// Wasmtime is the JIT of the servers sweep profiles.
func isWasmtimeDSO(dso string) bool {
	base := dso[strings.LastIndex(dso, "/")+1:]
	return strings.Contains(strings.ToLower(base), "wasmtime") ||
		strings.HasPrefix(base, "perf-") && strings.HasSuffix(base, ".map") ||
		strings.HasPrefix(base, "jitted-") && strings.HasSuffix(base, ".so")
}

// isGoSymbol reports whether name looks like a Go function
// ("main.main", "net/http.(*conn).serve"): an import path, a dot, more.
// Rust and C++ names (with "::"), C names (no dot) and GCC clones
// ("memcpy.part.0") are not.
func isGoSymbol(name string) bool {
	if name == "" || name[0] == '[' || strings.ContainsAny(name, " <") || strings.Contains(name, "::") {
		return false
	}
	rest := name[strings.LastIndex(name, "/")+1:]
	pkg, after, ok := strings.Cut(rest, ".")
	if !ok || pkg == "" || after == "" {
		return false
	}
	for _, r := range pkg {
		if !(r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	for _, clone := range []string{"part", "constprop", "isra", "cold", "lto_priv", "localalias", "llvm"} {
		if strings.HasPrefix(after, clone) {
			return false
		}
	}
	return true
}

// familyRank is name's position in FamilyNames, after all of them when it
// is not a known family.
func familyRank(name string) int {
	if i := slices.Index(FamilyNames, name); i >= 0 {
		return i
	}
	return len(FamilyNames)
}
