package wasmhost

// sweep's cgo is in this package only: four Go files import "C" (this
// one, pool_cgo.go, component_cgo.go and component_export_cgo.go) and
// they compile one C file, component.c (with component.h and the generated
// pooling.h). This file and component_cgo.go are sweep's only users of
// unsafe. They reach the parts of Wasmtime's C API that wasmtime-go v39
// does not wrap, or wraps too expensively for the per-request path:
//
//   - the pooling allocator (pool_cgo.go and its generated pooling.h:
//     wasmtime_pooling_allocation_config_*_set and
//     wasmtime_pooling_allocation_strategy_set, wasmtime/config.h);
//   - WASI stdin from bytes and stdout to a callback (wasi.h);
//   - the request path: InstancePre (wasmtime_linker_instantiate_pre,
//     wasmtime_instance_pre_instantiate), export lookup, raw calls
//     (wasmtime_func_call_unchecked) and linear memory access. wasmtime-go
//     allocates finalizer-carrying wrappers for every export lookup and
//     call (Extern, FuncType), which cost more than instantiation itself;
//   - the component model (component_cgo.go, component_export_cgo.go and
//     component.c), which wasmtime-go v39 does not wrap at all.
//
// The prototypes are declared here rather than by including Wasmtime's
// headers; the symbols resolve at link time from the libwasmtime.a that
// wasmtime-go links in. Structs passed by value are declared with the
// layout of Wasmtime 39's headers and treated as opaque; their sizes are
// checked against wasmtime-go's own Go types at init. C objects owned by
// wasmtime-go (Config, WasiConfig, Linker, Module) are read from the
// wrapper's first field, _ptr; wrapperPointer checks that layout by
// reflection before reading it. Stores are still created and closed by
// wasmtime-go, so that its host-function trampolines find their data.
//
// Because this file has an //export, its preamble holds declarations only.

/*
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct wasi_config_t wasi_config_t;
typedef struct wasmtime_linker wasmtime_linker_t;
typedef struct wasmtime_module wasmtime_module_t;
typedef struct wasmtime_context wasmtime_context_t;
typedef struct wasmtime_instance_pre wasmtime_instance_pre_t;
typedef struct wasmtime_error wasmtime_error_t;
typedef struct wasm_trap_t wasm_trap_t;
typedef struct wasm_byte_vec_t { size_t size; uint8_t *data; } wasm_byte_vec_t;

// Layouts of Wasmtime 39 (wasmtime/instance.h, extern.h, val.h).
typedef struct wasmtime_instance { uint64_t store_id; size_t private_; } wasmtime_instance_t;
typedef struct wasmtime_func { uint64_t store_id; void *private_; } wasmtime_func_t;
typedef struct wasmtime_memory { struct { uint64_t store_id; uint32_t private1; } s; uint32_t private2; } wasmtime_memory_t;
typedef struct wasmtime_global { uint64_t store_id; uint32_t p1, p2, p3; } wasmtime_global_t;
typedef union wasmtime_extern_union {
	wasmtime_func_t func;
	wasmtime_global_t global;
	wasmtime_memory_t memory;
	void *sharedmemory;
} wasmtime_extern_union_t;
typedef struct wasmtime_extern { uint8_t kind; wasmtime_extern_union_t of; } wasmtime_extern_t;
typedef union wasmtime_val_raw {
	int32_t i32; int64_t i64; float f32; double f64; uint8_t v128[16];
	uint32_t anyref; uint32_t externref; void *funcref;
} wasmtime_val_raw_t;

void wasm_byte_vec_new(wasm_byte_vec_t *out, size_t, const uint8_t *);
void wasm_byte_vec_delete(wasm_byte_vec_t *);
void wasi_config_set_stdin_bytes(wasi_config_t *, wasm_byte_vec_t *);
// The callback's user data is declared uintptr_t instead of void * so that
// a cgo.Handle (an integer) can be passed without a pointer conversion;
// both are one register-sized scalar in every 64-bit C ABI.
typedef ptrdiff_t (*sweep_write_fn)(uintptr_t, unsigned char *, size_t);
void wasi_config_set_stdout_custom(wasi_config_t *, sweep_write_fn, uintptr_t, void (*)(uintptr_t));
// Defined by the //export below.
ptrdiff_t sweepStdoutWrite(uintptr_t, unsigned char *, size_t);

wasmtime_error_t *wasmtime_linker_instantiate_pre(const wasmtime_linker_t *, const wasmtime_module_t *, wasmtime_instance_pre_t **);
void wasmtime_instance_pre_delete(wasmtime_instance_pre_t *);
wasmtime_error_t *wasmtime_instance_pre_instantiate(const wasmtime_instance_pre_t *, wasmtime_context_t *, wasmtime_instance_t *, wasm_trap_t **);
bool wasmtime_instance_export_get(wasmtime_context_t *, const wasmtime_instance_t *, const char *, size_t, wasmtime_extern_t *);
wasmtime_error_t *wasmtime_func_call_unchecked(wasmtime_context_t *, const wasmtime_func_t *, wasmtime_val_raw_t *, size_t, wasm_trap_t **);
uint8_t *wasmtime_memory_data(const wasmtime_context_t *, const wasmtime_memory_t *);
size_t wasmtime_memory_data_size(const wasmtime_context_t *, const wasmtime_memory_t *);

typedef struct wasmtime_caller wasmtime_caller_t;
typedef struct wasm_functype_t wasm_functype_t;
typedef wasm_trap_t *(*sweep_host_fn)(uintptr_t, wasmtime_caller_t *, wasmtime_val_raw_t *, size_t);
wasmtime_error_t *wasmtime_linker_define_func_unchecked(wasmtime_linker_t *, const char *, size_t,
	const char *, size_t, const wasm_functype_t *, sweep_host_fn, uintptr_t, void (*)(uintptr_t));
// Defined by the //export below.
wasm_trap_t *sweepHostParam(uintptr_t, wasmtime_caller_t *, wasmtime_val_raw_t *, size_t);

void wasmtime_error_message(const wasmtime_error_t *, wasm_byte_vec_t *);
bool wasmtime_error_exit_status(const wasmtime_error_t *, int *);
void wasmtime_error_delete(wasmtime_error_t *);
void wasm_trap_message(const wasm_trap_t *, wasm_byte_vec_t *);
bool wasmtime_trap_code(const wasm_trap_t *, uint8_t *);
void wasm_trap_delete(wasm_trap_t *);
*/
import "C"

