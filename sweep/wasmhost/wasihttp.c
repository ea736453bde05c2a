// wasihttp.c serves a component that exports wasi:http/incoming-handler
// through Wasmtime 39's component C API, which has no wasi:http server.
//
// The resources that add_wasip2 defines (wasi:io streams and pollables)
// are Rust types inside wasmtime-wasi that C cannot create, so this host
// defines wasi:io itself on host resources, shadowing add_wasip2's, with
// every interface that hands those resources out: wasi:cli stdin, stdout
// and stderr, wasi:clocks/monotonic-clock and wasi:filesystem types and
// preopens. A shadowed instance is replaced whole, so each interface here
// defines every function of its WIT (wasi 0.2.12); the functions the host
// cannot serve return an error, which fails the request with its name.
// Wall-clock, random, environment, exit and terminal-* stay add_wasip2's.
//
// All of one request's state is a sweep_http, the store's data: a table
// of resources (a resource's rep is its index), the request (read in
// place from Go memory during the call), and the response, whose body
// collects in a C buffer. Body bytes cross the C API as one
// wasmtime_component_val_t per byte (list<u8>), which Wasmtime converts
// from and to its own values; they are copied here in bulk and reach Go
// as one pointer and length.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include "wasihttp.h"

// Wasmtime functions used here (wasmtime/component/*.h, wasmtime/store.h).
wasmtime_store_t *wasmtime_store_new(wasm_engine_t *, void *, void (*)(void *));
wasmtime_context_t *wasmtime_store_context(wasmtime_store_t *);
void *wasmtime_context_get_data(const wasmtime_context_t *);
void wasmtime_context_set_epoch_deadline(wasmtime_context_t *, uint64_t);
wasmtime_error_t *wasmtime_context_set_wasi(wasmtime_context_t *, wasi_config_t *);
wasmtime_error_t *wasmtime_error_new(const char *);
wasi_config_t *wasi_config_new(void);
void wasm_byte_vec_new(wasm_byte_vec_t *, size_t, const uint8_t *);
void wasmtime_component_linker_allow_shadowing(wasmtime_component_linker_t *, bool);
wasmtime_component_linker_instance_t *wasmtime_component_linker_root(wasmtime_component_linker_t *);
wasmtime_error_t *wasmtime_component_linker_add_wasip2(wasmtime_component_linker_t *);
wasmtime_error_t *wasmtime_component_linker_instance_add_instance(wasmtime_component_linker_instance_t *, const char *, size_t, wasmtime_component_linker_instance_t **);
typedef wasmtime_error_t *(*sweep_host_func)(void *, wasmtime_context_t *, const wasmtime_component_func_type_t *, sweep_val *, size_t, sweep_val *, size_t);
wasmtime_error_t *wasmtime_component_linker_instance_add_func(wasmtime_component_linker_instance_t *, const char *, size_t, sweep_host_func, void *, void (*)(void *));
typedef struct wasmtime_component_resource_type wasmtime_component_resource_type_t;
typedef struct wasmtime_component_resource_host wasmtime_component_resource_host_t;
typedef struct wasmtime_component_resource_any wasmtime_component_resource_any_t;
wasmtime_component_resource_type_t *wasmtime_component_resource_type_new_host(uint32_t);
void wasmtime_component_resource_type_delete(wasmtime_component_resource_type_t *);
wasmtime_error_t *wasmtime_component_linker_instance_add_resource(wasmtime_component_linker_instance_t *, const char *, size_t,
	const wasmtime_component_resource_type_t *, wasmtime_error_t *(*)(void *, wasmtime_context_t *, uint32_t), void *, void (*)(void *));
void wasmtime_component_linker_instance_delete(wasmtime_component_linker_instance_t *);
wasmtime_component_resource_host_t *wasmtime_component_resource_host_new(bool, uint32_t, uint32_t);
uint32_t wasmtime_component_resource_host_rep(const wasmtime_component_resource_host_t *);
uint32_t wasmtime_component_resource_host_type(const wasmtime_component_resource_host_t *);
void wasmtime_component_resource_host_delete(wasmtime_component_resource_host_t *);
wasmtime_error_t *wasmtime_component_resource_any_to_host(wasmtime_context_t *, const wasmtime_component_resource_any_t *, wasmtime_component_resource_host_t **);
wasmtime_error_t *wasmtime_component_resource_host_to_any(wasmtime_context_t *, const wasmtime_component_resource_host_t *, wasmtime_component_resource_any_t **);
wasmtime_error_t *wasmtime_component_linker_instantiate(const wasmtime_component_linker_t *, wasmtime_context_t *, const wasmtime_component_t *, wasmtime_component_instance_t *);
bool wasmtime_component_instance_get_func(const wasmtime_component_instance_t *, wasmtime_context_t *, const wasmtime_component_export_index_t *, wasmtime_component_func_t *);
wasmtime_error_t *wasmtime_component_func_call(const wasmtime_component_func_t *, wasmtime_context_t *, const sweep_val *, size_t, sweep_val *, size_t);
wasmtime_error_t *wasmtime_component_func_post_return(const wasmtime_component_func_t *, wasmtime_context_t *);
void wasmtime_component_vallist_new_uninit(sweep_vallist *, size_t);
void wasmtime_component_valtuple_new_uninit(sweep_vallist *, size_t);
sweep_val *wasmtime_component_val_new(sweep_val *);
void wasmtime_component_val_delete(sweep_val *);

// Go functions (component_export_cgo.go).
extern int64_t sweepComponentParam(uintptr_t host, int32_t id);
extern int sweepComponentIOWait(uintptr_t call, int64_t ns);

#define SWEEP_VAL_BOOL 0
#define SWEEP_VAL_U8 2
#define SWEEP_VAL_U32 6
#define SWEEP_VAL_U64 8
#define SWEEP_VAL_VARIANT 16
#define SWEEP_VAL_ENUM 17
#define SWEEP_VAL_OPTION 18
#define SWEEP_VAL_RESOURCE 21

// The versions add_wasip2 defines in Wasmtime 39; the same names shadow
// them, and Wasmtime matches every 0.2.x import to them.
#define WASI_V "@0.2.6"

// Host resource types, the `ty` of wasmtime_component_resource_type_new_host.
enum {
	T_POLLABLE = 1, T_ERROR, T_INPUT, T_OUTPUT,
	T_FIELDS, T_INREQ, T_INBODY, T_TRAILERS, T_OUTRESP, T_OUTBODY, T_OUTPARAM,
	T_OUTREQ, T_REQOPTS, T_INRESP, T_FUTRESP, T_DESCRIPTOR, T_DIRSTREAM, T_COUNT
};
static const char *const type_names[T_COUNT] = {
	"", "pollable", "error", "input-stream", "output-stream", "fields", "incoming-request", "incoming-body",
	"future-trailers", "outgoing-response", "outgoing-body", "response-outparam", "outgoing-request",
	"request-options", "incoming-response", "future-incoming-response", "descriptor", "directory-entry-stream",
};

// Stream kinds.
enum { S_BODY = 1, S_EMPTY, S_STDOUT, S_STDERR };

typedef struct { uint8_t *name; size_t nlen; uint8_t *val; size_t vlen; } field;
typedef struct { field *f; size_t n, cap; } fieldlist;

// res is one resource. A fields resource that is a view of another (the
// headers of a request or response) has ref set and no fields of its own.
typedef struct {
	uint8_t type, kind;
	bool live, immutable, taken;
	uint32_t ref;
	uint64_t when;   // pollable: ready at this monotonic time (0: always)
	fieldlist fl;
	uint16_t status; // outgoing-response
	bool finished;   // outgoing-body
} res;

struct sweep_http {
	uintptr_t call;
	res *tab;
	uint32_t n, cap; // rep i is tab[i]; rep 0 is never used
	// The request, valid during sweep_http_handle only.
	const uint8_t *buf;
	const size_t *spans;
	size_t nheaders;
	size_t body_pos;
	bool consumed;
	// The response.
	int sets;
	uint32_t resp; // the outgoing-response set, or 0
	uint32_t out_body;
	int problem;
	char msg[256];
	uint8_t *out;
	size_t out_len, out_cap;
	uint8_t err[4096];
	size_t err_len;
};

sweep_http *sweep_http_new(void) { return calloc(1, sizeof(sweep_http)); }

static void fieldlist_free(fieldlist *fl) {
	for (size_t i = 0; i < fl->n; i++) {
		free(fl->f[i].name);
		free(fl->f[i].val);
	}
	free(fl->f);
	memset(fl, 0, sizeof *fl);
}

