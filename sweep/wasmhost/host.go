package wasmhost

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"runtime/cgo"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bytecodealliance/wasmtime-go/v39"

	"github.com/sweep-dev/sweep/sweep/setting"
	"github.com/sweep-dev/sweep/sweep/units"
)

// Defaults of Options.
const (
	DefaultTimeout      = 10 * time.Second
	DefaultMaxBodyBytes = 16 << 20
	// EpochInterval is how often the engine's epoch advances; a request's
	// deadline is rounded up to whole intervals.
	EpochInterval = 10 * time.Millisecond
	// LogInterval bounds how often a failure reason is logged.
	LogInterval = time.Second
)

// Options configures a Host.
type Options struct {
	// Plugin is "workload" (the default, also when empty) or a path to a
	// .wasm or .wat file following the core ABI or the WASI command ABI.
	Plugin string
	// Settings are the pooling options, memory_init_cow and the workload
	// knobs; unset options keep Wasmtime's defaults.
	Settings setting.Settings
	// Timeout bounds each request (wasm execution and io_wait);
	// DefaultTimeout when zero.
	Timeout time.Duration
	// MaxBodyBytes bounds request bodies; DefaultMaxBodyBytes when zero.
	MaxBodyBytes int64
	// Logger receives failure logs (rate limited); nothing is logged when nil.
	Logger *slog.Logger
	// Cache keeps compiled plugin files; DefaultCache() when nil.
	Cache *Cache
	// Compiling, if set, is told when a plugin file is being compiled
	// (not found in the cache; a big component takes minutes), and the
	// function it returns when the compile is over.
	Compiling func(plugin string, bytes int) (done func())
}

// Host is a Wasmtime host serving one plugin: one engine with the pooling
// allocator, and for every request a fresh Store and instance, closed when
// the request ends. It is safe for concurrent use.
type Host struct {
	settings setting.Settings
	timeout  time.Duration
	maxBody  int64
	logger   *slog.Logger

	engine    *wasmtime.Engine
	name      string
	cache     Cache
	compiling func(plugin string, bytes int) (done func())
	info      Info
	// A core plugin has plugin, linker and pre; a component plugin comp.
	linker *wasmtime.Linker
	plugin *plugin
	pre    *instancePre
	comp   *component
	// self is the cgo.Handle through which sweep.param reaches the host.
	self cgo.Handle
	// ticks is the per-request epoch deadline in EpochInterval ticks.
	ticks uint64
	// params are the workload knobs as returned by sweep.param.
	params [numParams]int64
	seq    atomic.Int64

	stats counters
	log   *rateLog
	// inflight counts Invoke calls; Close waits for them after setting
	// closed, so no store outlives the engine.
	inflight atomic.Int64
	closed   atomic.Bool

	stopEpoch chan struct{}
	epochDone sync.WaitGroup
	// epochParked is set while the epoch ticker waits for a request
	// (epoch.go); the request that clears it sends on wakeEpoch.
	epochParked atomic.Bool
	wakeEpoch   chan struct{}
	closeOnce   sync.Once
	bodies      sync.Pool // *[]byte request body buffers
}

