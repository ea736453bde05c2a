package main

// The tests in this file run the real sweep binary, built once, the way a
// user does: flags, exit codes, stderr and what lands on disk.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/rundir"
)

// bin is the sweep binary under test, built on first use by sweepBin (not
// in TestMain: this test binary is also re-executed as a helper process
// by the serve tests, which need no build).
var bin struct {
	once sync.Once
	dir  string
	path string
	err  error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if bin.dir != "" {
		os.RemoveAll(bin.dir)
	}
	os.Exit(code)
}

// sweepBin returns the path of the sweep binary, building it once.
func sweepBin(t *testing.T) string {
	t.Helper()
	bin.once.Do(func() {
		bin.dir, bin.err = os.MkdirTemp("", "sweep-cli-test")
		if bin.err != nil {
			return
		}
		bin.path = filepath.Join(bin.dir, "sweep")
		out, err := exec.Command("go", "build", "-o", bin.path, ".").CombinedOutput()
		if err != nil {
			bin.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if bin.err != nil {
		t.Fatal(bin.err)
	}
	return bin.path
}

// result is what one run of the binary did.
type result struct {
	code           int
	stdout, stderr string
}

// sweepCmd runs the sweep binary with args and returns its exit code and
// output.
func sweepCmd(t *testing.T, args ...string) result {
	t.Helper()
	cmd := exec.Command(sweepBin(t), args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("running sweep %q: %v", args, err)
	}
	return result{code: cmd.ProcessState.ExitCode(), stdout: stdout.String(), stderr: stderr.String()}
}

// lines splits output into its lines, without the final newline.
func lines(s string) []string {
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// assertEmptyDir fails unless dir exists and holds nothing.
func assertEmptyDir(t *testing.T, dir string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		t.Errorf("%s was written in %s", e.Name(), dir)
	}
}

const badDir = "../../sweep/config/testdata/bad/"

// TestBadConfig runs the binary on a bad config of every class: exit code
// 2, exactly one line on stderr naming the file, the key and what is
// wrong or allowed, nothing on stdout and nothing written.
func TestBadConfig(t *testing.T) {
	tests := []struct {
		class  string
		config string
		key    string // key path (or position) the line must name
		want   string // what is wrong or allowed
	}{
		{"malformed TOML", badDir + "malformed.toml", "line 2", "malformed TOML"},
		{"unknown key", badDir + "unknown-key.toml", `"load.concurency"`, `did you mean "load.concurrency"?`},
		{"unknown axis", badDir + "unknown-axis.toml", `"grid.linear_memory_keep_resdent"`, "did you mean"},
		{"wrong type", badDir + "rounds-string.toml", "load.rounds", "want an integer from 1 to 1000"},
		{"single point, nothing compared", badDir + "aa-false-single-point.toml", "load.aa", "keep aa = true"},
		{"axis without values", badDir + "axis-empty.toml", "grid.linear_memory_keep_resident", "at least one value"},
		{"duplicate values", badDir + "axis-duplicate.toml", "grid.linear_memory_keep_resident[2]", "duplicate of"},
		{"negative size", badDir + "size-negative.toml", "grid.linear_memory_keep_resident[0] = -1", "want a number of bytes"},
		{"zero count", badDir + "count-zero.toml", "grid.total_memories[1] = 0", "want an integer from 1"},
		{"SI unit", badDir + "size-si-unit.toml", `"2MB"`, "write KiB, MiB, GiB"},
		{"concurrency 0", badDir + "concurrency-zero.toml", "load.concurrency[0] = 0", "want an integer from 1 to 10000"},
		{"concurrency absurd", badDir + "concurrency-too-big.toml", "load.concurrency[1] = 10001", "want an integer from 1 to 10000"},
		{"duration zero", badDir + "duration-zero.toml", "load.duration", "must be > 0"},
		{"duration negative", badDir + "duration-negative.toml", "load.warmup", "must be > 0"},
		{"rounds < 1", badDir + "rounds-zero.toml", "load.rounds = 0", "want an integer from 1 to 1000"},
		{"baseline not in grid", badDir + "baseline-not-in-grid.toml", "baseline.linear_memory_keep_resident", "not a value of grid.linear_memory_keep_resident"},
		{"plugin missing", badDir + "plugin-missing.toml", "target.plugin", "no such file"},
		{"plugin not wasm", badDir + "plugin-not-wasm.toml", "target.plugin", "not a binary wasm module"},
		{"plugin does not compile", "testdata/plugin-truncated.toml", "target.plugin", "compile"},
		{"plugin without ABI", "testdata/plugin-no-exports.toml", "target.plugin", "exports neither handle"},
		{"component needs wasi:http", "testdata/component-http-import.toml", "target.plugin", "component imports wasi:http/types@0.2.0, which the built-in host does not provide"},
		{"component without the export", "testdata/component-no-export.toml", "target.plugin", "component exports example:thing/api@1.0.0; want sweep:plugin/handler (handle) or wasi:cli/run (run)"},
		{"corrupt component", "testdata/component-corrupt.toml", "target.plugin", "compile:"},
		{"component limit", "testdata/component-limit.toml", "config max_core_instances_per_component=1", "max_core_instances_per_component = 1 is below what the component needs: 2 core module instances"},
		{"command not found", badDir + "command-not-found.toml", "target.command[0]", "no executable found"},
		{"template names unknown axis", badDir + "template-unknown-var.toml", "target.command[2]", `unknown template variable "kep"`},
		{"CPU not online", badDir + "cpus-offline.toml", `run.server_cpus = "999"`, "not online"},
		{"CPU sets overlap", badDir + "cpus-overlap.toml", "run.server_cpus", "overlap"},
		{"remote target", badDir + "url-remote.toml", "target.url", "allow_remote"},
		{"no such file", "testdata/no-such-config.toml", "testdata/no-such-config.toml", "cannot read config"},
	}
	for _, tt := range tests {
		t.Run(tt.class, func(t *testing.T) {
			tmp := t.TempDir()
			r := sweepCmd(t, "-config", tt.config, "-out", filepath.Join(tmp, "run"))
			if r.code != 2 {
				t.Errorf("exit code %d, want 2", r.code)
			}
			ls := lines(r.stderr)
			if len(ls) != 1 {
				t.Fatalf("stderr has %d lines, want 1:\n%s", len(ls), r.stderr)
			}
			for _, w := range []string{tt.config, tt.key, tt.want} {
				if !strings.Contains(ls[0], w) {
					t.Errorf("stderr %q\n  does not contain %q", ls[0], w)
				}
			}
			if r.stdout != "" {
				t.Errorf("stdout: %q", r.stdout)
			}
			assertEmptyDir(t, tmp)
		})
	}
}

// TestBadCacheLimit: a $SWEEP_CACHE_MAX that is not a size is one line
// naming the variable, not the config or its plugin; exit 2, nothing
// written.
func TestBadCacheLimit(t *testing.T) {
	t.Setenv("SWEEP_CACHE_MAX", "lots")
	tmp := t.TempDir()
	r := sweepCmd(t, "-config", "../../configs/grid.toml", "-out", filepath.Join(tmp, "run"))
	if r.code != 2 {
		t.Errorf("exit code %d, want 2", r.code)
	}
	want := `sweep: SWEEP_CACHE_MAX="lots": want a size above 0 such as "4GiB" (the compile cache's limit)`
	if got := lines(r.stderr); len(got) != 1 || got[0] != want {
		t.Errorf("stderr %q, want the one line %q", r.stderr, want)
	}
	assertEmptyDir(t, tmp)
}

// TestUsage: bad command lines exit 2 with a message saying what to do,
// and write nothing.
func TestUsage(t *testing.T) {
	good, err := filepath.Abs("../../configs/grid.toml")
	if err != nil {
		t.Fatal(err)
	}
	base, err := filepath.Abs("../../sweep/gate/testdata/base")
	if err != nil {
		t.Fatal(err)
	}
	runDir := t.TempDir() // holds a run already
	if err := os.WriteFile(filepath.Join(runDir, "results.jsonl"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no -config", nil, "-config FILE is required"},
		{"unknown flag", []string{"-config", good, "-bogus"}, "flag provided but not defined: -bogus"},
		{"-resume with -config", []string{"-resume", runDir, "-config", good}, "do not pass -config too"},
		{"stray argument", []string{"-config", good, "extra"}, `unexpected argument "extra"`},
		{"resume a non-run", []string{"-resume", t.TempDir()}, "is not a resumable run directory"},
		{"-out holds a run", []string{"-config", good, "-out", runDir}, "already holds a run; continue it with -resume"},
		{"report without DIR", []string{"report"}, "usage: sweep report DIR"},
		{"report on a non-run", []string{"report", t.TempDir()}, "is not a run directory (no summary.json)"},
		{"check without a run", []string{"check"}, "usage: sweep check [flags] RUN_DIR"},
		{"check a run without windows", []string{"check", base}, "results.jsonl: no such file"},
		{"check with a negative threshold", []string{"check", "-cpu", "-5%", base}, `invalid value "-5%" for flag -cpu: -5% is out of range`},
		{"check with a threshold that is not a number", []string{"check", "-p99", "lots", base}, `"lots" is not a number`},
		{"check on a non-run", []string{"check", "-baseline", base, t.TempDir()}, "summary.json: no such file"},
		{"check with a bare 5 meant as 5%", []string{"check", "-cpu", "5", base}, `invalid value "5" for flag -cpu: 5 without a % sign is a fraction, 500%: write 5% for 5 percent (or 0.05 as a fraction)`},
		{"check with a bare 1", []string{"check", "-p99", "1", base}, "1 without a % sign is a fraction, 100%"},
		{"init with an unknown target", []string{"init", "-target", "docker"}, `sweep init: -target "docker": want "builtin" or "command"`},
		{"init with two files", []string{"init", "a.toml", "b.toml"}, "usage: sweep init"},
		{"help on an unknown command", []string{"help", "bogus"}, `sweep help: unknown command "bogus"`},
		{"version with an argument", []string{"version", "x"}, `sweep version: unexpected argument "x"`},
		{"a bad flag of report", []string{"report", "-x"}, "flag provided but not defined: -x"},
		{"-shard past its count", []string{"-config", good, "-shard", "3/2"}, `sweep: -shard "3/2": i = 3 is not below n = 2`},
		{"-shard of nothing", []string{"-config", good, "-shard", "0/0"}, `sweep: -shard "0/0": n = 0`},
		{"merge without -out", []string{"merge", runDir}, "usage: sweep merge -out DIR RUN_DIR..."},
		{"merge a non-run", []string{"merge", "-out", "m", t.TempDir()}, "is not a run directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cwd := t.TempDir()
			cmd := exec.Command(sweepBin(t), tt.args...)
			cmd.Dir = cwd // where a default reports/ directory would appear
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			err := cmd.Run()
			if code := cmd.ProcessState.ExitCode(); code != 2 {
				t.Errorf("exit code %d (%v), want 2; stderr:\n%s", code, err, stderr.String())
			}
			if !strings.Contains(stderr.String(), tt.want) {
				t.Errorf("stderr does not contain %q:\n%s", tt.want, stderr.String())
			}
			// A flag the flag package refuses is one line, naming the flag.
			if strings.Contains(tt.want, "for flag -") || strings.Contains(tt.want, "flag provided but not defined") {
				if n := len(lines(stderr.String())); n != 1 {
					t.Errorf("a bad flag took %d lines of stderr, want 1:\n%s", n, stderr.String())
				}
			}
			assertEmptyDir(t, cwd)
		})
	}
	if ents, _ := os.ReadDir(runDir); len(ents) != 1 {
		t.Errorf("the existing run directory was written to: %d entries", len(ents))
	}
}

// TestCheck is the regression gate on the gate package's fixture runs:
// an A/A pair passes, a planted regression fails, runs of different grids
// are refused as not comparable.
func TestCheck(t *testing.T) {
	const fix = "../../sweep/gate/testdata/"
	tests := []struct {
		name string
		new  string
		code int
		want string // on stdout (the table) or stderr
	}{
		{"A/A pair", "aa", 0, "ok "},
		{"planted regression", "regressed", 1, "REGRESSED: 1 of 9 comparisons worse beyond what an unchanged build moves between runs"},
		{"across runs only CPU is judged", "aa", 0, "note: not judged: rps, success_rps, p99_ms (no threshold given"},
		{"unpaired note", "aa", 0, "note: unpaired: "},
		{"new errors", "new-errors", 1, "new errors"},
		{"mismatched runs", "mismatch", 2, "runs are not comparable"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := sweepCmd(t, "check", "-baseline", fix+"base", fix+tt.new)
			if r.code != tt.code {
				t.Errorf("exit code %d, want %d; stderr:\n%s", r.code, tt.code, r.stderr)
			}
			if !strings.Contains(r.stdout+r.stderr, tt.want) {
				t.Errorf("output does not contain %q:\n%s%s", tt.want, r.stdout, r.stderr)
			}
			if tt.code == 0 && strings.Contains(r.stdout, "REGRESSED") {
				t.Errorf("a passing check reports a regression:\n%s", r.stdout)
			}
		})
	}
}

// TestCheckBaselines: -baseline given several times; the new run regresses
// only when it regresses against every accepted run.
func TestCheckBaselines(t *testing.T) {
	const fix = "../../sweep/gate/testdata/"
	for _, tt := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"passes against one", []string{"-baseline", fix + "base", "-baseline", fix + "regressed", fix + "regressed"}, 0,
			"no regression beyond the drift between runs against " + fix + "regressed (of 2 baseline runs)"},
		{"regressed against both", []string{"-baseline", fix + "base", "-baseline", fix + "aa", fix + "regressed"}, 1,
			"REGRESSED against every one of 2 baseline runs"},
		{"outcomes noted", []string{"-baseline", fix + "base", "-baseline", fix + "regressed", fix + "regressed"}, 0,
			"note: against 2 baseline runs: the new run regresses only when it regresses against every one of them (" + fix + "base regressed (1 row), " + fix + "regressed passed)"},
		{"a mismatched baseline named", []string{"-baseline", fix + "base", "-baseline", fix + "mismatch", fix + "aa"}, 2,
			"sweep check: baseline " + fix + "mismatch: runs are not comparable"},
		{"an explicit -rps is judged across runs", []string{"-rps", "7%", "-baseline", fix + "base", fix + "aa"}, 0,
			"note: not judged: success_rps, p99_ms (no threshold given"},
		{"markdown title", []string{"-markdown", "-baseline", fix + "base", "-baseline", fix + "regressed", fix + "regressed"}, 0,
			"### sweep check (across runs, unpaired: against 2 baseline runs)"},
		{"empty baseline", []string{"-baseline", "", fix + "aa"}, 2, `invalid value "" for flag -baseline: empty run directory`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := sweepCmd(t, append([]string{"check"}, tt.args...)...)
			if r.code != tt.code {
				t.Errorf("exit code %d, want %d; stderr:\n%s", r.code, tt.code, r.stderr)
			}
			if !strings.Contains(r.stdout+r.stderr, tt.want) {
				t.Errorf("output does not contain %q:\n%s%s", tt.want, r.stdout, r.stderr)
			}
		})
	}
}