// reset frees what a request left and keeps the allocations for reuse.
static void reset(sweep_http *r) {
	for (uint32_t i = 1; i < r->n; i++)
		fieldlist_free(&r->tab[i].fl);
	r->n = 1;
	r->buf = NULL;
	r->spans = NULL;
	r->nheaders = r->body_pos = 0;
	r->consumed = false;
	r->sets = 0;
	r->resp = r->out_body = 0;
	r->problem = 0;
	r->msg[0] = 0;
	r->out_len = r->err_len = 0;
}

void sweep_http_free(sweep_http *r) {
	if (r == NULL)
		return;
	reset(r);
	free(r->tab);
	free(r->out);
	free(r);
}

static sweep_http *req_of(wasmtime_context_t *ctx) { return wasmtime_context_get_data(ctx); }

static uint32_t res_new(sweep_http *r, uint8_t type) {
	if (r->n == 0)
		r->n = 1;
	if (r->n >= r->cap) {
		r->cap = r->cap ? 2 * r->cap : 32;
		r->tab = realloc(r->tab, r->cap * sizeof(res));
	}
	res *e = &r->tab[r->n];
	memset(e, 0, sizeof *e);
	e->type = type;
	e->live = true;
	return r->n++;
}

static res *res_at(sweep_http *r, uint32_t rep) { return &r->tab[rep]; }

static wasmtime_error_t *errf(const char *fmt, const char *a, const char *b) {
	char m[256];
	snprintf(m, sizeof m, fmt, a, b);
	return wasmtime_error_new(m);
}

// arg_res reads argument i, a resource of type want, as its rep.
static wasmtime_error_t *arg_res(wasmtime_context_t *ctx, const sweep_val *a, size_t na, size_t i, uint32_t want, uint32_t *rep) {
	if (i >= na || a[i].kind != SWEEP_VAL_RESOURCE)
		return errf("wasi:http host: argument %s is not a %s", i == 0 ? "self" : "#", type_names[want]);
	wasmtime_component_resource_host_t *h = NULL;
	wasmtime_error_t *err = wasmtime_component_resource_any_to_host(ctx, a[i].of.resource, &h);
	if (err != NULL)
		return err;
	uint32_t ty = wasmtime_component_resource_host_type(h), rp = wasmtime_component_resource_host_rep(h);
	wasmtime_component_resource_host_delete(h);
	sweep_http *r = req_of(ctx);
	if (ty != want || rp == 0 || rp >= r->n || r->tab[rp].type != want)
		return errf("wasi:http host: a %s was passed where a %s belongs", ty < T_COUNT ? type_names[ty] : "foreign resource", type_names[want]);
	*rep = rp;
	return NULL;
}

static wasmtime_error_t *v_res(wasmtime_context_t *ctx, sweep_val *out, uint32_t type, uint32_t rep) {
	wasmtime_component_resource_host_t *h = wasmtime_component_resource_host_new(true, rep, type);
	wasmtime_component_resource_any_t *any = NULL;
	wasmtime_error_t *err = wasmtime_component_resource_host_to_any(ctx, h, &any);
	wasmtime_component_resource_host_delete(h);
	if (err != NULL)
		return err;
	out->kind = SWEEP_VAL_RESOURCE;
	out->of.resource = any;
	return NULL;
}

static wasmtime_error_t *new_res(wasmtime_context_t *ctx, sweep_val *out, uint8_t type, uint32_t *rep) {
	uint32_t rp = res_new(req_of(ctx), type);
	if (rep != NULL)
		*rep = rp;
	return v_res(ctx, out, type, rp);
}

static void v_bool(sweep_val *v, bool b) { v->kind = SWEEP_VAL_BOOL; v->of.boolean = b; }
static void v_u64(sweep_val *v, uint64_t x) { v->kind = SWEEP_VAL_U64; v->of.u64 = x; }
static void v_string(sweep_val *v, const uint8_t *p, size_t n) { v->kind = SWEEP_VAL_STRING; wasm_byte_vec_new(&v->of.string, n, p); }
static void v_bytes(sweep_val *v, const uint8_t *p, size_t n) {
	v->kind = SWEEP_VAL_LIST;
	wasmtime_component_vallist_new_uninit(&v->of.list, n);
	sweep_val *d = v->of.list.data;
	for (size_t i = 0; i < n; i++) {
		d[i].kind = SWEEP_VAL_U8;
		d[i].of.u8 = p[i];
	}
}
// boxed moves *v to the heap, for a payload.
static sweep_val *boxed(sweep_val *v) { return wasmtime_component_val_new(v); }
static void v_none(sweep_val *v) { v->kind = SWEEP_VAL_OPTION; v->of.option = NULL; }
static void v_some(sweep_val *v, sweep_val *x) { v->kind = SWEEP_VAL_OPTION; v->of.option = boxed(x); }
static void v_result(sweep_val *v, bool ok, sweep_val *x) {
	v->kind = SWEEP_VAL_RESULT;
	v->of.result.is_ok = ok;
	v->of.result.val = x ? boxed(x) : NULL;
}
static void v_variant(sweep_val *v, const char *name, sweep_val *x) {
	v->kind = SWEEP_VAL_VARIANT;
	wasm_byte_vec_new(&v->of.variant.discriminant, strlen(name), (const uint8_t *)name);
	v->of.variant.val = x ? boxed(x) : NULL;
}
static void v_enum(sweep_val *v, const char *name) {
	v->kind = SWEEP_VAL_ENUM;
	wasm_byte_vec_new(&v->of.enumeration, strlen(name), (const uint8_t *)name);
}
// v_stream_closed sets v to err(stream-error.closed).
static void v_stream_closed(sweep_val *v) {
	sweep_val e;
	v_variant(&e, "closed", NULL);
	v_result(v, false, &e);
}
// v_error_code sets v to an error-code: internal-error(some(msg)).
static void v_error_code(sweep_val *v, const char *msg) {
	sweep_val s, o;
	v_string(&s, (const uint8_t *)msg, strlen(msg));
	v_some(&o, &s);
	v_variant(v, "internal-error", &o);
}

static uint64_t now_ns(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#define HOSTFN(name) static wasmtime_error_t *name(void *env, wasmtime_context_t *ctx, \
	const wasmtime_component_func_type_t *ty, sweep_val *a, size_t na, sweep_val *out, size_t nout)
#define ARG(i, type, rep) do { wasmtime_error_t *e_ = arg_res(ctx, a, na, i, type, rep); if (e_ != NULL) return e_; } while (0)
#define WANT(nargs, nres) do { if (na != (nargs) || nout != (nres)) return errf("wasi:http host: %s: unexpected signature%s", (const char *)env, ""); } while (0)

// unsupported answers a function the host defines only so that its
// interface is complete; env is the function's name.
HOSTFN(unsupported) {
	return errf("wasi:http host: %s is not supported by sweep's built-in host%s", (const char *)env, "");
}

// destructor frees a resource the guest dropped. Views and streams point
// at their parents by rep, and reps are never reused within a request, so
// freeing is only marking and releasing the fields.
static wasmtime_error_t *destructor(void *data, wasmtime_context_t *ctx, uint32_t rep) {
	sweep_http *r = req_of(ctx);
	if (rep > 0 && rep < r->n && r->tab[rep].live) {
		r->tab[rep].live = false;
		if (r->tab[rep].ref == 0)
			fieldlist_free(&r->tab[rep].fl);
	}
	return NULL;
}

// ---- wasi:io/error, wasi:io/poll

HOSTFN(error_to_debug_string) {
	uint32_t rep;
	WANT(1, 1);
	ARG(0, T_ERROR, &rep);
	static const char m[] = "stream error";
	v_string(&out[0], (const uint8_t *)m, sizeof m - 1);
	return NULL;
}

// pollable_when is when rep is ready; 0 is now.
static uint64_t pollable_when(sweep_http *r, uint32_t rep) { return r->tab[rep].when; }

// wait_until blocks (in Go, bounded by the request deadline) until t.
static wasmtime_error_t *wait_until(wasmtime_context_t *ctx, uint64_t t) {
	uint64_t now = now_ns();
	if (t <= now)
		return NULL;
	switch (sweepComponentIOWait(req_of(ctx)->call, (int64_t)(t - now))) {
	case 0:
		return NULL;
	case 1:
		return wasmtime_error_new("wasi:io/poll: request canceled");
	}
	return wasmtime_error_new("wasi:io/poll: past the request deadline");
}

HOSTFN(pollable_ready) {
	uint32_t rep;
	WANT(1, 1);
	ARG(0, T_POLLABLE, &rep);
	v_bool(&out[0], pollable_when(req_of(ctx), rep) <= now_ns());
	return NULL;
}

