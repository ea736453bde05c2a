package wasmhost

import "sync/atomic"

// Stats is a snapshot of the host's counters, served as JSON by
// GET /__sweep/stats.
type Stats struct {
	// Requests counts plugin requests (not stats requests).
	Requests uint64 `json:"requests"`
	// OK counts requests the plugin answered.
	OK uint64 `json:"ok"`
	// Errors counts failed requests by reason: pool_core_instances,
	// pool_memories, pool_tables, pool_component_instances, pool_other,
	// trap, timeout, other, http_guest (a wasi:http guest broke the protocol).
	Errors map[string]uint64 `json:"errors"`
	// LiveInstances is the number of instances alive now: counted from
	// their instantiation until their store starts closing.
	LiveInstances int64 `json:"live_instances"`
	// LiveInstancesHighWater is the most instances ever alive at once.
	LiveInstancesHighWater int64 `json:"live_instances_high_water"`
}

// counters are the hot-path atomics behind Stats.
type counters struct {
	requests  atomic.Uint64
	ok        atomic.Uint64
	errors    [numReasons]atomic.Uint64
	live      atomic.Int64
	highWater atomic.Int64
}

// enter counts one more live instance and raises the high-water mark.
func (c *counters) enter() {
	n := c.live.Add(1)
	for {
		hw := c.highWater.Load()
		if n <= hw || c.highWater.CompareAndSwap(hw, n) {
			return
		}
	}
}

// leave counts one live instance less.
func (c *counters) leave() { c.live.Add(-1) }

func (c *counters) snapshot() Stats {
	s := Stats{
		Requests:               c.requests.Load(),
		OK:                     c.ok.Load(),
		Errors:                 make(map[string]uint64, numReasons),
		LiveInstances:          c.live.Load(),
		LiveInstancesHighWater: c.highWater.Load(),
	}
	for r := Reason(0); r < numReasons; r++ {
		s.Errors[r.String()] = c.errors[r].Load()
	}
	return s
}
