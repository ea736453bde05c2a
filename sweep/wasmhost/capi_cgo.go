package wasmhost

// This file is the only place in sweep that uses cgo and unsafe. It reaches
// two parts of Wasmtime's C API that wasmtime-go v39 does not wrap:
//
//   - the pooling allocator (wasmtime_pooling_allocation_config_*_set and
//     wasmtime_pooling_allocation_strategy_set, from wasmtime/config.h);
//   - WASI stdin from bytes and stdout to a callback
//     (wasi_config_set_stdin_bytes, wasi_config_set_stdout_custom, wasi.h).
//
// The prototypes are declared here rather than by including Wasmtime's
// headers; the symbols resolve at link time from the libwasmtime.a that
// wasmtime-go links in. The C objects are taken from wasmtime-go's wrappers
// (*wasmtime.Config and *wasmtime.WasiConfig), whose only field is the C
// pointer; cPointer checks that layout before reading it.
//
// Because this file has an //export, its preamble holds declarations only.

/*
#include <stddef.h>
#include <stdint.h>

typedef struct wasm_config_t wasm_config_t;
typedef struct wasi_config_t wasi_config_t;
typedef struct wasmtime_pooling_allocation_config_t pool_t;
typedef struct wasm_byte_vec_t { size_t size; uint8_t *data; } wasm_byte_vec_t;

pool_t *wasmtime_pooling_allocation_config_new(void);
void wasmtime_pooling_allocation_config_delete(pool_t *);
void wasmtime_pooling_allocation_strategy_set(wasm_config_t *, const pool_t *);

void wasmtime_pooling_allocation_config_max_unused_warm_slots_set(pool_t *, uint32_t);
void wasmtime_pooling_allocation_config_decommit_batch_size_set(pool_t *, size_t);
void wasmtime_pooling_allocation_config_async_stack_keep_resident_set(pool_t *, size_t);
void wasmtime_pooling_allocation_config_linear_memory_keep_resident_set(pool_t *, size_t);
void wasmtime_pooling_allocation_config_table_keep_resident_set(pool_t *, size_t);
void wasmtime_pooling_allocation_config_total_component_instances_set(pool_t *, uint32_t);
void wasmtime_pooling_allocation_config_max_component_instance_size_set(pool_t *, size_t);
void wasmtime_pooling_allocation_config_max_core_instances_per_component_set(pool_t *, uint32_t);
void wasmtime_pooling_allocation_config_max_memories_per_component_set(pool_t *, uint32_t);
void wasmtime_pooling_allocation_config_max_tables_per_component_set(pool_t *, uint32_t);
void wasmtime_pooling_allocation_config_total_memories_set(pool_t *, uint32_t);
void wasmtime_pooling_allocation_config_total_tables_set(pool_t *, uint32_t);
void wasmtime_pooling_allocation_config_total_stacks_set(pool_t *, uint32_t);
void wasmtime_pooling_allocation_config_total_core_instances_set(pool_t *, uint32_t);
void wasmtime_pooling_allocation_config_max_core_instance_size_set(pool_t *, size_t);
void wasmtime_pooling_allocation_config_max_tables_per_module_set(pool_t *, uint32_t);
void wasmtime_pooling_allocation_config_table_elements_set(pool_t *, size_t);
void wasmtime_pooling_allocation_config_max_memories_per_module_set(pool_t *, uint32_t);
void wasmtime_pooling_allocation_config_max_memory_size_set(pool_t *, size_t);
void wasmtime_pooling_allocation_config_total_gc_heaps_set(pool_t *, uint32_t);

void wasm_byte_vec_new(wasm_byte_vec_t *out, size_t, const uint8_t *);
void wasi_config_set_stdin_bytes(wasi_config_t *, wasm_byte_vec_t *);
typedef ptrdiff_t (*sweep_write_fn)(void *, unsigned char *, size_t);
void wasi_config_set_stdout_custom(wasi_config_t *, sweep_write_fn, void *, void (*)(void *));

// Defined by the //export below.
ptrdiff_t sweepStdoutWrite(void *, unsigned char *, size_t);
*/
import "C"

import (
	"errors"
	"runtime"
	"runtime/cgo"
	"unsafe"

	"github.com/bytecodealliance/wasmtime-go/v39"

	"github.com/sweep-dev/sweep/sweep/setting"
)

// cPointer returns the C pointer held by a wasmtime-go wrapper whose only
// field is that pointer. obj must be a pointer to such a struct.
func cPointer[T any](obj *T) (unsafe.Pointer, error) {
	var zero T
	if unsafe.Sizeof(zero) != unsafe.Sizeof(uintptr(0)) {
		return nil, errors.New("wasmtime-go layout changed: wrapper is not one pointer wide")
	}
	p := *(*unsafe.Pointer)(unsafe.Pointer(obj))
	if p == nil {
		return nil, errors.New("wasmtime-go object already consumed or closed")
	}
	return p, nil
}

