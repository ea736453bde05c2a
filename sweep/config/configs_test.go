package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sweep-dev/sweep/sweep"
)

// configsDir holds the example grids shipped with sweep.
const configsDir = "../../configs"

// TestExampleConfigs parses every file in configs/. Command targets name
// "../bin/sweep", which exists only after `make build`, so each file is
// parsed in a copy of the repository layout whose bin/sweep is an
// executable placeholder (it is only looked up, never run), and loaded in
// place as well when the real binary is there (always for builtin ones).
func TestExampleConfigs(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(configsDir, "*.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 5 {
		t.Fatalf("found %d configs in %s, want at least 5", len(files), configsDir)
	}
	tree := t.TempDir()
	for _, d := range []string{"configs", "bin"} {
		if err := os.MkdirAll(filepath.Join(tree, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, exe := range []string{"sweep", "sweep-old"} { // sweep-old: gate.toml's accepted build
		if err := os.WriteFile(filepath.Join(tree, "bin", exe), []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	_, statErr := os.Stat(filepath.Join(configsDir, "..", "bin", "sweep"))
	built := statErr == nil
	// Plugins named by builtin configs are the repository's (built by
	// make js-plugin, which make test runs).
	plugins, err := filepath.Abs(filepath.Join(configsDir, "..", "plugins"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(plugins, filepath.Join(tree, "plugins")); err != nil {
		t.Fatal(err)
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(data), "plugins/js-handler/handler.wasm") && os.Getenv("SWEEP_REQUIRE_JS") == "" {
				if _, err := os.Stat(filepath.Join(plugins, "js-handler", "handler.wasm")); err != nil {
					t.Skip("plugins/js-handler/handler.wasm not built (make js-plugin); set SWEEP_REQUIRE_JS=1 to require it")
				}
			}
			c, err := Parse(filepath.Join(tree, "configs", filepath.Base(path)), data)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			// A templated argv[0] names builds only the user makes (gate.toml).
			if c.Target.Kind == sweep.TargetBuiltin || built && c.Target.Programs == nil {
				if _, err := Load(path); err != nil {
					t.Fatalf("Load in place: %v", err)
				}
			}
			if len(c.Points) < 2 {
				t.Errorf("%d points; an example grid should compare at least two", len(c.Points))
			}
			// A race's time depends on what it finds: its comments state
			// only -dry-run's estimate, which every config quotes (held by
			// cmd/sweep's TestConfigsStateDryRun).
			if c.Load.Race {
				return
			}
			// Every example states its measuring-time estimate; keep it true.
			secs := int(statedTime(c) / time.Second)
			if stated := fmt.Sprintf("= %d s", secs); !strings.Contains(string(data), stated) {
				t.Errorf("the comments do not state the estimate %q (slots × levels × (warmup + rounds × duration))", stated)
			}
			if statedTime(c) >= 5*time.Minute {
				t.Errorf("estimate %v; an example must run in under 5 minutes", statedTime(c))
			}
		})
	}
}

// TestDefaultConfig pins what README.md and docs/CONFIG.md promise about configs/grid.toml.
func TestDefaultConfig(t *testing.T) {
	c, err := Load(filepath.Join(configsDir, "grid.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Target.Kind != sweep.TargetBuiltin || c.Fixed["touch"] != "64KiB" || !c.Load.AA || c.Load.Rounds != 12 {
		t.Errorf("grid.toml: Kind %q touch %q aa %v rounds %d", c.Target.Kind, c.Fixed["touch"], c.Load.AA, c.Load.Rounds)
	}
	if fmt.Sprint(c.Load.Concurrency) != "[1 4 16]" || len(c.Axes) != 1 || c.Axes[0].Name != "linear_memory_keep_resident" {
		t.Errorf("grid.toml: concurrency %v axes %v", c.Load.Concurrency, c.Axes)
	}
	if got := statedTime(c); got != 270*time.Second {
		t.Errorf("grid.toml estimate = %v, want 4m30s", got)
	}
}

// TestRecipes parses the recipes for hosts this machine may not have
// (configs/recipes): each names its host's program on PATH, so a
// placeholder of that name stands in for it (only looked up, never run).
func TestRecipes(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(configsDir, "recipes", "*.toml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no recipes in %s/recipes (%v)", configsDir, err)
	}
	bin := t.TempDir()
	for _, exe := range []string{"wasmtime"} {
		if err := os.WriteFile(filepath.Join(bin, exe), []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			c, err := Load(path)
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			if len(c.Points) < 2 {
				t.Errorf("%d points; a recipe should compare at least two", len(c.Points))
			}
		})
	}
}

// statedTime is the measuring time the example configs' comments state:
// slots × levels × (warmup + rounds × duration), or with restarts =
// "round" slots × levels × rounds × (warmup + duration), the slots being
// the points and the A/A twin. It is the comments' arithmetic, not the
// run's estimate: sweep -dry-run's (cmd/sweep) adds the reference
// server, the blocks and the servers' start-up.
func statedTime(c *Config) time.Duration {
	slots := len(c.Points)
	if c.Load.AA {
		slots++
	}
	perLevel := c.Load.Warmup + time.Duration(c.Load.Rounds)*c.Load.Duration
	if c.Run.Restarts == sweep.RestartsRound {
		perLevel = time.Duration(c.Load.Rounds) * (c.Load.Warmup + c.Load.Duration)
	}
	return time.Duration(slots*len(c.Load.Concurrency)) * perLevel
}
