// component.c serves one request of a component plugin through Wasmtime's
// component-model C API: store, WASI context, instantiation, the call,
// post-return and the store's deletion, with the values built and read
// here so that a request crosses from Go to C a handful of times. See
// component_cgo.go for the Go side.
#include <string.h>
#include "component.h"

// Wasmtime functions used only here.
wasmtime_store_t *wasmtime_store_new(wasm_engine_t *, void *, void (*)(void *));
wasmtime_context_t *wasmtime_store_context(wasmtime_store_t *);
void wasmtime_store_delete(wasmtime_store_t *);
void *wasmtime_context_get_data(const wasmtime_context_t *);
void wasmtime_context_set_epoch_deadline(wasmtime_context_t *, uint64_t);
wasmtime_error_t *wasmtime_context_set_wasi(wasmtime_context_t *, wasi_config_t *);
wasmtime_error_t *wasmtime_error_new(const char *);
wasi_config_t *wasi_config_new(void);
bool wasi_config_set_argv(wasi_config_t *, size_t, const char *[]);
void wasi_config_set_stdin_bytes(wasi_config_t *, wasm_byte_vec_t *);
void wasi_config_set_stdout_custom(wasi_config_t *, ptrdiff_t (*)(void *, const unsigned char *, size_t), void *, void (*)(void *));
void wasm_byte_vec_new(wasm_byte_vec_t *, size_t, const uint8_t *);
wasmtime_component_linker_instance_t *wasmtime_component_linker_root(wasmtime_component_linker_t *);
wasmtime_error_t *wasmtime_component_linker_add_wasip2(wasmtime_component_linker_t *);
wasmtime_error_t *wasmtime_component_linker_instance_add_instance(wasmtime_component_linker_instance_t *, const char *, size_t, wasmtime_component_linker_instance_t **);
typedef wasmtime_error_t *(*sweep_host_func)(void *, wasmtime_context_t *, const wasmtime_component_func_type_t *, sweep_val *, size_t, sweep_val *, size_t);
wasmtime_error_t *wasmtime_component_linker_instance_add_func(wasmtime_component_linker_instance_t *, const char *, size_t, sweep_host_func, void *, void (*)(void *));
void wasmtime_component_linker_instance_delete(wasmtime_component_linker_instance_t *);
wasmtime_error_t *wasmtime_component_linker_instantiate(const wasmtime_component_linker_t *, wasmtime_context_t *, const wasmtime_component_t *, wasmtime_component_instance_t *);
bool wasmtime_component_instance_get_func(const wasmtime_component_instance_t *, wasmtime_context_t *, const wasmtime_component_export_index_t *, wasmtime_component_func_t *);
wasmtime_error_t *wasmtime_component_func_call(const wasmtime_component_func_t *, wasmtime_context_t *, const sweep_val *, size_t, sweep_val *, size_t);
wasmtime_error_t *wasmtime_component_func_post_return(const wasmtime_component_func_t *, wasmtime_context_t *);
void wasmtime_component_val_delete(sweep_val *);
void wasmtime_component_vallist_new_uninit(sweep_vallist *, size_t);
void wasmtime_component_valtuple_new_uninit(sweep_vallist *, size_t);

// Go functions (//export in component_export_cgo.go and capi_cgo.go).
extern int64_t sweepComponentParam(uintptr_t host, int32_t id);
extern int sweepComponentIOWait(uintptr_t call, int64_t ns);
extern ptrdiff_t sweepStdoutWrite(uintptr_t, unsigned char *, size_t);

// The import of sweep:plugin/host; the version is the one of
// plugins/wit/plugin.wit.
static const char host_instance[] = "sweep:plugin/host@0.1.0";

static wasmtime_error_t *host_param(void *env, wasmtime_context_t *ctx, const wasmtime_component_func_type_t *ty,
	sweep_val *args, size_t nargs, sweep_val *results, size_t nresults) {
	if (nargs != 1 || nresults != 1 || args[0].kind != SWEEP_VAL_S32)
		return wasmtime_error_new("sweep:plugin/host.param: want (id: s32) -> s64");
	results[0].kind = SWEEP_VAL_S64;
	results[0].of.s64 = sweepComponentParam((uintptr_t)env, args[0].of.s32);
	return NULL;
}

