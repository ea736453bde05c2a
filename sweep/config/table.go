package config

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"
)

// table is one TOML table of the config with typed, strict accessors.
// Every accessor names the full key path in its error and returns the
// default when the key is absent or an error has already been recorded.
type table struct {
	p    *parser
	name string // "load", "target.env"; "" for the top level
	m    map[string]any
}

// key returns the full dotted path of key k in t.
func (t *table) key(k string) string {
	if t.name == "" {
		return k
	}
	return t.name + "." + k
}

// has reports whether k is set.
func (t *table) has(k string) bool {
	_, ok := t.m[k]
	return ok
}

// get returns the value of k, if set and no error is pending.
func (t *table) get(k string) (any, bool) {
	if t.p.err != nil {
		return nil, false
	}
	v, ok := t.m[k]
	return v, ok
}

// wrongType records a type error for key k.
func (t *table) wrongType(k string, v any, want string) {
	t.p.failf("%s = %s: %s is not allowed; want %s", t.key(k), show(v), typeName(v), want)
}

// sub returns the sub-table k (empty when absent).
func (t *table) sub(k string) *table {
	s := &table{p: t.p, name: t.key(k), m: map[string]any{}}
	v, ok := t.get(k)
	if !ok {
		return s
	}
	m, isTable := v.(map[string]any)
	if !isTable {
		t.p.failf("%s = %s: %s is not allowed; want a table ([%s])", t.key(k), show(v), typeName(v), t.key(k))
		return s
	}
	s.m = m
	return s
}

// str returns the string k, or def.
func (t *table) str(k, def string) string {
	v, ok := t.get(k)
	if !ok {
		return def
	}
	s, isStr := v.(string)
	if !isStr {
		t.wrongType(k, v, "a string")
		return def
	}
	return s
}

// oneOf returns the string k, which must be one of allowed; def if unset.
func (t *table) oneOf(k, def string, allowed ...string) string {
	s := t.str(k, def)
	if t.p.err != nil || !t.has(k) {
		return s
	}
	for _, a := range allowed {
		if s == a {
			return s
		}
	}
	t.p.failf("%s = %q: want one of %s", t.key(k), s, quoteList(allowed))
	return def
}

// choice returns the string enum k, which must be one of allowed (listed
// in this order by the error); def if unset. It is the one place where
// the config's enums (sweep.TargetKind, sweep.Restarts, sweep.Sched,
// sweep.Objective) are parsed.
func choice[T ~string](t *table, k string, def T, allowed []T) T {
	names := make([]string, len(allowed))
	for i, a := range allowed {
		names[i] = string(a)
	}
	return T(t.oneOf(k, string(def), names...))
}

// boolean returns the boolean k, or def.
func (t *table) boolean(k string, def bool) bool {
	v, ok := t.get(k)
	if !ok {
		return def
	}
	b, isBool := v.(bool)
	if !isBool {
		t.wrongType(k, v, "true or false")
		return def
	}
	return b
}

// integer returns the integer k in [lo, hi], or def.
func (t *table) integer(k string, def, lo, hi int64) int64 {
	v, ok := t.get(k)
	if !ok {
		return def
	}
	n, isInt := v.(int64)
	if !isInt {
		t.wrongType(k, v, intRange(lo, hi))
		return def
	}
	if n < lo || n > hi {
		t.p.failf("%s = %d: want %s", t.key(k), n, intRange(lo, hi))
		return def
	}
	return n
}

// intRange describes the integers from lo to hi.
func intRange(lo, hi int64) string {
	if hi == math.MaxInt64 {
		if lo == math.MinInt64 {
			return "an integer"
		}
		return fmt.Sprintf("an integer of at least %d", lo)
	}
	return fmt.Sprintf("an integer from %d to %d", lo, hi)
}

// duration returns the positive Go duration string k, or def.
func (t *table) duration(k string, def time.Duration) time.Duration {
	const want = `a positive Go duration string such as "500ms", "2s" or "1m"`
	v, ok := t.get(k)
	if !ok {
		return def
	}
	s, isStr := v.(string)
	if !isStr {
		t.wrongType(k, v, want)
		return def
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		t.p.fail(err, "%s = %q: not a duration; want %s", t.key(k), s, want)
		return def
	}
	if d <= 0 {
		t.p.failf("%s = %q: must be > 0; want %s", t.key(k), s, want)
		return def
	}
	if d > maxDuration {
		t.p.failf("%s = %q: longer than %s; want %s", t.key(k), s, maxDuration, want)
		return def
	}
	return d
}

// float returns the number k (integer or float) in [lo, hi), or def.
func (t *table) float(k string, def, lo, hi float64) float64 {
	want := fmt.Sprintf("a number from %g up to (not including) %g", lo, hi)
	v, ok := t.get(k)
	if !ok {
		return def
	}
	var f float64
	switch n := v.(type) {
	case float64:
		f = n
	case int64:
		f = float64(n)
	default:
		t.wrongType(k, v, want)
		return def
	}
	if math.IsNaN(f) || f < lo || f >= hi {
		t.p.failf("%s = %s: want %s", t.key(k), show(v), want)
		return def
	}
	return f
}

// stringList returns the array of strings k (nil when unset).
func (t *table) stringList(k string) []string {
	v, ok := t.get(k)
	if !ok {
		return nil
	}
	arr, isArr := v.([]any)
	if !isArr {
		t.wrongType(k, v, "an array of strings")
		return nil
	}
	out := make([]string, len(arr))
	for i, e := range arr {
		s, isStr := e.(string)
		if !isStr {
			t.p.failf("%s[%d] = %s: %s is not allowed; want a string", t.key(k), i, show(e), typeName(e))
			return nil
		}
		out[i] = s
	}
	return out
}

// stringMap returns the table of strings k (nil when unset), with its
// keys checked by validKey (which describes what it allows).
func (t *table) stringMap(k string, validKey func(string) bool, keyRule string) map[string]string {
	sub := t.sub(k)
	if t.p.err != nil || !t.has(k) {
		return nil
	}
	out := make(map[string]string, len(sub.m))
	for _, name := range sortedKeys(sub.m) {
		v := sub.m[name]
		if !validKey(name) {
			t.p.failf("%s: invalid name %q; want %s", sub.key(name), name, keyRule)
			return nil
		}
		s, isStr := v.(string)
		if !isStr {
			sub.wrongType(name, v, "a string")
			return nil
		}
		out[name] = s
	}
	return out
}

// scalar converts an axis or setting value to its canonical string:
// integers in decimal, strings verbatim, booleans "true"/"false".
func (t *table) scalar(key string, v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case int64:
		return strconv.FormatInt(x, 10), true
	case bool:
		return strconv.FormatBool(x), true
	}
	t.p.failf("%s = %s: %s is not allowed; want an integer, a string or a boolean", key, show(v), typeName(v))
	return "", false
}

// sortedKeys returns m's keys in sorted order (for deterministic errors).
func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// quoteList formats names as "a", "b" or "c".
func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	if len(q) <= 1 {
		return strings.Join(q, "")
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}
