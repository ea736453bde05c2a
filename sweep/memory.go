package sweep

import "fmt"

// MemoryMetric names a memory figure of the server process: a key of
// Cell.MemoryVsBaseline, and a figure of every Window and Cell. Memory
// metrics are described and gated (sweep check -rss), never part of the
// verdict family of Metrics.
type MemoryMetric string

// The memory metrics.
const (
	// MemRSS is the resident set at the end of the window, read as its
	// load stops (Window.RSSBytes): the RSS of summary.md, memory.png and
	// analysis.max_rss.
	MemRSS MemoryMetric = "rss_bytes"
	// MemRSSPeak is the most the resident set reached during the window
	// (VmHWM, reset when the window starts).
	MemRSSPeak MemoryMetric = "rss_peak_bytes"
	// MemRSSSettled is the resident set after the load stopped and the
	// warm slots settled: the resident cost of keeping warm.
	MemRSSSettled MemoryMetric = "rss_settled_bytes"
	// MemReserved is the reserved address space (VmSize) at the end of
	// the window: the pool's reservation shows here (analysis.max_reserved).
	MemReserved MemoryMetric = "vm_size_bytes"
)

// MemoryMetrics are the memory metrics in report order.
var MemoryMetrics = []MemoryMetric{MemRSS, MemRSSPeak, MemRSSSettled, MemReserved}

// memoryDefs is the one definition of each memory metric: its label and
// where Windows and Cells keep it (ok false when not recorded).
var memoryDefs = map[MemoryMetric]struct {
	label  string
	window func(*Window) (int64, bool)
	cell   func(*Cell) (int64, bool)
}{
	MemRSS: {"RSS",
		func(w *Window) (int64, bool) { return w.RSSBytes, w.RSSBytes > 0 },
		func(c *Cell) (int64, bool) { return c.RSSBytes, c.RSSBytes > 0 }},
	MemRSSPeak: {"peak RSS",
		func(w *Window) (int64, bool) { return deref(w.RSSPeakBytes) },
		func(c *Cell) (int64, bool) { return deref(c.RSSPeakBytes) }},
	MemRSSSettled: {"settled RSS",
		func(w *Window) (int64, bool) { return deref(w.RSSSettledBytes) },
		func(c *Cell) (int64, bool) { return deref(c.RSSSettledBytes) }},
	MemReserved: {"reserved",
		func(w *Window) (int64, bool) { return deref(w.VMSizeBytes) },
		func(c *Cell) (int64, bool) { return deref(c.VMSizeBytes) }},
}

func deref(p *int64) (int64, bool) {
	if p == nil {
		return 0, false
	}
	return *p, true
}

// Label is m's short name in words, e.g. "peak RSS"; the name itself for
// an unknown metric.
func (m MemoryMetric) Label() string {
	if d, ok := memoryDefs[m]; ok {
		return d.label
	}
	return string(m)
}

// Memory is the window's figure for m in bytes, and whether the window
// recorded it.
func (w Window) Memory(m MemoryMetric) (int64, bool) {
	d, ok := memoryDefs[m]
	if !ok {
		return 0, false
	}
	return d.window(&w)
}

// Memory is the cell's median for m in bytes, and whether the cell has it.
func (c Cell) Memory(m MemoryMetric) (int64, bool) {
	d, ok := memoryDefs[m]
	if !ok {
		return 0, false
	}
	return d.cell(&c)
}

// MiB is one mebibyte in bytes.
const MiB = 1 << 20

