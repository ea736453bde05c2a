package wasmhost

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/bytecodealliance/wasmtime-go/v39"

	"github.com/sweep-dev/sweep/sweep/setting"
)

// abi is the calling convention a plugin module follows.
type abi int

const (
	// abiCore: exports memory and handle(ptr, len) -> i64.
	abiCore abi = iota
	// abiCommand: a WASI preview-1 command exporting _start; the request
	// body is stdin and stdout is the response.
	abiCommand
)

func (a abi) String() string {
	if a == abiCommand {
		return "wasi-command"
	}
	return "core"
}

// wasiModule is the import module name of WASI preview 1.
const wasiModule = "wasi_snapshot_preview1"

// plugin is a compiled plugin module and how to call it.
type plugin struct {
	name     string
	module   *wasmtime.Module
	abi      abi
	hasAlloc bool
	// needsWasi is set when the module imports WASI functions, so every
	// store must get a WASI context (a command always does).
	needsWasi bool
}

// loadPlugin compiles a core plugin module through the compile cache and
// works out its ABI from its exports. The builtin workload goes through
// the cache too, as its component twin does: a server that compiled its
// plugin keeps the compiler's memory (about 5 MiB of RSS here), and a
// grid comparing the two must not see that as a difference between them.
func (h *Host) loadPlugin(name string, wasm []byte) (*plugin, error) {
	module, err := h.compileModule(name, wasm)
	if err != nil {
		return nil, err
	}
	p := &plugin{name: name, module: module}
	exports := map[string]*wasmtime.ExternType{}
	for _, e := range module.Exports() {
		exports[e.Name()] = e.Type()
	}
	for _, imp := range module.Imports() {
		if imp.Module() == wasiModule {
			p.needsWasi = true
		}
	}
	switch {
	case exports["handle"] != nil:
		if err := checkCoreExports(exports); err != nil {
			module.Close()
			return nil, fmt.Errorf("plugin %s: %w", name, err)
		}
		p.abi = abiCore
		p.hasAlloc = exports["alloc"] != nil
	case exports["_start"] != nil:
		if ft := exports["_start"].FuncType(); ft == nil || len(ft.Params()) != 0 || len(ft.Results()) != 0 {
			module.Close()
			return nil, fmt.Errorf("plugin %s: export _start must be a function with no parameters and no results", name)
		}
		p.abi = abiCommand
		h.info.Kind = KindWASICommand
		p.needsWasi = true
	default:
		module.Close()
		return nil, fmt.Errorf("plugin %s: exports neither handle (core ABI) nor _start (WASI command); see the wasmhost package documentation", name)
	}
	return p, nil
}

// pluginBytes returns the wasm binary of the named plugin: for the builtin
// workload, its core module, or its component twin when the component
// knob is set.
func pluginBytes(name string, s *setting.Settings) ([]byte, error) {
	if name == "" || name == Workload {
		src := workloadSource(s)
		if s.Bool(setting.Component) {
			src = workloadComponentSource(s)
		}
		wasm, err := wasmtime.Wat2Wasm(src)
		if err != nil {
			return nil, fmt.Errorf("builtin plugin workload: %w", err)
		}
		return wasm, nil
	}
	ext := strings.ToLower(filepath.Ext(name))
	if ext != ".wasm" && ext != ".wat" {
		return nil, fmt.Errorf("plugin %q: want %q or a path to a .wasm or .wat file", name, Workload)
	}
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("plugin: %w", err)
	}
	if ext == ".wat" {
		wasm, err := wasmtime.Wat2Wasm(string(data))
		if err != nil {
			return nil, fmt.Errorf("plugin %s: %s", name, causeLine(cleanMessage(err.Error())))
		}
		return wasm, nil
	}
	return data, nil
}

// checkCoreExports checks the types of the core ABI's exports.
func checkCoreExports(exports map[string]*wasmtime.ExternType) error {
	if mem := exports["memory"]; mem == nil || mem.MemoryType() == nil {
		return errors.New("core ABI: missing export memory (a linear memory)")
	}
	if !funcIs(exports["handle"], []wasmtime.ValKind{wasmtime.KindI32, wasmtime.KindI32}, []wasmtime.ValKind{wasmtime.KindI64}) {
		return errors.New("core ABI: export handle must have type (func (param i32 i32) (result i64))")
	}
	if a := exports["alloc"]; a != nil && !funcIs(a, []wasmtime.ValKind{wasmtime.KindI32}, []wasmtime.ValKind{wasmtime.KindI32}) {
		return errors.New("core ABI: export alloc must have type (func (param i32) (result i32))")
	}
	return nil
}

// funcIs reports whether et is a function with exactly these types.
func funcIs(et *wasmtime.ExternType, params, results []wasmtime.ValKind) bool {
	ft := et.FuncType()
	if ft == nil {
		return false
	}
	same := func(tys []*wasmtime.ValType, kinds []wasmtime.ValKind) bool {
		if len(tys) != len(kinds) {
			return false
		}
		for i, t := range tys {
			if t.Kind() != kinds[i] {
				return false
			}
		}
		return true
	}
	return same(ft.Params(), params) && same(ft.Results(), results)
}
