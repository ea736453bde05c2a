package wasmhost

// This file, component.c and component.h serve component plugins through
// Wasmtime's component-model C API, which wasmtime-go v39 does not wrap.
// The per-request path (store, WASI context, instantiation, call,
// post-return, store deletion) runs in component.c; this file compiles
// and inspects the component and moves request and response bytes.

/*
#include <stdlib.h>
#include "component.h"
#include "wasihttp.h"
*/
import "C"

import (
	"fmt"
	"net/http"
	"runtime"
	"runtime/cgo"
	"strings"
	"unsafe"

	"github.com/bytecodealliance/wasmtime-go/v39"
)

// The exports a component plugin may have, by interface name without its
// version: wasi:cli/run's run, or sweep:plugin/handler's handle.
const (
	runInterface     = "wasi:cli/run"
	handlerInterface = "sweep:plugin/handler"
	hostInterface    = "sweep:plugin/host"
	httpInterface    = "wasi:http/incoming-handler"
	httpTypes        = "wasi:http/types@"
)

// providedImports are the interface prefixes the host's component linker
// provides: WASI preview 2 (wasmtime_component_linker_add_wasip2) and
// sweep:plugin/host.
var providedImports = []string{"wasi:cli/", "wasi:io/", "wasi:clocks/", "wasi:random/", "wasi:filesystem/", "wasi:sockets/", hostInterface + "@"}

// httpImports are the interface prefixes the linker of a wasi:http
// component provides (wasihttp.c): wasi:http/types and outgoing-handler
// (which answers every request with an error code), wasi:io, cli stdio,
// monotonic-clock and filesystem of its own, random, environment, exit,
// terminal-* and wall-clock of WASI preview 2, and sweep:plugin/host. Not
// wasi:sockets, whose streams and pollables would be add_wasip2's.
var httpImports = []string{httpTypes, "wasi:http/outgoing-handler@", "wasi:cli/", "wasi:io/", "wasi:clocks/", "wasi:random/", "wasi:filesystem/", hostInterface + "@"}

// component is a compiled component plugin and how to call it. The
// component, linker and export index are shared by all requests.
type component struct {
	c      *C.wasmtime_component_t
	linker *C.wasmtime_component_linker_t
	index  *C.wasmtime_component_export_index_t
	kind   Kind
	wasi   bool
	argv0  *C.char
	// imports and exports are the component's top-level names.
	imports, exports []string
}

// engineC returns the engine's C pointer.
func engineC(e *wasmtime.Engine) (*C.wasm_engine_t, error) {
	p, err := wrapperPointer(e)
	return (*C.wasm_engine_t)(p), err
}

// compileComponent compiles a component binary.
func compileComponent(engine *wasmtime.Engine, wasm []byte) (*C.wasmtime_component_t, error) {
	ep, err := engineC(engine)
	if err != nil {
		return nil, err
	}
	var out *C.wasmtime_component_t
	var p *C.uint8_t
	if len(wasm) > 0 {
		p = (*C.uint8_t)(unsafe.Pointer(&wasm[0]))
	}
	e := C.wasmtime_component_new(ep, p, C.size_t(len(wasm)), &out)
	runtime.KeepAlive(engine)
	runtime.KeepAlive(wasm)
	if e != nil {
		return nil, takeError(e, nil)
	}
	return out, nil
}

// deserializeComponent loads a component serialized by the same Wasmtime
// with a compatible engine; Wasmtime checks the version and settings.
func deserializeComponent(engine *wasmtime.Engine, data []byte) (*C.wasmtime_component_t, error) {
	ep, err := engineC(engine)
	if err != nil {
		return nil, err
	}
	if len(data) == 0 {
		return nil, fmt.Errorf("empty artifact")
	}
	var out *C.wasmtime_component_t
	e := C.wasmtime_component_deserialize(ep, (*C.uint8_t)(unsafe.Pointer(&data[0])), C.size_t(len(data)), &out)
	runtime.KeepAlive(engine)
	runtime.KeepAlive(data)
	if e != nil {
		return nil, takeError(e, nil)
	}
	return out, nil
}

