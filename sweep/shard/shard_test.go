package shard

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want Spec
		err  string
	}{
		{"0/3", Spec{0, 3}, ""},
		{"2/3", Spec{2, 3}, ""},
		{" 0/1 ", Spec{0, 1}, ""},
		{"3/2", Spec{}, `-shard "3/2": i = 3 is not below n = 2`},
		{"2/2", Spec{}, "i = 2 is not below n = 2"},
		{"0/0", Spec{}, `-shard "0/0": n = 0`},
		{"-1/2", Spec{}, "i = -1"},
		{"1", Spec{}, "no slash"},
		{"a/b", Spec{}, "not two integers"},
		{"0/1001", Spec{}, "n = 1001"},
	} {
		got, err := Parse(tt.in)
		if tt.err == "" {
			if err != nil || got != tt.want {
				t.Errorf("Parse(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
			}
			continue
		}
		var se *SyntaxError
		if !errors.As(err, &se) || !strings.Contains(err.Error(), tt.err) || strings.Contains(err.Error(), "\n") {
			t.Errorf("Parse(%q) error = %v; want one line containing %q", tt.in, err, tt.err)
		}
	}
}

func TestBlocks(t *testing.T) {
	for _, tt := range []struct {
		s    Spec
		n    int
		want []int
	}{
		{Spec{}, 3, []int{0, 1, 2}},
		{Spec{0, 1}, 2, []int{0, 1}},
		{Spec{0, 3}, 7, []int{0, 3, 6}},
		{Spec{2, 3}, 7, []int{2, 5}},
		{Spec{2, 3}, 2, nil},
	} {
		if got := tt.s.Blocks(tt.n); !slices.Equal(got, tt.want) {
			t.Errorf("%v.Blocks(%d) = %v, want %v", tt.s, tt.n, got, tt.want)
		}
	}
	// Every block is in exactly one shard.
	for n := 1; n <= 5; n++ {
		seen := map[int]int{}
		for i := range n {
			for _, b := range (Spec{i, n}).Blocks(11) {
				seen[b]++
			}
		}
		for b := range 11 {
			if seen[b] != 1 {
				t.Errorf("n=%d: block %d in %d shards", n, b, seen[b])
			}
		}
	}
}
