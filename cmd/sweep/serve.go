//go:build linux && cgo

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/sweep-dev/sweep/sweep/cpuset"
	"github.com/sweep-dev/sweep/sweep/setting"
	"github.com/sweep-dev/sweep/sweep/wasmhost"
)

// shutdownTimeout bounds the graceful shutdown after SIGTERM/SIGINT.
const shutdownTimeout = 5 * time.Second

// runServe is `sweep serve`: the built-in Wasmtime host on one address
// until SIGTERM or SIGINT.
func runServe(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	return serveUntil(ctx, args, stdout, stderr)
}

// serveOptions are the parsed flags of `sweep serve`.
type serveOptions struct {
	listen     string
	plugin     string
	timeout    time.Duration
	gomaxprocs int
	cpus       cpuset.Set
	level      slog.Level
	settings   setting.Settings
}

// parseServeFlags parses args; errors are one line naming the flag. -h
// writes the usage and every flag to help (standard output).
func parseServeFlags(args []string, help io.Writer) (serveOptions, error) {
	fs := flag.NewFlagSet("sweep serve", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	listen := fs.String("listen", "127.0.0.1:0", "address to serve on; loopback only unless -allow-remote")
	allowRemote := fs.Bool("allow-remote", false, "allow a -listen address that is not loopback")
	plugin := fs.String("plugin", wasmhost.Workload, `plugin: "workload" (builtin) or a path to a .wasm or .wat file`)
	settingsJSON := fs.String("settings-json", "", `settings as a JSON object, e.g. '{"total_memories":"64","touch":"64KiB"}' (flags override it)`)
	timeout := fs.Duration("timeout", wasmhost.DefaultTimeout, "per-request deadline (wasm execution and io_wait)")
	gomaxprocs := fs.Int("gomaxprocs", 0, "set runtime.GOMAXPROCS (0: leave the Go default)")
	cpus := fs.String("cpus", "", `pin the whole process to these CPUs, e.g. "0" or "0-1"`)
	logLevel := fs.String("log-level", "info", "log level on stderr: debug, info, warn or error")
	var fromFlags setting.Settings
	fromFlags.RegisterFlags(fs)
	fs.Usage = func() {} // errors are reported in one line by the caller

	var o serveOptions
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(help, usageOf("serve")+"\n\nflags:")
			fs.SetOutput(help)
			fs.PrintDefaults()
		}
		return o, err
	}
	if a := fs.Arg(0); a == "true" || a == "false" {
		return o, fmt.Errorf("unexpected argument %q: boolean flags take their value after '=', e.g. -memory_init_cow=false", a)
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected argument %q (all settings are flags, e.g. -total_memories 64)", fs.Arg(0))
	}
	if err := checkListen(*listen, *allowRemote); err != nil {
		return o, err
	}
	if *timeout <= 0 {
		return o, fmt.Errorf("-timeout %s: want a positive duration", *timeout)
	}
	if *gomaxprocs < 0 {
		return o, fmt.Errorf("-gomaxprocs %d: want 0 or a positive number", *gomaxprocs)
	}
	set, err := cpuset.Parse(*cpus)
	if err != nil {
		return o, fmt.Errorf("-cpus: %w", err)
	}
	if err := o.level.UnmarshalText([]byte(*logLevel)); err != nil {
		return o, fmt.Errorf("-log-level %q: want debug, info, warn or error", *logLevel)
	}
	m, err := parseSettingsJSON(*settingsJSON)
	if err != nil {
		return o, err
	}
	s, err := setting.FromMap(m)
	if err != nil {
		return o, fmt.Errorf("-settings-json: %w", err)
	}
	// Flags override the JSON: re-apply every option flag that was given.
	fs.Visit(func(f *flag.Flag) {
		if o, ok := setting.Lookup(f.Name); ok && err == nil {
			v := f.Value.String()
			if v == "" && o.Knob { // a knob given as zero (-touch 0, -component=false) reads back as unset
				v = "0"
				if o.Kind == setting.Bool {
					v = "false"
				}
			}
			err = s.Set(f.Name, v)
		}
	})
	if err != nil {
		return o, err
	}
	o.listen, o.plugin, o.timeout, o.gomaxprocs, o.cpus, o.settings = *listen, *plugin, *timeout, *gomaxprocs, set, s
	return o, nil
}

