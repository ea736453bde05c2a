// Package cpuset parses, formats and applies CPU sets ("0", "0-1,3") for
// pinning the driver and the server processes to disjoint cores.
package cpuset

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Set is a sorted, duplicate-free list of CPU numbers. The zero value is
// the empty set, which means "not pinned".
type Set []int

// ErrCPUSet is wrapped by every parse error.
var ErrCPUSet = errors.New("invalid CPU set")

// Parse reads the kernel's list format: comma-separated CPU numbers and
// inclusive ranges, e.g. "0", "1-3", "0,2-3". The empty string is the
// empty set.
func Parse(s string) (Set, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, nil
	}
	seen := map[int]bool{}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.Atoi(strings.TrimSpace(lo))
		if err != nil || a < 0 {
			return nil, fmt.Errorf("%w %q: %q is not a CPU number or range like 0-3", ErrCPUSet, s, part)
		}
		b := a
		if isRange {
			b, err = strconv.Atoi(strings.TrimSpace(hi))
			if err != nil || b < a {
				return nil, fmt.Errorf("%w %q: %q is not a range like 0-3", ErrCPUSet, s, part)
			}
		}
		if b-a > 4096 {
			return nil, fmt.Errorf("%w %q: range %q is too large", ErrCPUSet, s, part)
		}
		for c := a; c <= b; c++ {
			seen[c] = true
		}
	}
	out := make(Set, 0, len(seen))
	for c := range seen {
		out = append(out, c)
	}
	sort.Ints(out)
	return out, nil
}

// String formats the set in the kernel's list format with ranges.
func (s Set) String() string {
	var b strings.Builder
	for i := 0; i < len(s); {
		j := i
		for j+1 < len(s) && s[j+1] == s[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(s[i]))
		if j > i {
			b.WriteByte('-')
			b.WriteString(strconv.Itoa(s[j]))
		}
		i = j + 1
	}
	return b.String()
}

// Overlaps reports whether s and t share a CPU.
func (s Set) Overlaps(t Set) bool {
	in := map[int]bool{}
	for _, c := range s {
		in[c] = true
	}
	for _, c := range t {
		if in[c] {
			return true
		}
	}
	return false
}

// Online returns the CPUs the kernel reports online
// (/sys/devices/system/cpu/online).
func Online() (Set, error) {
	b, err := os.ReadFile("/sys/devices/system/cpu/online")
	if err != nil {
		return nil, fmt.Errorf("reading online CPUs: %w", err)
	}
	return Parse(string(b))
}

// Subset returns the CPUs of s that are not in t (empty when s ⊆ t).
func (s Set) Subset(t Set) Set {
	in := map[int]bool{}
	for _, c := range t {
		in[c] = true
	}
	var missing Set
	for _, c := range s {
		if !in[c] {
			missing = append(missing, c)
		}
	}
	return missing
}

// Union returns the CPUs of any of the sets, sorted, each once.
func Union(sets ...Set) Set {
	var out Set
	for _, s := range sets {
		out = append(out, s...)
	}
	sort.Ints(out)
	return slices.Compact(out)
}
