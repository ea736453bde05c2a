package spelling

import (
	"slices"
	"testing"
)

func TestDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"", "abc", 3},
		{"abc", "", 3},
		{"load", "load", 0},
		{"laod", "load", 2}, // a transposition is two edits
		{"concurency", "concurrency", 1},
		{"tuch", "touch", 1},
		{"total_memory", "total_memories", 3},
		{"kitten", "sitting", 3},
		{"µs", "us", 1}, // runes, not bytes
		{"flaw", "lawn", 2},
	}
	for _, tt := range tests {
		if got := Distance(tt.a, tt.b); got != tt.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
		if got := Distance(tt.b, tt.a); got != tt.want {
			t.Errorf("Distance(%q, %q) = %d, want %d (symmetric)", tt.b, tt.a, got, tt.want)
		}
	}
}

func TestClose(t *testing.T) {
	settings := []string{"linear_memory_keep_resident", "table_keep_resident", "async_stack_keep_resident",
		"total_memories", "total_tables", "total_core_instances", "touch", "compute"}
	load := []string{"concurrency", "warmup", "duration", "timeout", "rounds", "min_rounds", "max_rounds", "slice", "aa", "method", "path", "body", "headers"}
	top := []string{"name", "target", "workload", "settings", "grid", "baseline", "load", "run", "analysis"}
	tests := []struct {
		name       string
		candidates []string
		n          int
		want       []string
	}{
		{"concurency", load, 3, []string{"concurrency"}},
		{"Concurrency", load, 3, []string{"concurrency"}}, // case is ignored
		{"laod", top, 3, []string{"load"}},
		{"linear-memory-keep-resident", settings, 3, []string{"linear_memory_keep_resident"}}, // '-' reads as '_'
		{"total_memory", settings, 3, []string{"total_memories"}},
		{"total_memroies", settings, 3, []string{"total_memories"}},
		// Contained in longer names: by distance, closest first.
		{"keep_resident", settings, 3, []string{"table_keep_resident", "async_stack_keep_resident", "linear_memory_keep_resident"}},
		{"keep_resident", settings, 2, []string{"table_keep_resident", "async_stack_keep_resident"}},
		// Ties in alphabetical order, whatever the candidates' order.
		{"round", []string{"rounds", "bound"}, 3, []string{"bound", "rounds"}},
		{"round", []string{"bound", "rounds"}, 3, []string{"bound", "rounds"}},
		// Not close.
		{"server_cpus", load, 3, nil},
		{"touch", top, 3, nil},
		{"zzz", settings, 3, nil},
		{"x", load, 3, nil}, // distance 2 from "aa", but that is every rune of "x"
		{"", load, 3, nil},
		{"concurency", load, 0, nil},
		{"concurency", nil, 3, nil},
	}
	for _, tt := range tests {
		if got := Close(tt.name, tt.candidates, tt.n); !slices.Equal(got, tt.want) {
			t.Errorf("Close(%q, …, %d) = %q, want %q", tt.name, tt.n, got, tt.want)
		}
	}
}

func TestClosest(t *testing.T) {
	tests := []struct {
		name       string
		candidates []string
		want       string
	}{
		{"concurency", []string{"concurrency", "duration"}, "concurrency"},
		{"tuch", []string{"compute", "touch"}, "touch"},
		{"rps", []string{"rps", "success_rps"}, "rps"}, // exact beats contained
		{"latency", []string{"cpu_us_per_req", "rps", "success_rps", "p99_ms"}, ""},
	}
	for _, tt := range tests {
		if got := Closest(tt.name, tt.candidates); got != tt.want {
			t.Errorf("Closest(%q, %q) = %q, want %q", tt.name, tt.candidates, got, tt.want)
		}
	}
}
