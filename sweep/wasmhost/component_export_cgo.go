package wasmhost

// The Go functions that component.c calls: sweep:plugin/host's param and
// io-wait. This file has //export, so its preamble holds declarations only.

/*
#include <stdint.h>
*/
import "C"

import (
	"runtime/cgo"
	"time"
)

//export sweepComponentParam
func sweepComponentParam(host C.uintptr_t, id C.int32_t) C.int64_t {
	if src, ok := cgo.Handle(host).Value().(paramSource); ok {
		return C.int64_t(src.param(int32(id)))
	}
	return -1
}

// sweepComponentIOWait blocks for sweep:plugin/host.io-wait: 0 when the
// wait ended, 1 when the request was canceled, 2 at its deadline.
//
//export sweepComponentIOWait
func sweepComponentIOWait(callHandle C.uintptr_t, ns C.int64_t) C.int {
	if ns <= 0 {
		return 0
	}
	c, ok := cgo.Handle(callHandle).Value().(*call)
	if !ok {
		return 2
	}
	return C.int(c.sleep(time.Duration(ns)))
}
