// Package config loads a sweep's TOML config strictly: every key must be
// known, every value must have the right type and range, and the grid,
// baseline, target and CPU sets must be consistent with each other and
// with this machine. The first problem is returned as a one-line error
// that starts with the file path, names the key path, shows the value and
// says what is allowed, e.g.
//
//	grid.toml: unknown key "load.concurency" (did you mean "load.concurrency"?)
//	grid.toml: grid.linear_memory_keep_resident[1] = "2MB": want a number of bytes or a size with a binary unit ...
//
// Every error wraps ErrConfig, so main can exit with status 2.
//
// The repository's docs/CONFIG.md tables every key with its type, default
// and allowed values (docs/settings.md the knobs and options); the doc
// comments of Config, Target, LoadSpec, Run and Analysis are the
// authoritative description.
//
// Decisions the rest of sweep relies on:
//
//   - Grid order: axes in config-file order, values in written order, the
//     last axis varying fastest (package grid). Points[i] is slot i.
//   - An empty (or absent) [grid] is allowed: the sweep has one point, the
//     target's defaults plus [settings]/[workload], which is the baseline.
//     With nothing to compare it against, load.aa must then stay true
//     (the A/A twin is the comparison: it measures the noise band and the
//     capacity curve of that one config); aa = false is an error whenever
//     the grid has a single point.
//   - load.concurrency is sorted ascending; duplicates are an error.
//   - Values are canonical strings: TOML integers in decimal, strings
//     verbatim ("64KiB" stays "64KiB"), booleans "true"/"false".
//     Duplicates within an axis are detected on the parsed value, so
//     "64KiB" and 65536 in one size axis are an error.
package config

import (
	"time"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/cpuset"
	"github.com/sweep-dev/sweep/sweep/grid"
	"github.com/sweep-dev/sweep/sweep/units"
)

// Limits on the size of a sweep. They keep a typo (one more axis, an extra
// zero) from scheduling a run of days, and bound the work Parse does.
const (
	// MaxPoints is the largest number of grid points (server slots).
	MaxPoints = 1000
	// DefaultBlockSize is run.block_size when unset: 8 grid points besides
	// the baseline per block, so a block has at most 11 live servers (with
	// the A/A twin and the reference) and one round of a level at most 11
	// windows, whatever the size of the grid.
	DefaultBlockSize = 8
	// MaxConcurrency is the largest concurrency level.
	MaxConcurrency = 10000
	// MaxLevels is the largest number of concurrency levels.
	MaxLevels = 64
	// DefaultRounds is load.rounds when unset: with Holm's correction an
	// exact two-sided test of n pairs reaches at best 2·2⁻ⁿ, so a run of
	// up to 50 comparisons needs 11 pairs for any verdict at family-wise
	// 95%; 12 leaves one round to lose.
	DefaultRounds = 12
	// MaxRounds is the largest number of rounds.
	MaxRounds = 1000
	// MinSlice is the shortest load.slice other than 0.
	MinSlice = 10 * time.Millisecond
	// DefaultSlice is load.slice when the config does not set it (capped
	// at load.duration).
	DefaultSlice = 50 * time.Millisecond
	// maxDuration bounds every duration key.
	maxDuration = time.Hour
)

// Config is a validated sweep config.
type Config struct {
	// Path is the config file's path as given to Load or Parse.
	Path string
	// Raw is the file's bytes as read; the driver copies them to the run
	// directory's config.toml.
	Raw []byte
	// Name (top-level key name) names the run directory
	// reports/<name>-<timestamp>. Letters, digits, '.', '_' and '-', at most
	// 64 characters, not starting with '.' or '-'. Default: the config
	// file's base name without extension.
	Name string
	// Target is the [target] table: what server runs in each slot.
	Target Target
	// Fixed holds, for a builtin target, the [workload] knobs and the
	// [settings] Wasmtime options applied to every point (not swept).
	// Values are canonical strings. Empty for a command target.
	Fixed map[string]string
	// Axes is the [grid] table in file order: axis name → values. For a
	// builtin target an axis is a Wasmtime pooling option, memory_init_cow
	// or a workload knob (touch, compute, io_wait, response_bytes); for a
	// command target any identifier, used as a {{name}} template variable.
	// An axis name may not also be set in [workload] or [settings].
	Axes []grid.Axis
	// Points is grid.Expand(Axes): every grid point, slot order.
	Points []sweep.Point
	// Baseline is the [baseline] table (axis = value) completed with each
	// axis' first value where unset. It is always one of Points (values
	// are matched on their parsed value and stored as written in [grid]).
	Baseline sweep.Point
	// Load is the [load] table: concurrency levels, windows, requests.
	Load LoadSpec
	// Run is the [run] table: pinning, seed, restarts.
	Run Run
	// Analysis is the [analysis] table: objective and thresholds.
	Analysis Analysis
}

