package wasmhost

import (
	"bytes"
	"fmt"
)

// Kind is what a plugin is, told apart by its header and its exports.
type Kind int

const (
	// KindCoreModule is a core module following the core ABI (handle).
	KindCoreModule Kind = iota
	// KindWASICommand is a core module that is a WASI preview-1 command.
	KindWASICommand
	// KindRunComponent is a component exporting wasi:cli/run.
	KindRunComponent
	// KindHandlerComponent is a component exporting sweep:plugin/handler.
	KindHandlerComponent
	// KindHTTPComponent is a component exporting wasi:http/incoming-handler.
	KindHTTPComponent
)

// String names the kind as summaries print it.
func (k Kind) String() string {
	switch k {
	case KindCoreModule:
		return "core module"
	case KindWASICommand:
		return "preview-1 command"
	case KindRunComponent:
		return "wasi:cli/run component"
	case KindHandlerComponent:
		return "sweep:plugin component"
	case KindHTTPComponent:
		return "wasi:http component"
	}
	return "unknown"
}

// IsComponent reports whether k is a component.
func (k Kind) IsComponent() bool {
	return k == KindRunComponent || k == KindHandlerComponent || k == KindHTTPComponent
}

// The 8-byte headers of the two binary formats: "\0asm", then the version
// and layer fields (core: version 1, layer 0; component: 0x0d, layer 1).
var (
	coreHeader      = []byte("\x00asm\x01\x00\x00\x00")
	componentHeader = []byte("\x00asm\x0d\x00\x01\x00")
)

// isComponent tells a component binary from a core module binary; any
// other bytes are an error that says what they are not.
func isComponent(name string, wasm []byte) (bool, error) {
	switch {
	case bytes.HasPrefix(wasm, componentHeader):
		return true, nil
	case bytes.HasPrefix(wasm, coreHeader):
		return false, nil
	case bytes.HasPrefix(wasm, []byte("\x00asm")) && len(wasm) >= 8:
		return false, fmt.Errorf("plugin %s: unknown wasm version/layer % x; want a core module (01 00 00 00) or a component (0d 00 01 00)", name, wasm[4:8])
	}
	return false, fmt.Errorf(`plugin %s: neither a core module nor a component (it does not start with "\0asm" and a version)`, name)
}
