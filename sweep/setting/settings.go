package setting

import (
	"flag"
	"fmt"
	"sort"
	"strconv"
	"time"

	"github.com/sweep-dev/sweep/sweep/units"
)

// Settings is a set of option values keyed by ID. An unset option keeps
// Wasmtime's default (or, for a knob, its documented default). Setting a
// workload knob to zero is the same as leaving it unset: zero means "none"
// (no memory touched, no compute, no wait, empty body).
//
// The zero value is empty. Settings is a plain value: copies are
// independent and == compares them.
type Settings struct {
	set  [numOptions]bool
	vals [numOptions]uint64 // counts, integers, bytes, 0/1, nanoseconds
}

// Set parses value for the option name and stores it in s.
func (s *Settings) Set(name, value string) error {
	o, ok := Lookup(name)
	if !ok {
		return unknownError(name)
	}
	v, err := o.parse(value)
	if err != nil {
		return err
	}
	s.vals[o.ID] = v
	s.set[o.ID] = !(o.Knob && v == 0)
	return nil
}

// Get returns the value of option name as a string (sizes with units),
// and whether it is set.
func (s *Settings) Get(name string) (string, bool) {
	o, ok := Lookup(name)
	if !ok || !s.set[o.ID] {
		return "", false
	}
	return o.format(s.vals[o.ID]), true
}

// format renders a value of the option's kind as Set accepts it.
func (o Option) format(v uint64) string {
	switch o.Kind {
	case Size:
		return units.Size(v).String()
	case Bool:
		return strconv.FormatBool(v != 0)
	case Duration:
		return time.Duration(v).String()
	}
	return strconv.FormatUint(v, 10)
}

// IsSet reports whether option id is set.
func (s Settings) IsSet(id ID) bool { return s.set[id] }

// Value returns the raw value of option id — a count or integer, bytes
// for a size, 1 or 0 for a bool, nanoseconds for a duration — and whether
// it is set.
func (s Settings) Value(id ID) (uint64, bool) { return s.vals[id], s.set[id] }

// Uint returns the value of a count or integer option, 0 if unset.
func (s Settings) Uint(id ID) uint64 { return s.typed(id, Count, Int) }

// Size returns the value of a size option, 0 if unset.
func (s Settings) Size(id ID) units.Size { return units.Size(s.typed(id, Size, Size)) }

// Duration returns the value of a duration option, 0 if unset.
func (s Settings) Duration(id ID) time.Duration {
	return time.Duration(s.typed(id, Duration, Duration))
}

// Bool returns the value of a bool option, false if unset.
func (s Settings) Bool(id ID) bool { return s.typed(id, Bool, Bool) != 0 }

// typed returns the value of id, checking that its kind is k1 or k2: a
// mismatch is a bug in the caller (IDs are constants), so it panics.
func (s Settings) typed(id ID, k1, k2 Kind) uint64 {
	if k := options[id].Kind; k != k1 && k != k2 {
		panic(fmt.Sprintf("setting: %s is a %s, not a %s", options[id].Name, k, k1))
	}
	if !s.set[id] {
		return 0
	}
	return s.vals[id]
}

// FromMap builds Settings from name → value strings ("64KiB", "64",
// "true", "1ms"). Names are checked in sorted order so the first error is
// deterministic.
func FromMap(m map[string]string) (Settings, error) {
	var s Settings
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		if err := s.Set(k, m[k]); err != nil {
			return Settings{}, err
		}
	}
	return s, nil
}

// Map returns the set options as name → value strings (sizes with units).
// FromMap(s.Map()) equals s.
func (s Settings) Map() map[string]string {
	m := map[string]string{}
	for _, o := range options {
		if s.set[o.ID] {
			m[o.Name] = o.format(s.vals[o.ID])
		}
	}
	return m
}

// flagValue adapts one option of a Settings to flag.Value.
type flagValue struct {
	s  *Settings
	id ID
}

func (f flagValue) String() string {
	if f.s == nil {
		return ""
	}
	v, _ := f.s.Get(options[f.id].Name)
	return v
}

func (f flagValue) Set(v string) error { return f.s.Set(options[f.id].Name, v) }

// IsBoolFlag lets "-memory_init_cow" alone mean true.
func (f flagValue) IsBoolFlag() bool { return options[f.id].Kind == Bool }

// Usage is the flag help of option o, e.g. "maximum number of concurrently
// live linear memories (count, Wasmtime default 1000)".
func (o Option) Usage() string {
	usage := o.Doc
	if o.Knob {
		usage = "workload: " + usage
	}
	usage += fmt.Sprintf(" (%s", o.Kind)
	if o.Default != "" {
		if o.Knob {
			usage += ", default " + o.Default
		} else {
			usage += ", Wasmtime default " + o.Default
		}
	}
	return usage + ")"
}

// RegisterFlags defines one flag per option of the table on fs, named
// like the option (e.g. -linear_memory_keep_resident 64KiB) with
// Option.Usage as help; parsing a flag sets the option in s, so flags
// parsed after FromMap override its values.
func (s *Settings) RegisterFlags(fs *flag.FlagSet) {
	for _, o := range options {
		fs.Var(flagValue{s: s, id: o.ID}, o.Name, o.Usage())
	}
}
