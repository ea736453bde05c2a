package sweep

import (
	"strconv"
	"strings"
)

// lastWasmtimeWithoutPagemapSetter is the newest Wasmtime major version
// known to leave PAGEMAP_SCAN off in the builtin host: through 39 the C
// API has no setter for PoolingAllocationConfig::pagemap_scan, whose
// default is off (and before 37 Wasmtime had no such option).
const lastWasmtimeWithoutPagemapSetter = 39

// EnginePagemap says whether the servers' engine resets keep_resident
// memory with PAGEMAP_SCAN (on), and whether that is known. It is
// EnginePagemapScan when the run recorded it. For a builtin target of a
// summary written before that, it follows from WasmtimeVersion: off for
// Wasmtime 39 and older, unknown for a newer or unrecorded version. For a
// command target it is unknown.
func (e Environment) EnginePagemap() (on, known bool) {
	if e.EnginePagemapScan != nil {
		return *e.EnginePagemapScan, true
	}
	if e.Target != TargetBuiltin {
		return false, false
	}
	if m := WasmtimeMajor(e.WasmtimeVersion); m > 0 && m <= lastWasmtimeWithoutPagemapSetter {
		return false, true
	}
	return false, false
}

// WasmtimeMajor is the major version of a Wasmtime version such as
// "39.0.1"; 0 when v is empty or not a version.
func WasmtimeMajor(v string) int {
	major, _, _ := strings.Cut(v, ".")
	n, err := strconv.Atoi(major)
	if err != nil || n < 0 {
		return 0
	}
	return n
}
