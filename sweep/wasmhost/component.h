// component.h declares the parts of Wasmtime 39's component-model C API
// (wasmtime/component/*.h, wasmtime/store.h, wasi.h) that sweep's
// component host uses, with the layouts of those headers, and the
// helpers of component.c. The symbols resolve at link time from the
// libwasmtime.a that wasmtime-go links in. TestComponentHeaderLayout
// (header_test.go) holds the tags and layouts copied here to Wasmtime's
// own headers in the wasmtime-go module; the _Static_asserts below pin the
// two struct sizes at compile time.
#ifndef SWEEP_COMPONENT_H
#define SWEEP_COMPONENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct wasm_engine_t wasm_engine_t;
typedef struct wasmtime_store wasmtime_store_t;
typedef struct wasmtime_context wasmtime_context_t;
typedef struct wasmtime_error wasmtime_error_t;
typedef struct wasi_config_t wasi_config_t;
typedef struct wasm_byte_vec_t { size_t size; uint8_t *data; } wasm_byte_vec_t;

typedef struct wasmtime_component_t wasmtime_component_t;
typedef struct wasmtime_component_linker_t wasmtime_component_linker_t;
typedef struct wasmtime_component_linker_instance_t wasmtime_component_linker_instance_t;
typedef struct wasmtime_component_export_index_t wasmtime_component_export_index_t;
typedef struct wasmtime_component_type_t wasmtime_component_type_t;
typedef struct wasmtime_component_func_type_t wasmtime_component_func_type_t;

typedef struct wasmtime_component_instance { uint64_t store_id; uint32_t private_; } wasmtime_component_instance_t;
typedef struct wasmtime_component_func { struct { uint64_t store_id; uint32_t private1; } s; uint32_t private2; } wasmtime_component_func_t;

// wasmtime/component/types/component.h: an import or export's type.
#define SWEEP_ITEM_COMPONENT_INSTANCE 1
#define SWEEP_ITEM_COMPONENT_FUNC 3
typedef struct sweep_item {
	uint8_t kind;
	union { void *ptr; struct { uint8_t kind; void *p; } valtype; } of;
} sweep_item;

// wasmtime/component/val.h.
#define SWEEP_VAL_U16 4
#define SWEEP_VAL_S32 5
#define SWEEP_VAL_S64 7
#define SWEEP_VAL_STRING 12
#define SWEEP_VAL_LIST 13
#define SWEEP_VAL_TUPLE 15
#define SWEEP_VAL_RESULT 19
struct sweep_val;
typedef struct { size_t size; struct sweep_val *data; } sweep_vallist;
typedef struct { size_t size; void *data; } sweep_valrecord;
typedef struct { size_t size; wasm_byte_vec_t *data; } sweep_valflags;
typedef struct { wasm_byte_vec_t discriminant; struct sweep_val *val; } sweep_valvariant;
typedef struct { bool is_ok; struct sweep_val *val; } sweep_valresult;
typedef struct sweep_val {
	uint8_t kind;
	union {
		bool boolean; int8_t s8; uint8_t u8; int16_t s16; uint16_t u16;
		int32_t s32; uint32_t u32; int64_t s64; uint64_t u64;
		float f32; double f64; uint32_t character;
		wasm_byte_vec_t string; sweep_vallist list; sweep_valrecord record;
		sweep_vallist tuple; sweep_valvariant variant; wasm_byte_vec_t enumeration;
		struct sweep_val *option; sweep_valresult result; sweep_valflags flags;
		void *resource;
	} of;
} sweep_val;
_Static_assert(sizeof(sweep_val) == 32, "wasmtime_component_val_t is 32 bytes in Wasmtime 39");
_Static_assert(sizeof(sweep_item) == 24, "wasmtime_component_item_t is 24 bytes in Wasmtime 39");

wasmtime_error_t *wasmtime_component_new(const wasm_engine_t *, const uint8_t *, size_t, wasmtime_component_t **);
wasmtime_error_t *wasmtime_component_serialize(const wasmtime_component_t *, wasm_byte_vec_t *);
wasmtime_error_t *wasmtime_component_deserialize(const wasm_engine_t *, const uint8_t *, size_t, wasmtime_component_t **);
void wasmtime_component_delete(wasmtime_component_t *);
wasmtime_component_type_t *wasmtime_component_type(const wasmtime_component_t *);
void wasmtime_component_type_delete(wasmtime_component_type_t *);
size_t wasmtime_component_type_import_count(const wasmtime_component_type_t *, const wasm_engine_t *);
bool wasmtime_component_type_import_nth(const wasmtime_component_type_t *, const wasm_engine_t *, size_t, const char **, size_t *, sweep_item *);
size_t wasmtime_component_type_export_count(const wasmtime_component_type_t *, const wasm_engine_t *);
bool wasmtime_component_type_export_nth(const wasmtime_component_type_t *, const wasm_engine_t *, size_t, const char **, size_t *, sweep_item *);
void wasmtime_component_item_delete(sweep_item *);
wasmtime_component_export_index_t *wasmtime_component_get_export_index(const wasmtime_component_t *, const wasmtime_component_export_index_t *, const char *, size_t);
void wasmtime_component_export_index_delete(wasmtime_component_export_index_t *);
wasmtime_component_linker_t *wasmtime_component_linker_new(const wasm_engine_t *);
void wasmtime_component_linker_delete(wasmtime_component_linker_t *);
void wasm_byte_vec_delete(wasm_byte_vec_t *);

// The helpers of component.c.
wasmtime_error_t *sweep_component_linker(wasm_engine_t *, bool wasi, uintptr_t host, wasmtime_component_linker_t **);

// sweep_call is one request's store, instance, export and result.
typedef struct sweep_call {
	wasmtime_store_t *store;
	wasmtime_context_t *ctx;
	wasmtime_component_instance_t inst;
	wasmtime_component_func_t func;
	sweep_val result;
} sweep_call;

wasmtime_error_t *sweep_call_open(sweep_call *, wasm_engine_t *, const wasmtime_component_linker_t *,
	const wasmtime_component_t *, const wasmtime_component_export_index_t *, uint64_t ticks,
	uintptr_t call, bool wasi, const uint8_t *stdin, size_t stdin_len, const char *argv0);
wasmtime_error_t *sweep_call_handle(sweep_call *, const uint8_t *buf, const size_t *spans, size_t nheaders);
wasmtime_error_t *sweep_call_run(sweep_call *, bool *ok);
int sweep_call_response(const sweep_call *, uint16_t *status, size_t *nheaders, const uint8_t **body, size_t *body_len);
void sweep_call_header(const sweep_call *, size_t i, const uint8_t **name, size_t *name_len, const uint8_t **value, size_t *value_len);
void sweep_call_close(sweep_call *);

#endif
