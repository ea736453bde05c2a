package wasmhost

import (
	_ "embed"
	"strconv"
	"strings"

	"github.com/sweep-dev/sweep/sweep/setting"
	"github.com/sweep-dev/sweep/sweep/units"
)

// Workload is the name of the builtin plugin (workload.wat): it dirties
// `touch` bytes of linear memory, runs `compute` units of integer work,
// waits `io_wait` in a host call and returns `response_bytes` bytes.
const Workload = "workload"

//go:embed workload.wat
var workloadWAT string

// DefaultInitialMemory is the workload's initial linear memory unless the
// initial_memory knob says otherwise: 17 wasm pages, the layout of a Rust
// wasm32 module (a 1 MiB stack, then data). The size matters because on
// deallocation Wasmtime resets min(keep_resident, memory size) bytes in
// place, dirtied or not, and decommits the rest.
const DefaultInitialMemory = 17 * 64 * units.KiB

// workloadMemory is the workload's initial linear memory for these knobs:
// initial_memory, raised to hold touch and response_bytes, rounded up to
// whole 64 KiB wasm pages.
func workloadMemory(s *setting.Settings) units.Size {
	const page = 64 * units.KiB
	need := DefaultInitialMemory
	if s.IsSet(setting.InitialMemory) {
		need = s.Size(setting.InitialMemory)
	}
	need = max(need, s.Size(setting.Touch), s.Size(setting.ResponseBytes))
	return (need + page - 1) / page * page
}

// workloadSource is the workload module's text for these knobs.
func workloadSource(s *setting.Settings) string {
	pages := workloadMemory(s) / (64 * units.KiB)
	return strings.ReplaceAll(workloadWAT, "@PAGES@", strconv.FormatUint(uint64(pages), 10))
}

//go:embed workload_component.wat
var workloadComponentWAT string

// workloadComponentSource is the text of the workload's component twin
// (workload_component.wat) for these knobs: the same core module, behind
// sweep:plugin/handler.
func workloadComponentSource(s *setting.Settings) string {
	core := workloadSource(s)
	core = core[strings.Index(core, "\n(module\n")+1:]
	core = strings.Replace(core, "(module\n", "(core module $workload\n", 1)
	return strings.Replace(workloadComponentWAT, "@WORKLOAD@", core, 1)
}
