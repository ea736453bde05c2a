// Package shard says which part of a run's plan one invocation of sweep
// measures: `-shard i/n` runs the blocks b with b mod n = i, so that n
// machines (an engine's array of n tasks, indexed from 0) split a grid
// and `sweep merge` puts the parts together again. The package is pure.
package shard

import (
	"fmt"
	"strconv"
	"strings"
)

// Spec is shard Index of Count (0 ≤ Index < Count). The zero Spec is the
// whole plan.
type Spec struct {
	Index int `json:"index"`
	Count int `json:"count"`
}

// Whole reports whether s is the whole plan (no -shard, or 0/1).
func (s Spec) Whole() bool { return s.Count <= 1 }

// String is "i/n", or "" for the whole plan.
func (s Spec) String() string {
	if s.Count == 0 {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.Index, s.Count)
}

// Has reports whether block b is in the shard.
func (s Spec) Has(b int) bool { return s.Whole() || b%s.Count == s.Index }

// Blocks returns the blocks of a plan of n blocks that are in the shard,
// ascending.
func (s Spec) Blocks(n int) []int {
	var out []int
	for b := range n {
		if s.Has(b) {
			out = append(out, b)
		}
	}
	return out
}

// MaxCount is the largest shard count.
const MaxCount = 1000

// SyntaxError is a -shard value that is not "i/n" with 0 ≤ i < n.
type SyntaxError struct {
	Value string
	Why   string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("-shard %q: %s (want i/n with 0 ≤ i < n ≤ %d, e.g. 0/3; i is an engine's 0-based array index)", e.Value, e.Why, MaxCount)
}

// Parse reads "i/n".
func Parse(v string) (Spec, error) {
	is, ns, ok := strings.Cut(strings.TrimSpace(v), "/")
	if !ok {
		return Spec{}, &SyntaxError{v, "no slash"}
	}
	i, err1 := strconv.Atoi(strings.TrimSpace(is))
	n, err2 := strconv.Atoi(strings.TrimSpace(ns))
	switch {
	case err1 != nil || err2 != nil:
		return Spec{}, &SyntaxError{v, "not two integers"}
	case n < 1 || n > MaxCount:
		return Spec{}, &SyntaxError{v, fmt.Sprintf("n = %d", n)}
	case i < 0 || i >= n:
		return Spec{}, &SyntaxError{v, fmt.Sprintf("i = %d is not below n = %d", i, n)}
	}
	return Spec{Index: i, Count: n}, nil
}
