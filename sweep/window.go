package sweep

import "time"

// ResultsSchema is the schema of the windows this build writes to
// results.jsonl, in each record's Schema: 1 (no schema field) for the
// records of every build before the field, 2 for the same record with
// it. A reader reads every schema up to its own and refuses a record of
// a newer one (results.SchemaError); what a later schema changes is
// listed here.
const ResultsSchema = 2

// Window is the measurement of one slot at one concurrency for one round:
// exactly one line of results.jsonl. All server-side figures are for the
// server process alone, over exactly the measured window (warmup excluded).
type Window struct {
	// Schema is the results.jsonl schema the record was written with
	// (ResultsSchema); 0 in records written before it was recorded
	// (schema 1), which read as they always did.
	Schema int `json:"schema,omitempty"`
	// Identity and schedule.
	Config      string `json:"config"`              // config label (Point.Label, plus " [A/A]" for the twin)
	Point       Point  `json:"point"`               // grid values of this slot
	Slot        int    `json:"slot"`                // server process slot index
	Baseline    bool   `json:"baseline"`            // this slot runs the baseline point
	AA          bool   `json:"aa"`                  // this slot is the baseline's A/A twin
	Reference   bool   `json:"reference,omitempty"` // the run's reference server (run.reference): the built-in host with a fixed workload, the same in every run
	Concurrency int    `json:"concurrency"`         // closed-loop workers = keep-alive connections
	Round       int    `json:"round"`               // 0-based round index
	Position    int    `json:"position"`            // 0-based position of the slot within the round
	// Block is the block of the grid the window was measured in (0, and
	// absent, for a run of one block): its pairs are with the baseline's
	// windows of the same block and round.
	Block int `json:"block,omitempty"`

	Start   time.Time `json:"start"`   // wall-clock start of the measured part
	Seconds float64   `json:"seconds"` // time under load, from the monotonic clock (summed over slices)
	// Slices is the number of interleaved pieces the window was measured
	// in (load.slice); 1 (or 0 in results written before slicing existed)
	// for one continuous piece.
	Slices int `json:"slices,omitempty"`

	// Load generator view.
	Requests        int64            `json:"requests"`         // completed requests (any outcome)
	Success         int64            `json:"success"`          // 2xx and 3xx responses
	RPS             float64          `json:"rps"`              // Requests / Seconds
	SuccessRPS      float64          `json:"success_rps"`      // Success / Seconds
	StatusCodes     map[string]int64 `json:"status_codes"`     // "200" → count; "0" never appears (see TransportErrors)
	Errors5xx       int64            `json:"errors_5xx"`       // responses with status 500–599
	TransportErrors map[string]int64 `json:"transport_errors"` // kind ("timeout", "conn_refused", "conn_reset", "eof", "other") → count
	ErrorRate       float64          `json:"error_rate"`       // (Errors5xx + transport errors) / Requests
	P50Ms           float64          `json:"p50_ms"`
	P95Ms           float64          `json:"p95_ms"`
	P99Ms           float64          `json:"p99_ms"`
	MaxMs           float64          `json:"max_ms"`

	// Server process view (probe deltas over the window).
	CPUSeconds        float64 `json:"cpu_seconds"`          // process CPU clock delta, all threads
	CPUSource         string  `json:"cpu_source"`           // "clock" (process CPU clock, ns) or "proc_stat" (ticks)
	CPUUsPerReq       float64 `json:"cpu_us_per_req"`       // CPUSeconds*1e6 / Requests
	RSSBytes          int64   `json:"rss_bytes"`            // resident set at window end
	MinorFaults       int64   `json:"minor_faults"`         // delta
	MinorFaultsPerReq float64 `json:"minor_faults_per_req"` // MinorFaults / Requests
	VolCtxSwitches    int64   `json:"vol_ctx_switches"`     // delta, all threads
	InvolCtxSwitches  int64   `json:"invol_ctx_switches"`   // delta, all threads

	// WindowMemory: peak, settled and reserved memory; the host's warm slots.
	WindowMemory

	// Generator health.
	DriverCPUUtil  float64 `json:"driver_cpu_util"` // driver CPU seconds / (Seconds × load CPUs), 0..1
	GeneratorBound bool    `json:"generator_bound"` // DriverCPUUtil above its threshold or LoadIdle below its own: RPS may be the generator's limit

	// Machine noise: the share of the server CPUs' and of the load CPUs'
	// time over the window that the hypervisor stole (/proc/stat steal:
	// a vCPU ready to run while the host ran something else). All online
	// CPUs count for a side that is not pinned. 0 on bare metal.
	ServerSteal float64 `json:"server_steal"`
	LoadSteal   float64 `json:"load_steal"`
	// LoadIdle is the share of the load CPUs' time they were idle over the
	// window (/proc/stat idle + iowait). With little of it left, the client
	// side had no capacity to spare and the window is flagged
	// GeneratorBound.
	LoadIdle float64 `json:"load_idle"`
	// ServerOther and LoadOther are the shares of the server CPUs' and of
	// the load CPUs' time over the window that went to anything but this
	// window's server process, the driver and the spinners: other
	// processes on those CPUs (a build, a package install, another
	// benchmark), the kernel's own work, and other slots' idle servers.
	// Busy time is wall − idle − steal from /proc/stat, less the server's
	// and the driver's CPU clocks. When the server shares CPUs with the
	// load generator (run.share_cpus) both are the share over the two sets
	// together. Absent when a side is not pinned or a reading failed.
	ServerOther *float64 `json:"server_other,omitempty"`
	LoadOther   *float64 `json:"load_other,omitempty"`

	// ServerCPUCount is the number of CPUs the server could run on: its
	// pinned set's size, all online CPUs when not pinned; 0 in results
	// written before it was recorded.
	ServerCPUCount int `json:"server_cpu_count,omitempty"`
	// SharesCPUs is true when the server's CPUs overlapped the load
	// generator's (run.share_cpus): its RPS and latency then carry the
	// generator's competition for those CPUs.
	SharesCPUs bool `json:"shares_cpus,omitempty"`

	// Inter-processor interrupts the server CPUs took over the window
	// (/proc/interrupts deltas summed over run.server_cpus, all online
	// CPUs when the server is not pinned): TLB shootdowns ("TLB:") and
	// function call interrupts ("CAL:"). They are the machine's counts,
	// not the server process's alone. Absent when the kernel does not
	// expose both lines or a reading failed.
	TLBShootdowns       *int64   `json:"tlb_shootdowns,omitempty"`
	CallIPIs            *int64   `json:"call_ipis,omitempty"`
	TLBShootdownsPerReq *float64 `json:"tlb_shootdowns_per_req,omitempty"` // TLBShootdowns / Requests
	CallIPIsPerReq      *float64 `json:"call_ipis_per_req,omitempty"`      // CallIPIs / Requests

	// User and kernel CPU of the server process over the window (all
	// threads, exited ones included): UserCPUSeconds and KernelCPUSeconds
	// are the utime and stime deltas of /proc/PID/stat, in 10 ms clock
	// ticks, summed over the window's slices; KernelShare is
	// Kernel/(User+Kernel); UserUsPerReq and KernelUsPerReq split
	// CPUUsPerReq (the precise process clock) by that share. Absent when
	// no tick was counted (or in results written before the split).
	UserCPUSeconds   *float64 `json:"user_cpu_seconds,omitempty"`
	KernelCPUSeconds *float64 `json:"kernel_cpu_seconds,omitempty"`
	KernelShare      *float64 `json:"kernel_share,omitempty"`
	UserUsPerReq     *float64 `json:"user_us_per_req,omitempty"`
	KernelUsPerReq   *float64 `json:"kernel_us_per_req,omitempty"`

	// Failure of the window itself (target crashed, never ready, ...).
	Failed     bool   `json:"failed,omitempty"`
	FailReason string `json:"fail_reason,omitempty"`
	ExitStatus string `json:"exit_status,omitempty"`
	StderrTail string `json:"stderr_tail,omitempty"`
	// Remeasured marks a second window of a step whose first window, in
	// the same round, failed (run.remeasure): the failed one stays in
	// results.jsonl as the record of the fault, and the analysis takes
	// the last good window of each round.
	Remeasured bool `json:"remeasured,omitempty"`
	// Race marks a window of a race round (load.rounds = "race"): it
	// decided which configs went on, so it is selected data, and no
	// verdict is made on it (the confirmation rounds give those).
	Race bool `json:"race,omitempty"`
}

// Key identifies a window within a run for -resume: a finished window with
// the same key is not measured again.
func (w Window) Key() WindowKey {
	return WindowKey{Slot: w.Slot, Concurrency: w.Concurrency, Round: w.Round}
}

// WindowKey is the schedule coordinate of a window.
type WindowKey struct {
	Slot        int
	Concurrency int
	Round       int
}
