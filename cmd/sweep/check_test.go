package main

// The tests in this file run `sweep check` in process, through runCheck,
// on fixture run directories, and compare its exit code, stdout and
// stderr with golden files in testdata/check (go test -run TestCheckGolden
// -update rewrites them).

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// update rewrites the golden files: testdata/check/*.golden and README.md's
// Commands block (from the command table).
var update = flag.Bool("update", false, "rewrite the golden files (testdata/check, README.md's Commands block)")

// Fixture run directories: the gate's cross-run pairs (summary.json only)
// and the report package's memory run (summary.json and results.jsonl:
// a baseline, its A/A twin and two candidates at c=1 and 16, 12 rounds).
const (
	gateRuns  = "../../sweep/gate/testdata/"
	memoryRun = "../../sweep/report/testdata/memory"
	memory1M  = "linear_memory_keep_resident=1MiB"
)

// checkOutput is what one run of `sweep check` did, as its golden file
// holds it.
func checkOutput(code int, stdout, stderr string) string {
	return fmt.Sprintf("exit %d\n-- stdout --\n%s-- stderr --\n%s", code, stdout, stderr)
}

func TestCheckGolden(t *testing.T) {
	for _, tt := range []struct {
		golden string // testdata/check/<golden>.golden
		args   []string
		code   int
	}{
		// In one run (paired).
		{"inrun-pass", []string{"-candidate", memory1M, memoryRun}, 0},
		{"inrun-rss-regressed", []string{"-rss", "1%", "-candidate", memory1M, memoryRun}, 1},
		{"inrun-json", []string{"-json", "-rss", "1%", "-candidate", memory1M, memoryRun}, 1},
		{"inrun-no-such-candidate", []string{"-candidate", "linear_memory_keep_resident=3MiB", memoryRun}, 2},
		{"inrun-no-candidate-given", []string{memoryRun}, 2},
		{"inrun-undecided", []string{"-candidate", "linear_memory_keep_resident=64KiB", "../../sweep/report/testdata/split"}, 1},
		// Across runs (unpaired).
		{"crossrun-pass", []string{"-baseline", gateRuns + "base", gateRuns + "aa"}, 0},
		{"crossrun-regressed", []string{"-baseline", gateRuns + "base", gateRuns + "regressed"}, 1},
		{"crossrun-threshold-raised", []string{"-cpu", "25%", "-baseline", gateRuns + "base", gateRuns + "regressed"}, 0},
		{"crossrun-markdown", []string{"-markdown", "-baseline", gateRuns + "base", gateRuns + "regressed"}, 1},
		{"crossrun-mismatch", []string{"-baseline", gateRuns + "base", gateRuns + "mismatch"}, 2},
		{"crossrun-rss", []string{"-rss", "5%", "-baseline", gateRuns + "base", gateRuns + "aa"}, 2},
		// Bad usage.
		{"bad-threshold", []string{"-cpu", "-5%", gateRuns + "base"}, 2},
		{"bare-number-threshold", []string{"-p99", "5", gateRuns + "base"}, 2},
		{"no-run-dir", nil, 2},
		{"json-and-markdown", []string{"-json", "-markdown", memoryRun}, 2},
		// Run directories that are not there or not runs.
		{"missing-run-dir", []string{"testdata/check/no-such-run"}, 2},
		{"missing-baseline-dir", []string{"-baseline", "testdata/check/no-such-run", gateRuns + "aa"}, 2},
		{"run-without-windows", []string{gateRuns + "base"}, 2},
	} {
		t.Run(tt.golden, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := runCheck(tt.args, &stdout, &stderr)
			if code != tt.code {
				t.Errorf("sweep check %q: exit %d, want %d; stderr:\n%s", tt.args, code, tt.code, stderr.String())
			}
			switch {
			case code == 2 && stdout.Len() > 0:
				t.Errorf("exit 2 with a result on stdout:\n%s", stdout.String())
			case code != 2 && stderr.Len() > 0:
				t.Errorf("exit %d with errors on stderr:\n%s", code, stderr.String())
			}
			got := checkOutput(code, stdout.String(), stderr.String())
			path := filepath.Join("testdata", "check", tt.golden+".golden")
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (write it with -update)", err)
			}
			if got != string(want) {
				t.Errorf("sweep check %q differs from %s (-update rewrites it):\n%s", tt.args, path, lineDiff(string(want), got))
			}
		})
	}
}

// lineDiff shows the first line where got departs from want.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range max(len(w), len(g)) {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl || i >= len(w) || i >= len(g) {
			return fmt.Sprintf("line %d:\nwant %q\ngot  %q", i+1, wl, gl)
		}
	}
	return "(equal)"
}