HOSTFN(pollable_block) {
	uint32_t rep;
	WANT(1, 0);
	ARG(0, T_POLLABLE, &rep);
	return wait_until(ctx, pollable_when(req_of(ctx), rep));
}

HOSTFN(poll) {
	WANT(1, 1);
	if (a[0].kind != SWEEP_VAL_LIST)
		return wasmtime_error_new("wasi:io/poll.poll: want list<borrow<pollable>>");
	size_t n = a[0].of.list.size;
	if (n == 0)
		return wasmtime_error_new("wasi:io/poll.poll: empty list");
	sweep_http *r = req_of(ctx);
	uint64_t first = UINT64_MAX;
	uint32_t *reps = malloc(n * sizeof *reps);
	for (size_t i = 0; i < n; i++) {
		wasmtime_error_t *err = arg_res(ctx, a[0].of.list.data, n, i, T_POLLABLE, &reps[i]);
		if (err != NULL) {
			free(reps);
			return err;
		}
		uint64_t w = pollable_when(r, reps[i]);
		if (w < first)
			first = w;
	}
	wasmtime_error_t *err = wait_until(ctx, first);
	if (err != NULL) {
		free(reps);
		return err;
	}
	uint64_t now = now_ns();
	size_t ready = 0;
	for (size_t i = 0; i < n; i++)
		ready += pollable_when(r, reps[i]) <= now;
	out[0].kind = SWEEP_VAL_LIST;
	wasmtime_component_vallist_new_uninit(&out[0].of.list, ready);
	for (size_t i = 0, j = 0; i < n; i++)
		if (pollable_when(r, reps[i]) <= now) {
			out[0].of.list.data[j].kind = SWEEP_VAL_U32;
			out[0].of.list.data[j++].of.u32 = (uint32_t)i;
		}
	free(reps);
	return NULL;
}

// ---- wasi:clocks/monotonic-clock

HOSTFN(clock_now) { WANT(0, 1); v_u64(&out[0], now_ns()); return NULL; }
HOSTFN(clock_resolution) { WANT(0, 1); v_u64(&out[0], 1); return NULL; }

static wasmtime_error_t *new_pollable(wasmtime_context_t *ctx, sweep_val *out, uint64_t when) {
	uint32_t rep;
	wasmtime_error_t *err = new_res(ctx, out, T_POLLABLE, &rep);
	if (err == NULL)
		res_at(req_of(ctx), rep)->when = when;
	return err;
}

HOSTFN(clock_subscribe_instant) {
	WANT(1, 1);
	if (a[0].kind != SWEEP_VAL_U64)
		return wasmtime_error_new("monotonic-clock.subscribe-instant: want u64");
	return new_pollable(ctx, &out[0], a[0].of.u64);
}

HOSTFN(clock_subscribe_duration) {
	WANT(1, 1);
	if (a[0].kind != SWEEP_VAL_U64)
		return wasmtime_error_new("monotonic-clock.subscribe-duration: want u64");
	uint64_t now = now_ns(), d = a[0].of.u64;
	return new_pollable(ctx, &out[0], d > UINT64_MAX - now ? UINT64_MAX : now + d);
}

// ---- wasi:io/streams

// body_left is how many request-body bytes an input stream has left.
static size_t body_left(sweep_http *r) { return r->spans[5] - r->body_pos; }
// body_at is the request body's next unread byte.
static const uint8_t *body_at(sweep_http *r) { return r->buf + r->spans[4] + r->body_pos; }

// stream_read implements read, blocking-read, skip and blocking-skip.
static wasmtime_error_t *stream_read(wasmtime_context_t *ctx, sweep_val *a, size_t na, sweep_val *out, size_t nout, bool skip) {
	uint32_t rep;
	if (na != 2 || nout != 1 || a[1].kind != SWEEP_VAL_U64)
		return wasmtime_error_new("input-stream.read: want (self, len: u64)");
	ARG(0, T_INPUT, &rep);
	sweep_http *r = req_of(ctx);
	res *s = res_at(r, rep);
	size_t left = s->kind == S_BODY && r->buf != NULL ? body_left(r) : 0;
	if (left == 0) {
		v_stream_closed(&out[0]);
		return NULL;
	}
	size_t n = a[1].of.u64 < left ? (size_t)a[1].of.u64 : left;
	sweep_val ok;
	if (skip)
		v_u64(&ok, n);
	else
		v_bytes(&ok, body_at(r), n);
	r->body_pos += n;
	v_result(&out[0], true, &ok);
	return NULL;
}
HOSTFN(input_read) { return stream_read(ctx, a, na, out, nout, false); }
HOSTFN(input_skip) { return stream_read(ctx, a, na, out, nout, true); }

// stream_subscribe implements the subscribe methods; env is the type of
// self (not a name, so no WANT).
HOSTFN(stream_subscribe) {
	uint32_t rep;
	if (na != 1 || nout != 1 || a[0].kind != SWEEP_VAL_RESOURCE)
		return wasmtime_error_new("subscribe: want (self) -> pollable");
	wasmtime_error_t *err = arg_res(ctx, a, na, 0, (uint32_t)(uintptr_t)env, &rep);
	if (err != NULL)
		return err;
	return new_pollable(ctx, &out[0], 0); // always ready: the body is all here
}

// output_stream reads an output-stream argument; closed is set when its
// body was finished.
static wasmtime_error_t *output_stream(wasmtime_context_t *ctx, sweep_val *a, size_t na, res **s) {
	uint32_t rep;
	ARG(0, T_OUTPUT, &rep);
	*s = res_at(req_of(ctx), rep);
	return NULL;
}

// stream_closed reports whether s is a body stream whose body was finished.
static bool stream_closed(sweep_http *r, res *s) {
	return s->kind == S_BODY && r->tab[s->ref].finished;
}

// The most an output stream accepts per write (check-write's answer).
#define WRITE_BUDGET (1u << 20)

HOSTFN(output_check_write) {
	res *s;
	WANT(1, 1);
	wasmtime_error_t *err = output_stream(ctx, a, na, &s);
	if (err != NULL)
		return err;
	if (stream_closed(req_of(ctx), s)) {
		v_stream_closed(&out[0]);
		return NULL;
	}
	sweep_val ok;
	v_u64(&ok, WRITE_BUDGET);
	v_result(&out[0], true, &ok);
	return NULL;
}

static void append(uint8_t **buf, size_t *len, size_t *cap, size_t n) {
	if (*len + n > *cap) {
		size_t c = *cap ? *cap : 4096;
		while (c < *len + n)
			c *= 2;
		*buf = realloc(*buf, c);
		*cap = c;
	}
}

// sink stores n bytes written to s (p NULL: zeroes): the response body,
// or the first bytes of stderr; stdout is dropped.
static void sink(sweep_http *r, res *s, const sweep_val *p, size_t n) {
	uint8_t *dst;
	switch (s->kind) {
	case S_BODY:
		if (s->ref != r->out_body)
			return; // the body of a response that is not the one set
		append(&r->out, &r->out_len, &r->out_cap, n);
		dst = r->out + r->out_len;
		r->out_len += n;
		break;
	case S_STDERR:
		if (n > sizeof r->err - r->err_len)
			n = sizeof r->err - r->err_len;
		dst = r->err + r->err_len;
		r->err_len += n;
		break;
	default:
		return;
	}
	if (p == NULL)
		memset(dst, 0, n);
	else
		for (size_t i = 0; i < n; i++)
			dst[i] = p[i].of.u8;
}

static wasmtime_error_t *stream_write(wasmtime_context_t *ctx, sweep_val *a, size_t na, sweep_val *out, size_t nout, bool zeroes) {
	res *s;
	if (na != 2 || nout != 1 || (zeroes ? a[1].kind != SWEEP_VAL_U64 : a[1].kind != SWEEP_VAL_LIST))
		return wasmtime_error_new("output-stream.write: want (self, contents: list<u8>) or (self, len: u64)");
	wasmtime_error_t *err = output_stream(ctx, a, na, &s);
	if (err != NULL)
		return err;
	sweep_http *r = req_of(ctx);
	if (stream_closed(r, s)) {
		v_stream_closed(&out[0]);
		return NULL;
	}
	size_t n = zeroes ? (size_t)a[1].of.u64 : a[1].of.list.size;
	if (n > WRITE_BUDGET)
		return wasmtime_error_new("output-stream.write: more than check-write permitted");
	if (!zeroes)
		for (size_t i = 0; i < n; i++)
			if (a[1].of.list.data[i].kind != SWEEP_VAL_U8)
				return wasmtime_error_new("output-stream.write: want list<u8>");
	sink(r, s, zeroes ? NULL : a[1].of.list.data, n);
	v_result(&out[0], true, NULL);
	return NULL;
}
HOSTFN(output_write) { return stream_write(ctx, a, na, out, nout, false); }
HOSTFN(output_write_zeroes) { return stream_write(ctx, a, na, out, nout, true); }

