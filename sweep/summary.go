package sweep

import "time"

// SchemaVersion is summary.json's schema_version: 2 added the decision
// interval fields of Delta (ci_low, ci_high, confidence, resolution,
// correction, p, p_adjusted) and the A/A verdict "control"; 3 the
// reference server's cells (reference); 4 the verdict "undecided" with
// Delta.Needed (before it, a comparison without an interval said "no
// detectable change"; rundir.ReadSummary reads those as undecided) and
// the plan's Family and RoundsNeeded. A race run (the optional race
// block, under 4) adds the verdicts "eliminated" and "unconfirmed"; race
// runs written before "unconfirmed" existed call their unconfirmed
// survivors "eliminated". 5 records what a run's policy needs to be
// replayed from its windows (plan.race, plan.seed, plan.min_rounds),
// names a race's unconfirmed survivors "unconfirmed" (was "survivor";
// read as unconfirmed) and leaves the race's sentence (race.words) to
// the report; rundir.ReadSummary gives a schema 4 race its plan.race
// from its race block.
const SchemaVersion = 5

// Summary is summary.json: the analysed run.
type Summary struct {
	SchemaVersion int         `json:"schema_version"`
	Name          string      `json:"name"`
	Created       time.Time   `json:"created"`
	Complete      bool        `json:"complete"` // every planned window was measured
	Environment   Environment `json:"environment"`
	Plan          Plan        `json:"plan"`
	Baseline      string      `json:"baseline"`  // config label of the baseline
	AAConfig      string      `json:"aa_config"` // config label of the A/A twin, "" when aa = false
	Cells         []Cell      `json:"cells"`
	// Reference holds the reference server's cells, one per level, when
	// the run had one (run.reference); they are not among Cells: the
	// reference is no config under test and gets no verdicts.
	Reference      []Cell          `json:"reference,omitempty"`
	Cliffs         []Cliff         `json:"cliffs"`
	Tradeoffs      []Tradeoff      `json:"tradeoffs"`
	Recommendation *Recommendation `json:"recommendation,omitempty"`
	Warnings       []Warning       `json:"warnings"` // run-level warnings (preflight, incomplete run, ...)
	// BlockDrift is, per level, how much the baseline moved from block to
	// block of a run of several blocks (none for one block): the machine's
	// drift over the run, which the pairing within blocks cancels.
	BlockDrift []BlockDrift `json:"block_drift,omitempty"`
	// Race is what the race of load.rounds = "race" did; nil otherwise.
	Race *RaceSummary `json:"race,omitempty"`
}

// BlockDrift is the spread of the baseline's median of the objective's
// metric over the blocks at one level.
type BlockDrift struct {
	Concurrency int     `json:"concurrency"`
	Metric      Metric  `json:"metric"`
	Blocks      int     `json:"blocks"` // blocks with a baseline median at this level
	Min         float64 `json:"min"`    // the lowest block's median
	Max         float64 `json:"max"`    // the highest block's median
	Spread      float64 `json:"spread"` // Max/Min − 1
}

