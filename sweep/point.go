package sweep

import (
	"sort"
	"strings"
)

// Point is one grid point: axis name → value, as written in the config
// (sizes keep their units, e.g. "64KiB"; numbers and booleans are written
// in their TOML form). Values are strings so that they can be passed to a
// server's argv/env templates verbatim and compared exactly.
type Point map[string]string

// Axes returns the point's axis names in sorted order.
func (p Point) Axes() []string {
	names := make([]string, 0, len(p))
	for k := range p {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

// Label is the point's stable, human-readable identity:
// "axis=value axis=value" with axes in sorted order, or "(default)" for
// an empty point. Labels name configs in results.jsonl and summaries.
func (p Point) Label() string {
	if len(p) == 0 {
		return "(default)"
	}
	parts := make([]string, 0, len(p))
	for _, k := range p.Axes() {
		parts = append(parts, k+"="+p[k])
	}
	return strings.Join(parts, " ")
}

// Equal reports whether p and q have the same axes and values.
func (p Point) Equal(q Point) bool {
	if len(p) != len(q) {
		return false
	}
	for k, v := range p {
		if w, ok := q[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// Clone returns a copy of p.
func (p Point) Clone() Point {
	q := make(Point, len(p))
	for k, v := range p {
		q[k] = v
	}
	return q
}