HOSTFN(output_flush) {
	res *s;
	WANT(1, 1);
	wasmtime_error_t *err = output_stream(ctx, a, na, &s);
	if (err != NULL)
		return err;
	if (stream_closed(req_of(ctx), s))
		v_stream_closed(&out[0]);
	else
		v_result(&out[0], true, NULL);
	return NULL;
}

HOSTFN(output_splice) {
	res *s;
	uint32_t in;
	if (na != 3 || nout != 1 || a[2].kind != SWEEP_VAL_U64)
		return wasmtime_error_new("output-stream.splice: want (self, src, len: u64)");
	wasmtime_error_t *err = output_stream(ctx, a, na, &s);
	if (err != NULL)
		return err;
	ARG(1, T_INPUT, &in);
	sweep_http *r = req_of(ctx);
	size_t left = res_at(r, in)->kind == S_BODY && r->buf != NULL ? body_left(r) : 0;
	if (stream_closed(r, s) || left == 0) {
		v_stream_closed(&out[0]);
		return NULL;
	}
	size_t n = a[2].of.u64 < left ? (size_t)a[2].of.u64 : left;
	if (s->kind == S_BODY && s->ref == r->out_body) {
		append(&r->out, &r->out_len, &r->out_cap, n);
		memcpy(r->out + r->out_len, body_at(r), n);
		r->out_len += n;
	}
	r->body_pos += n;
	sweep_val ok;
	v_u64(&ok, n);
	v_result(&out[0], true, &ok);
	return NULL;
}

// ---- wasi:cli stdin, stdout, stderr

static wasmtime_error_t *new_stream(wasmtime_context_t *ctx, sweep_val *out, uint8_t type, uint8_t kind, uint32_t ref) {
	uint32_t rep;
	wasmtime_error_t *err = new_res(ctx, out, type, &rep);
	if (err == NULL) {
		res_at(req_of(ctx), rep)->kind = kind;
		res_at(req_of(ctx), rep)->ref = ref;
	}
	return err;
}
HOSTFN(get_stdin) { WANT(0, 1); return new_stream(ctx, &out[0], T_INPUT, S_EMPTY, 0); }
HOSTFN(get_stdout) { WANT(0, 1); return new_stream(ctx, &out[0], T_OUTPUT, S_STDOUT, 0); }
HOSTFN(get_stderr) { WANT(0, 1); return new_stream(ctx, &out[0], T_OUTPUT, S_STDERR, 0); }

// ---- wasi:filesystem: no preopens, so no descriptors ever exist.

HOSTFN(get_directories) {
	WANT(0, 1);
	out[0].kind = SWEEP_VAL_LIST;
	wasmtime_component_vallist_new_uninit(&out[0].of.list, 0);
	return NULL;
}
HOSTFN(filesystem_error_code) { WANT(1, 1); v_none(&out[0]); return NULL; }

// ---- wasi:http/types: fields

// fields_of returns the fields a fields resource holds (following a view).
static fieldlist *fields_of(sweep_http *r, uint32_t rep, bool *immutable) {
	res *e = res_at(r, rep);
	if (immutable)
		*immutable = e->immutable;
	while (e->ref != 0)
		e = res_at(r, e->ref);
	return &e->fl;
}

static bool header_error(sweep_val *out, const char *name) {
	sweep_val e;
	v_variant(&e, name, NULL);
	v_result(out, false, &e);
	return true;
}

// name_ok checks a field name: an HTTP token.
static bool name_ok(const uint8_t *p, size_t n) {
	if (n == 0)
		return false;
	for (size_t i = 0; i < n; i++) {
		uint8_t c = p[i];
		if (c <= ' ' || c >= 0x7f || strchr("\"(),/:;<=>?@[\\]{}", c) != NULL)
			return false;
	}
	return true;
}

// bytes_of copies a list<u8> into a new buffer; false if it is not one.
static bool bytes_of(const sweep_val *v, uint8_t **p, size_t *n) {
	if (v->kind != SWEEP_VAL_LIST)
		return false;
	*n = v->of.list.size;
	*p = malloc(*n ? *n : 1);
	for (size_t i = 0; i < *n; i++) {
		if (v->of.list.data[i].kind != SWEEP_VAL_U8) {
			free(*p);
			return false;
		}
		(*p)[i] = v->of.list.data[i].of.u8;
	}
	return true;
}

static bool value_ok(const uint8_t *p, size_t n) {
	for (size_t i = 0; i < n; i++)
		if (p[i] == '\r' || p[i] == '\n' || p[i] == 0)
			return false;
	return true;
}

static void fields_add(fieldlist *fl, const uint8_t *name, size_t nlen, uint8_t *val, size_t vlen) {
	if (fl->n == fl->cap) {
		fl->cap = fl->cap ? 2 * fl->cap : 8;
		fl->f = realloc(fl->f, fl->cap * sizeof(field));
	}
	field *f = &fl->f[fl->n++];
	f->name = malloc(nlen ? nlen : 1);
	for (size_t i = 0; i < nlen; i++) // names are kept in lower case
		f->name[i] = (name[i] >= 'A' && name[i] <= 'Z') ? name[i] + 32 : name[i];
	f->nlen = nlen;
	f->val = val;
	f->vlen = vlen;
}

static bool name_is(const field *f, const uint8_t *name, size_t n) {
	return f->nlen == n && strncasecmp((const char *)f->name, (const char *)name, n) == 0;
}

static void fields_delete(fieldlist *fl, const uint8_t *name, size_t n) {
	size_t j = 0;
	for (size_t i = 0; i < fl->n; i++) {
		if (name_is(&fl->f[i], name, n)) {
			free(fl->f[i].name);
			free(fl->f[i].val);
		} else {
			fl->f[j++] = fl->f[i];
		}
	}
	fl->n = j;
}

// fields_copy copies src into dst, empty.
static void fields_copy(fieldlist *dst, const fieldlist *src) {
	for (size_t i = 0; i < src->n; i++) {
		uint8_t *v = malloc(src->f[i].vlen ? src->f[i].vlen : 1);
		memcpy(v, src->f[i].val, src->f[i].vlen);
		fields_add(dst, src->f[i].name, src->f[i].nlen, v, src->f[i].vlen);
	}
}

HOSTFN(fields_new) { WANT(0, 1); return new_res(ctx, &out[0], T_FIELDS, NULL); }

HOSTFN(fields_from_list) {
	WANT(1, 1);
	if (a[0].kind != SWEEP_VAL_LIST)
		return wasmtime_error_new("fields.from-list: want list<tuple<field-name, field-value>>");
	fieldlist fl = {0};
	for (size_t i = 0; i < a[0].of.list.size; i++) {
		const sweep_val *t = &a[0].of.list.data[i];
		uint8_t *v;
		size_t vn;
		if (t->kind != SWEEP_VAL_TUPLE || t->of.tuple.size != 2 || t->of.tuple.data[0].kind != SWEEP_VAL_STRING ||
			!bytes_of(&t->of.tuple.data[1], &v, &vn)) {
			fieldlist_free(&fl);
			return wasmtime_error_new("fields.from-list: want list<tuple<field-name, field-value>>");
		}
		const wasm_byte_vec_t *name = &t->of.tuple.data[0].of.string;
		if (!name_ok(name->data, name->size) || !value_ok(v, vn)) {
			free(v);
			fieldlist_free(&fl);
			header_error(&out[0], "invalid-syntax");
			return NULL;
		}
		fields_add(&fl, name->data, name->size, v, vn);
	}
	uint32_t rep;
	sweep_val ok;
	wasmtime_error_t *err = new_res(ctx, &ok, T_FIELDS, &rep);
	if (err != NULL) {
		fieldlist_free(&fl);
		return err;
	}
	res_at(req_of(ctx), rep)->fl = fl;
	v_result(&out[0], true, &ok);
	return NULL;
}