// Environment describes where the run happened.
type Environment struct {
	Host            string     `json:"host"`
	CPUModel        string     `json:"cpu_model"`
	Cores           int        `json:"cores"`
	Kernel          string     `json:"kernel"`
	GoVersion       string     `json:"go_version"`
	WasmtimeVersion string     `json:"wasmtime_version"`
	SweepVersion    string     `json:"sweep_version,omitempty"`    // the sweep binary's module version and VCS revision ("+dirty" when built from a modified tree)
	Target          TargetKind `json:"target"`                     // "builtin" or "command"
	ServerCPUs      string     `json:"server_cpus"`                // as configured; with the axis grid.server_cpus, the union of the points' sets
	ServerCPUsAxis  bool       `json:"server_cpus_axis,omitempty"` // each point's servers on CPUs of their own (grid.server_cpus)
	ShareCPUs       bool       `json:"share_cpus,omitempty"`       // run.share_cpus: servers' CPUs may overlap the load CPUs
	LoadCPUs        string     `json:"load_cpus"`                  // as configured
	CPURule         string     `json:"cpu_rule,omitempty"`         // how defaulted server/load CPUs were chosen ("" = both set by the config)
	ServerPinned    string     `json:"server_pinned"`              // read back from /proc (Cpus_allowed_list) of a server
	LoadPinned      string     `json:"load_pinned"`                // read back for the driver itself
	AwakeCPUs       string     `json:"awake_cpus,omitempty"`       // CPUs kept awake by spinners (run.keep_awake); "" = none
	ServerSched     Sched      `json:"server_sched,omitempty"`     // servers' scheduling policy when not "other" (run.server_sched)
	// PagemapScan says whether the kernel offers the PAGEMAP_SCAN ioctl
	// (Linux ≥ 6.7), with which a Wasmtime configured to use it (≥ 37,
	// PoolingAllocationConfig::pagemap_scan) resets only the dirty pages
	// of keep_resident memory; nil when unknown (summaries before it).
	PagemapScan *bool `json:"pagemap_scan,omitempty"`
	// EnginePagemapScan says whether the servers' engine uses PAGEMAP_SCAN
	// when the kernel offers it: false for the builtin host
	// (wasmhost.PagemapScan: Wasmtime 39's C API has no setter and the
	// default is off, so a freed slot's lowest keep_resident bytes are
	// memset); nil for a command target, whose engine sweep cannot see,
	// and in summaries written before it was recorded (see
	// Environment.EnginePagemap).
	EnginePagemapScan *bool `json:"engine_pagemap_scan,omitempty"`
	// Plugins are the plugins a builtin target served (none for a command
	// target, and in summaries written before they were recorded).
	Plugins []Plugin `json:"plugins,omitempty"`
}

// Plan is what the run was asked to do.
type Plan struct {
	Axes        []string      `json:"axes"`
	Points      []Point       `json:"points"`
	Concurrency []int         `json:"concurrency"`
	Rounds      int           `json:"rounds"`
	Warmup      time.Duration `json:"warmup_ns"`
	Duration    time.Duration `json:"duration_ns"`
	Slots       int           `json:"slots"`
	Windows     int           `json:"windows"`  // planned measured windows
	Measured    int           `json:"measured"` // windows present in results.jsonl
	// Remeasured counts the windows measured again after their first
	// window failed (run.remeasure); Measured counts each step once.
	Remeasured int       `json:"remeasured,omitempty"`
	Objective  Objective `json:"objective"`
	TargetConc int       `json:"target_concurrency"`
	CliffRate  float64   `json:"cliff_error_rate"`
	Confidence float64   `json:"confidence"` // family-wise confidence of the verdicts (analysis.confidence)
	// Family is the number of comparisons the plan's verdicts are
	// corrected for (stats.Family: candidates × levels × 3 metrics), and
	// RoundsNeeded the fewest paired rounds with which any of them can be
	// decided at Confidence (stats.RoundsNeeded); 0 in summaries before
	// schema 4.
	Family       int `json:"family,omitempty"`
	RoundsNeeded int `json:"rounds_needed,omitempty"`
	// RoundsAuto is set for load.rounds = "auto": Rounds is then
	// max_rounds, Resolve the resolution the rounds were added towards.
	RoundsAuto bool    `json:"rounds_auto,omitempty"`
	Resolve    float64 `json:"resolve,omitempty"`
	// MinRounds is rounds = "auto"'s rounds per level before any is added
	// (load.min_rounds, or its default); Seed is run.seed, the slot
	// order's. Both are 0 in summaries written before they were recorded.
	MinRounds int   `json:"min_rounds,omitempty"`
	Seed      int64 `json:"seed,omitempty"`
	// Race is what a race (load.rounds = "race") was asked to do, all its
	// decisions need beside the windows; nil for other runs. Rounds is
	// then the confirmation's rounds per level, which gave the verdicts.
	Race     *RacePlan `json:"race,omitempty"`
	Restarts Restarts  `json:"restarts"` // "never" or "round"
	// Slices is the number of interleaved pieces each window is measured
	// in (load.slice); 1 (or 0 in summaries written before it existed)
	// for one continuous piece.
	Slices int `json:"slices,omitempty"`
	// Blocks is the number of blocks the grid is split into (run.block_size
	// = BlockSize points besides the baseline each); 0 in summaries written
	// before blocks existed, which ran as one block.
	Blocks    int `json:"blocks,omitempty"`
	BlockSize int `json:"block_size,omitempty"`
	// Shard is "i/n" when the run measured only shard i of n of the
	// plan's blocks (-shard), ShardBlocks those blocks; "" for the whole
	// plan. Windows and Measured count the shard's windows only. A merged
	// run (sweep merge) has Shard "" and Merged the shards it holds.
	Shard       string   `json:"shard,omitempty"`
	ShardBlocks []int    `json:"shard_blocks,omitempty"`
	Merged      []string `json:"merged,omitempty"`
	// Fixed is, for a builtin target, the settings every point shares (the
	// [workload] knobs and the fixed options); nil for a command target
	// and in summaries written before it was recorded.
	Fixed map[string]string `json:"fixed,omitempty"`
	// MaxRSS and MaxReserved are the memory budgets in bytes
	// (analysis.max_rss, max_reserved); absent for none.
	MaxRSS      int64 `json:"max_rss,omitempty"`
	MaxReserved int64 `json:"max_reserved,omitempty"`
}

