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
	raw := map[setting.ID]uint64{}
	for _, o := range setting.Options() {
		if v, ok := s.Value(o.ID); o.Pooling && ok {
			raw[o.ID] = v
		}
	}
	return applyRaw(cfg, raw)
}

// applyRaw switches cfg to the pooling allocator with the raw values of
// the pooling options in raw (bytes, counts, 0/1), unvalidated: the
// values of a setting.Settings have passed its checks, and a test may
// hand Wasmtime a value those checks refuse, to see what Wasmtime does.
func applyRaw(cfg *wasmtime.Config, raw map[setting.ID]uint64) error {
	p, err := wrapperPointer(cfg)
	if err != nil {
		return err
	}
	pc := C.wasmtime_pooling_allocation_config_new()
	defer C.wasmtime_pooling_allocation_config_delete(pc)
	for _, o := range setting.Options() {
		v, ok := raw[o.ID]
		if !ok {
			continue
		}
		if !o.Pooling || !bool(C.sweep_pooling_set(pc, C.int(o.ID), C.uint64_t(v))) {
			return fmt.Errorf("%s: pooling.h has no setter for option %d; run go generate ./sweep/wasmhost", o.Name, o.ID)
		}
	}
	C.wasmtime_pooling_allocation_strategy_set((*C.wasm_config_t)(p), pc)
	runtime.KeepAlive(cfg)
	return nil
}