// New builds the engine from opts.Settings, compiles the plugin and checks
// that it can be instantiated under those settings.
func New(opts Options) (*Host, error) {
	h := &Host{
		settings:  opts.Settings,
		timeout:   opts.Timeout,
		maxBody:   opts.MaxBodyBytes,
		logger:    opts.Logger,
		name:      opts.Plugin,
		compiling: opts.Compiling,
	}
	if h.name == "" {
		h.name = Workload
	}
	if opts.Cache != nil {
		h.cache = *opts.Cache
	} else {
		var err error
		if h.cache, err = DefaultCache(); err != nil {
			return nil, err
		}
	}
	if h.timeout <= 0 {
		h.timeout = DefaultTimeout
	}
	if h.maxBody <= 0 {
		h.maxBody = DefaultMaxBodyBytes
	}
	if h.logger == nil {
		h.logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	h.ticks = uint64((h.timeout+EpochInterval-1)/EpochInterval) + 1
	s := &h.settings
	h.params = [numParams]int64{
		ParamTouch:         int64(s.Size(setting.Touch)),
		ParamCompute:       int64(s.Uint(setting.Compute)),
		ParamIOWait:        int64(s.Duration(setting.IOWait)),
		ParamResponseBytes: int64(s.Size(setting.ResponseBytes)),
	}
	if err := h.checkWorkload(opts.Plugin); err != nil {
		return nil, err
	}
	if err := checkAddressSpace(s); err != nil {
		return nil, err
	}

	engine, err := newEngine(s)
	if err != nil {
		return nil, err
	}
	h.engine = engine
	if err := h.load(opts.Plugin); err != nil {
		h.closeEngine()
		return nil, err
	}
	h.log = newRateLog(h.logger, LogInterval)
	return h, nil
}

// load compiles and links the plugin (a core module or a component, told
// apart by its header), starts the epoch ticker and probes one
// instantiation. On error the caller calls closeEngine.
func (h *Host) load(name string) error {
	wasm, err := pluginBytes(name, &h.settings)
	if err != nil {
		return err
	}
	comp, err := isComponent(h.pluginName(), wasm)
	if err != nil {
		return err
	}
	h.info.Bytes = len(wasm)
	if comp {
		h.self = cgo.NewHandle(paramSource(h))
		if h.comp, err = h.loadComponent(h.pluginName(), wasm); err != nil {
			return err
		}
		h.info.Kind = h.comp.kind
		h.info.Imports, h.info.Exports = h.comp.imports, h.comp.exports
	} else {
		if h.plugin, err = h.loadPlugin(name, wasm); err != nil {
			return err
		}
		if h.linker, err = h.newLinker(); err != nil {
			return err
		}
		if h.pre, err = newInstancePre(h.linker, h.plugin.module); err != nil {
			return fmt.Errorf("plugin %s cannot be linked: %s", h.pluginName(), causeLine(cleanMessage(err.Error())))
		}
		h.info.CoreInstances = 1
		h.info.Memories, h.info.Tables = coreCounts(wasm)
	}
	h.stopEpoch = make(chan struct{})
	h.wakeEpoch = make(chan struct{}, 1)
	h.epochDone.Add(1)
	go h.tickEpoch()
	return h.probe()
}

// checkWorkload refuses knob values the workload plugin cannot serve in a
// 32-bit linear memory of at most max_memory_size bytes.
func (h *Host) checkWorkload(name string) error {
	if name != "" && name != Workload {
		return nil
	}
	limit := 4 * units.GiB
	if m := h.settings.Size(setting.MaxMemorySize); h.settings.IsSet(setting.MaxMemorySize) && m < limit {
		limit = m
	}
	if need := workloadMemory(&h.settings); need > limit {
		return fmt.Errorf("workload: initial_memory, touch (%s) and response_bytes (%s) need a linear memory of %s, more than max_memory_size %s",
			h.settings.Size(setting.Touch), h.settings.Size(setting.ResponseBytes), need, limit)
	}
	return nil
}

// probe instantiates the plugin once, so that a module that cannot be
// instantiated under the settings (missing imports, a memory larger than
// max_memory_size, too many table elements) fails New rather than every
// request.
func (h *Host) probe() error {
	c := h.newCall(context.Background())
	defer c.release()
	if h.comp != nil {
		err := c.openComponent(nil)
		c.closeComponent()
		c.closeStdout()
		if err == nil {
			return nil
		}
		return fmt.Errorf("plugin %s cannot be instantiated: %s", h.pluginName(), classify(err, h).Msg)
	}
	store, err := c.open(nil)
	if err == nil {
		store.Close()
		c.closeStdout()
		return nil
	}
	e := classify(err, h)
	return fmt.Errorf("plugin %s cannot be instantiated: %s", h.pluginName(), e.Msg)
}

func (h *Host) pluginName() string { return h.name }

// Stats returns a snapshot of the counters.
func (h *Host) Stats() Stats { return h.stats.snapshot() }

// Close refuses new requests, waits for those in flight (each is bounded
// by the timeout), logs pending failure summaries and frees the engine.
func (h *Host) Close() error {
	h.closeOnce.Do(func() {
		h.closed.Store(true)
		for h.inflight.Load() > 0 {
			time.Sleep(time.Millisecond)
		}
		h.log.close()
		h.closeEngine()
	})
	return nil
}

// closeEngine frees what New built, in reverse order; it tolerates a
// partly built host.
func (h *Host) closeEngine() {
	if h.stopEpoch != nil {
		close(h.stopEpoch)
		h.epochDone.Wait()
	}
	h.pre.close()
	h.comp.close()
	if h.linker != nil {
		h.linker.Close()
	}
	if h.self != 0 {
		h.self.Delete()
	}
	if h.plugin != nil && h.plugin.module != nil {
		h.plugin.module.Close()
	}
	h.engine.Close()
}