// WindowMemory are a window's memory figures beyond RSSBytes, embedded in
// Window (its JSON fields are Window's). Each is absent when it was not
// read (results written before they existed, a reading that failed, a
// command target for the host's counters).
type WindowMemory struct {
	// RSSPeakBytes is VmHWM of /proc/PID/status at the window's end,
	// reset (clear_refs "5") when the window started: the most the
	// resident set reached during the window's load.
	RSSPeakBytes *int64 `json:"rss_peak_bytes,omitempty"`
	// RSSSettledBytes is VmRSS read SettleTime after the window's load
	// stopped: the resident set with the warm slots settled.
	RSSSettledBytes *int64 `json:"rss_settled_bytes,omitempty"`
	// VMSizeBytes is VmSize at the window's end: the reserved address space.
	VMSizeBytes *int64 `json:"vm_size_bytes,omitempty"`
	// LiveHighWater is the built-in host's live-instance high-water mark
	// at the window's end (GET /__sweep/stats), over the server process's
	// life so far (its warmup included).
	LiveHighWater *int64 `json:"live_instances_high_water,omitempty"`
	// WarmSlots is min(LiveHighWater, max_unused_warm_slots): the pool
	// slots that stay warm when the load stops. KeepResidentBytes is the
	// config's linear_memory_keep_resident, and WarmEstimateBytes their
	// product, the estimate of what the warm slots keep resident.
	WarmSlots         *int64 `json:"warm_slots,omitempty"`
	KeepResidentBytes *int64 `json:"keep_resident_bytes,omitempty"`
	WarmEstimateBytes *int64 `json:"warm_estimate_bytes,omitempty"`
}

// CellMemory are a cell's memory figures beyond RSSBytes, embedded in
// Cell: medians over the windows that have them, and the paired changes
// against the baseline.
type CellMemory struct {
	RSSPeakBytes    *int64 `json:"rss_peak_bytes,omitempty"`
	RSSSettledBytes *int64 `json:"rss_settled_bytes,omitempty"`
	VMSizeBytes     *int64 `json:"vm_size_bytes,omitempty"`
	// MemoryVsBaseline is, per memory metric, the paired change against
	// the baseline (same block and round) in MiB; absent for the baseline.
	MemoryVsBaseline map[MemoryMetric]MemoryChange `json:"memory_vs_baseline,omitempty"`
	// Estimate is the built-in host's estimate of the warm slots' resident
	// memory beside the settled RSS; absent without the host's counters.
	Estimate *MemoryEstimate `json:"memory_estimate,omitempty"`
	// OverBudget names the budgets (analysis.max_rss, max_reserved) the
	// cell exceeds, e.g. "RSS 41.2 MiB > max_rss 40 MiB".
	OverBudget []string `json:"over_budget,omitempty"`
}

// MemoryChange is a paired memory change: per pair candidate − baseline
// in MiB. Median describes the differences; [CILowMiB, CIHighMiB] is the
// exact signed-rank interval around their Hodges–Lehmann estimate at
// Confidence (nil with too few pairs). BaselineMiB is the baseline's
// median over the same pairs, to read the change as a share.
type MemoryChange struct {
	MedianMiB   float64  `json:"median_mib"`
	EstimateMiB float64  `json:"estimate_mib"`
	CILowMiB    *float64 `json:"ci_low_mib"`
	CIHighMiB   *float64 `json:"ci_high_mib"`
	Confidence  float64  `json:"confidence"`
	Correction  string   `json:"correction"`
	Pairs       int      `json:"pairs"`
	BaselineMiB float64  `json:"baseline_mib"`
}

// MemoryEstimate puts what the built-in host's warm slots should keep
// resident beside what was measured: KeepResidentBytes × WarmSlots (the
// live-instance high-water mark up to max_unused_warm_slots), its
// difference from the baseline's estimate, the measured settled-RSS
// change, and in words why the two differ.
type MemoryEstimate struct {
	KeepResidentBytes int64    `json:"keep_resident_bytes"`
	WarmSlots         int64    `json:"warm_slots"`
	Bytes             int64    `json:"bytes"`
	ChangeMiB         *float64 `json:"change_mib,omitempty"`
	MeasuredMiB       *float64 `json:"measured_change_mib,omitempty"`
	Gap               string   `json:"gap,omitempty"`
}

// MiBText formats bytes in MiB for people: "41.2 MiB"; from 10 GiB on in
// GiB ("4035 GiB"), the scale of reserved address space.
func MiBText(b int64) string {
	if b >= 10<<30 {
		return fmt.Sprintf("%.0f GiB", float64(b)/(1<<30))
	}
	return fmt.Sprintf("%.1f MiB", float64(b)/MiB)
}

// MiBChange formats a signed change in MiB: "+2.1 MiB", "−0.4 MiB".
func MiBChange(x float64) string {
	s := fmt.Sprintf("%.1f MiB", x)
	switch {
	case s == "-0.0 MiB" || s == "0.0 MiB":
		return "0.0 MiB"
	case x > 0:
		return "+" + s
	}
	return "\u2212" + s[1:]
}
