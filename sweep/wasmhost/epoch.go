package wasmhost

import "time"

// tickEpoch advances the engine epoch every EpochInterval while requests
// are in flight; a store's deadline is ticks epochs after its creation.
// When a tick finds no request in flight the ticker parks until the next
// Invoke (unparkEpoch), so an idle host never wakes up: in a sweep the
// idle slots' servers share the server CPUs with the one being measured,
// and a ticker in each of them would preempt it 100 times a second.
//
// Parking and unparking are a Dekker handshake on two atomics: the ticker
// sets epochParked and then re-reads inflight; Invoke adds to inflight and
// then reads epochParked. Either the ticker sees the request and does not
// park, or the request sees the parked ticker and wakes it.
func (h *Host) tickEpoch() {
	defer h.epochDone.Done()
	t := time.NewTicker(EpochInterval)
	defer t.Stop()
	for {
		select {
		case <-t.C:
		case <-h.stopEpoch:
			return
		}
		h.engine.IncrementEpoch()
		if h.inflight.Load() > 0 {
			continue
		}
		h.epochParked.Store(true)
		if h.inflight.Load() > 0 && h.epochParked.CompareAndSwap(true, false) {
			continue // a request started meanwhile and did not see the flag
		}
		// Parked, or a request has cleared the flag and sends a wake.
		t.Stop()
		select {
		case <-h.wakeEpoch:
		case <-h.stopEpoch:
			return
		}
		t.Reset(EpochInterval)
	}
}

// unparkEpoch wakes the epoch ticker if it is parked. The caller has
// counted itself in inflight.
func (h *Host) unparkEpoch() {
	if h.epochParked.Load() && h.epochParked.CompareAndSwap(true, false) {
		h.wakeEpoch <- struct{}{} // buffered: one wake per park
	}
}
