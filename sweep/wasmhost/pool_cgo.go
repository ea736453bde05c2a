package wasmhost

//go:generate go test -run ^TestPoolingHeader$ -update .

// This file applies the pooling options of a setting.Settings through
// pooling.h, which go generate writes from the option table of package
// setting: the prototypes of Wasmtime's 20 pooling setters and one C
// function, sweep_pooling_set, that switches over the setting.ID and calls
// the matching setter. So a new pooling option needs only a row in that
// table and go generate; TestPoolingHeader fails until pooling.h is
// current. (capi_cgo.go has an //export, so its preamble cannot hold the
// static function; this file's can.)

/*
#include "pooling.h"
*/
import "C"

import (
	"fmt"
	"runtime"

	"github.com/bytecodealliance/wasmtime-go/v39"

	"github.com/sweep-dev/sweep/sweep/setting"
)

// applyPooling switches cfg to the pooling allocator, configured with the
// pooling options of s that are set; unset options keep Wasmtime's
// defaults.
func applyPooling(cfg *wasmtime.Config, s *setting.Settings) error {
	p, err := wrapperPointer(cfg)
	if err != nil {
		return err
	}
	pc := C.wasmtime_pooling_allocation_config_new()
	defer C.wasmtime_pooling_allocation_config_delete(pc)
	for _, o := range setting.Options() {
		v, ok := s.Value(o.ID)
		if !o.Pooling || !ok {
			continue
		}
		if !bool(C.sweep_pooling_set(pc, C.int(o.ID), C.uint64_t(v))) {
			return fmt.Errorf("%s: pooling.h has no setter for option %d; run go generate ./sweep/wasmhost", o.Name, o.ID)
		}
	}
	C.wasmtime_pooling_allocation_strategy_set((*C.wasm_config_t)(p), pc)
	runtime.KeepAlive(cfg)
	return nil
}
