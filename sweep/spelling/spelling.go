// Package spelling finds the names a misspelt name probably meant, for
// the "did you mean" of an error about an unknown key, setting or
// metric. One policy serves every caller:
//
//   - names are compared ignoring case and with '-' read as '_';
//   - a candidate is close when its edit distance from the name is at
//     most max(2, len(name)/4) runes and less than len(name) (so that a
//     one-letter name is not "corrected" to any short word), or when the
//     name has at least 4 runes and the candidate contains it (a part of
//     a long option name, e.g. "keep_resident");
//   - closer candidates come first, ties in alphabetical order, so the
//     answer does not depend on the order candidates are given in.
package spelling

import (
	"sort"
	"strings"
	"unicode/utf8"
)

// minContained is the shortest name that is matched as a part of a
// candidate.
const minContained = 4

// Distance is the Levenshtein distance between a and b in runes: the
// fewest single-rune insertions, deletions and substitutions that turn a
// into b.
func Distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// Close returns at most n candidates close to name, best first (see the
// package comment for the policy); nil when none is close or n < 1.
// Candidates are returned as given.
func Close(name string, candidates []string, n int) []string {
	if n < 1 {
		return nil
	}
	type match struct {
		name string
		dist int
	}
	key := normal(name)
	size := utf8.RuneCountInString(key)
	limit := max(2, size/4)
	var found []match
	for _, c := range candidates {
		k := normal(c)
		d := Distance(key, k)
		if (d <= limit && d < size) || (size >= minContained && strings.Contains(k, key)) {
			found = append(found, match{c, d})
		}
	}
	sort.Slice(found, func(i, j int) bool {
		if found[i].dist != found[j].dist {
			return found[i].dist < found[j].dist
		}
		return found[i].name < found[j].name
	})
	var out []string
	for i := 0; i < len(found) && i < n; i++ {
		out = append(out, found[i].name)
	}
	return out
}

// Closest returns the candidate closest to name, or "" when none is
// close.
func Closest(name string, candidates []string) string {
	if c := Close(name, candidates, 1); len(c) > 0 {
		return c[0]
	}
	return ""
}

// normal is name as compared: lower case, '-' read as '_'.
func normal(name string) string {
	return strings.ReplaceAll(strings.ToLower(name), "-", "_")
}