// Target is the [target] table.
type Target struct {
	// Kind (kind) is "builtin" (default: sweep's own Wasmtime host, `sweep
	// serve`) or "command" (the user's own server, started per slot).
	Kind sweep.TargetKind
	// Plugin (plugin, builtin only) is "workload" (default: the built-in
	// workload module driven by the [workload] knobs) or the path of a
	// .wasm file, relative to the config file's directory. Parse resolves
	// the path to an absolute one and checks that it is a regular file
	// starting with the wasm magic "\x00asm".
	Plugin string
	// Command (command, command only, required) is the server's argv.
	// Every element may use {{axis}} and {{port}} placeholders (argv[0]
	// only axes, e.g. "{{build}}" to compare two builds in one run).
	// argv[0] is looked up on PATH, or, if it contains a slash, relative
	// to the config file's directory; Parse replaces a plain argv[0] by
	// the absolute path it found, and fills Programs for a templated one.
	Command []string
	// Programs maps each rendered name of a templated argv[0] to the
	// executable found for it; nil when argv[0] is not a template.
	Programs map[string]string
	// Env (env, command only) is extra environment for the server:
	// NAME = "template". Names are [A-Za-z_][A-Za-z0-9_]*.
	Env map[string]string
	// URL (url, command only) is the server's base URL template, default
	// "http://127.0.0.1:{{port}}/". It must use {{port}} (every slot's
	// server listens on its own port), have no path beyond "/" (the
	// request path is load.path) and, unless AllowRemote, a loopback host
	// (127.0.0.0/8, ::1 or localhost). Scheme http or https.
	URL string
	// Ready (ready, command only) is the readiness URL template polled
	// until it answers, default URL. Same rules as URL, but it may have a
	// path (e.g. "/healthz").
	Ready string
	// ReadyTimeout (ready_timeout) bounds the wait for a slot's server to
	// become ready. Default 15s.
	ReadyTimeout time.Duration
	// AllowRemote (allow_remote, command only) permits a non-loopback host
	// in URL and Ready. Default false.
	AllowRemote bool
	// GOMAXPROCS (gomaxprocs, builtin only) is the builtin server's
	// GOMAXPROCS, 0 (default) for Go's default; at most 1024.
	GOMAXPROCS int
}

// Slices is the number of pieces a window is measured in: Duration/Slice
// rounded to the nearest integer, at least 1; 1 when Slice is 0.
func (l LoadSpec) Slices() int {
	if l.Slice <= 0 {
		return 1
	}
	return max(1, int((l.Duration+l.Slice/2)/l.Slice))
}

// Piece is the length of one piece of a window: Duration/Slices().
func (l LoadSpec) Piece() time.Duration { return l.Duration / time.Duration(l.Slices()) }

