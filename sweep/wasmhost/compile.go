package wasmhost

import (
	"errors"
	"fmt"
	"time"

	"github.com/bytecodealliance/wasmtime-go/v39"
)

// compileCached gives the plugin wasm to deserialize from h.cache when an
// entry exists and Wasmtime accepts it; otherwise it compiles it (and
// logs that a compile is running: a big component takes minutes) and
// stores the artifact for the next server. compile returns the
// serialized artifact.
func (h *Host) compileCached(name string, wasm []byte, component bool, deserialize func([]byte) error, compile func() ([]byte, error)) error {
	key := cacheKey(wasm, &h.settings, component)
	if data, took, err := h.cache.load(key); err == nil {
		start := time.Now()
		err := deserialize(data)
		var le *LimitError
		switch {
		case err == nil:
			h.info.Cached = true
			h.info.LoadTime = time.Since(start)
			h.info.CompileTime = took
			return nil
		case errors.As(err, &le):
			return err // the entry is good; the settings refuse it
		}
		h.cache.drop(key) // another Wasmtime or other settings: stale
	}
	h.logger.Info("compiling plugin", "plugin", name, "bytes", len(wasm), "cache", h.cache.Dir)
	start := time.Now()
	if h.compiling != nil {
		done := h.compiling(name, len(wasm))
		defer done()
	}
	art, err := compile()
	h.info.CompileTime = time.Since(start)
	h.info.LoadTime = h.info.CompileTime
	if err != nil {
		return err
	}
	if err := h.cache.store(key, art, h.info.CompileTime); err != nil {
		h.logger.Warn("compile cache not written", "plugin", name, "err", err)
		return nil
	}
	if n, bytes := h.cache.prune(key); n > 0 {
		h.logger.Info("compile cache pruned", "entries", n, "bytes", bytes, "limit", h.cache.Limit, "cache", h.cache.Dir)
	}
	return nil
}

// compileModule compiles a core module through the cache.
func (h *Host) compileModule(name string, wasm []byte) (*wasmtime.Module, error) {
	var m *wasmtime.Module
	err := h.compileCached(name, wasm, false,
		func(data []byte) (err error) {
			m, err = wasmtime.NewModuleDeserialize(h.engine, data)
			return err
		},
		func() ([]byte, error) {
			var err error
			if m, err = wasmtime.NewModule(h.engine, wasm); err != nil {
				return nil, fmt.Errorf("plugin %s: compile: %s", name, causeLine(cleanMessage(err.Error())))
			}
			return m.Serialize()
		})
	return m, err
}