// Cell is one config at one concurrency: medians over its rounds.
type Cell struct {
	Config            string  `json:"config"`
	Point             Point   `json:"point"`
	Baseline          bool    `json:"baseline"`
	AA                bool    `json:"aa"`
	Concurrency       int     `json:"concurrency"`
	Rounds            int     `json:"rounds"` // windows that entered the medians
	RPS               float64 `json:"rps"`
	SuccessRPS        float64 `json:"success_rps"`
	CPUUsPerReq       float64 `json:"cpu_us_per_req"`
	CPUUsQ1           float64 `json:"cpu_us_per_req_q1"`
	CPUUsQ3           float64 `json:"cpu_us_per_req_q3"`
	P50Ms             float64 `json:"p50_ms"`
	P95Ms             float64 `json:"p95_ms"`
	P99Ms             float64 `json:"p99_ms"`
	Errors5xx         int64   `json:"errors_5xx"` // total over the cell's windows
	ErrorRate         float64 `json:"error_rate"` // (5xx + transport errors) / requests, pooled over the windows
	MinorFaultsPerReq float64 `json:"minor_faults_per_req"`
	RSSBytes          int64   `json:"rss_bytes"`
	GeneratorBound    int     `json:"generator_bound_windows"`

	// CellMemory: peak, settled and reserved memory, their changes vs
	// the baseline, the warm-slot estimate and the budgets exceeded.
	CellMemory
	// ServerSteal and LoadSteal are the medians over the windows of the
	// share of the server and load CPUs' time the hypervisor stole
	// (Window.ServerSteal, Window.LoadSteal).
	ServerSteal float64 `json:"server_steal"`
	LoadSteal   float64 `json:"load_steal"`
	// ServerOther and LoadOther are the medians over the windows that
	// have them of Window.ServerOther and Window.LoadOther: how much of
	// the CPUs' time other work took. Absent when no window has them.
	ServerOther *float64 `json:"server_other,omitempty"`
	LoadOther   *float64 `json:"load_other,omitempty"`
	// ServerCPUCount is the most CPUs the cell's server could run on over
	// its windows (Window.ServerCPUCount; 0 when not recorded). Parallel
	// is true when that is more than one and the concurrency is above 1
	// (the level's requests could be served in parallel), false when they
	// were queued in front of one CPU, and absent when not recorded.
	ServerCPUCount int   `json:"server_cpu_count,omitempty"`
	Parallel       *bool `json:"parallel,omitempty"`
	// SharesCPUs is true when any of the cell's windows had its server
	// share CPUs with the load generator (Window.SharesCPUs).
	SharesCPUs bool `json:"shares_cpus,omitempty"`
	// TLBShootdownsPerReq and CallIPIsPerReq are the medians over the
	// windows that have them of Window.TLBShootdownsPerReq and
	// Window.CallIPIsPerReq; absent when no window has them.
	TLBShootdownsPerReq *float64 `json:"tlb_shootdowns_per_req,omitempty"`
	CallIPIsPerReq      *float64 `json:"call_ipis_per_req,omitempty"`
	// UserUsPerReq, KernelUsPerReq and KernelShare are the medians over
	// the windows that have them of the Window fields of those names: the
	// server's CPU per request in user mode and in the kernel. Absent when
	// no window has them.
	UserUsPerReq   *float64 `json:"user_us_per_req,omitempty"`
	KernelUsPerReq *float64 `json:"kernel_us_per_req,omitempty"`
	KernelShare    *float64 `json:"kernel_share,omitempty"`
	// SplitVsBaseline is the paired change of the split against the
	// baseline (same block and round); absent for the baseline and when
	// no pair has the split. It describes, it decides nothing: verdicts
	// are on VsBaseline's metrics only.
	SplitVsBaseline *SplitChange `json:"split_vs_baseline,omitempty"`

	// VsBaseline is the paired comparison against the baseline, keyed by
	// metric name; absent for the baseline itself.
	VsBaseline map[Metric]Delta `json:"vs_baseline,omitempty"`
	// AABand is the A/A twin's central 50% interval at this concurrency,
	// keyed by metric name (the noise band the verdicts were judged by).
	AABand map[Metric]Band `json:"aa_band,omitempty"`
	// Cliff is set when this cell is at or past its config's capacity cliff.
	Cliff    *CellCliff `json:"cliff,omitempty"`
	Warnings []Warning  `json:"warnings,omitempty"`
}

