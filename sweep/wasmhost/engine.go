package wasmhost

import (
	"errors"
	"fmt"

	"github.com/bytecodealliance/wasmtime-go/v39"

	"github.com/sweep-dev/sweep/sweep/setting"
)

// newEngine builds a Wasmtime engine with the pooling allocator configured
// from s, epoch interruption on (for request deadlines), and
// memory_init_cow as set. Callers check the settings first
// (checkAddressSpace): Wasmtime aborts the process when it cannot create
// the engine.
func newEngine(s *setting.Settings) (*wasmtime.Engine, error) {
	cfg := wasmtime.NewConfig()
	cfg.SetEpochInterruption(true)
	if s.IsSet(setting.MemoryInitCOW) {
		cfg.SetMemoryInitCOWSet(s.Bool(setting.MemoryInitCOW))
	}
	if err := applyPooling(cfg, s); err != nil {
		cfg.Close()
		return nil, fmt.Errorf("configure pooling allocator: %w", err)
	}
	engine := wasmtime.NewEngineWithConfig(cfg)
	if _, err := wrapperPointer(engine); err != nil {
		return nil, errors.New("wasmtime: engine creation failed")
	}
	return engine, nil
}