import (
	"fmt"
	"reflect"
	"runtime"
	"runtime/cgo"
	"unsafe"

	"github.com/bytecodealliance/wasmtime-go/v39"
)

// Extern kinds and the epoch-interrupt trap code of Wasmtime 39.
const (
	externFunc    = 0
	externMemory  = 3
	trapInterrupt = 10
)

// The opaque structs must have the size wasmtime-go compiled them with.
func init() {
	check := func(name string, ours uintptr, goType any) {
		if theirs := reflect.TypeOf(goType).Size(); ours != theirs {
			panic(fmt.Sprintf("wasmhost: %s is %d bytes here but %d in wasmtime-go; update capi_cgo.go", name, ours, theirs))
		}
	}
	check("wasmtime_instance_t", unsafe.Sizeof(C.wasmtime_instance_t{}), wasmtime.Instance{})
	check("wasmtime_func_t", unsafe.Sizeof(C.wasmtime_func_t{}), wasmtime.Func{})
	check("wasmtime_memory_t", unsafe.Sizeof(C.wasmtime_memory_t{}), wasmtime.Memory{})
	check("wasmtime_global_t", unsafe.Sizeof(C.wasmtime_global_t{}), wasmtime.Global{})
}

// wrapperPointer returns the C pointer in the first field, _ptr, of a
// wasmtime-go wrapper struct such as *wasmtime.Config.
func wrapperPointer[T any](obj *T) (unsafe.Pointer, error) {
	t := reflect.TypeFor[T]()
	if t.Kind() != reflect.Struct || t.NumField() == 0 || t.Field(0).Name != "_ptr" ||
		t.Field(0).Type.Kind() != reflect.Pointer || t.Field(0).Offset != 0 {
		return nil, fmt.Errorf("wasmtime-go layout changed: %s has no leading _ptr field", t)
	}
	p := *(*unsafe.Pointer)(unsafe.Pointer(obj))
	if p == nil {
		return nil, fmt.Errorf("%s already consumed or closed", t)
	}
	return p, nil
}

