//go:build linux && cgo

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/config"
	"github.com/sweep-dev/sweep/sweep/driver"
	"github.com/sweep-dev/sweep/sweep/policy/expect"
	"github.com/sweep-dev/sweep/sweep/report"
	"github.com/sweep-dev/sweep/sweep/results"
	"github.com/sweep-dev/sweep/sweep/rundir"
	"github.com/sweep-dev/sweep/sweep/shard"
	"github.com/sweep-dev/sweep/sweep/target"
	"github.com/sweep-dev/sweep/sweep/wasmhost"
)

// runSweep is `sweep -config FILE`: run, summarise, render.
func runSweep(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("sweep", flag.ContinueOnError)
	cfgPath := fs.String("config", "", "grid config (TOML)")
	out := fs.String("out", "", "run directory (default reports/<name>-<UTC timestamp>)")
	resume := fs.String("resume", "", "continue the interrupted run in `DIR` (uses DIR/config.toml)")
	dry := fs.Bool("dry-run", false, "print the plan and the estimated wall time, run nothing")
	quiet := fs.Bool("q", false, "quiet: no progress and no log below errors; errors, the config's warnings and the final line still print")
	verbose := fs.Bool("v", false, "verbose: log server starts and restarts")
	prof := fs.Bool("profile", false, "profile each cell with perf in one more window after the measured ones (analysis.profile)")
	shardFlag := fs.String("shard", "", "run only shard `i/n` of the plan's blocks (0 ≤ i < n; i = an engine's 0-based array index); combine the shards with sweep merge")
	if code, ok := parseFlags(fs, "", args, stdout, stderr); !ok {
		return code
	}
	var sh shard.Spec
	if *shardFlag != "" {
		var err error
		if sh, err = shard.Parse(*shardFlag); err != nil {
			fmt.Fprintln(stderr, "sweep:", err)
			return 2
		}
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "sweep: unexpected argument %q (commands: init, serve, merge, report, check, version, help)\n", fs.Arg(0))
		return 2
	}
	switch {
	case *resume != "" && *cfgPath != "":
		fmt.Fprintln(stderr, "sweep: -resume DIR uses DIR/config.toml; do not pass -config too")
		return 2
	case *resume != "":
		*cfgPath = rundir.Dir(*resume).Config()
		*out = *resume
	case *cfgPath == "":
		fmt.Fprintln(stderr, "sweep: -config FILE is required (`sweep init` writes a starting config; `sweep help` lists the commands)")
		return 2
	}
	// The compile cache's environment is checked before the config, so a
	// bad $SWEEP_CACHE_MAX is not reported as a fault of the plugin.
	if _, err := wasmhost.DefaultCache(); err != nil {
		fmt.Fprintln(stderr, "sweep:", err)
		return 2
	}
	var plugins []sweep.Plugin
	cfg, err := loadConfig(*cfgPath, *resume)
	if err == nil && *resume != "" {
		sh, err = resumedShard(*resume, *shardFlag, sh)
	}
	if err == nil {
		var progress io.Writer = stderr
		if *quiet {
			progress = io.Discard
		}
		plugins, err = checkPlugins(cfg, progress)
	}
	if err == nil && cfg.Load.Race && !sh.Whole() {
		err = fmt.Errorf("-shard %s: load.rounds = \"race\" cannot be sharded (its decisions are global); run it whole", sh)
	}
	if err != nil {
		fmt.Fprintln(stderr, "sweep:", err)
		return 2
	}
	if cfg.Target.AllowRemote {
		fmt.Fprintf(stderr, "sweep: warning: %s: target.allow_remote = true: load may go to a non-loopback host (target.url = %q)\n", cfg.Path, cfg.Target.URL)
	}
	if *prof {
		cfg.Analysis.Profile = true
	}
	if w := driver.NoVerdictWarning(cfg); w != "" {
		fmt.Fprintf(stderr, "sweep: warning: %s: %s\n", cfg.Path, w)
	}
	if *dry {
		pv := driver.Preview(cfg, sh)
		pv.Expected, _ = expect.Windows(pv.Plan, pv.Measured)
		if err := report.Preview(stdout, pv); err != nil {
			fmt.Fprintln(stderr, "sweep:", err)
			return 1
		}
		return 0
	}
	dir := *out
	if dir == "" {
		dir = filepath.Join("reports", fmt.Sprintf("%s-%s", cfg.Name, time.Now().UTC().Format("20060102T150405Z")))
	}
	if *resume == "" {
		if _, err := os.Stat(rundir.Dir(dir).Results()); err == nil {
			fmt.Fprintf(stderr, "sweep: %s already holds a run; continue it with -resume %s or pick another -out\n", dir, dir)
			return 2
		}
	}
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintln(stderr, "sweep: cannot find own executable:", err)
		return 1
	}

	level := slog.LevelWarn
	if *verbose {
		level = slog.LevelInfo
	} else if *quiet {
		level = slog.LevelError
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	var progress io.Writer = stderr
	if *quiet {
		progress = nil
	}
	if !*quiet {
		done := map[sweep.WindowKey]bool{}
		if *resume != "" {
			if ws, err := results.Read(rundir.Dir(dir).Results()); err == nil {
				for _, w := range ws {
					done[w.Key()] = true
				}
			}
		}
		what := cfg.Name
		if !sh.Whole() {
			what += fmt.Sprintf(" shard %s (blocks %s)", sh, report.BlockList(sh.Blocks(len(driver.Blocks(cfg)))))
		}
		fmt.Fprintf(stderr, "sweep: %s → %s (estimated %s)\n", what, dir, driver.Estimate(cfg, sh, done).Round(time.Second))
	}

	ctx, stop, finishing := interruptible(stderr)
	defer stop()
	outcome, runErr := driver.Run(ctx, driver.Options{Config: cfg, Dir: dir, Resume: *resume != "", Shard: sh, Exe: exe, Progress: progress, Log: log, Plugins: plugins})
	// A second Ctrl-C may be on its way out: it kills the servers (which
	// also ends driver.Run) and exits. Once it has begun, this path must
	// not report an orderly stop; finishing blocks it until the exit.
	finishing()
	target.KillAll()

	code := 0
	if runErr != nil {
		if errors.Is(runErr, context.Canceled) {
			fmt.Fprintf(stderr, "sweep: interrupted; %d of %d windows kept in %s (continue with -resume %s)\n",
				outcome.Measured, outcome.Planned, dir, dir)
		} else {
			fmt.Fprintln(stderr, "sweep:", runErr)
		}
		code = 1
	}
	if outcome.Measured > 0 {
		if err := report.Render(dir); err != nil {
			fmt.Fprintln(stderr, "sweep: rendering report:", err)
			code = 1
		}
	}
	if code == 0 && outcome.Failed > 0 {
		fmt.Fprintf(stderr, "sweep: %d windows failed (see summary.md)\n", outcome.Failed)
		if outcome.Failed >= outcome.Measured {
			fmt.Fprintln(stderr, "sweep: no window was measured: every one failed")
			code = 1
		}
	}
	fmt.Fprintf(stdout, "%s\n", rundir.Dir(dir).SummaryMD())
	return code
}

