package profile

import (
	"cmp"
	"math"
	"slices"
)

// PerRequest returns each family's CPU time per request in µs: its CPU over
// requests. It is empty when requests is not positive.
//
// Sampled CPU is an estimate (one sample per ~1 ms of CPU at Frequency);
// to split a measured CPU per request exactly, scale the shares instead:
// Share × measured µs/req.
func PerRequest(fams []Family, requests int64) map[string]float64 {
	out := make(map[string]float64, len(fams))
	if requests <= 0 {
		return out
	}
	for _, f := range fams {
		out[f.Name] += float64(f.CPU.Nanoseconds()) / 1e3 / float64(requests)
	}
	return out
}

// Delta is one family's cost in two cells, e.g. in µs per request.
type Delta struct {
	Name string
	Base float64
	Cand float64
	// Diff is Cand − Base.
	Diff float64
}

// Diff compares two per-family figures (e.g. PerRequest of a baseline and
// of a candidate) over every family either holds, a missing one counting
// 0, and returns them by |Diff|, largest first; ties by FamilyNames order,
// then by name.
func Diff(base, cand map[string]float64) []Delta {
	out := make([]Delta, 0, len(base)+len(cand))
	for name, b := range base {
		c := cand[name]
		out = append(out, Delta{Name: name, Base: b, Cand: c, Diff: c - b})
	}
	for name, c := range cand {
		if _, ok := base[name]; !ok {
			out = append(out, Delta{Name: name, Cand: c, Diff: c})
		}
	}
	slices.SortFunc(out, func(a, b Delta) int {
		if c := cmp.Compare(math.Abs(b.Diff), math.Abs(a.Diff)); c != 0 {
			return c
		}
		if c := cmp.Compare(familyRank(a.Name), familyRank(b.Name)); c != 0 {
			return c
		}
		return cmp.Compare(a.Name, b.Name)
	})
	return out
}

// familyRank is name's position in FamilyNames, after all of them when it
// is not a known family.
func familyRank(name string) int {
	if i := slices.Index(FamilyNames, name); i >= 0 {
		return i
	}
	return len(FamilyNames)
}
