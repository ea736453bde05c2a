package wasmhost

import (
	"fmt"
	"runtime/cgo"
	"time"

	"github.com/bytecodealliance/wasmtime-go/v39"
)

// Ids of sweep.param.
const (
	// ParamTouch is the touch knob in bytes.
	ParamTouch = 0
	// ParamCompute is the compute knob in units.
	ParamCompute = 1
	// ParamIOWait is the io_wait knob in nanoseconds.
	ParamIOWait = 2
	// ParamResponseBytes is the response_bytes knob in bytes.
	ParamResponseBytes = 3
	// ParamSequence returns a number that differs on every call.
	ParamSequence = 4
	numParams     = 4
)

// hostModule is the import module name of sweep's host functions.
const hostModule = "sweep"

// newLinker defines the host functions (and WASI if the plugin imports
// it) once for the engine; every request's instance links against it.
func (h *Host) newLinker() (*wasmtime.Linker, error) {
	l := wasmtime.NewLinker(h.engine)
	h.self = cgo.NewHandle(paramSource(h))
	if err := defineParam(l, h.self); err != nil {
		l.Close()
		return nil, fmt.Errorf("define sweep.param: %w", err)
	}
	if err := l.FuncWrap(hostModule, "io_wait", h.ioWait); err != nil {
		l.Close()
		return nil, fmt.Errorf("define sweep.io_wait: %w", err)
	}
	if h.plugin.needsWasi {
		if err := l.DefineWasi(); err != nil {
			l.Close()
			return nil, fmt.Errorf("define WASI: %w", err)
		}
	}
	return l, nil
}

// param implements sweep.param(id i32) -> i64: a workload knob, or -1 for
// an unknown id.
func (h *Host) param(id int32) int64 {
	switch {
	case id >= 0 && id < numParams:
		return h.params[id]
	case id == ParamSequence:
		return h.seq.Add(1)
	}
	return -1
}

// ioWait implements sweep.io_wait(ns i64): it blocks the calling instance
// for ns nanoseconds, as a host waiting on I/O would. The wait ends early,
// with a trap, at the request's deadline or when the client goes away.
func (h *Host) ioWait(caller *wasmtime.Caller, ns int64) *wasmtime.Trap {
	if ns <= 0 {
		return nil
	}
	c, _ := caller.Data().(*call)
	if c == nil { // not a request store; never the case in practice
		time.Sleep(min(time.Duration(ns), h.timeout))
		return nil
	}
	return c.wait(time.Duration(ns))
}