// SplitChange is the median over a cell's pairs of candidate − baseline
// in µs per request, for the user and the kernel part of CPU per request.
type SplitChange struct {
	UserUs   float64 `json:"user_us"`
	KernelUs float64 `json:"kernel_us"`
	Pairs    int     `json:"pairs"`
}

// Delta is a paired comparison: per round candidate/baseline − 1, as a
// signed fraction (−0.23 = 23% lower). Median, Q1 and Q3 describe the
// paired changes; the verdict is decided on the confidence interval
// [CILow, CIHigh] (the exact signed-rank interval of the log ratios,
// around their Hodges–Lehmann estimate Estimate) at Confidence, the level
// the run's multiple-comparison Correction gave this comparison.
type Delta struct {
	Median  float64 `json:"median"`
	Q1      float64 `json:"q1"`
	Q3      float64 `json:"q3"`
	Pairs   int     `json:"pairs"`
	Verdict Verdict `json:"verdict"`
	// Estimate is the Hodges–Lehmann estimate of the change.
	Estimate float64 `json:"estimate"`
	// CILow and CIHigh bound the change at Confidence; nil when the cell
	// has too few pairs for any interval at that level.
	CILow  *float64 `json:"ci_low"`
	CIHigh *float64 `json:"ci_high"`
	// Confidence is the achieved coverage of [CILow, CIHigh] (the exact
	// statistic is discrete, so it is at least the level asked for).
	Confidence float64 `json:"confidence"`
	// Resolution is the interval's half-width: about the smallest change
	// this cell could have called; nil with no interval.
	Resolution *float64 `json:"resolution"`
	// Correction says how the level was set for the run's family of
	// comparisons, e.g. "holm: step 3 of 36, family-wise 95%".
	Correction string `json:"correction"`
	// P is the exact two-sided signed-rank p-value; PAdjusted the Holm
	// adjusted one (the family-wise error rate at which this comparison
	// would be called).
	P         float64 `json:"p"`
	PAdjusted float64 `json:"p_adjusted"`
	// Needed is set when the verdict is undecided: the paired rounds
	// with which an interval at this comparison's level exists (Pairs
	// of Needed).
	Needed int `json:"needed,omitempty"`
}

// Band is a central interval of signed fractional changes.
type Band struct {
	Median float64 `json:"median"`
	Q1     float64 `json:"q1"`
	Q3     float64 `json:"q3"`
}

// CellCliff marks a cell at or beyond its config's capacity cliff.
type CellCliff struct {
	At   int  `json:"at"`   // the config's first failing concurrency
	Past bool `json:"past"` // true when Concurrency > At
}

// Cliff is a config's capacity cliff: the first concurrency whose error
// rate exceeds the threshold.
type Cliff struct {
	Config      string  `json:"config"`
	Concurrency int     `json:"concurrency"`
	ErrorRate   float64 `json:"error_rate"`
}

