package driver

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/sweep-dev/sweep/sweep/probe"
	"github.com/sweep-dev/sweep/sweep/setting"
	"github.com/sweep-dev/sweep/sweep/wasmhost"
)

// SettleTime is how long after a window's load stops its server's
// resident set is read as settled (Window.RSSSettledBytes): the last
// requests' stores are closed and their slots reset to keep_resident by
// then (a slot is freed as its Store closes, within the request).
const SettleTime = 100 * time.Millisecond

// defaultWarmSlots is Wasmtime's max_unused_warm_slots default (36–39).
const defaultWarmSlots = 100

// memoryWindow is a window's memory readings in progress.
type memoryWindow struct {
	peakReset bool      // VmHWM was reset when the window started
	loadEnd   time.Time // when the window's last slice of load ended
}

// memoryStart resets the server's resident high-water mark as m's window
// starts, so that VmHWM at its end is the window's peak. A failed reset
// leaves the window without a peak.
func (r *runner) memoryStart(m *measurement) {
	if m.done || m.st.srv == nil {
		return
	}
	if err := probe.ResetPeak(m.st.srv.PID); err != nil {
		r.o.Log.Debug("resetting VmHWM failed: the window has no peak RSS", "config", m.st.slot.Config, "err", err)
		return
	}
	m.mem.peakReset = true
}

// memoryFinish records m's memory figures at the window's end: peak and
// reserved memory (VmHWM, VmSize), the settled RSS SettleTime after the
// load stopped, and for the built-in host its live-instance high-water
// mark and the warm slots' estimate. A reading that fails leaves its
// fields absent.
func (r *runner) memoryFinish(ctx context.Context, m *measurement) {
	if m.done || m.st.srv == nil {
		return
	}
	pid := m.st.srv.PID
	if mem, err := probe.ReadMemory(pid); err == nil {
		m.w.VMSizeBytes = &mem.Size
		if m.mem.peakReset {
			peak := max(mem.Peak, m.w.RSSBytes)
			m.w.RSSPeakBytes = &peak
		}
	}
	if wait := time.Until(m.mem.loadEnd.Add(SettleTime)); wait > 0 {
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
	}
	if mem, err := probe.ReadMemory(pid); err == nil {
		m.w.RSSSettledBytes = &mem.RSS
	}
	if commandSlot(r.c, m.st.slot) || m.st.slot.Reference {
		return
	}
	hw, err := hostHighWater(ctx, m.st.srv.Addr)
	if err != nil {
		r.o.Log.Debug("reading the host's counters failed: the window has no warm-slot estimate", "config", m.st.slot.Config, "err", err)
		return
	}
	kr, maxWarm, err := warmSettings(r.c.Settings(m.st.slot.Point))
	if err != nil {
		return
	}
	warm := min(hw, maxWarm)
	est := warm * kr
	m.w.LiveHighWater, m.w.WarmSlots, m.w.KeepResidentBytes, m.w.WarmEstimateBytes = &hw, &warm, &kr, &est
}

// warmSettings returns a point's linear_memory_keep_resident and
// max_unused_warm_slots (Wasmtime's defaults when unset).
func warmSettings(m map[string]string) (keepResident, maxWarm int64, err error) {
	s, err := setting.FromMap(m)
	if err != nil {
		return 0, 0, err
	}
	maxWarm = defaultWarmSlots
	if v, ok := s.Value(setting.MaxUnusedWarmSlots); ok {
		maxWarm = int64(v)
	}
	return int64(s.Size(setting.LinearMemoryKeepResident)), maxWarm, nil
}

// hostHighWater asks the built-in host at addr for its live-instance
// high-water mark (GET wasmhost.StatsPath).
func hostHighWater(ctx context.Context, addr string) (int64, error) {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+addr+wasmhost.StatsPath, nil)
	if err != nil {
		return 0, fmt.Errorf("host stats: %w", err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, fmt.Errorf("host stats: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("host stats: %s", resp.Status)
	}
	var st wasmhost.Stats
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		return 0, fmt.Errorf("host stats: %w", err)
	}
	return st.LiveInstancesHighWater, nil
}