// applyPooling switches cfg to the pooling allocator, configured with the
// pooling fields of s that are set; unset fields keep Wasmtime's defaults.
func applyPooling(cfg *wasmtime.Config, s *setting.Settings) error {
	p, err := cPointer(cfg)
	if err != nil {
		return err
	}
	pc := C.wasmtime_pooling_allocation_config_new()
	defer C.wasmtime_pooling_allocation_config_delete(pc)
	u32 := func(v *uint32, set func(*C.pool_t, C.uint32_t)) {
		if v != nil {
			set(pc, C.uint32_t(*v))
		}
	}
	sz := func(v *uint64, set func(*C.pool_t, C.size_t)) {
		if v != nil {
			set(pc, C.size_t(*v))
		}
	}
	sizeOf := func(v interface{ Bytes() uint64 }) *uint64 { return nil }
	_ = sizeOf
	u32(s.MaxUnusedWarmSlots, func(p *C.pool_t, v C.uint32_t) { C.wasmtime_pooling_allocation_config_max_unused_warm_slots_set(p, v) })
	sz(s.DecommitBatchSize, func(p *C.pool_t, v C.size_t) { C.wasmtime_pooling_allocation_config_decommit_batch_size_set(p, v) })
	sz(bytes(s.AsyncStackKeepResident), func(p *C.pool_t, v C.size_t) {
		C.wasmtime_pooling_allocation_config_async_stack_keep_resident_set(p, v)
	})
	sz(bytes(s.LinearMemoryKeepResident), func(p *C.pool_t, v C.size_t) {
		C.wasmtime_pooling_allocation_config_linear_memory_keep_resident_set(p, v)
	})
	sz(bytes(s.TableKeepResident), func(p *C.pool_t, v C.size_t) { C.wasmtime_pooling_allocation_config_table_keep_resident_set(p, v) })
	u32(s.TotalComponentInstances, func(p *C.pool_t, v C.uint32_t) {
		C.wasmtime_pooling_allocation_config_total_component_instances_set(p, v)
	})
	sz(bytes(s.MaxComponentInstanceSize), func(p *C.pool_t, v C.size_t) {
		C.wasmtime_pooling_allocation_config_max_component_instance_size_set(p, v)
	})
	u32(s.MaxCoreInstancesPerComponent, func(p *C.pool_t, v C.uint32_t) {
		C.wasmtime_pooling_allocation_config_max_core_instances_per_component_set(p, v)
	})
	u32(s.MaxMemoriesPerComponent, func(p *C.pool_t, v C.uint32_t) {
		C.wasmtime_pooling_allocation_config_max_memories_per_component_set(p, v)
	})
	u32(s.MaxTablesPerComponent, func(p *C.pool_t, v C.uint32_t) {
		C.wasmtime_pooling_allocation_config_max_tables_per_component_set(p, v)
	})
	u32(s.TotalMemories, func(p *C.pool_t, v C.uint32_t) { C.wasmtime_pooling_allocation_config_total_memories_set(p, v) })
	u32(s.TotalTables, func(p *C.pool_t, v C.uint32_t) { C.wasmtime_pooling_allocation_config_total_tables_set(p, v) })
	u32(s.TotalStacks, func(p *C.pool_t, v C.uint32_t) { C.wasmtime_pooling_allocation_config_total_stacks_set(p, v) })
	u32(s.TotalCoreInstances, func(p *C.pool_t, v C.uint32_t) { C.wasmtime_pooling_allocation_config_total_core_instances_set(p, v) })
	sz(bytes(s.MaxCoreInstanceSize), func(p *C.pool_t, v C.size_t) {
		C.wasmtime_pooling_allocation_config_max_core_instance_size_set(p, v)
	})
	u32(s.MaxTablesPerModule, func(p *C.pool_t, v C.uint32_t) { C.wasmtime_pooling_allocation_config_max_tables_per_module_set(p, v) })
	sz(s.TableElements, func(p *C.pool_t, v C.size_t) { C.wasmtime_pooling_allocation_config_table_elements_set(p, v) })
	u32(s.MaxMemoriesPerModule, func(p *C.pool_t, v C.uint32_t) {
		C.wasmtime_pooling_allocation_config_max_memories_per_module_set(p, v)
	})
	sz(bytes(s.MaxMemorySize), func(p *C.pool_t, v C.size_t) { C.wasmtime_pooling_allocation_config_max_memory_size_set(p, v) })
	u32(s.TotalGCHeaps, func(p *C.pool_t, v C.uint32_t) { C.wasmtime_pooling_allocation_config_total_gc_heaps_set(p, v) })

	C.wasmtime_pooling_allocation_strategy_set((*C.wasm_config_t)(p), pc)
	runtime.KeepAlive(cfg)
	return nil
}

// setWasiStdio gives wc the request body as stdin (copied into a
// Wasmtime-owned buffer) and sends stdout writes to out. The caller keeps
// the handle alive until the store owning wc is closed, then deletes it.
func setWasiStdio(wc *wasmtime.WasiConfig, stdin []byte, out cgo.Handle) error {
	p, err := cPointer(wc)
	if err != nil {
		return err
	}
	var vec C.wasm_byte_vec_t
	var data *C.uint8_t
	if len(stdin) > 0 {
		data = (*C.uint8_t)(unsafe.Pointer(&stdin[0]))
	}
	C.wasm_byte_vec_new(&vec, C.size_t(len(stdin)), data)
	C.wasi_config_set_stdin_bytes((*C.wasi_config_t)(p), &vec)
	C.wasi_config_set_stdout_custom((*C.wasi_config_t)(p), C.sweep_write_fn(C.sweepStdoutWrite),
		unsafe.Pointer(uintptr(out)), nil) //nolint:govet // the handle is an integer, not a Go pointer
	runtime.KeepAlive(wc)
	runtime.KeepAlive(stdin)
	return nil
}

// stdoutSink receives a WASI program's stdout.
type stdoutSink interface {
	writeStdout(p []byte) int
}

//export sweepStdoutWrite
func sweepStdoutWrite(data unsafe.Pointer, buf *C.uchar, n C.size_t) C.ptrdiff_t {
	sink, ok := cgo.Handle(uintptr(data)).Value().(stdoutSink)
	if !ok {
		return -5 // EIO
	}
	return C.ptrdiff_t(sink.writeStdout(unsafe.Slice((*byte)(unsafe.Pointer(buf)), int(n))))
}
