// Package wasmhost is sweep's built-in Wasmtime host: one engine with the
// pooling allocator configured from setting.Settings, and an HTTP handler
// that serves every request with a fresh instance of a plugin module.
//
// # Per request
//
// Each request gets a new Store (with an epoch deadline of
// Options.Timeout), a new instance from an InstancePre (the plugin's
// imports are resolved once, against host functions defined once per
// engine), one call, and an explicit Store.Close, which returns the
// instance's memory, table and instance slots to the pool (this is where
// linear_memory_keep_resident's reset cost lands). Exports are looked up
// and called through Wasmtime's C API directly, because wasmtime-go's
// wrappers allocate finalizer-carrying objects per lookup and per call
// that cost more than the instantiation. Responses:
//
//	200  the plugin's response
//	503  a pool is exhausted; the body names the limit, e.g.
//	     "pool exhausted: total_core_instances (2) — maximum concurrent limit of 2 for core instances reached"
//	504  "plugin timed out after 10s" (epoch interruption, or io_wait past the deadline)
//	500  the plugin trapped, exited non-zero or broke the ABI
//	413  the request body exceeds Options.MaxBodyBytes
//
// Failures are counted by reason and served with other counters as JSON
// at GET /__sweep/stats (see Stats). They are logged without flooding:
// the first failure of a reason at once, later ones as at most one
// summary line per second and reason ("pool exhausted 1234 times in the
// last 1s: ..."). Rust backtraces are stripped from messages.
//
// # Core-module ABI
//
// A core plugin exports:
//
//	memory                                    its linear memory
//	handle(req_ptr i32, req_len i32) -> i64   required
//	alloc(len i32) -> i32                     optional
//
// If the request has a body and the plugin exports alloc, the host calls
// alloc(len), copies the body to the returned address and calls
// handle(ptr, len); otherwise it calls handle(0, 0). handle returns
// (resp_ptr << 32) | resp_len, both unsigned; the host sends those bytes
// of linear memory as a 200 response. A trap fails the request with 500.
//
// Optional host imports, module "sweep":
//
//	param(id i32) -> i64   workload knobs: 0 touch (bytes), 1 compute
//	                       (units), 2 io_wait (ns), 3 response_bytes;
//	                       4 a number that differs on every call; -1 otherwise
//	io_wait(ns i64)        blocks for ns nanoseconds in the host while the
//	                       instance stays live, as an I/O wait would; it
//	                       traps at the request deadline
//
// The builtin plugin "workload" (workload.wat) follows this ABI: per
// request it writes the first touch bytes of linear memory (page 0 holds
// its data segment), runs compute units of integer work, waits io_wait in
// sweep.io_wait and answers response_bytes bytes, which start with the 16
// hex digits of the compute result. Its initial memory is initial_memory
// (default 17 pages, like a Rust wasm32 module), raised to hold touch and
// response_bytes, so requests do not grow memory; the size matters because
// Wasmtime resets min(keep_resident, memory size) bytes on every
// deallocation. See package setting for the knobs and workload.wat for the
// details.
//
// # WASI command ABI
//
// A module that exports _start and not handle is run as a WASI preview-1
// command (e.g. a Go program built with GOOS=wasip1 GOARCH=wasm): the
// request body is its stdin, its stdout is the response, argv is the
// plugin path, there is no environment, stderr and the filesystem are not
// available. Exit status 0 (proc_exit(0), or returning from main) is
// success; any other status is a 500. If stdout starts with "Status: ",
// it begins with CGI-style headers: "Status: 404 Not Found", further
// "Name: value" lines, a blank line, then the body. Core modules that
// import WASI functions get the same WASI context.
//
// # Components
//
// A plugin whose header is a component's (00 61 73 6d 0d 00 01 00, not a
// core module's 00 61 73 6d 01 00 00 00) is served through Wasmtime's
// component C API (component.c): per request a new store with the epoch
// deadline (and a WASI preview-2 context when the component imports WASI
// or is a command), an instance from the component linker, one call,
// post-return, and the store's deletion. The linker, the component and
// the export index are built once. Three shapes are served:
//
//	sweep:plugin/handler  handle(method, path, headers, body) -> (status,
//	                      headers, body), all strings (plugins/wit/plugin.wit):
//	                      strings cross in bulk, list<u8> would cross the C
//	                      API element by element; a request whose body, path
//	                      or header values are not UTF-8 gets 400
//	wasi:cli/run          run(), the body on stdin and the response on
//	                      stdout as for a preview-1 command (through the
//	                      preview-1 adapter proc_exit(0) is success, any
//	                      other status arrives as 1)
//	wasi:http/incoming-handler  handle(request, response-outparam), the
//	                      standard wasi:http/proxy export (wasihttp.c): the
//	                      method, path with query, scheme, authority, headers
//	                      and body stream in; status, headers and body
//	                      stream out; see plugins/README.md for what of the
//	                      world the host serves
//
// The component linker provides WASI preview 2 (cli, io, clocks, random,
// filesystem, sockets) and sweep:plugin/host (param, io-wait: the workload
// knobs); a wasi:http component's linker also wasi:http/types and
// outgoing-handler, with wasi:io of its own and no sockets. A protocol
// breach of a wasi:http guest (no response set, an error code, a body
// unfinished or not its content-length) is a 500 counted as http_guest.
// A component that imports anything else (wasi:keyvalue, say) or
// exports neither interface is refused at load, naming what it imports
// or exports. Wasmtime checks max_component_instance_size,
// max_core_instances_per_component, max_memories_per_component and
// max_tables_per_component when it loads a component: a refusal is a
// *LimitError naming the option, its value and the need. When
// total_component_instances is exhausted a request gets 503 and counts
// as pool_component_instances. Describe measures what one component
// instance takes from the pool by Wasmtime's own count.
//
// The builtin workload's component twin (knob component = true,
// workload_component.wat) is the workload's core module behind
// sweep:plugin/handler, with a glue module for the canonical ABI.
//
// # Compile cache
//
// Plugin files and the twin are compiled once and cached (Cache: by the
// Wasmtime version, max_memory_size and the SHA-256 of the bytes, each
// entry checked against its own SHA-256; an entry Wasmtime refuses is
// compiled again), so that a 12 MB JavaScript component costs its compile
// (20 s to over a minute here) once, not at every server start. The cache
// keeps to a size limit (DefaultCacheLimit, or $SWEEP_CACHE_MAX): storing
// an entry removes the least recently used others beyond it.
//
// # Limits
//
// Settings reach Wasmtime through its C API (pool_cgo.go with its
// generated pooling.h). sweep's cgo is all in this package: four Go files
// import "C" (capi_cgo.go, pool_cgo.go, component_cgo.go,
// component_export_cgo.go) and compile one C file (component.c); see
// capi_cgo.go. Wasmtime aborts the process when the engine cannot be
// created, so New first refuses settings it knows cannot work:
// max_memory_size above the 4 GiB memory reservation (package setting),
// and a memory or table pool larger than the free virtual address space
// (about 4 GiB per total_memories slot, in one contiguous range).
package wasmhost