// setWasiStdio gives wc the request body as stdin (copied into a
// Wasmtime-owned buffer) and sends stdout writes to out. The caller keeps
// the handle alive until the store owning wc is closed, then deletes it.
func setWasiStdio(wc *wasmtime.WasiConfig, stdin []byte, out cgo.Handle) error {
	p, err := wrapperPointer(wc)
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
	C.wasi_config_set_stdout_custom((*C.wasi_config_t)(p), C.sweep_write_fn(C.sweepStdoutWrite), C.uintptr_t(out), nil)
	runtime.KeepAlive(wc)
	runtime.KeepAlive(stdin)
	return nil
}

// stdoutSink receives a WASI program's stdout.
type stdoutSink interface {
	writeStdout(p []byte) int
}

//export sweepStdoutWrite
func sweepStdoutWrite(data C.uintptr_t, buf *C.uchar, n C.size_t) C.ptrdiff_t {
	sink, ok := cgo.Handle(data).Value().(stdoutSink)
	if !ok {
		return -5 // EIO
	}
	return C.ptrdiff_t(sink.writeStdout(unsafe.Slice((*byte)(unsafe.Pointer(buf)), int(n))))
}

// paramSource answers sweep.param.
type paramSource interface {
	param(id int32) int64
}

// defineParam defines sweep.param(i32) -> i64 in l with a raw C callback:
// wasmtime-go's own host functions go through reflection and two global
// locks, which costs microseconds per call. src is the cgo.Handle of a
// paramSource, valid as long as the linker is.
func defineParam(l *wasmtime.Linker, src cgo.Handle) error {
	lp, err := wrapperPointer(l)
	if err != nil {
		return err
	}
	ty := wasmtime.NewFuncType([]*wasmtime.ValType{wasmtime.NewValType(wasmtime.KindI32)},
		[]*wasmtime.ValType{wasmtime.NewValType(wasmtime.KindI64)})
	defer ty.Close()
	tp, err := wrapperPointer(ty)
	if err != nil {
		return err
	}
	module, name := hostModule, "param"
	e := C.wasmtime_linker_define_func_unchecked((*C.wasmtime_linker_t)(lp),
		(*C.char)(unsafe.Pointer(unsafe.StringData(module))), C.size_t(len(module)),
		(*C.char)(unsafe.Pointer(unsafe.StringData(name))), C.size_t(len(name)),
		(*C.wasm_functype_t)(tp), C.sweep_host_fn(C.sweepHostParam), C.uintptr_t(src), nil)
	runtime.KeepAlive(l)
	runtime.KeepAlive(ty)
	if e != nil {
		return takeError(e, nil)
	}
	return nil
}

//export sweepHostParam
func sweepHostParam(env C.uintptr_t, caller *C.wasmtime_caller_t, raw *C.wasmtime_val_raw_t, n C.size_t) *C.wasm_trap_t {
	slot := unsafe.Pointer(raw) // one slot: the i32 argument, then the i64 result
	if src, ok := cgo.Handle(env).Value().(paramSource); ok {
		*(*int64)(slot) = src.param(*(*int32)(slot))
	} else {
		*(*int64)(slot) = -1
	}
	return nil
}

// instancePre is a module with its imports resolved against a linker once,
// so that instantiating it per request does no name lookups.
type instancePre struct {
	p *C.wasmtime_instance_pre_t
}

func newInstancePre(l *wasmtime.Linker, m *wasmtime.Module) (*instancePre, error) {
	lp, err := wrapperPointer(l)
	if err != nil {
		return nil, err
	}
	mp, err := wrapperPointer(m)
	if err != nil {
		return nil, err
	}
	var pre *C.wasmtime_instance_pre_t
	e := C.wasmtime_linker_instantiate_pre((*C.wasmtime_linker_t)(lp), (*C.wasmtime_module_t)(mp), &pre)
	runtime.KeepAlive(l)
	runtime.KeepAlive(m)
	if e != nil {
		return nil, takeError(e, nil)
	}
	return &instancePre{p: pre}, nil
}

func (ip *instancePre) close() {
	if ip != nil && ip.p != nil {
		C.wasmtime_instance_pre_delete(ip.p)
		ip.p = nil
	}
}

// wasmFunc is an exported function of an instance.
type wasmFunc struct{ f C.wasmtime_func_t }

// wasmInstance is one instance in a store, used through the C API. It
// holds no Go pointers and lives inside the pooled per-request state.
type wasmInstance struct {
	ctx  *C.wasmtime_context_t
	inst C.wasmtime_instance_t
	mem  C.wasmtime_memory_t
	raw  [2]C.wasmtime_val_raw_t
}