// LoadSpec is the [load] table. (It is not called Load because Load is the
// function that reads a config file.)
type LoadSpec struct {
	// Concurrency (concurrency) is the list of closed-loop concurrency
	// levels (workers = keep-alive connections), each 1..10000, at most 64
	// levels, no duplicates; sorted ascending. Default [1, 4, 16].
	Concurrency []int
	// Warmup (warmup) is the discarded window per slot and level before
	// the measured rounds. Default 2s.
	Warmup time.Duration
	// Duration (duration) is one measured window. Default 3s.
	Duration time.Duration
	// Timeout (timeout) is the per-request timeout. Default 5s.
	Timeout time.Duration
	// Rounds (rounds) is the number of measured rounds, 1..1000; in each
	// round every slot gets one window per level. Default DefaultRounds.
	// With rounds = "auto" it is MaxRounds, the most a level may take.
	Rounds int
	// Auto (rounds = "auto") adds rounds, one at a time after MinRounds,
	// only for the configs whose comparison is not yet resolved to
	// analysis.resolve, up to MaxRounds and within run.budget.
	Auto bool
	// MinRounds and MaxRounds (min_rounds, max_rounds) bound an automatic
	// run's rounds per level: defaults 0 (one more than the fewest pairs
	// for any verdict under the run's correction; the driver's AutoMin)
	// and 30.
	MinRounds, MaxRounds int
	// Race (rounds = "race") races the configs at
	// analysis.target_concurrency, one race round at a time, eliminating
	// those an anytime-valid test shows worse than another (package
	// race), up to MaxRounds (default DefaultRaceMaxRounds) and within
	// run.budget; then the analysis.finalists survivors are confirmed at
	// every level in fresh rounds. Rounds is MaxRounds.
	Race bool
	// Slice (slice) interleaves the windows of a round: each slot's window
	// is measured as Slices() pieces of about Slice, taken from the slots
	// in turn (the order reversed every other pass), so that the machine's
	// drift over seconds falls alike on every slot of the round. 0 measures
	// each window in one piece, one slot after the other. Default
	// DefaultSlice (50ms, at most Duration); else 0 or from MinSlice up to
	// Duration.
	Slice time.Duration
	// AA (aa) adds the baseline's A/A twin slot, whose comparison with the
	// baseline is the noise band. Default true; must be true when the grid
	// has a single point.
	AA bool
	// Method (method) is the request method: GET (default), HEAD, POST,
	// PUT, PATCH, DELETE or OPTIONS.
	Method string
	// Path (path) is the request path and query, starting with "/".
	// Default "/".
	Path string
	// Body (body) is the request body. Default empty.
	Body string
	// Headers (headers) are extra request headers: Name = "value". Names
	// are HTTP tokens; values may not contain line breaks.
	Headers map[string]string
}

// Run is the [run] table.
type Run struct {
	// Budget (budget) bounds an automatic run (load.rounds = "auto"): no
	// round is started that the estimate says would end past it. With
	// load.rounds = "race" the confirmation's time is reserved from it and
	// the race stops when its next round would eat into that. 0 = none.
	Budget time.Duration
	// ServerCPUs (server_cpus) pins every server process, LoadCPUs
	// (load_cpus) the driver and load generator. CPU lists in the kernel's
	// format ("0", "2-3", "0,2"), as a string or a single integer; every
	// CPU must be online and usable by this process (its affinity at
	// start) and the two sets must not overlap. The empty string means
	// unpinned. Defaults: with neither set, cpuset.Split of the usable
	// CPUs (half of the cores for the server, the rest for the load; "0"
	// and "1" on a 2-CPU machine; unpinned with 1); with one set, the
	// other defaults to the remaining usable CPUs (unpinned if none
	// remain). With the axis grid.server_cpus (ServerCPUsAxis) each
	// point's servers run on their own set (PointCPUs), ServerCPUs is the
	// union of those sets and may not be configured, and LoadCPUs defaults
	// to the usable CPUs no point takes.
	ServerCPUs, LoadCPUs cpuset.Set
	// PointCPUs maps each value of grid.server_cpus, as written, to its
	// CPUs; nil without that axis. Config.ServerCPUsOf reads it.
	PointCPUs map[string]cpuset.Set
	// ShareCPUs (share_cpus) lets servers' CPUs overlap the load CPUs, for
	// machines too small to keep them apart (e.g. a two-CPU server beside
	// the generator on a 2-CPU machine); every window and cell whose server
	// shared a CPU with the generator is flagged (shares_cpus). Default
	// false: an overlap is a config error.
	ShareCPUs bool
	// CPURule says how a defaulted ServerCPUs / LoadCPUs was chosen (""
	// when the config set both), for -dry-run and summary.md.
	CPURule string
	// Seed (seed) seeds the slot-order rotation. Default 1.
	Seed int64
	// Restarts (restarts) is "round" (default: every slot's server is
	// started afresh, and warmed up, for every round, so that a process's
	// own offset is noise that the intervals cover instead of an effect
	// that travels with its config) or "never" (a slot's server lives for
	// the whole run: faster, but config and process are confounded).
	Restarts sweep.Restarts
	// BlockSize (block_size) is how many grid points besides the baseline
	// a block holds: the grid is split into blocks in grid order, each
	// block runs the baseline, its A/A twin and up to BlockSize other
	// points, only one block's servers are alive at a time, and every
	// comparison is paired within its block. Default DefaultBlockSize.
	BlockSize int
	// MaxRestarts (max_restarts) is how often a slot's server may die
	// unexpectedly (or fail to start) before the slot is given up: its
	// remaining windows are recorded as failed and the sweep goes on. 0..1000.
	// Default 3.
	MaxRestarts int
	// Remeasure (remeasure) measures a window once more, at the end of its
	// round, when it failed (the server crashed or did not start) and its
	// slot has not been given up: the failed window stays on record, and
	// the round keeps its pair. Default true.
	Remeasure bool
	// Reference (reference) adds a reference slot: sweep's own built-in
	// host with a fixed workload (driver.ReferenceArgv), measured in every round
	// like a config but never judged. It does not change with the build
	// under test, so two runs that both have it can be compared through
	// it (each cell's cost beyond its run's reference), which the drift
	// of a machine's level between runs cancels in. Costs one slot's
	// windows. Default false.
	Reference bool
	// KeepAwake (keep_awake) keeps the pinned server and load CPUs from
	// going idle during the run with one SCHED_IDLE spinner process per CPU
	// (package awake), so that requests do not wait for halted (virtual)
	// CPUs to wake. Only when both sides are pinned. Default true.
	KeepAwake bool
	// ServerSched (server_sched) is the scheduling policy every server
	// process starts with: "other" (default: SCHED_OTHER, as any process)
	// or "batch" (SCHED_BATCH: no wake-up preemption, which takes away the
	// extra CPU per request of a server's first piece after another slot's
	// in interleaved windows; see BENCHMARKS.md).
	ServerSched sweep.Sched
}