static wasmtime_error_t *host_io_wait(void *env, wasmtime_context_t *ctx, const wasmtime_component_func_type_t *ty,
	sweep_val *args, size_t nargs, sweep_val *results, size_t nresults) {
	if (nargs != 1 || nresults != 0 || args[0].kind != SWEEP_VAL_S64)
		return wasmtime_error_new("sweep:plugin/host.io-wait: want (ns: s64)");
	switch (sweepComponentIOWait((uintptr_t)wasmtime_context_get_data(ctx), args[0].of.s64)) {
	case 0:
		return NULL;
	case 1:
		return wasmtime_error_new("io_wait: request canceled");
	}
	return wasmtime_error_new("io_wait: past the request deadline");
}

wasmtime_error_t *sweep_component_linker(wasm_engine_t *engine, bool wasi, uintptr_t host, wasmtime_component_linker_t **out) {
	wasmtime_component_linker_t *l = wasmtime_component_linker_new(engine);
	wasmtime_error_t *err = NULL;
	if (wasi && (err = wasmtime_component_linker_add_wasip2(l)) != NULL) {
		wasmtime_component_linker_delete(l);
		return err;
	}
	wasmtime_component_linker_instance_t *root = wasmtime_component_linker_root(l);
	wasmtime_component_linker_instance_t *inst = NULL;
	err = wasmtime_component_linker_instance_add_instance(root, host_instance, sizeof host_instance - 1, &inst);
	if (err == NULL) {
		err = wasmtime_component_linker_instance_add_func(inst, "param", 5, host_param, (void *)host, NULL);
		if (err == NULL)
			err = wasmtime_component_linker_instance_add_func(inst, "io-wait", 7, host_io_wait, (void *)host, NULL);
		wasmtime_component_linker_instance_delete(inst);
	}
	wasmtime_component_linker_instance_delete(root);
	if (err != NULL) {
		wasmtime_component_linker_delete(l);
		return err;
	}
	*out = l;
	return NULL;
}

static ptrdiff_t write_stdout(void *call, const unsigned char *buf, size_t n) {
	return sweepStdoutWrite((uintptr_t)call, (unsigned char *)buf, n);
}

wasmtime_error_t *sweep_call_open(sweep_call *c, wasm_engine_t *engine, const wasmtime_component_linker_t *linker,
	const wasmtime_component_t *comp, const wasmtime_component_export_index_t *index, uint64_t ticks,
	uintptr_t call, bool wasi, const uint8_t *stdin, size_t stdin_len, const char *argv0) {
	memset(c, 0, sizeof *c);
	c->store = wasmtime_store_new(engine, (void *)call, NULL);
	c->ctx = wasmtime_store_context(c->store);
	wasmtime_context_set_epoch_deadline(c->ctx, ticks);
	wasmtime_error_t *err;
	if (wasi) {
		// Without a WASI context a WASI call aborts the process.
		wasi_config_t *wc = wasi_config_new();
		const char *argv[1] = {argv0};
		wasi_config_set_argv(wc, 1, argv);
		wasm_byte_vec_t in;
		wasm_byte_vec_new(&in, stdin_len, stdin);
		wasi_config_set_stdin_bytes(wc, &in);
		wasi_config_set_stdout_custom(wc, write_stdout, (void *)call, NULL);
		if ((err = wasmtime_context_set_wasi(c->ctx, wc)) != NULL)
			return err;
	}
	if ((err = wasmtime_component_linker_instantiate(linker, c->ctx, comp, &c->inst)) != NULL)
		return err;
	if (!wasmtime_component_instance_get_func(&c->inst, c->ctx, index, &c->func))
		return wasmtime_error_new("the export is not a function of this instance");
	return NULL;
}

static void set_string(sweep_val *v, const uint8_t *p, size_t n) {
	v->kind = SWEEP_VAL_STRING;
	wasm_byte_vec_new(&v->of.string, n, p);
}

