// Package units parses and formats the byte sizes used in configs and
// server flags, and the shares (fractions or percentages: 0.05, "5%") of
// config keys and command-line thresholds. Sizes are binary (IEC): "64KiB" is 65536 bytes. SI suffixes
// such as "KB" or "MB" are refused rather than guessed at, because
// Wasmtime's own documentation and the Rust API speak in bytes and powers
// of two, and a silent 1000-vs-1024 mix-up would skew a keep_resident grid.
package units

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Size is a number of bytes.
type Size uint64

// Binary multiples.
const (
	B   Size = 1
	KiB Size = 1 << 10
	MiB Size = 1 << 20
	GiB Size = 1 << 30
	TiB Size = 1 << 40
)

var suffixes = []struct {
	name string
	mult Size
}{
	{"TiB", TiB}, {"GiB", GiB}, {"MiB", MiB}, {"KiB", KiB}, {"B", B},
}

// ErrSize is wrapped by every parse error.
var ErrSize = errors.New("invalid size")

// allowed describes the accepted forms for error messages.
const allowed = `a non-negative integer number of bytes or an integer with a binary unit: B, KiB, MiB, GiB, TiB (e.g. "64KiB")`

// ParseSize parses "65536", "64KiB", "2MiB", "1 GiB". Units are
// case-sensitive IEC binary suffixes; "KB", "MB", "k" and fractions are
// refused with an error that says what is allowed.
func ParseSize(s string) (Size, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return 0, fmt.Errorf("%w %q: empty; want %s", ErrSize, s, allowed)
	}
	num, mult := t, B
	for _, suf := range suffixes {
		if strings.HasSuffix(t, suf.name) {
			num, mult = strings.TrimSpace(strings.TrimSuffix(t, suf.name)), suf.mult
			break
		}
	}
	if num == "" {
		return 0, fmt.Errorf("%w %q: no number; want %s", ErrSize, s, allowed)
	}
	n, err := strconv.ParseUint(num, 10, 64)
	if err != nil {
		if hint := siHint(t); hint != "" {
			return 0, fmt.Errorf("%w %q: %s; want %s", ErrSize, s, hint, allowed)
		}
		return 0, fmt.Errorf("%w %q: want %s", ErrSize, s, allowed)
	}
	if n > math.MaxUint64/uint64(mult) {
		return 0, fmt.Errorf("%w %q: overflows 64 bits", ErrSize, s)
	}
	return Size(n) * mult, nil
}

// siHint explains refused decimal or lowercase units.
func siHint(t string) string {
	lower := strings.ToLower(t)
	for _, u := range []string{"kb", "mb", "gb", "tb", "k", "m", "g", "t", "kib", "mib", "gib", "tib"} {
		if strings.HasSuffix(lower, u) {
			return "unit must be a binary IEC suffix spelled exactly KiB, MiB, GiB or TiB (SI units like MB are not accepted)"
		}
	}
	return ""
}

// String formats s with the largest binary unit that divides it exactly:
// 65536 → "64KiB", 1000 → "1000B", 0 → "0".
func (s Size) String() string {
	if s == 0 {
		return "0"
	}
	for _, suf := range suffixes {
		if suf.mult > B && s%suf.mult == 0 {
			return strconv.FormatUint(uint64(s/suf.mult), 10) + suf.name
		}
	}
	return strconv.FormatUint(uint64(s), 10) + "B"
}

// Set implements flag.Value.
func (s *Size) Set(v string) error {
	n, err := ParseSize(v)
	if err != nil {
		return err
	}
	*s = n
	return nil
}

// UnmarshalText implements encoding.TextUnmarshaler (TOML and JSON strings).
func (s *Size) UnmarshalText(b []byte) error { return s.Set(string(b)) }

// MarshalText implements encoding.TextMarshaler.
func (s Size) MarshalText() ([]byte, error) { return []byte(s.String()), nil }
