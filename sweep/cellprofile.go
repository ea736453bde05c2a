package sweep

// CellProfile is the CPU profile of one cell (a config at a level, in one
// block), taken by `analysis.profile` in an extra window after the
// measured ones, so that sampling never touches a measured figure. The
// run directory's profiles.json holds them; each File is a pprof profile
// (go tool pprof) of the server process alone.
type CellProfile struct {
	Config      string  `json:"config"`
	Baseline    bool    `json:"baseline,omitempty"`
	Concurrency int     `json:"concurrency"`
	Block       int     `json:"block,omitempty"`
	File        string  `json:"file"`     // relative to the run directory, e.g. "profiles/….pb.gz"
	Requests    int64   `json:"requests"` // completed during the profiled window
	Seconds     float64 `json:"seconds"`  // the window's load time
	Samples     int64   `json:"samples"`  // of the server's PID
	// Families is the server's CPU by family (page fault, madvise/munmap,
	// scheduler, network stack, Wasmtime, …), largest first.
	Families []FamilyCPU `json:"families"`
}

// FamilyCPU is one family's part of a profile: its CPU time and that per
// completed request.
type FamilyCPU struct {
	Name     string  `json:"name"`
	CPUNs    int64   `json:"cpu_ns"`
	UsPerReq float64 `json:"us_per_req"`
	Share    float64 `json:"share"` // of the profile's samples' CPU
}