// Analysis is the [analysis] table.
type Analysis struct {
	// Profile (profile) adds, after the measured windows, one window per
	// cell (the baseline's and every config's, not the A/A twin's or the
	// reference's) in which perf samples the server's CPUs: a pprof
	// profile per cell in profiles/ and the CPU by family per request in
	// summary.md. Default false. Without perf: one warning, no profiles.
	Profile bool
	// Objective (objective) is the metric the recommendation optimises:
	// "cpu_per_req" (default: server CPU per request, lower is better) or
	// "success_rps" (successful requests per second, higher is better).
	Objective sweep.Objective
	// TargetConcurrency (target_concurrency) is the level the
	// recommendation is made for; it must be one of load.concurrency.
	// Default: the largest level.
	TargetConcurrency int
	// CliffErrorRate (cliff_error_rate) is the 5xx+error rate above which
	// a level is past the config's capacity cliff, 0 ≤ rate < 1.
	// Default 0.001 (0.1%).
	CliffErrorRate float64
	// Confidence (confidence) is the family-wise confidence of the run's
	// verdicts: the chance that no comparison of the run is called better
	// or worse falsely is at least this. 0.5 ≤ confidence < 1, default 0.95.
	Confidence float64
	// Resolve (resolve) is the resolution rounds = "auto" works towards:
	// a change of the objective metric it should be able to call, as a
	// fraction; "2%" or 0.02. Default 0.02.
	Resolve float64
	// Finalists (finalists, only with load.rounds = "race") is how many
	// configs the race hands to the confirmation: it stops when no more
	// survive. 1..MaxFinalists, default DefaultFinalists.
	Finalists int
	// RaceClip (race_clip, only with load.rounds = "race") is the clip c
	// of the race's e-processes: a round's paired log difference is
	// divided by it and clipped to ±1, so one wild window can cost a bet
	// at most its stake. A fraction, above 0 and below 1; default
	// DefaultRaceClip (5%).
	RaceClip float64
	// MaxRSS (max_rss) is a memory budget: a config whose RSS (at the end
	// of its windows, median) exceeds it at the target concurrency is not
	// recommended, and the recommendation names it. A size; 0 (default)
	// is no budget.
	MaxRSS units.Size
	// MaxReserved (max_reserved) is the same budget for the reserved
	// address space (VmSize). 0 (default) is no budget.
	MaxReserved units.Size
}
