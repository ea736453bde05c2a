// Package grid expands a sweep's axes into the full list of grid points
// in a fixed, documented order.
//
// The order is that of nested loops over the axes as written in the config
// file: the first axis is the outermost loop and the last axis varies
// fastest. Values keep the order in which they are written. The order is
// part of the contract: slot numbers, report rows and heatmap cells follow
// it, so the same config always yields the same numbering.
package grid

import "github.com/sweep-dev/sweep/sweep"

// Axis is one swept setting: its name and its values as canonical strings
// in config-file order (TOML integers as decimal strings, strings verbatim,
// e.g. "64KiB", booleans as "true"/"false").
type Axis struct {
	Name   string
	Values []string
}

// Size returns the number of points Expand(axes) returns: the product of
// the axes' lengths (1 for no axes, 0 if any axis is empty). It saturates
// at limit+1 so that callers can refuse a huge grid before expanding it;
// pass limit <= 0 for no limit.
func Size(axes []Axis, limit int) int {
	n := 1
	for _, a := range axes {
		n *= len(a.Values)
		if n == 0 {
			return 0
		}
		if limit > 0 && n > limit {
			return limit + 1
		}
	}
	return n
}

// Expand returns the cartesian product of axes: one Point per combination
// of values, in nested-loop order with the first axis outermost and the
// last axis varying fastest. An empty axes list yields one empty Point (the
// target's defaults); an axis with no values yields no points.
//
// For axes a=[1,2] and b=[x,y] the order is
// {a=1 b=x}, {a=1 b=y}, {a=2 b=x}, {a=2 b=y}.
func Expand(axes []Axis) []sweep.Point {
	points := []sweep.Point{{}}
	for _, a := range axes {
		next := make([]sweep.Point, 0, len(points)*len(a.Values))
		for _, p := range points {
			for _, v := range a.Values {
				q := p.Clone()
				q[a.Name] = v
				next = append(next, q)
			}
		}
		points = next
	}
	return points
}