// fields_arg reads (self, name) of a fields method.
static wasmtime_error_t *fields_arg(wasmtime_context_t *ctx, sweep_val *a, size_t na, fieldlist **fl, bool *immutable, const wasm_byte_vec_t **name) {
	uint32_t rep;
	ARG(0, T_FIELDS, &rep);
	*fl = fields_of(req_of(ctx), rep, immutable);
	if (name != NULL) {
		if (na < 2 || a[1].kind != SWEEP_VAL_STRING)
			return wasmtime_error_new("fields: want a field-name");
		*name = &a[1].of.string;
	}
	return NULL;
}

HOSTFN(fields_get) {
	fieldlist *fl;
	const wasm_byte_vec_t *name;
	WANT(2, 1);
	wasmtime_error_t *err = fields_arg(ctx, a, na, &fl, NULL, &name);
	if (err != NULL)
		return err;
	size_t n = 0;
	for (size_t i = 0; i < fl->n; i++)
		n += name_is(&fl->f[i], name->data, name->size);
	out[0].kind = SWEEP_VAL_LIST;
	wasmtime_component_vallist_new_uninit(&out[0].of.list, n);
	for (size_t i = 0, j = 0; i < fl->n; i++)
		if (name_is(&fl->f[i], name->data, name->size))
			v_bytes(&out[0].of.list.data[j++], fl->f[i].val, fl->f[i].vlen);
	return NULL;
}

HOSTFN(fields_has) {
	fieldlist *fl;
	const wasm_byte_vec_t *name;
	WANT(2, 1);
	wasmtime_error_t *err = fields_arg(ctx, a, na, &fl, NULL, &name);
	if (err != NULL)
		return err;
	bool has = false;
	for (size_t i = 0; i < fl->n && !has; i++)
		has = name_is(&fl->f[i], name->data, name->size);
	v_bool(&out[0], has);
	return NULL;
}

// fields_change implements set (values a list), append (one value) and
// delete (no value).
static wasmtime_error_t *fields_change(wasmtime_context_t *ctx, sweep_val *a, size_t na, sweep_val *out, size_t nout, int op) {
	fieldlist *fl;
	bool immutable;
	const wasm_byte_vec_t *name;
	if (na != (op == 0 ? 2u : 3u) || nout != 1)
		return wasmtime_error_new("fields: unexpected signature");
	wasmtime_error_t *err = fields_arg(ctx, a, na, &fl, &immutable, &name);
	if (err != NULL)
		return err;
	if (immutable) {
		header_error(&out[0], "immutable");
		return NULL;
	}
	if (!name_ok(name->data, name->size)) {
		header_error(&out[0], "invalid-syntax");
		return NULL;
	}
	if (op == 0) { // delete
		fields_delete(fl, name->data, name->size);
		v_result(&out[0], true, NULL);
		return NULL;
	}
	const sweep_val *vals = &a[2];
	size_t nv = 1;
	if (op == 1) { // set
		if (a[2].kind != SWEEP_VAL_LIST)
			return wasmtime_error_new("fields.set: want list<field-value>");
		vals = a[2].of.list.data;
		nv = a[2].of.list.size;
	}
	uint8_t **copies = malloc((nv ? nv : 1) * sizeof *copies);
	size_t *lens = malloc((nv ? nv : 1) * sizeof *lens);
	size_t got = 0;
	bool bad = false;
	for (; got < nv; got++) {
		if (!bytes_of(&vals[got], &copies[got], &lens[got])) {
			bad = true;
			break;
		}
		if (!value_ok(copies[got], lens[got])) {
			got++;
			bad = true;
			break;
		}
	}
	if (bad) {
		for (size_t i = 0; i < got; i++)
			free(copies[i]);
		header_error(&out[0], "invalid-syntax");
	} else {
		if (op == 1)
			fields_delete(fl, name->data, name->size);
		for (size_t i = 0; i < nv; i++)
			fields_add(fl, name->data, name->size, copies[i], lens[i]);
		v_result(&out[0], true, NULL);
	}
	free(copies);
	free(lens);
	return NULL;
}
HOSTFN(fields_delete_fn) { return fields_change(ctx, a, na, out, nout, 0); }
HOSTFN(fields_set) { return fields_change(ctx, a, na, out, nout, 1); }
HOSTFN(fields_append) { return fields_change(ctx, a, na, out, nout, 2); }

HOSTFN(fields_entries) {
	fieldlist *fl;
	WANT(1, 1);
	wasmtime_error_t *err = fields_arg(ctx, a, na, &fl, NULL, NULL);
	if (err != NULL)
		return err;
	out[0].kind = SWEEP_VAL_LIST;
	wasmtime_component_vallist_new_uninit(&out[0].of.list, fl->n);
	for (size_t i = 0; i < fl->n; i++) {
		sweep_val *t = &out[0].of.list.data[i];
		t->kind = SWEEP_VAL_TUPLE;
		wasmtime_component_valtuple_new_uninit(&t->of.tuple, 2);
		v_string(&t->of.tuple.data[0], fl->f[i].name, fl->f[i].nlen);
		v_bytes(&t->of.tuple.data[1], fl->f[i].val, fl->f[i].vlen);
	}
	return NULL;
}

HOSTFN(fields_clone) {
	uint32_t self, rep;
	WANT(1, 1);
	ARG(0, T_FIELDS, &self);
	wasmtime_error_t *err = new_res(ctx, &out[0], T_FIELDS, &rep);
	if (err != NULL)
		return err;
	sweep_http *r = req_of(ctx); // the table may have moved: index, not pointers
	fieldlist copy = {0};
	fields_copy(&copy, fields_of(r, self, NULL));
	res_at(r, rep)->fl = copy;
	return NULL;
}

// new_view returns a new fields handle that is a view of rep's fields.
static wasmtime_error_t *new_view(wasmtime_context_t *ctx, sweep_val *out, uint32_t of, bool immutable) {
	uint32_t rep;
	wasmtime_error_t *err = new_res(ctx, out, T_FIELDS, &rep);
	if (err == NULL) {
		res_at(req_of(ctx), rep)->ref = of;
		res_at(req_of(ctx), rep)->immutable = immutable;
	}
	return err;
}

// ---- wasi:http/types: incoming-request, incoming-body, future-trailers

static const char *const methods[] = {"GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH"};
static const char *const method_cases[] = {"get", "head", "post", "put", "delete", "connect", "options", "trace", "patch"};

HOSTFN(inreq_method) {
	uint32_t rep;
	WANT(1, 1);
	ARG(0, T_INREQ, &rep);
	sweep_http *r = req_of(ctx);
	const uint8_t *m = r->buf + r->spans[0];
	size_t n = r->spans[1];
	for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++)
		if (strlen(methods[i]) == n && memcmp(methods[i], m, n) == 0) {
			v_variant(&out[0], method_cases[i], NULL);
			return NULL;
		}
	sweep_val s;
	v_string(&s, m, n);
	v_variant(&out[0], "other", &s);
	return NULL;
}

HOSTFN(inreq_path) {
	uint32_t rep;
	WANT(1, 1);
	ARG(0, T_INREQ, &rep);
	sweep_http *r = req_of(ctx);
	sweep_val s;
	v_string(&s, r->buf + r->spans[2], r->spans[3]);
	v_some(&out[0], &s);
	return NULL;
}

HOSTFN(inreq_scheme) {
	uint32_t rep;
	WANT(1, 1);
	ARG(0, T_INREQ, &rep);
	sweep_val s;
	v_variant(&s, "HTTP", NULL);
	v_some(&out[0], &s);
	return NULL;
}

// header returns the request header name's first value, or NULL.
static const uint8_t *header(sweep_http *r, const char *name, size_t *n) {
	size_t nl = strlen(name);
	for (size_t i = 0; i < r->nheaders; i++) {
		const size_t *s = r->spans + 6 + 4 * i;
		if (s[1] == nl && strncasecmp((const char *)r->buf + s[0], name, nl) == 0) {
			*n = s[3];
			return r->buf + s[2];
		}
	}
	return NULL;
}

HOSTFN(inreq_authority) {
	uint32_t rep;
	size_t n;
	WANT(1, 1);
	ARG(0, T_INREQ, &rep);
	const uint8_t *host = header(req_of(ctx), "host", &n);
	if (host == NULL) {
		v_none(&out[0]);
		return NULL;
	}
	sweep_val s;
	v_string(&s, host, n);
	v_some(&out[0], &s);
	return NULL;
}

HOSTFN(inreq_headers) {
	uint32_t rep;
	WANT(1, 1);
	ARG(0, T_INREQ, &rep);
	return new_view(ctx, &out[0], res_at(req_of(ctx), rep)->ref, true);
}