// sweep_call_handle calls sweep:plugin/handler.handle. buf holds the
// strings; spans are (offset, length) pairs into it: method, path, body,
// then a name and a value per header.
wasmtime_error_t *sweep_call_handle(sweep_call *c, const uint8_t *buf, const size_t *spans, size_t nheaders) {
	sweep_val args[4];
	set_string(&args[0], buf + spans[0], spans[1]);
	set_string(&args[1], buf + spans[2], spans[3]);
	args[2].kind = SWEEP_VAL_LIST;
	wasmtime_component_vallist_new_uninit(&args[2].of.list, nheaders);
	for (size_t i = 0; i < nheaders; i++) {
		sweep_val *pair = &args[2].of.list.data[i];
		const size_t *s = spans + 6 + 4 * i;
		pair->kind = SWEEP_VAL_TUPLE;
		wasmtime_component_valtuple_new_uninit(&pair->of.tuple, 2);
		set_string(&pair->of.tuple.data[0], buf + s[0], s[1]);
		set_string(&pair->of.tuple.data[1], buf + s[2], s[3]);
	}
	set_string(&args[3], buf + spans[4], spans[5]);
	// Result slots must be zeroed: Wasmtime frees what they hold.
	memset(&c->result, 0, sizeof c->result);
	wasmtime_error_t *err = wasmtime_component_func_call(&c->func, c->ctx, args, 4, &c->result, 1);
	for (int i = 0; i < 4; i++)
		wasmtime_component_val_delete(&args[i]);
	if (err != NULL)
		return err;
	return wasmtime_component_func_post_return(&c->func, c->ctx);
}

// sweep_call_run calls wasi:cli/run.run; ok is its result.
wasmtime_error_t *sweep_call_run(sweep_call *c, bool *ok) {
	memset(&c->result, 0, sizeof c->result);
	wasmtime_error_t *err = wasmtime_component_func_call(&c->func, c->ctx, NULL, 0, &c->result, 1);
	if (err != NULL)
		return err;
	*ok = c->result.kind == SWEEP_VAL_RESULT && c->result.of.result.is_ok;
	return wasmtime_component_func_post_return(&c->func, c->ctx);
}

// sweep_call_response reads handle's result, tuple<u16, list<tuple<string,
// string>>, string>; it returns -1 if the result has another shape.
int sweep_call_response(const sweep_call *c, uint16_t *status, size_t *nheaders, const uint8_t **body, size_t *body_len) {
	const sweep_val *r = &c->result;
	if (r->kind != SWEEP_VAL_TUPLE || r->of.tuple.size != 3)
		return -1;
	const sweep_val *t = r->of.tuple.data;
	if (t[0].kind != SWEEP_VAL_U16 || t[1].kind != SWEEP_VAL_LIST || t[2].kind != SWEEP_VAL_STRING)
		return -1;
	for (size_t i = 0; i < t[1].of.list.size; i++) {
		const sweep_val *p = &t[1].of.list.data[i];
		if (p->kind != SWEEP_VAL_TUPLE || p->of.tuple.size != 2 ||
			p->of.tuple.data[0].kind != SWEEP_VAL_STRING || p->of.tuple.data[1].kind != SWEEP_VAL_STRING)
			return -1;
	}
	*status = t[0].of.u16;
	*nheaders = t[1].of.list.size;
	*body = t[2].of.string.data;
	*body_len = t[2].of.string.size;
	return 0;
}

// sweep_call_header reads header i of a result sweep_call_response accepted.
void sweep_call_header(const sweep_call *c, size_t i, const uint8_t **name, size_t *name_len, const uint8_t **value, size_t *value_len) {
	const sweep_val *p = &c->result.of.tuple.data[1].of.list.data[i];
	*name = p->of.tuple.data[0].of.string.data;
	*name_len = p->of.tuple.data[0].of.string.size;
	*value = p->of.tuple.data[1].of.string.data;
	*value_len = p->of.tuple.data[1].of.string.size;
}

// sweep_call_close frees the result and deletes the store, which returns
// the instance's slots to the pool.
void sweep_call_close(sweep_call *c) {
	wasmtime_component_val_delete(&c->result);
	memset(&c->result, 0, sizeof c->result);
	if (c->store != NULL)
		wasmtime_store_delete(c->store);
	c->store = NULL;
}
