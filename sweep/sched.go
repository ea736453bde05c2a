package sweep

// Sched is the scheduling policy server processes start with
// (run.server_sched; Environment.ServerSched, empty there for SchedOther).
// Its JSON encoding is the name.
type Sched string

// The scheduling policies.
const (
	// SchedOther (the default) is SCHED_OTHER, as any process.
	SchedOther Sched = "other"
	// SchedBatch is SCHED_BATCH: no wake-up preemption.
	SchedBatch Sched = "batch"
)

// Scheds are the valid policies, in the order errors list them.
var Scheds = []Sched{SchedOther, SchedBatch}