// take_once returns a new resource of type made from rep once; later
// calls get err.
static wasmtime_error_t *take_once(wasmtime_context_t *ctx, sweep_val *out, uint32_t rep, uint8_t type, uint8_t kind) {
	sweep_http *r = req_of(ctx);
	if (res_at(r, rep)->taken) {
		v_result(out, false, NULL);
		return NULL;
	}
	res_at(r, rep)->taken = true;
	sweep_val ok;
	wasmtime_error_t *err = new_stream(ctx, &ok, type, kind, rep);
	if (err != NULL)
		return err;
	v_result(out, true, &ok);
	return NULL;
}

HOSTFN(inreq_consume) {
	uint32_t rep;
	WANT(1, 1);
	ARG(0, T_INREQ, &rep);
	return take_once(ctx, &out[0], rep, T_INBODY, 0);
}

HOSTFN(inbody_stream) {
	uint32_t rep;
	WANT(1, 1);
	ARG(0, T_INBODY, &rep);
	return take_once(ctx, &out[0], rep, T_INPUT, S_BODY);
}

HOSTFN(inbody_finish) {
	uint32_t rep;
	WANT(1, 1);
	ARG(0, T_INBODY, &rep);
	return new_res(ctx, &out[0], T_TRAILERS, NULL);
}

HOSTFN(trailers_get) {
	uint32_t rep;
	WANT(1, 1);
	ARG(0, T_TRAILERS, &rep);
	// some(ok(ok(none))): the request had no trailers.
	sweep_val none, inner, outer;
	v_none(&none);
	v_result(&inner, true, &none);
	v_result(&outer, true, &inner);
	v_some(&out[0], &outer);
	return NULL;
}

// ---- wasi:http/types: outgoing-response, outgoing-body, response-outparam

HOSTFN(outresp_new) {
	uint32_t fields, rep;
	WANT(1, 1);
	ARG(0, T_FIELDS, &fields);
	wasmtime_error_t *err = new_res(ctx, &out[0], T_OUTRESP, &rep);
	if (err == NULL) {
		res_at(req_of(ctx), rep)->ref = fields;
		res_at(req_of(ctx), rep)->status = 200;
	}
	return err;
}

HOSTFN(outresp_status) {
	uint32_t rep;
	WANT(1, 1);
	ARG(0, T_OUTRESP, &rep);
	out[0].kind = SWEEP_VAL_U16;
	out[0].of.u16 = res_at(req_of(ctx), rep)->status;
	return NULL;
}

HOSTFN(outresp_set_status) {
	uint32_t rep;
	WANT(2, 1);
	ARG(0, T_OUTRESP, &rep);
	if (a[1].kind != SWEEP_VAL_U16)
		return wasmtime_error_new("outgoing-response.set-status-code: want u16");
	uint16_t st = a[1].of.u16;
	if (st < 100 || st > 599) {
		v_result(&out[0], false, NULL);
		return NULL;
	}
	res_at(req_of(ctx), rep)->status = st;
	v_result(&out[0], true, NULL);
	return NULL;
}

HOSTFN(outresp_headers) {
	uint32_t rep;
	WANT(1, 1);
	ARG(0, T_OUTRESP, &rep);
	return new_view(ctx, &out[0], res_at(req_of(ctx), rep)->ref, false);
}

HOSTFN(outresp_body) {
	uint32_t rep;
	WANT(1, 1);
	ARG(0, T_OUTRESP, &rep);
	sweep_http *r = req_of(ctx);
	bool first = !res_at(r, rep)->taken;
	uint32_t body = r->n;
	wasmtime_error_t *err = take_once(ctx, &out[0], rep, T_OUTBODY, 0);
	if (err == NULL && first && r->out_body == 0)
		r->out_body = body;
	return err;
}

HOSTFN(outbody_write) {
	uint32_t rep;
	WANT(1, 1);
	ARG(0, T_OUTBODY, &rep);
	return take_once(ctx, &out[0], rep, T_OUTPUT, S_BODY);
}

// problem records the first protocol problem of the request.
static void problem(sweep_http *r, int p, const char *msg) {
	if (r->problem != 0)
		return;
	r->problem = p;
	snprintf(r->msg, sizeof r->msg, "%s", msg);
}

// content_length is the response's content-length header: -1 if absent,
// -2 if not a number.
static long long content_length(sweep_http *r, uint32_t resp) {
	fieldlist *fl = fields_of(r, res_at(r, resp)->ref, NULL);
	for (size_t i = 0; i < fl->n; i++) {
		if (!name_is(&fl->f[i], (const uint8_t *)"content-length", 14))
			continue;
		long long v = 0;
		if (fl->f[i].vlen == 0 || fl->f[i].vlen > 18)
			return -2;
		for (size_t j = 0; j < fl->f[i].vlen; j++) {
			uint8_t c = fl->f[i].val[j];
			if (c < '0' || c > '9')
				return -2;
			v = 10 * v + (c - '0');
		}
		return v;
	}
	return -1;
}

// check_length records a problem if the body is not what the response's
// content-length says; it returns false then.
static bool check_length(sweep_http *r) {
	uint32_t resp = r->out_body ? res_at(r, r->out_body)->ref : 0;
	if (resp == 0)
		return true;
	long long want = content_length(r, resp);
	if (want == -1 || (want >= 0 && (size_t)want == r->out_len))
		return true;
	char m[200];
	if (want == -2)
		snprintf(m, sizeof m, "the guest's response has a content-length that is not a number");
	else
		snprintf(m, sizeof m, "the guest's response body is %zu bytes, its content-length says %lld", r->out_len, want);
	problem(r, SWEEP_HTTP_LENGTH, m);
	return false;
}

HOSTFN(outbody_finish) {
	uint32_t rep;
	WANT(2, 1);
	ARG(0, T_OUTBODY, &rep);
	sweep_http *r = req_of(ctx);
	res_at(r, rep)->finished = true;
	if (rep == r->out_body && !check_length(r)) {
		v_error_code(&out[0], r->msg);
		sweep_val e = out[0];
		v_result(&out[0], false, &e);
		return NULL;
	}
	v_result(&out[0], true, NULL);
	return NULL;
}

HOSTFN(outparam_set) {
	uint32_t rep, resp;
	WANT(2, 0);
	ARG(0, T_OUTPARAM, &rep);
	sweep_http *r = req_of(ctx);
	if (r->sets++ > 0) {
		problem(r, SWEEP_HTTP_SET_TWICE, "the guest called response-outparam.set twice");
		return wasmtime_error_new("wasi:http: response-outparam.set called twice");
	}
	if (a[1].kind != SWEEP_VAL_RESULT)
		return wasmtime_error_new("response-outparam.set: want result<outgoing-response, error-code>");
	if (!a[1].of.result.is_ok) {
		char m[200] = "the guest answered with an error code";
		const sweep_val *e = a[1].of.result.val;
		if (e != NULL && e->kind == SWEEP_VAL_VARIANT)
			snprintf(m, sizeof m, "the guest answered with error code %.*s", (int)e->of.variant.discriminant.size,
				(const char *)e->of.variant.discriminant.data);
		problem(r, SWEEP_HTTP_ERROR_CODE, m);
		return NULL;
	}
	wasmtime_error_t *err = arg_res(ctx, a[1].of.result.val, 1, 0, T_OUTRESP, &resp);
	if (err != NULL)
		return err;
	r->resp = resp;
	return NULL;
}

HOSTFN(http_error_code) { WANT(1, 1); v_none(&out[0]); return NULL; }

// ---- wasi:http/types: outgoing-request and request-options, and
// outgoing-handler. There is no network: a request can be built (its body
// is dropped) and handing it to outgoing-handler.handle answers an error
// code, as a host without a route to the destination would.

HOSTFN(outreq_new) {
	uint32_t fields, rep;
	WANT(1, 1);
	ARG(0, T_FIELDS, &fields);
	wasmtime_error_t *err = new_res(ctx, &out[0], T_OUTREQ, &rep);
	if (err == NULL)
		res_at(req_of(ctx), rep)->ref = fields;
	return err;
}

HOSTFN(outreq_body) {
	uint32_t rep;
	WANT(1, 1);
	ARG(0, T_OUTREQ, &rep);
	return take_once(ctx, &out[0], rep, T_OUTBODY, 0);
}

HOSTFN(outreq_headers) {
	uint32_t rep;
	WANT(1, 1);
	ARG(0, T_OUTREQ, &rep);
	return new_view(ctx, &out[0], res_at(req_of(ctx), rep)->ref, true);
}

// outreq_get answers the getters: method get, no path, scheme or
// authority (what was set is not kept).
HOSTFN(outreq_get) {
	uint32_t rep;
	WANT(1, 1);
	ARG(0, T_OUTREQ, &rep);
	if (strcmp((const char *)env, "[method]outgoing-request.method") == 0)
		v_variant(&out[0], "get", NULL);
	else
		v_none(&out[0]);
	return NULL;
}

