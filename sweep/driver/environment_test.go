package driver

import (
	"fmt"
	"testing"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/config"
)

// TestEnvironmentEnginePagemap: a builtin target records that its engine
// leaves PAGEMAP_SCAN off (engine_pagemap_scan false, beside the kernel's
// pagemap_scan); a command target records nothing about its engine.
func TestEnvironmentEnginePagemap(t *testing.T) {
	command := fmt.Sprintf(`
name = "command"
[target]
kind = "command"
command = [%q, "-port", "{{port}}", "-burn", "{{burn}}"]
[grid]
burn = ["100us", "200us"]
`, bins.burner)
	for _, tc := range []struct {
		path string // a config file, or "" for command
		kind sweep.TargetKind
	}{
		{"../../configs/grid.toml", sweep.TargetBuiltin},
		{"", sweep.TargetCommand},
	} {
		var c *config.Config
		if tc.path == "" {
			c = loadConfig(t, t.TempDir(), command)
		} else {
			var err error
			if c, err = config.Load(tc.path); err != nil {
				t.Fatal(err)
			}
		}
		e := Environment(c)
		if e.Target != tc.kind {
			t.Fatalf("%s: target %q, want %q", tc.path, e.Target, tc.kind)
		}
		if e.PagemapScan == nil {
			t.Errorf("%s: pagemap_scan not recorded", tc.path)
		}
		got := e.EnginePagemapScan
		switch {
		case tc.kind == sweep.TargetBuiltin && got == nil:
			t.Errorf("%s: engine_pagemap_scan not recorded, want false", tc.path)
		case tc.kind == sweep.TargetBuiltin && *got:
			t.Errorf("%s: engine_pagemap_scan = true, want false", tc.path)
		case tc.kind == sweep.TargetCommand && got != nil:
			t.Errorf("%s: engine_pagemap_scan = %v, want unrecorded", tc.path, *got)
		}
	}
}