// deleteComponent frees a component.
func deleteComponent(c *C.wasmtime_component_t) { C.wasmtime_component_delete(c) }

// serializeComponent returns the compiled artifact of c.
func serializeComponent(c *C.wasmtime_component_t) ([]byte, error) {
	var vec C.wasm_byte_vec_t
	if e := C.wasmtime_component_serialize(c, &vec); e != nil {
		return nil, takeError(e, nil)
	}
	out := C.GoBytes(unsafe.Pointer(vec.data), C.int(vec.size))
	C.wasm_byte_vec_delete(&vec)
	return out, nil
}

// names lists a component type's imports or exports.
func componentNames(engine *wasmtime.Engine, c *C.wasmtime_component_t, imports bool) ([]string, error) {
	ep, err := engineC(engine)
	if err != nil {
		return nil, err
	}
	ty := C.wasmtime_component_type(c)
	defer C.wasmtime_component_type_delete(ty)
	var n C.size_t
	if imports {
		n = C.wasmtime_component_type_import_count(ty, ep)
	} else {
		n = C.wasmtime_component_type_export_count(ty, ep)
	}
	var out []string
	for i := C.size_t(0); i < n; i++ {
		var name *C.char
		var nameLen C.size_t
		var item C.sweep_item
		var ok C.bool
		if imports {
			ok = C.wasmtime_component_type_import_nth(ty, ep, i, &name, &nameLen, &item)
		} else {
			ok = C.wasmtime_component_type_export_nth(ty, ep, i, &name, &nameLen, &item)
		}
		if !ok {
			continue
		}
		out = append(out, C.GoStringN(name, C.int(nameLen)))
		C.wasmtime_component_item_delete(&item)
	}
	runtime.KeepAlive(engine)
	return out, nil
}

// loadComponent compiles (or takes from the cache) a component plugin,
// checks its imports against what the host provides, finds the export it
// serves and builds its linker. src is the plugin's name for messages.
func (h *Host) loadComponent(name string, wasm []byte) (*component, error) {
	var cc *C.wasmtime_component_t
	err := h.compileCached(name, wasm, true,
		func(data []byte) (err error) {
			if cc, err = deserializeComponent(h.engine, data); err != nil {
				return h.asLimit(err)
			}
			return nil
		},
		func() ([]byte, error) {
			var err error
			if cc, err = compileComponent(h.engine, wasm); err != nil {
				if le := h.asLimit(err); le != err {
					return nil, le
				}
				return nil, fmt.Errorf("plugin %s: compile: %s", name, causeLine(cleanMessage(err.Error())))
			}
			if h.cache.Dir == "" {
				return nil, nil
			}
			return serializeComponent(cc)
		})
	if err != nil {
		return nil, err
	}
	comp := &component{c: cc}
	fail := func(err error) (*component, error) {
		comp.close()
		return nil, fmt.Errorf("plugin %s: %w", name, err)
	}
	if comp.imports, err = componentNames(h.engine, comp.c, true); err != nil {
		return fail(err)
	}
	if comp.exports, err = componentNames(h.engine, comp.c, false); err != nil {
		return fail(err)
	}
	inst, fn := "", ""
	for _, e := range comp.exports {
		switch {
		case versioned(e, handlerInterface):
			comp.kind, inst, fn = KindHandlerComponent, e, "handle"
		case versioned(e, httpInterface) && comp.kind != KindHandlerComponent:
			comp.kind, inst, fn = KindHTTPComponent, e, "handle"
		case versioned(e, runInterface) && inst == "":
			comp.kind, inst, fn = KindRunComponent, e, "run"
		}
	}
	var missing []string
	for _, imp := range comp.imports {
		if !comp.kind.provides(imp) {
			missing = append(missing, imp)
		}
		if strings.HasPrefix(imp, "wasi:") {
			comp.wasi = true
		}
	}
	if len(missing) > 0 {
		return fail(missingImports(comp.kind, inst != "", missing))
	}
	if inst == "" {
		exports := "nothing"
		if len(comp.exports) > 0 {
			exports = strings.Join(comp.exports, ", ")
		}
		return fail(fmt.Errorf("component exports %s; want %s (handle) or %s (run), see plugins/wit/plugin.wit, or %s (handle)", exports, handlerInterface, runInterface, httpInterface))
	}
	if comp.index, err = exportIndex(comp.c, inst, fn); err != nil {
		return fail(err)
	}
	if comp.kind == KindRunComponent {
		comp.wasi = true
	}
	ep, err := engineC(h.engine)
	if err != nil {
		return fail(err)
	}
	if comp.kind == KindHTTPComponent {
		if e := C.sweep_http_linker(ep, C.uintptr_t(h.self), &comp.linker); e != nil {
			return fail(takeError(e, nil))
		}
	} else if e := C.sweep_component_linker(ep, C.bool(comp.wasi), C.uintptr_t(h.self), &comp.linker); e != nil {
		return fail(takeError(e, nil))
	}
	comp.argv0 = C.CString(name)
	return comp, nil
}