// outreq_set accepts every setter of outgoing-request.
HOSTFN(outreq_set) {
	uint32_t rep;
	WANT(2, 1);
	ARG(0, T_OUTREQ, &rep);
	v_result(&out[0], true, NULL);
	return NULL;
}

HOSTFN(reqopts_new) { WANT(0, 1); return new_res(ctx, &out[0], T_REQOPTS, NULL); }

HOSTFN(reqopts_get) {
	uint32_t rep;
	WANT(1, 1);
	ARG(0, T_REQOPTS, &rep);
	v_none(&out[0]);
	return NULL;
}

HOSTFN(reqopts_set) {
	uint32_t rep;
	WANT(2, 1);
	ARG(0, T_REQOPTS, &rep);
	v_result(&out[0], true, NULL);
	return NULL;
}

HOSTFN(outgoing_handle) {
	uint32_t rep;
	WANT(2, 1);
	ARG(0, T_OUTREQ, &rep);
	sweep_val code;
	v_variant(&code, "destination-unavailable", NULL);
	v_result(&out[0], false, &code);
	return NULL;
}

// ---- sweep:plugin/host

HOSTFN(host_param) {
	if (na != 1 || nout != 1 || a[0].kind != SWEEP_VAL_S32)
		return wasmtime_error_new("sweep:plugin/host.param: want (id: s32) -> s64");
	out[0].kind = SWEEP_VAL_S64;
	out[0].of.s64 = sweepComponentParam((uintptr_t)env, a[0].of.s32);
	return NULL;
}

HOSTFN(host_io_wait) {
	if (na != 1 || nout != 0 || a[0].kind != SWEEP_VAL_S64)
		return wasmtime_error_new("sweep:plugin/host.io-wait: want (ns: s64)");
	switch (sweepComponentIOWait(req_of(ctx)->call, a[0].of.s64)) {
	case 0:
		return NULL;
	case 1:
		return wasmtime_error_new("io_wait: request canceled");
	}
	return wasmtime_error_new("io_wait: past the request deadline");
}

// ---- the linker

typedef struct { const char *name; sweep_host_func fn; uintptr_t env; } def;
typedef struct { const char *name; uint8_t resources[12]; const def *defs; } iface;

#define U(n) {n, unsupported, 0}
#define SUB(t) ((uintptr_t)(t))

static const def io_error[] = {{"[method]error.to-debug-string", error_to_debug_string, 0}, {0}};
static const def io_poll[] = {
	{"[method]pollable.ready", pollable_ready, 0}, {"[method]pollable.block", pollable_block, 0}, {"poll", poll, 0}, {0}};
static const def io_streams[] = {
	{"[method]input-stream.read", input_read, 0},
	{"[method]input-stream.blocking-read", input_read, 0},
	{"[method]input-stream.skip", input_skip, 0},
	{"[method]input-stream.blocking-skip", input_skip, 0},
	{"[method]input-stream.subscribe", stream_subscribe, SUB(T_INPUT)},
	{"[method]output-stream.check-write", output_check_write, 0},
	{"[method]output-stream.write", output_write, 0},
	{"[method]output-stream.blocking-write-and-flush", output_write, 0},
	{"[method]output-stream.flush", output_flush, 0},
	{"[method]output-stream.blocking-flush", output_flush, 0},
	{"[method]output-stream.subscribe", stream_subscribe, SUB(T_OUTPUT)},
	{"[method]output-stream.write-zeroes", output_write_zeroes, 0},
	{"[method]output-stream.blocking-write-zeroes-and-flush", output_write_zeroes, 0},
	{"[method]output-stream.splice", output_splice, 0},
	{"[method]output-stream.blocking-splice", output_splice, 0},
	{0}};
static const def cli_stdin[] = {{"get-stdin", get_stdin, 0}, {0}};
static const def cli_stdout[] = {{"get-stdout", get_stdout, 0}, {0}};
static const def cli_stderr[] = {{"get-stderr", get_stderr, 0}, {0}};
static const def monotonic[] = {
	{"now", clock_now, 0}, {"resolution", clock_resolution, 0},
	{"subscribe-instant", clock_subscribe_instant, 0}, {"subscribe-duration", clock_subscribe_duration, 0}, {0}};
static const def fs_types[] = {
	U("[method]descriptor.read-via-stream"), U("[method]descriptor.write-via-stream"),
	U("[method]descriptor.append-via-stream"), U("[method]descriptor.advise"), U("[method]descriptor.sync-data"),
	U("[method]descriptor.get-flags"), U("[method]descriptor.get-type"), U("[method]descriptor.set-size"),
	U("[method]descriptor.set-times"), U("[method]descriptor.read"), U("[method]descriptor.write"),
	U("[method]descriptor.read-directory"), U("[method]descriptor.sync"), U("[method]descriptor.create-directory-at"),
	U("[method]descriptor.stat"), U("[method]descriptor.stat-at"), U("[method]descriptor.set-times-at"),
	U("[method]descriptor.link-at"), U("[method]descriptor.open-at"), U("[method]descriptor.readlink-at"),
	U("[method]descriptor.remove-directory-at"), U("[method]descriptor.rename-at"), U("[method]descriptor.symlink-at"),
	U("[method]descriptor.unlink-file-at"), U("[method]descriptor.is-same-object"), U("[method]descriptor.metadata-hash"),
	U("[method]descriptor.metadata-hash-at"), U("[method]directory-entry-stream.read-directory-entry"),
	{"filesystem-error-code", filesystem_error_code, 0}, {0}};
static const def fs_preopens[] = {{"get-directories", get_directories, 0}, {0}};
static const def http_types[] = {
	{"http-error-code", http_error_code, 0},
	{"[constructor]fields", fields_new, 0},
	{"[static]fields.from-list", fields_from_list, 0},
	{"[method]fields.get", fields_get, 0},
	{"[method]fields.has", fields_has, 0},
	{"[method]fields.set", fields_set, 0},
	{"[method]fields.delete", fields_delete_fn, 0},
	{"[method]fields.append", fields_append, 0},
	{"[method]fields.entries", fields_entries, 0},
	{"[method]fields.clone", fields_clone, 0},
	{"[method]incoming-request.method", inreq_method, 0},
	{"[method]incoming-request.path-with-query", inreq_path, 0},
	{"[method]incoming-request.scheme", inreq_scheme, 0},
	{"[method]incoming-request.authority", inreq_authority, 0},
	{"[method]incoming-request.headers", inreq_headers, 0},
	{"[method]incoming-request.consume", inreq_consume, 0},
	{"[constructor]outgoing-request", outreq_new, 0},
	{"[method]outgoing-request.body", outreq_body, 0},
	{"[method]outgoing-request.method", outreq_get, 0},
	{"[method]outgoing-request.set-method", outreq_set, 0},
	{"[method]outgoing-request.path-with-query", outreq_get, 0},
	{"[method]outgoing-request.set-path-with-query", outreq_set, 0},
	{"[method]outgoing-request.scheme", outreq_get, 0},
	{"[method]outgoing-request.set-scheme", outreq_set, 0},
	{"[method]outgoing-request.authority", outreq_get, 0},
	{"[method]outgoing-request.set-authority", outreq_set, 0},
	{"[method]outgoing-request.headers", outreq_headers, 0},
	{"[constructor]request-options", reqopts_new, 0},
	{"[method]request-options.connect-timeout", reqopts_get, 0},
	{"[method]request-options.set-connect-timeout", reqopts_set, 0},
	{"[method]request-options.first-byte-timeout", reqopts_get, 0},
	{"[method]request-options.set-first-byte-timeout", reqopts_set, 0},
	{"[method]request-options.between-bytes-timeout", reqopts_get, 0},
	{"[method]request-options.set-between-bytes-timeout", reqopts_set, 0},
	U("[method]response-outparam.send-informational"),
	{"[static]response-outparam.set", outparam_set, 0},
	U("[method]incoming-response.status"), U("[method]incoming-response.headers"), U("[method]incoming-response.consume"),
	{"[method]incoming-body.stream", inbody_stream, 0},
	{"[static]incoming-body.finish", inbody_finish, 0},
	{"[method]future-trailers.subscribe", stream_subscribe, SUB(T_TRAILERS)},
	{"[method]future-trailers.get", trailers_get, 0},
	{"[constructor]outgoing-response", outresp_new, 0},
	{"[method]outgoing-response.status-code", outresp_status, 0},
	{"[method]outgoing-response.set-status-code", outresp_set_status, 0},
	{"[method]outgoing-response.headers", outresp_headers, 0},
	{"[method]outgoing-response.body", outresp_body, 0},
	{"[method]outgoing-body.write", outbody_write, 0},
	{"[static]outgoing-body.finish", outbody_finish, 0},
	U("[method]future-incoming-response.subscribe"), U("[method]future-incoming-response.get"),
	{0}};