// Tradeoff puts one config's effect at concurrency 1 (or the lowest level)
// beside its effect at a higher level for one metric.
type Tradeoff struct {
	Config   string  `json:"config"`
	Metric   Metric  `json:"metric"`
	LowConc  int     `json:"low_concurrency"`
	Low      float64 `json:"low"` // median signed change at LowConc
	HighConc int     `json:"high_concurrency"`
	High     float64 `json:"high"`
	Flip     bool    `json:"flip"` // real effects of opposite sign
}

// Recommendation is the verdict of the whole run.
type Recommendation struct {
	Objective    Objective `json:"objective"` // "cpu_per_req" or "success_rps"
	Concurrency  int       `json:"concurrency"`
	Config       string    `json:"config"` // the recommended config label (the baseline when keeping it)
	Point        Point     `json:"point"`
	KeepBaseline bool      `json:"keep_baseline"`
	Change       float64   `json:"change"` // median signed change of the objective metric vs baseline
	// Keep says why the baseline is kept ("" for a pick); Dirty names,
	// with Keep = KeepErrors, the improving configs left out for errors.
	Keep  KeepReason `json:"keep,omitempty"`
	Dirty []Dirty    `json:"dirty,omitempty"`
	// Reason is the reason in words that summaries written before Keep
	// carried (schema ≤ 4); this build reads it for them, never writes it.
	Reason string `json:"reason,omitempty"`
	// Settings are the recommended config's full settings (Plan.Fixed
	// and its point's Wasmtime options and workload knobs) for a builtin
	// target whose plan recorded them; what the answer as code writes.
	Settings map[string]string `json:"settings,omitempty"`
	// RSSChangeMiB is the pick's median paired RSS change; absent when
	// keeping the baseline or without RSS pairs.
	RSSChangeMiB *float64 `json:"rss_change_mib,omitempty"`
	// Excluded names the configs a memory budget (analysis.max_rss,
	// max_reserved) ruled out at the target level, with what they exceed.
	Excluded []string `json:"excluded,omitempty"`
	// Peers are the configs not told apart from the pick: the other
	// candidates that also improved the objective for certain at its
	// level, clean (no errors, no failed windows) and within any memory
	// budget, whose interval against the baseline meets the pick's. The
	// run compares each config with the baseline, never with one another,
	// so the pick has only the best median. In cell order.
	Peers []Peer `json:"peers,omitempty"`
}

// KeepReason says why a run keeps its baseline.
type KeepReason string

// The reasons to keep the baseline.
const (
	// KeepNoBaseline: the baseline has no windows at the target level.
	KeepNoBaseline KeepReason = "no_baseline"
	// KeepErrors: every config that improved had errors or failed windows
	// there (Recommendation.Dirty).
	KeepErrors KeepReason = "errors"
	// KeepUndecided: every candidate's comparison at the target is
	// undecided (too few rounds).
	KeepUndecided KeepReason = "undecided"
	// KeepNoImprovement: no config improved the objective for certain
	// (within a memory budget, if any).
	KeepNoImprovement KeepReason = "no_improvement"
)

// Dirty is an improving config left out of the recommendation: its error
// rate and failed windows at the target level.
type Dirty struct {
	Config        string  `json:"config"`
	ErrorRate     float64 `json:"error_rate"`
	FailedWindows int     `json:"failed_windows"`
}

// Peer is a config not told apart from the recommendation: its change of
// the objective against the baseline (median and interval) and its
// median RSS change, when measured.
type Peer struct {
	Config       string   `json:"config"`
	Change       float64  `json:"change"`
	CILow        float64  `json:"ci_low"`
	CIHigh       float64  `json:"ci_high"`
	RSSChangeMiB *float64 `json:"rss_change_mib,omitempty"`
}

// Warning is a caveat carried as data.
type Warning struct {
	Code    WarningCode `json:"code"` // what kind of caveat: a WarningCode (docs/warnings.md)
	Config  string      `json:"config,omitempty"`
	Conc    int         `json:"concurrency,omitempty"`
	Message string      `json:"message"`
}