// parseSettingsJSON reads a JSON object of settings whose values are
// strings, numbers or booleans.
func parseSettingsJSON(js string) (map[string]string, error) {
	if strings.TrimSpace(js) == "" {
		return nil, nil
	}
	dec := json.NewDecoder(strings.NewReader(js))
	dec.UseNumber()
	var raw map[string]any
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("-settings-json: not a JSON object of settings: %w", err)
	}
	names := make([]string, 0, len(raw))
	for k := range raw {
		names = append(names, k)
	}
	sort.Strings(names)
	m := make(map[string]string, len(raw))
	for _, k := range names {
		switch v := raw[k].(type) {
		case string:
			m[k] = v
		case json.Number:
			m[k] = v.String()
		case bool:
			m[k] = fmt.Sprint(v)
		default:
			return nil, fmt.Errorf("-settings-json: %s: want a string, number or boolean, got %s", k, compactJSON(v))
		}
	}
	return m, nil
}

func compactJSON(v any) string {
	var b bytes.Buffer
	_ = json.NewEncoder(&b).Encode(v)
	return strings.TrimSpace(b.String())
}

// checkListen refuses addresses other than loopback unless allowed.
func checkListen(addr string, allowRemote bool) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("-listen %q: want host:port, e.g. 127.0.0.1:0", addr)
	}
	if allowRemote || host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("-listen %q: not a loopback address (127.0.0.0/8, ::1); pass -allow-remote to serve on it", addr)
	}
	return nil
}

// serveUntil runs the host until ctx is done and returns the exit code.
func serveUntil(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	o, err := parseServeFlags(args, stdout)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintln(stderr, "sweep serve:", err)
		return 2
	}
	// Wasmtime appends a Rust backtrace to every error when RUST_BACKTRACE
	// is set; capturing it costs far more than a failed instantiation
	// itself, which would distort measurements under pool exhaustion.
	if _, ok := os.LookupEnv("RUST_LIB_BACKTRACE"); !ok {
		os.Setenv("RUST_LIB_BACKTRACE", "0")
	}
	if o.gomaxprocs > 0 {
		runtime.GOMAXPROCS(o.gomaxprocs)
	}
	if err := cpuset.PinProcess(0, o.cpus); err != nil {
		fmt.Fprintln(stderr, "sweep serve:", err)
		return 1
	}
	// The Go runtime sized GOMAXPROCS from the affinity it was born with
	// (so a server started pinned already follows its CPU set); -cpus
	// narrows the set afterwards, and the threads follow it here.
	if o.gomaxprocs == 0 && len(o.cpus) > 0 {
		runtime.GOMAXPROCS(len(o.cpus))
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: o.level}))

	host, err := wasmhost.New(wasmhost.Options{Plugin: o.plugin, Settings: o.settings, Timeout: o.timeout, Logger: logger})
	if err != nil {
		fmt.Fprintln(stderr, "sweep serve:", err)
		return 2
	}
	defer host.Close()
	ln, err := net.Listen("tcp", o.listen)
	if err != nil {
		fmt.Fprintln(stderr, "sweep serve:", err)
		return 1
	}
	srv := &http.Server{
		Handler:           host,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()

	ready, _ := json.Marshal(struct {
		Event string `json:"event"`
		Addr  string `json:"addr"`
		PID   int    `json:"pid"`
	}{"ready", ln.Addr().String(), os.Getpid()})
	fmt.Fprintf(stdout, "%s\n", ready)
	logger.Info("serving", "addr", ln.Addr().String(), "plugin", o.plugin, "settings", o.settings.Map(),
		"timeout", o.timeout, "gomaxprocs", runtime.GOMAXPROCS(0), "cpus", o.cpus.String())

	select {
	case err := <-served:
		fmt.Fprintln(stderr, "sweep serve:", err)
		return 1
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		logger.Warn("shutdown", "error", err)
		srv.Close()
	}
	host.Close() // waits for requests still running, flushes failure summaries
	st := host.Stats()
	logger.Info("stopped", "requests", st.Requests, "ok", st.OK, "errors", st.Errors, "live_instances_high_water", st.LiveInstancesHighWater)
	return 0
}
