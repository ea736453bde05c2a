// wasihttp.h declares the wasi:http host of wasihttp.c: the linker that
// defines wasi:http/types and, in place of add_wasip2's, wasi:io (error,
// poll, streams), wasi:cli stdin/stdout/stderr, wasi:clocks/monotonic-clock
// and wasi:filesystem (types, preopens), all on host resources whose
// state lives in one sweep_http per request; and the calls that serve one
// request of a component exporting wasi:http/incoming-handler.
#ifndef SWEEP_WASIHTTP_H
#define SWEEP_WASIHTTP_H

#include "component.h"

// sweep_http is one request's resource table, request and response.
typedef struct sweep_http sweep_http;

// What went wrong on the guest's side of the protocol; sweep_http_result
// returns one and its message.
enum {
	SWEEP_HTTP_OK = 0,
	SWEEP_HTTP_NO_RESPONSE,    // handle returned without response-outparam.set
	SWEEP_HTTP_ERROR_CODE,     // the guest set the outparam to an error code
	SWEEP_HTTP_LENGTH,         // the body is not what its content-length says
	SWEEP_HTTP_UNFINISHED,     // the body was not finished (outgoing-body.finish)
	SWEEP_HTTP_SET_TWICE,      // response-outparam.set called again
};

wasmtime_error_t *sweep_http_linker(wasm_engine_t *, uintptr_t host, wasmtime_component_linker_t **);
sweep_http *sweep_http_new(void);
void sweep_http_free(sweep_http *);

// sweep_http_open is sweep_call_open for a wasi:http component: the
// store's data is r, whose call handle (for io-wait and poll) is call.
wasmtime_error_t *sweep_http_open(sweep_call *, sweep_http *r, wasm_engine_t *, const wasmtime_component_linker_t *,
	const wasmtime_component_t *, const wasmtime_component_export_index_t *, uint64_t ticks, uintptr_t call);

// sweep_http_handle calls incoming-handler.handle. buf and spans are laid
// out as for sweep_call_handle (method, path, body, then name and value
// per header); the body and strings are read during the call only.
wasmtime_error_t *sweep_http_handle(sweep_call *, sweep_http *r, const uint8_t *buf, const size_t *spans, size_t nheaders);

// sweep_http_result returns SWEEP_HTTP_OK and the response, or a problem
// and its message in *msg.
int sweep_http_result(const sweep_http *, uint16_t *status, size_t *nheaders, const uint8_t **body, size_t *body_len, const char **msg);
void sweep_http_header(const sweep_http *, size_t i, const uint8_t **name, size_t *name_len, const uint8_t **value, size_t *value_len);
// sweep_http_sets is how many times the guest called response-outparam.set.
int sweep_http_sets(const sweep_http *);
// sweep_http_stderr returns what the guest wrote to stderr (its first 4 KiB).
size_t sweep_http_stderr(const sweep_http *, const uint8_t **);

#endif
