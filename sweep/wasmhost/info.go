package wasmhost

import (
	"encoding/binary"
	"time"
)

// Info says what a host serves, for summaries: the plugin's kind and
// size, what one request takes from the pool, and what loading it cost.
type Info struct {
	Kind  Kind
	Bytes int
	// CoreInstances, Memories and Tables are what one request holds from
	// the pool's totals. For a core module: one instance and the module's
	// own (not imported) memories and tables. For a component: Wasmtime's
	// own count, measured by Needs.
	CoreInstances, Memories, Tables int
	// CompileTime is how long the compile took (when the plugin came from
	// the compile cache, Cached, the compile that filled it); LoadTime what
	// this load took.
	CompileTime, LoadTime time.Duration
	Cached                bool
	// Imports and Exports are a component's top-level names.
	Imports, Exports []string
}

// Info describes the host's plugin.
func (h *Host) Info() Info { return h.info }

// coreCounts counts the memories and tables a core module defines (its
// memory and table sections; imported ones are not allocated from the
// pool). A malformed module was refused by the compiler before this.
func coreCounts(wasm []byte) (memories, tables int) {
	p := wasm[8:]
	for len(p) > 0 {
		id := p[0]
		size, n := binary.Uvarint(p[1:])
		if n <= 0 || uint64(len(p)-1-n) < size {
			return
		}
		body := p[1+n : 1+n+int(size)]
		count, m := binary.Uvarint(body)
		switch {
		case m <= 0:
		case id == 4:
			tables = int(count)
		case id == 5:
			memories = int(count)
		}
		p = p[1+n+int(size):]
	}
	return
}