// TestCheckFormats: -json and -markdown carry the same verdict.
func TestCheckFormats(t *testing.T) {
	const fix = "../../sweep/gate/testdata/"
	r := sweepCmd(t, "check", "-json", "-baseline", fix+"base", fix+"regressed")
	if r.code != 1 || !strings.Contains(r.stdout, `"regressed": true`) || !strings.Contains(r.stdout, `"paired": false`) {
		t.Errorf("-json: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = sweepCmd(t, "check", "-markdown", "-cpu", "25%", "-baseline", fix+"base", fix+"regressed")
	if r.code != 0 || !strings.Contains(r.stdout, "### sweep check (across two runs, unpaired)") || !strings.Contains(r.stdout, "| config | c | metric |") {
		t.Errorf("-markdown: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestDryRun prints the plan and the estimate and starts and writes
// nothing.
func TestDryRun(t *testing.T) {
	tmp := t.TempDir()
	r := sweepCmd(t, "-config", "../../configs/grid.toml", "-out", filepath.Join(tmp, "run"), "-dry-run")
	if r.code != 0 {
		t.Fatalf("exit code %d; stderr:\n%s", r.code, r.stderr)
	}
	if !strings.Contains(r.stdout, "estimated wall time: ") || !strings.Contains(r.stdout, "(baseline)") {
		t.Errorf("dry run printed no plan:\n%s", r.stdout)
	}
	// grid.toml sets no load.slice or run.restarts: the defaults interleave
	// its windows and start every window's server afresh.
	if !strings.Contains(r.stdout, "window 1s (interleaved: 20 pieces of 50ms), restarts round\n") {
		t.Errorf("dry run does not say how windows are measured:\n%s", r.stdout)
	}
	// run.keep_awake defaults to true.
	if !strings.Contains(r.stdout, `pinning: server CPUs "0", load CPUs "1", both kept awake (run.keep_awake)`) {
		t.Errorf("dry run does not say the CPUs are kept awake:\n%s", r.stdout)
	}
	// grid.toml sets no CPUs: the plan says by which rule they were chosen.
	if !strings.Contains(r.stdout, "\n  chosen by default: ") || !strings.Contains(r.stdout, "for the server, the rest for the load generator\n") {
		t.Errorf("dry run does not say how the CPUs were chosen:\n%s", r.stdout)
	}
	if strings.Contains(r.stdout, "SCHED_") {
		t.Errorf("dry run names a server policy for the default one:\n%s", r.stdout)
	}
	assertEmptyDir(t, tmp)
	// run.server_sched = "batch" is said.
	grid, err := os.ReadFile("../../configs/grid.toml")
	if err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(t.TempDir(), "batch.toml")
	if err := os.WriteFile(cfg, append(grid, "[run]\nserver_sched = \"batch\"\n"...), 0o644); err != nil { // grid.toml has no [run]
		t.Fatal(err)
	}
	r = sweepCmd(t, "-config", cfg, "-dry-run")
	if r.code != 0 || !strings.Contains(r.stdout, "servers at SCHED_BATCH (run.server_sched)\n") {
		t.Errorf("exit code %d; dry run does not say the servers run at SCHED_BATCH:\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestAllowRemoteWarns: a config that allows a non-loopback target gets
// one warning line on stderr naming the key and the host. Only dry-run:
// no load is ever sent to a remote address from a test.
func TestAllowRemoteWarns(t *testing.T) {
	r := sweepCmd(t, "-config", "testdata/remote.toml", "-dry-run")
	if r.code != 0 {
		t.Fatalf("exit code %d; stderr:\n%s", r.code, r.stderr)
	}
	ls := lines(r.stderr)
	if len(ls) != 1 || !strings.Contains(ls[0], "warning") || !strings.Contains(ls[0], "target.allow_remote = true") || !strings.Contains(ls[0], "10.0.0.1") {
		t.Errorf("stderr, want one warning line naming target.allow_remote and the host:\n%s", r.stderr)
	}
	// Loopback-only configs get no such warning.
	r = sweepCmd(t, "-config", "../../configs/command.toml", "-dry-run")
	if strings.Contains(r.stderr, "allow_remote") {
		t.Errorf("warning for a loopback config:\n%s", r.stderr)
	}
}

// TestTinyRun is a real sweep of the built-in host: the estimate is
// printed before it starts (not with -q), the summary path is the one
// line on stdout, and the run directory holds the data and the report.
func TestTinyRun(t *testing.T) {
	for _, quiet := range []bool{false, true} {
		t.Run(fmt.Sprintf("quiet=%t", quiet), func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "run")
			args := []string{"-config", "testdata/tiny.toml", "-out", dir}
			if quiet {
				args = append(args, "-q")
			}
			r := sweepCmd(t, args...)
			if r.code != 0 {
				t.Fatalf("exit code %d; stderr:\n%s", r.code, r.stderr)
			}
			if got, want := r.stdout, filepath.Join(dir, "summary.md")+"\n"; got != want {
				t.Errorf("stdout %q, want %q", got, want)
			}
			ls := lines(r.stderr)
			if quiet {
				if len(ls) != 0 {
					t.Errorf("-q printed on stderr:\n%s", r.stderr)
				}
			} else if len(ls) == 0 || !strings.HasPrefix(ls[0], "sweep: tiny → "+dir+" (estimated ") {
				t.Errorf("stderr does not start with the estimate:\n%s", r.stderr)
			}
			for _, f := range []string{"config.toml", "results.jsonl", "summary.json", "summary.md", "throughput.png"} {
				if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
					t.Errorf("run directory lacks %s", f)
				}
			}
		})
	}
}

// TestShardsCLI runs a two-block sweep as two shards and merges them the
// way a user (or an engine's array job) does; merging a shard twice,
// shards of two configs, or resuming a shard as another exits 2 with one
// line and writes nothing.
func TestShardsCLI(t *testing.T) {
	dir := t.TempDir()
	shard := func(i int) string { return filepath.Join(dir, fmt.Sprintf("shard-%d", i)) }
	for i := range 2 {
		r := sweepCmd(t, "-config", "testdata/blocks.toml", "-shard", fmt.Sprintf("%d/2", i), "-out", shard(i), "-q")
		if r.code != 0 {
			t.Fatalf("shard %d/2: exit %d; stderr:\n%s", i, r.code, r.stderr)
		}
	}
	merged := filepath.Join(dir, "merged")
	r := sweepCmd(t, "merge", "-out", merged, shard(1), shard(0))
	if r.code != 0 || r.stdout != filepath.Join(merged, "summary.md")+"\n" {
		t.Fatalf("merge: exit %d, stdout %q; stderr:\n%s", r.code, r.stdout, r.stderr)
	}
	md, err := os.ReadFile(filepath.Join(merged, "summary.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"- Blocks: 2, of up to 1 configs besides the baseline each", "- Merged from shards 0/2, 1/2", "- Drift between blocks: the baseline's CPU per request"} {
		if !bytes.Contains(md, []byte(want)) {
			t.Errorf("merged summary.md lacks %q", want)
		}
	}
	if _, err := os.Stat(filepath.Join(merged, "throughput.png")); err != nil {
		t.Errorf("merge rendered no charts: %v", err)
	}

	// Another config's shard: the same grid with another seed.
	other := filepath.Join(dir, "other.toml")
	b, err := os.ReadFile("testdata/blocks.toml")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(other, append(b, []byte("seed = 7\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := sweepCmd(t, "-config", other, "-shard", "1/2", "-out", shard(9), "-q"); r.code != 0 {
		t.Fatalf("other shard: exit %d; stderr:\n%s", r.code, r.stderr)
	}
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"a shard twice", []string{"merge", "-out", filepath.Join(dir, "m1"), shard(0), shard(0)}, "sweep merge: shard 0/2 given twice"},
		{"two configs", []string{"merge", "-out", filepath.Join(dir, "m2"), shard(0), shard(9)}, "ran different configs"},
		{"a merged run beside a shard", []string{"merge", "-out", filepath.Join(dir, "m3"), merged, shard(0)}, "ran the whole plan (no -shard)"},
		{"resume as another shard", []string{"-resume", shard(0), "-shard", "1/2"}, "-shard 1/2: " + shard(0) + " holds shard 0/2; -resume continues it as it was"},
	} {
		r := sweepCmd(t, tt.args...)
		if r.code != 2 || !strings.Contains(r.stderr, tt.want) || len(lines(r.stderr)) != 1 {
			t.Errorf("%s: exit %d, stderr %q; want 2 and one line containing %q", tt.name, r.code, r.stderr, tt.want)
		}
	}
	for _, m := range []string{"m1", "m2", "m3"} {
		if _, err := os.Stat(filepath.Join(dir, m)); err == nil {
			t.Errorf("refused merge wrote %s", m)
		}
	}
}

// TestCheckRSS gates memory on a real run (reports/memory-example:
// keep_resident 4MiB costs +7 MiB at c=1 and +30 MiB at c=16 over a
// baseline of 32–34 MiB): -rss 10% fails it, -rss 500% passes it, no -rss
// judges no memory, and -rss with -baseline is refused.
func TestCheckRSS(t *testing.T) {
	const run = "../../reports/memory-example"
	for _, tt := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"+30 MiB fails -rss 10%", []string{"-candidate", "linear_memory_keep_resident=4MiB", "-rss", "10%", run}, 1, "RSS larger by at least"},
		{"passes -rss 500%", []string{"-candidate", "linear_memory_keep_resident=4MiB", "-rss", "500%", "-cpu", "2%", run}, 0, "rss_mib"},
		{"not judged without -rss", []string{"-candidate", "linear_memory_keep_resident=4MiB", run}, 0, "no regression beyond the thresholds"},
		{"refused across runs", []string{"-rss", "10%", "-baseline", run, run}, 2, "-rss judges the paired RSS change of one run"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := sweepCmd(t, append([]string{"check"}, tt.args...)...)
			if r.code != tt.code {
				t.Errorf("exit code %d, want %d; stdout:\n%s\nstderr:\n%s", r.code, tt.code, r.stdout, r.stderr)
			}
			if !strings.Contains(r.stdout+r.stderr, tt.want) {
				t.Errorf("output does not contain %q:\n%s%s", tt.want, r.stdout, r.stderr)
			}
			if tt.name == "not judged without -rss" && strings.Contains(r.stdout, "rss_mib") {
				t.Errorf("an RSS row without -rss:\n%s", r.stdout)
			}
		})
	}
}

// TestComponentTwinRun runs the workload against its component twin in
// one grid on the real host: both serve, and the summary says what each
// plugin is and what a request takes from the pool.
func TestComponentTwinRun(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	r := sweepCmd(t, "-config", "testdata/component-twin.toml", "-out", dir, "-q")
	if r.code != 0 {
		t.Fatalf("exit code %d; stderr:\n%s", r.code, r.stderr)
	}
	var s sweep.Summary
	b, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	ps := s.Environment.Plugins
	if len(ps) != 2 || ps[0].Kind != "core module" || ps[1].Kind != "sweep:plugin component" ||
		ps[0].CoreInstances != 1 || ps[1].CoreInstances != 2 || ps[1].Memories != 1 ||
		len(ps[1].Configs) != 1 || ps[1].Configs[0] != "component=true" {
		t.Errorf("plugins = %+v", ps)
	}
	if s.Environment.PagemapScan == nil {
		t.Errorf("pagemap_scan not recorded")
	}
	if e := s.Environment.EnginePagemapScan; e == nil || *e {
		t.Errorf("engine_pagemap_scan not recorded as false (the builtin host leaves PAGEMAP_SCAN off)")
	}
	for _, c := range s.Cells {
		if c.RPS <= 0 || c.Errors5xx != 0 {
			t.Errorf("cell %v: rps %v, 5xx %d", c.Point, c.RPS, c.Errors5xx)
		}
	}
	md, _ := os.ReadFile(filepath.Join(dir, "summary.md"))
	if !strings.Contains(string(md), "- Plugin `workload`: sweep:plugin component") {
		t.Errorf("summary.md names no component plugin:\n%s", md)
	}
	if !strings.Contains(string(md), "leaves it off (no C API setter): a freed slot's lowest keep_resident bytes are memset") {
		t.Errorf("summary.md does not say that Wasmtime leaves PAGEMAP_SCAN off:\n%s", md)
	}
}

// TestFiveRounds is a real run whose plan can reach no verdict (5 rounds,
// 6 comparisons, 8 rounds needed): -dry-run and the first lines of the
// run warn with the rounds needed, and summary.json and summary.md say
// undecided with the rounds needed, never "no detectable change".
func TestFiveRounds(t *testing.T) {
	const cfg = "testdata/five-rounds.toml"
	const warning = "load.rounds = 5 cannot reach any verdict: with 6 comparisons (1 config × 2 levels × 3 metrics) at family-wise 95%, an interval needs 8 paired rounds per level"
	r := sweepCmd(t, "-config", cfg, "-dry-run")
	if r.code != 0 || !strings.Contains(r.stderr, warning) {
		t.Errorf("dry run: exit %d, stderr lacks %q:\n%s", r.code, warning, r.stderr)
	}
	// -q keeps the config's warnings (README: what -q drops).
	r = sweepCmd(t, "-config", cfg, "-dry-run", "-q")
	if r.code != 0 || !strings.Contains(r.stderr, "sweep: warning: ") || !strings.Contains(r.stderr, warning) {
		t.Errorf("dry run -q: exit %d, stderr lacks the warning %q:\n%s", r.code, warning, r.stderr)
	}
	dir := filepath.Join(t.TempDir(), "run")
	r = sweepCmd(t, "-config", cfg, "-out", dir)
	if r.code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", r.code, r.stderr)
	}
	if ls := lines(r.stderr); len(ls) < 2 || !strings.Contains(ls[0], warning) || !strings.HasPrefix(ls[1], "sweep: five-rounds → ") {
		t.Errorf("the run's first lines are not the warning and the estimate:\n%s", r.stderr)
	}
	s, err := rundir.ReadSummary(dir)
	if err != nil {
		t.Fatal(err)
	}
	if s.Plan.Family != 6 || s.Plan.RoundsNeeded != 8 {
		t.Errorf("plan family %d, rounds needed %d; want 6 and 8", s.Plan.Family, s.Plan.RoundsNeeded)
	}
	n := 0
	for _, c := range s.Cells {
		if c.Baseline || c.AA {
			continue
		}
		for m, d := range c.VsBaseline {
			n++
			if d.Verdict != sweep.VerdictUndecided || d.Needed != 8 || d.CILow != nil {
				t.Errorf("c=%d %s: verdict %q, %d of %d needed, interval %v; want undecided, 5 of 8, none", c.Concurrency, m, d.Verdict, d.Pairs, d.Needed, d.CILow)
			}
		}
	}
	if n == 0 {
		t.Fatal("no candidate comparisons in summary.json")
	}
	md, err := os.ReadFile(filepath.Join(dir, "summary.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"undecided: too few rounds (5 of the 8 needed)", "this run decided nothing at c=16"} {
		if !bytes.Contains(md, []byte(want)) {
			t.Errorf("summary.md lacks %q", want)
		}
	}
	if bytes.Contains(md, []byte(sweep.VerdictNoChange)) {
		t.Errorf("summary.md says %q without an interval", sweep.VerdictNoChange)
	}
}

// TestRaceDryRun: -dry-run of a race states the most windows it can take
// and the windows a typical grid of its size is expected to take (fewer),
// with both wall times.
func TestRaceDryRun(t *testing.T) {
	r := sweepCmd(t, "-config", "testdata/race-plan.toml", "-dry-run")
	if r.code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", r.code, r.stderr)
	}
	most := regexp.MustCompile(`(?m)^windows: (\d+) measured`).FindStringSubmatch(r.stdout)
	exp := regexp.MustCompile(`(?m)^  a race's expected windows: about (\d+), race and confirmation \(the median of simulated races of 12 configs`).FindStringSubmatch(r.stdout)
	if most == nil || exp == nil {
		t.Fatalf("dry run lacks the most or the expected windows:\n%s", r.stdout)
	}
	m, _ := strconv.Atoi(most[1])
	e, _ := strconv.Atoi(exp[1])
	if e <= 0 || e >= m {
		t.Errorf("expected %d windows, most %d: want 0 < expected < most", e, m)
	}
	if !regexp.MustCompile(`(?m)^estimated wall time: \S+ at most, about \S+ expected$`).MatchString(r.stdout) {
		t.Errorf("dry run lacks the two wall times:\n%s", r.stdout)
	}
}

// TestConfigsStateDryRun: every shipped config (configs/*.toml) states in
// its comments the wall time -dry-run gives for it, word for word, on a
// line of its own: "# estimated wall time: …". The configs run from a
// copy of the tree where bin/sweep and bin/sweep-old (gate.toml's builds)
// are placeholders that are only looked up, never run. A config of the
// JavaScript plugin is skipped while that plugin is not built (make
// js-plugin).
func TestConfigsStateDryRun(t *testing.T) {
	repo, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(repo, "configs", "*.toml"))
	if err != nil || len(files) < 5 {
		t.Fatalf("configs: %d files (%v)", len(files), err)
	}
	tree := t.TempDir()
	for _, d := range []string{"configs", "bin"} {
		if err := os.MkdirAll(filepath.Join(tree, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, exe := range []string{"sweep", "sweep-old"} {
		if err := os.WriteFile(filepath.Join(tree, "bin", exe), []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, l := range []string{"plugins", "configs/node"} {
		if err := os.Symlink(filepath.Join(repo, l), filepath.Join(tree, l)); err != nil {
			t.Fatal(err)
		}
	}
	_, jsErr := os.Stat(filepath.Join(repo, "plugins", "js-handler", "handler.wasm"))
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if jsErr != nil && strings.Contains(string(data), "js-handler/handler.wasm") {
				t.Skip("plugins/js-handler/handler.wasm not built (make js-plugin)")
			}
			cp := filepath.Join(tree, "configs", filepath.Base(f))
			if err := os.WriteFile(cp, data, 0o644); err != nil {
				t.Fatal(err)
			}
			r := sweepCmd(t, "-config", cp, "-dry-run", "-out", filepath.Join(tree, "out"))
			if r.code != 0 {
				t.Fatalf("exit %d; stderr:\n%s", r.code, r.stderr)
			}
			line := regexp.MustCompile(`(?m)^estimated wall time: .*$`).FindString(r.stdout)
			if line == "" {
				t.Fatalf("the dry run gives no wall time:\n%s", r.stdout)
			}
			if !strings.Contains(string(data), "\n# "+line+"\n") {
				t.Errorf("the comments do not quote the dry run's %q (on a line of their own, after \"# \")", line)
			}
		})
	}
}