// instantiate creates an instance of pre in store.
func (w *wasmInstance) instantiate(pre *instancePre, store *wasmtime.Store) error {
	w.ctx = (*C.wasmtime_context_t)(unsafe.Pointer(store.Context()))
	var trap *C.wasm_trap_t
	e := C.wasmtime_instance_pre_instantiate(pre.p, w.ctx, &w.inst, &trap)
	runtime.KeepAlive(store)
	if e != nil || trap != nil {
		return takeError(e, trap)
	}
	return nil
}

// export looks up an export of kind; the item is written to f or w.mem.
func (w *wasmInstance) export(name string, kind C.uint8_t, f *wasmFunc) bool {
	var item C.wasmtime_extern_t
	ok := C.wasmtime_instance_export_get(w.ctx, &w.inst, (*C.char)(unsafe.Pointer(unsafe.StringData(name))), C.size_t(len(name)), &item)
	if !ok || item.kind != kind {
		return false
	}
	if kind == externMemory {
		w.mem = *(*C.wasmtime_memory_t)(unsafe.Pointer(&item.of))
	} else {
		f.f = *(*C.wasmtime_func_t)(unsafe.Pointer(&item.of))
	}
	return true
}

// lookupMemory finds the exported memory used by memory().
func (w *wasmInstance) lookupMemory(name string) bool { return w.export(name, externMemory, nil) }

// lookupFunc finds an exported function.
func (w *wasmInstance) lookupFunc(name string, f *wasmFunc) bool {
	return w.export(name, externFunc, f)
}

// memory returns the linear memory found by lookupMemory. The slice is
// valid until the next call into the instance (which may grow it) and
// never after the store is closed.
func (w *wasmInstance) memory() []byte {
	p := C.wasmtime_memory_data(w.ctx, &w.mem)
	n := C.wasmtime_memory_data_size(w.ctx, &w.mem)
	if p == nil || n == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(p)), int(n))
}

// call invokes f with up to two integer arguments and returns the first
// raw result slot. An i32 is the low half of the int64 (raw values are
// little-endian). The caller checked f's type when the module was loaded.
func (w *wasmInstance) call(f *wasmFunc, args ...int64) (int64, error) {
	for i, a := range args {
		*(*int64)(unsafe.Pointer(&w.raw[i])) = a
	}
	var trap *C.wasm_trap_t
	e := C.wasmtime_func_call_unchecked(w.ctx, &f.f, &w.raw[0], C.size_t(len(w.raw)), &trap)
	if e != nil || trap != nil {
		return 0, takeError(e, trap)
	}
	return *(*int64)(unsafe.Pointer(&w.raw[0])), nil
}

// rawI32 reads an i32 result from the raw slot returned by call.
func rawI32(v int64) int32 { return int32(uint32(uint64(v))) }

// wasmError is an error or trap returned by Wasmtime, converted to Go and
// freed.
type wasmError struct {
	msg      string
	trap     bool
	code     int // trap code, or -1
	exit     int32
	exitCode bool // exit is a WASI exit status
}

func (e *wasmError) Error() string { return e.msg }

// takeError converts and frees a wasmtime_error_t or wasm_trap_t.
func takeError(e *C.wasmtime_error_t, t *C.wasm_trap_t) *wasmError {
	var vec C.wasm_byte_vec_t
	out := &wasmError{code: -1}
	if e != nil {
		C.wasmtime_error_message(e, &vec)
		out.msg = C.GoStringN((*C.char)(unsafe.Pointer(vec.data)), C.int(vec.size))
		var status C.int
		if C.wasmtime_error_exit_status(e, &status) {
			out.exit, out.exitCode = int32(status), true
		}
		C.wasmtime_error_delete(e)
		if t != nil {
			C.wasm_trap_delete(t)
		}
	} else {
		C.wasm_trap_message(t, &vec)
		n := int(vec.size)
		if n > 0 && *(*byte)(unsafe.Add(unsafe.Pointer(vec.data), n-1)) == 0 {
			n-- // trap messages are NUL-terminated
		}
		out.msg = C.GoStringN((*C.char)(unsafe.Pointer(vec.data)), C.int(n))
		out.trap = true
		var code C.uint8_t
		if C.wasmtime_trap_code(t, &code) {
			out.code = int(code)
		}
		C.wasm_trap_delete(t)
	}
	C.wasm_byte_vec_delete(&vec)
	return out
}