// provides reports whether the linker of a component of kind k defines
// import name.
func (k Kind) provides(name string) bool {
	list := providedImports
	if k == KindHTTPComponent {
		list = httpImports
	}
	for _, p := range list {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// missingImports is the one-line refusal of a component whose imports
// the host does not define; served says whether it exports an interface
// the host serves.
func missingImports(k Kind, served bool, missing []string) error {
	list := strings.Join(missing, ", ")
	switch {
	case k == KindHTTPComponent:
		return fmt.Errorf("component imports %s, which the built-in host's wasi:http does not provide (it provides wasi:http/types and outgoing-handler, WASI preview 2 cli, io, clocks, random and filesystem, and %s; not wasi:sockets)",
			list, hostInterface)
	case served && strings.HasPrefix(missing[0], "wasi:http/"):
		return fmt.Errorf("component imports %s, which the built-in host does not provide to this component: it serves wasi:http only to a component that exports %s", list, httpInterface)
	}
	return fmt.Errorf("component imports %s, which the built-in host does not provide (it provides WASI preview 2 cli, io, clocks, random, filesystem and sockets, and %s)",
		list, hostInterface)
}

// versioned reports whether name is iface or iface@version.
func versioned(name, iface string) bool {
	return name == iface || strings.HasPrefix(name, iface+"@")
}

// exportIndex looks up function fn of exported instance inst once.
func exportIndex(c *C.wasmtime_component_t, inst, fn string) (*C.wasmtime_component_export_index_t, error) {
	ci, cf := C.CString(inst), C.CString(fn)
	defer C.free(unsafe.Pointer(ci))
	defer C.free(unsafe.Pointer(cf))
	outer := C.wasmtime_component_get_export_index(c, nil, ci, C.size_t(len(inst)))
	if outer == nil {
		return nil, fmt.Errorf("component has no export %s", inst)
	}
	defer C.wasmtime_component_export_index_delete(outer)
	idx := C.wasmtime_component_get_export_index(c, outer, cf, C.size_t(len(fn)))
	if idx == nil {
		return nil, fmt.Errorf("component export %s has no function %s", inst, fn)
	}
	return idx, nil
}

func (comp *component) close() {
	if comp == nil {
		return
	}
	if comp.linker != nil {
		C.wasmtime_component_linker_delete(comp.linker)
	}
	if comp.index != nil {
		C.wasmtime_component_export_index_delete(comp.index)
	}
	if comp.c != nil {
		C.wasmtime_component_delete(comp.c)
	}
	if comp.argv0 != nil {
		C.free(unsafe.Pointer(comp.argv0))
	}
	*comp = component{}
}

// componentCall is the C state of one component request; it holds C
// pointers only, so it may live in Go memory passed to C.
type componentCall struct {
	c C.sweep_call
	// http is the request state of a wasi:http component (wasihttp.c).
	http *C.sweep_http
}

// openComponent creates the request's store (its data is c.handle, for
// io-wait and stdout) and instantiates the component.
func (c *call) openComponent(body []byte) error {
	h, comp := c.h, c.h.comp
	ep, err := engineC(h.engine)
	if err != nil {
		return err
	}
	c.handle = cgo.NewHandle(stdoutSink(c))
	var in *C.uint8_t
	if len(body) > 0 {
		in = (*C.uint8_t)(unsafe.Pointer(&body[0]))
	}
	var e *C.wasmtime_error_t
	if comp.kind == KindHTTPComponent {
		c.comp.http = C.sweep_http_new()
		e = C.sweep_http_open(&c.comp.c, c.comp.http, ep, comp.linker, comp.c, comp.index, C.uint64_t(h.ticks), C.uintptr_t(c.handle))
	} else {
		e = C.sweep_call_open(&c.comp.c, ep, comp.linker, comp.c, comp.index, C.uint64_t(h.ticks),
			C.uintptr_t(c.handle), C.bool(comp.wasi), in, C.size_t(len(body)), comp.argv0)
	}
	runtime.KeepAlive(h.engine)
	runtime.KeepAlive(body)
	if e != nil {
		return takeError(e, nil)
	}
	return nil
}

// closeComponent deletes the request's store, returning its slots to the
// pool; the caller then deletes the stdout handle.
func (c *call) closeComponent() {
	C.sweep_call_close(&c.comp.c)
	if c.comp.http != nil {
		C.sweep_http_free(c.comp.http)
		c.comp.http = nil
	}
}

// runComponentCommand calls wasi:cli/run's run; the response is stdout,
// CGI-style as for a preview-1 command.
func (c *call) runComponentCommand() error {
	var ok C.bool
	e := C.sweep_call_run(&c.comp.c, &ok)
	if e != nil {
		return c.exited(takeError(e, nil))
	}
	if !ok {
		return &Error{Reason: Trap, Msg: "plugin's run returned an error",
			Detail: fmt.Sprintf("wasi:cli/run returned err; stdout: %q", truncate(c.out, 200))}
	}
	return nil
}

// handleComponent calls sweep:plugin/handler's handle with the request
// and writes its response to w.
func (c *call) handleComponent(req *request, body []byte, w http.ResponseWriter) error {
	buf, spans := req.flatten(c.flat[:0], c.spans[:0], body)
	c.flat, c.spans = buf, spans
	var bp *C.uint8_t
	if len(buf) > 0 {
		bp = (*C.uint8_t)(unsafe.Pointer(&buf[0]))
	}
	e := C.sweep_call_handle(&c.comp.c, bp, (*C.size_t)(unsafe.Pointer(&spans[0])), C.size_t((len(spans)-6)/4))
	runtime.KeepAlive(buf)
	runtime.KeepAlive(spans)
	if e != nil {
		return takeError(e, nil)
	}
	var status C.uint16_t
	var nh, blen C.size_t
	var bodyp *C.uint8_t
	if C.sweep_call_response(&c.comp.c, &status, &nh, &bodyp, &blen) != 0 {
		return abiError("handle returned a value that is not tuple<u16, list<tuple<string, string>>, string>")
	}
	if status < 100 || status > 599 {
		return abiError("handle returned status %d; want 100-599", status)
	}
	hdr := w.Header()
	var contentType []string
	for i := C.size_t(0); i < nh; i++ {
		var n, v *C.uint8_t
		var nl, vl C.size_t
		C.sweep_call_header(&c.comp.c, i, &n, &nl, &v, &vl)
		name := http.CanonicalHeaderKey(C.GoStringN((*C.char)(unsafe.Pointer(n)), C.int(nl)))
		value := C.GoStringN((*C.char)(unsafe.Pointer(v)), C.int(vl))
		switch name {
		case "Content-Type":
			contentType = []string{value}
		case "Content-Length":
			// Recomputed from the body.
		default:
			hdr.Add(name, value)
		}
	}
	var out []byte
	if blen > 0 {
		out = unsafe.Slice((*byte)(unsafe.Pointer(bodyp)), int(blen))
	}
	writeBody(w, int(status), contentType, out)
	return nil
}
