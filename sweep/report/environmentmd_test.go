package report

import (
	"testing"

	"github.com/sweep-dev/sweep/sweep"
)

// TestOtherText: other work on the pinned CPUs is a share; below zero it
// is the accounting's error and says so instead of a negative share.
func TestOtherText(t *testing.T) {
	for _, tc := range []struct {
		in   float64
		want string
	}{
		{0.2362, "23.62% of their time"},
		{0, "0% of their time"},
		{-0.0082, "none measured (−0.8%: within the accounting's error)"},
	} {
		if got := otherText(tc.in); got != tc.want {
			t.Errorf("otherText(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestPagemapLine: the environment's PAGEMAP_SCAN line says what the
// kernel offers and what the engine does with it, claiming for Wasmtime
// only what is recorded, or what follows from the recorded version for
// the builtin host (summaries written before engine_pagemap_scan).
func TestPagemapLine(t *testing.T) {
	yes, no := true, false
	const memset = "a freed slot's lowest keep_resident bytes are memset"
	for _, tc := range []struct {
		name string
		e    sweep.Environment
		want string
	}{
		{"builtin, recorded", sweep.Environment{Target: sweep.TargetBuiltin, WasmtimeVersion: "39.0.1", PagemapScan: &yes, EnginePagemapScan: &no},
			"Kernel offers PAGEMAP_SCAN; Wasmtime 39 leaves it off (no C API setter): " + memset},
		{"builtin, kernel lacks", sweep.Environment{Target: sweep.TargetBuiltin, WasmtimeVersion: "39.0.1", PagemapScan: &no, EnginePagemapScan: &no},
			"Kernel lacks PAGEMAP_SCAN (Linux < 6.7); Wasmtime 39 leaves it off anyway (no C API setter): " + memset},
		{"builtin, kernel not recorded", sweep.Environment{Target: sweep.TargetBuiltin, WasmtimeVersion: "39.0.1", EnginePagemapScan: &no},
			"Whether the kernel offers PAGEMAP_SCAN is not recorded; Wasmtime 39 leaves it off (no C API setter): " + memset},
		{"builtin, written before engine_pagemap_scan", sweep.Environment{Target: sweep.TargetBuiltin, WasmtimeVersion: "39.0.1", PagemapScan: &yes},
			"Kernel offers PAGEMAP_SCAN; Wasmtime 39 leaves it off (no C API setter): " + memset},
		{"builtin, before engine_pagemap_scan, newer Wasmtime", sweep.Environment{Target: sweep.TargetBuiltin, WasmtimeVersion: "40.0.0", PagemapScan: &yes},
			"Kernel offers PAGEMAP_SCAN; whether the servers' engine uses it is not recorded"},
		{"builtin, before engine_pagemap_scan, no version", sweep.Environment{Target: sweep.TargetBuiltin, PagemapScan: &no},
			"Kernel lacks PAGEMAP_SCAN (Linux < 6.7); whether the servers' engine uses it is not recorded"},
		{"command", sweep.Environment{Target: sweep.TargetCommand, WasmtimeVersion: "39.0.1", PagemapScan: &yes},
			"Kernel offers PAGEMAP_SCAN; whether the servers' engine uses it is not recorded"},
		{"an engine that uses it", sweep.Environment{Target: sweep.TargetBuiltin, WasmtimeVersion: "41.0.0", PagemapScan: &yes, EnginePagemapScan: &yes},
			"Kernel offers PAGEMAP_SCAN; Wasmtime 41 uses it: a freed slot's keep_resident memory is reset only where a request dirtied it"},
		{"nothing recorded", sweep.Environment{Target: sweep.TargetBuiltin, WasmtimeVersion: "39.0.1"}, ""},
	} {
		if got := pagemapLine(tc.e); got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
}
