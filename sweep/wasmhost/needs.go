package wasmhost

import (
	"errors"
	"fmt"

	"github.com/bytecodealliance/wasmtime-go/v39"

	"github.com/sweep-dev/sweep/sweep/setting"
)

// Describe builds a host for opts (compiling the plugin, or loading it
// from the compile cache, and instantiating it once), and returns what it
// serves. For a component it also measures what one instance takes from
// the pool, by Wasmtime's own accounting: the component is loaded into an
// engine whose per-component limit is 0, once per limit, and Wasmtime's
// refusal says how many core instances, memories and tables it needs.
func Describe(opts Options) (Info, error) {
	h, err := New(opts)
	if err != nil {
		return Info{}, err
	}
	defer h.Close()
	if h.comp == nil {
		return h.info, nil
	}
	art, err := serializeComponent(h.comp.c)
	if err != nil {
		return h.info, fmt.Errorf("plugin %s: %w", h.pluginName(), err)
	}
	for _, n := range []struct {
		id  setting.ID
		out *int
	}{
		{setting.MaxCoreInstancesPerComponent, &h.info.CoreInstances},
		{setting.MaxMemoriesPerComponent, &h.info.Memories},
		{setting.MaxTablesPerComponent, &h.info.Tables},
	} {
		need, err := h.need(n.id, art)
		if err != nil {
			return h.info, err
		}
		*n.out = need
	}
	return h.info, nil
}

// need loads the artifact into an engine with h's pooling options and
// option id at 0, and returns what Wasmtime says the component needs.
func (h *Host) need(id setting.ID, artifact []byte) (int, error) {
	raw := map[setting.ID]uint64{}
	for _, o := range setting.Options() {
		if v, ok := h.settings.Value(o.ID); o.Pooling && ok {
			raw[o.ID] = v
		}
	}
	raw[id] = 0
	cfg := wasmtime.NewConfig()
	cfg.SetEpochInterruption(true)
	if h.settings.IsSet(setting.MemoryInitCOW) {
		cfg.SetMemoryInitCOWSet(h.settings.Bool(setting.MemoryInitCOW))
	}
	if err := applyRaw(cfg, raw); err != nil {
		cfg.Close()
		return 0, err
	}
	engine := wasmtime.NewEngineWithConfig(cfg)
	defer engine.Close()
	c, err := deserializeComponent(engine, artifact)
	if err == nil {
		deleteComponent(c)
		return 0, nil // loads with none
	}
	var le *LimitError
	if errors.As(h.asLimit(err), &le) {
		return int(le.Need), nil
	}
	return 0, fmt.Errorf("plugin %s: measuring %s: %w", h.pluginName(), setting.Options()[id].Name, err)
}

// asLimit turns a load error into a *LimitError when it is one.
func (h *Host) asLimit(err error) error {
	if le := h.limitError(causeLine(cleanMessage(err.Error()))); le != nil {
		return le
	}
	return err
}