static const def http_outgoing[] = {{"handle", outgoing_handle, 0}, {0}};

static const iface ifaces[] = {
	{"wasi:io/error" WASI_V, {T_ERROR}, io_error},
	{"wasi:io/poll" WASI_V, {T_POLLABLE}, io_poll},
	{"wasi:io/streams" WASI_V, {T_INPUT, T_OUTPUT}, io_streams},
	{"wasi:cli/stdin" WASI_V, {0}, cli_stdin},
	{"wasi:cli/stdout" WASI_V, {0}, cli_stdout},
	{"wasi:cli/stderr" WASI_V, {0}, cli_stderr},
	{"wasi:clocks/monotonic-clock" WASI_V, {0}, monotonic},
	{"wasi:filesystem/types" WASI_V, {T_DESCRIPTOR, T_DIRSTREAM}, fs_types},
	{"wasi:filesystem/preopens" WASI_V, {0}, fs_preopens},
	{"wasi:http/types" WASI_V, {T_FIELDS, T_INREQ, T_OUTREQ, T_REQOPTS, T_OUTPARAM, T_INRESP, T_INBODY, T_TRAILERS,
		T_OUTRESP, T_OUTBODY, T_FUTRESP}, http_types},
	{"wasi:http/outgoing-handler" WASI_V, {0}, http_outgoing},
	{0},
};

static wasmtime_error_t *define(wasmtime_component_linker_instance_t *root, const iface *in) {
	wasmtime_component_linker_instance_t *inst = NULL;
	wasmtime_error_t *err = wasmtime_component_linker_instance_add_instance(root, in->name, strlen(in->name), &inst);
	if (err != NULL)
		return err;
	for (int i = 0; err == NULL && i < 12 && in->resources[i] != 0; i++) {
		uint8_t t = in->resources[i];
		wasmtime_component_resource_type_t *rt = wasmtime_component_resource_type_new_host(t);
		err = wasmtime_component_linker_instance_add_resource(inst, type_names[t], strlen(type_names[t]), rt, destructor, NULL, NULL);
		wasmtime_component_resource_type_delete(rt);
	}
	for (const def *d = in->defs; err == NULL && d->name != NULL; d++) {
		void *env = d->env ? (void *)d->env : (void *)d->name;
		err = wasmtime_component_linker_instance_add_func(inst, d->name, strlen(d->name), d->fn, env, NULL);
	}
	wasmtime_component_linker_instance_delete(inst);
	return err;
}

wasmtime_error_t *sweep_http_linker(wasm_engine_t *engine, uintptr_t host, wasmtime_component_linker_t **out) {
	wasmtime_component_linker_t *l = wasmtime_component_linker_new(engine);
	wasmtime_error_t *err = wasmtime_component_linker_add_wasip2(l);
	if (err != NULL) {
		wasmtime_component_linker_delete(l);
		return err;
	}
	wasmtime_component_linker_allow_shadowing(l, true);
	wasmtime_component_linker_instance_t *root = wasmtime_component_linker_root(l);
	for (const iface *in = ifaces; err == NULL && in->name != NULL; in++)
		err = define(root, in);
	if (err == NULL) {
		static const char name[] = "sweep:plugin/host@0.1.0";
		wasmtime_component_linker_instance_t *inst = NULL;
		err = wasmtime_component_linker_instance_add_instance(root, name, sizeof name - 1, &inst);
		if (err == NULL) {
			err = wasmtime_component_linker_instance_add_func(inst, "param", 5, host_param, (void *)host, NULL);
			if (err == NULL)
				err = wasmtime_component_linker_instance_add_func(inst, "io-wait", 7, host_io_wait, NULL, NULL);
			wasmtime_component_linker_instance_delete(inst);
		}
	}
	wasmtime_component_linker_instance_delete(root);
	if (err != NULL) {
		wasmtime_component_linker_delete(l);
		return err;
	}
	*out = l;
	return NULL;
}

// ---- one request

wasmtime_error_t *sweep_http_open(sweep_call *c, sweep_http *r, wasm_engine_t *engine, const wasmtime_component_linker_t *linker,
	const wasmtime_component_t *comp, const wasmtime_component_export_index_t *index, uint64_t ticks, uintptr_t call) {
	memset(c, 0, sizeof *c);
	reset(r);
	r->call = call;
	c->store = wasmtime_store_new(engine, r, NULL);
	c->ctx = wasmtime_store_context(c->store);
	wasmtime_context_set_epoch_deadline(c->ctx, ticks);
	// add_wasip2's interfaces (wall-clock, random, environment, exit,
	// terminal-*) need a WASI context; without one a call aborts.
	wasmtime_error_t *err = wasmtime_context_set_wasi(c->ctx, wasi_config_new());
	if (err != NULL)
		return err;
	if ((err = wasmtime_component_linker_instantiate(linker, c->ctx, comp, &c->inst)) != NULL)
		return err;
	if (!wasmtime_component_instance_get_func(&c->inst, c->ctx, index, &c->func))
		return wasmtime_error_new("the export is not a function of this instance");
	return NULL;
}

wasmtime_error_t *sweep_http_handle(sweep_call *c, sweep_http *r, const uint8_t *buf, const size_t *spans, size_t nheaders) {
	r->buf = buf;
	r->spans = spans;
	r->nheaders = nheaders;
	uint32_t hdrs = res_new(r, T_FIELDS);
	for (size_t i = 0; i < nheaders; i++) {
		const size_t *s = spans + 6 + 4 * i;
		uint8_t *v = malloc(s[3] ? s[3] : 1);
		memcpy(v, buf + s[2], s[3]);
		fields_add(&res_at(r, hdrs)->fl, buf + s[0], s[1], v, s[3]);
	}
	uint32_t req = res_new(r, T_INREQ);
	res_at(r, req)->ref = hdrs;
	uint32_t outparam = res_new(r, T_OUTPARAM);
	sweep_val args[2];
	memset(args, 0, sizeof args);
	wasmtime_error_t *err = v_res(c->ctx, &args[0], T_INREQ, req);
	if (err == NULL)
		err = v_res(c->ctx, &args[1], T_OUTPARAM, outparam);
	if (err == NULL) {
		err = wasmtime_component_func_call(&c->func, c->ctx, args, 2, NULL, 0);
		if (err == NULL)
			err = wasmtime_component_func_post_return(&c->func, c->ctx);
	}
	for (int i = 0; i < 2; i++)
		wasmtime_component_val_delete(&args[i]);
	r->buf = NULL; // Go memory: not kept past this call
	r->spans = NULL;
	r->nheaders = 0;
	if (err != NULL)
		return err;
	if (r->problem == 0 && r->resp == 0)
		problem(r, SWEEP_HTTP_NO_RESPONSE, "the guest's handle returned without setting the response (response-outparam.set)");
	if (r->problem == 0 && r->out_body != 0 && !res_at(r, r->out_body)->finished)
		problem(r, SWEEP_HTTP_UNFINISHED, "the guest's handle returned without finishing the response body (outgoing-body.finish)");
	if (r->problem == 0)
		check_length(r);
	return NULL;
}

int sweep_http_result(const sweep_http *r, uint16_t *status, size_t *nheaders, const uint8_t **body, size_t *body_len, const char **msg) {
	*msg = r->msg;
	if (r->problem != 0)
		return r->problem;
	const res *resp = &r->tab[r->resp];
	*status = resp->status;
	*nheaders = fields_of((sweep_http *)r, resp->ref, NULL)->n;
	*body = r->out;
	*body_len = r->out_len;
	return SWEEP_HTTP_OK;
}

void sweep_http_header(const sweep_http *r, size_t i, const uint8_t **name, size_t *name_len, const uint8_t **value, size_t *value_len) {
	const field *f = &fields_of((sweep_http *)r, r->tab[r->resp].ref, NULL)->f[i];
	*name = f->name;
	*name_len = f->nlen;
	*value = f->val;
	*value_len = f->vlen;
}

size_t sweep_http_stderr(const sweep_http *r, const uint8_t **p) {
	*p = r->err;
	return r->err_len;
}

int sweep_http_sets(const sweep_http *r) { return r->sets; }