// interruptible returns a context cancelled by the first SIGINT/SIGTERM;
// a second one kills every server and exits at once. finishing is called
// by the orderly path before it reports: after a second signal it blocks
// until that exit, so the report of an orderly stop never follows "exiting
// now". A second signal after finishing has returned still exits at once,
// cutting the report short.
func interruptible(stderr io.Writer) (ctx context.Context, stop func(), finishing func()) {
	ctx, cancel := context.WithCancel(context.Background())
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	exiting := make(chan struct{}) // closed when the second signal is acted on
	go func() {
		<-ch
		fmt.Fprintln(stderr, "\nsweep: stopping after this window's cleanup (Ctrl-C again to exit at once)")
		cancel()
		<-ch
		close(exiting)
		target.KillAll()
		fmt.Fprintln(stderr, "sweep: exiting now")
		os.Exit(130)
	}()
	finishing = func() {
		select {
		case <-exiting:
			select {} // os.Exit is on its way
		default:
		}
	}
	return ctx, func() { signal.Stop(ch); cancel() }, finishing
}

// loadConfig loads the config to run. On resume it is the run directory's
// config.toml, parsed as if it still lived at its original path so that
// relative plugin and command paths resolve as they did.
func loadConfig(path, resumeDir string) (*config.Config, error) {
	if resumeDir == "" {
		return config.Load(path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%s is not a resumable run directory: %w", resumeDir, err)
	}
	o, err := rundir.ReadOrigin(resumeDir)
	if err != nil {
		return nil, err
	}
	if o.ConfigPath == "" {
		o.ConfigPath = path
	}
	return config.Parse(o.ConfigPath, data)
}

// resumedShard is the shard a resumed run continues: the one its
// origin.json records. A -shard flag given with -resume must name it.
func resumedShard(dir, flagValue string, flagSpec shard.Spec) (shard.Spec, error) {
	o, err := rundir.ReadOrigin(dir)
	if err != nil {
		return shard.Spec{}, err
	}
	var sh shard.Spec
	if o.Shard != "" {
		if sh, err = shard.Parse(o.Shard); err != nil {
			return sh, fmt.Errorf("%s: %w", rundir.Dir(dir).Origin(), err)
		}
	}
	if flagValue != "" && flagSpec != sh {
		had := "the whole plan"
		if o.Shard != "" {
			had = "shard " + o.Shard
		}
		return sh, fmt.Errorf("-shard %s: %s holds %s; -resume continues it as it was (drop -shard)", flagValue, dir, had)
	}
	return sh, nil
}

// checkPlugins loads a builtin target's plugin as its servers will
// (wasmhost.Preflight), so that a plugin that is corrupt, does not follow
// a plugin ABI, or that a point's per-component pool limits refuse, is a
// config error before anything is written, not a run of failed windows.
// It returns the plugins the grid serves, for the summary. A compile that
// runs longer than a second is announced on progress, and its end too: a
// big component takes minutes, and is then cached.
func checkPlugins(c *config.Config, progress io.Writer) ([]sweep.Plugin, error) {
	if c.Target.Kind != sweep.TargetBuiltin {
		return nil, nil
	}
	var points []wasmhost.PreflightPoint
	for _, p := range c.Points {
		points = append(points, wasmhost.PreflightPoint{Label: p.Label(), Settings: c.Settings(p)})
	}
	compiling := func(plugin string, bytes int) (done func()) {
		start := time.Now()
		slow := time.AfterFunc(time.Second, func() {
			fmt.Fprintf(progress, "sweep: compiling plugin %s (%.1f MB)...\n", plugin, float64(bytes)/1e6)
		})
		return func() {
			if !slow.Stop() {
				fmt.Fprintf(progress, "sweep: compiled %s in %s; the compiled code is cached for later servers and runs\n", plugin, time.Since(start).Round(100*time.Millisecond))
			}
		}
	}
	plugins, err := wasmhost.Preflight(c.Target.Plugin, points, compiling)
	if err != nil {
		return nil, fmt.Errorf("%s: target.plugin = %q: %s", c.Path, c.Target.Plugin, strings.Join(strings.Fields(err.Error()), " "))
	}
	return plugins, nil
}
