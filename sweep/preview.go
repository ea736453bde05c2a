package sweep

import "time"

// Preview is what -dry-run shows of a run before it starts: its slots,
// rounds, windows, server starts, pinning and estimated wall time. The
// driver fills it from the config and the run's policy; the report words
// it. It is never written to a run directory.
type Preview struct {
	Name   string
	Target TargetKind
	// Blocks are the run's slots, block after block; BlockSize is
	// run.block_size (shown when there are several blocks).
	Blocks    [][]PreviewSlot
	BlockSize int
	// Shard is "i/n" for a run of one shard ("" for the whole plan), with
	// its blocks and every shard's estimated wall time.
	Shard          string
	ShardBlocks    []int
	ShardEstimates []time.Duration
	Concurrency    []int
	Warmup         time.Duration
	Duration       time.Duration
	// Slices is the pieces a window is measured in (load.slice), each
	// Piece long; 1 for one continuous piece.
	Slices int
	Piece  time.Duration
	// Kind is the policy's ("fixed", "auto", "race"); Rounds the rounds
	// per level (auto and race: load.max_rounds); MinRounds, Resolve and
	// Budget auto's; TargetConc, Finalists and ConfirmRounds the race's.
	Kind          string
	Plan          Plan // the run's plan as its head states it
	Rounds        int
	MinRounds     int
	Resolve       float64
	Budget        time.Duration
	TargetConc    int
	Finalists     int
	ConfirmRounds int
	Restarts      Restarts
	// Measured and Warmups are the most windows the policy can hand out,
	// Starts the server starts they take; Expected is what the run can be
	// expected to measure (expect.Windows; 0 for no model), over Points
	// configs.
	Measured int
	Warmups  int
	Starts   int
	Expected int
	Points   int
	// Pinning.
	ServerCPUs  string
	PointCPUs   bool // each config's servers on CPUs of their own (grid.server_cpus)
	LoadCPUs    string
	KeepAwake   bool
	CPURule     string
	ServerSched Sched
	Estimate    time.Duration // the whole plan's (or this shard's) wall time at most
}

// PreviewSlot is one server slot of a Preview.
type PreviewSlot struct {
	Index     int
	Config    string
	Baseline  bool
	AA        bool
	Reference bool
	// CPUs is the slot's server CPUs when they are its own (PointCPUs) or
	// shared with the load generator (SharesCPUs); "" otherwise.
	CPUs       string
	SharesCPUs bool
}
