// Package answer writes a run's recommended settings as code to copy: a
// sweep config fragment that sweep reads back, the wasmtime crate's
// PoolingAllocationConfig builder calls (Rust), `wasmtime serve -O`
// flags, and Wasmtime C API calls. The names come from the option table
// of package setting (Option.Rust, Option.CLI, Option.CSetter), which its
// tests check against Wasmtime 39's own source and headers.
//
// It is pure: settings in, text out. Workload knobs (setting.Option.Knob)
// are sweep's, not Wasmtime's: they appear in the sweep fragment only.
package answer

import (
	"bytes"
	"fmt"
	"math"
	"strconv"

	"github.com/sweep-dev/sweep/sweep/setting"
	"github.com/sweep-dev/sweep/sweep/units"
)

// Block is one form of the answer: the text to copy, and the file of the
// run directory it is written to.
type Block struct {
	// Title names the form, e.g. "wasmtime serve flags".
	Title string
	// Lang is the language of a Markdown code fence around Text.
	Lang string
	// File is the file name in the run directory.
	File string
	// Text ends with a newline.
	Text string
}

// The files of the answer in a run directory, one per form.
const (
	tomlFile = "answer.toml"
	rustFile = "answer.rs"
	cliFile  = "answer-wasmtime-serve.sh"
	cFile    = "answer.c"
)

// Blocks renders settings, a point's full settings as name → value in
// sweep's notation (config.Config.Settings of the recommended point), in
// the four forms, in this order: sweep config (TOML), Rust, wasmtime
// serve flags, C. Options are written in the option table's order; an
// option that is not set keeps Wasmtime's default and is not written.
func Blocks(settings map[string]string) ([]Block, error) {
	s, err := setting.FromMap(settings)
	if err != nil {
		return nil, fmt.Errorf("answer: %w", err)
	}
	return []Block{
		{Title: "sweep config", Lang: "toml", File: tomlFile, Text: sweepTOML(s)},
		{Title: "Rust (wasmtime crate)", Lang: "rust", File: rustFile, Text: rust(s)},
		{Title: "wasmtime serve flags", Lang: "sh", File: cliFile, Text: cli(s, setting.Options())},
		{Title: "C API", Lang: "c", File: cFile, Text: capi(s)},
	}, nil
}

// Files returns the answer's files for a run directory: file name →
// contents, one file per block of Blocks.
func Files(settings map[string]string) (map[string][]byte, error) {
	blocks, err := Blocks(settings)
	if err != nil {
		return nil, err
	}
	files := make(map[string][]byte, len(blocks))
	for _, b := range blocks {
		files[b.File] = []byte(b.Text)
	}
	return files, nil
}

// set returns the options of the table that s sets, in table order,
// the workload knobs or the Wasmtime options.
func set(s setting.Settings, knobs bool) []setting.Option {
	var out []setting.Option
	for _, o := range setting.Options() {
		if o.Knob == knobs && s.IsSet(o.ID) {
			out = append(out, o)
		}
	}
	return out
}

// sweepTOML renders the [workload] and [settings] tables of a sweep
// config, values in sweep's notation: sizes with units and durations as
// strings, counts and integers as TOML integers, booleans as booleans.
func sweepTOML(s setting.Settings) string {
	var b bytes.Buffer
	b.WriteString("# The recommended settings as a sweep config fragment: [workload] and\n")
	b.WriteString("# [settings] fix them for every point. Add the [target], [grid] (without\n")
	b.WriteString("# these names) and [load] of your config around them.\n")
	for _, section := range []struct {
		name  string
		knobs bool
	}{{"workload", true}, {"settings", false}} {
		opts := set(s, section.knobs)
		if len(opts) == 0 {
			if !section.knobs {
				b.WriteString("\n[settings]\n# none: Wasmtime's defaults\n")
			}
			continue
		}
		fmt.Fprintf(&b, "\n[%s]\n", section.name)
		for _, o := range opts {
			fmt.Fprintf(&b, "%s = %s\n", o.Name, tomlValue(s, o))
		}
	}
	return b.String()
}

// tomlValue is the TOML value of option o in s.
func tomlValue(s setting.Settings, o setting.Option) string {
	v, _ := s.Get(o.Name)
	raw, _ := s.Value(o.ID)
	switch o.Kind {
	case setting.Bool:
		return v
	case setting.Count, setting.Int:
		if raw <= math.MaxInt64 {
			return v
		}
	}
	return strconv.Quote(v)
}

// number is the value of a Wasmtime option in s as a Rust or C integer
// literal (sizes in bytes) or boolean, with a comment for a size that has
// a shorter form in sweep's notation ("65536 // 64KiB").
func number(s setting.Settings, o setting.Option, c bool) (lit, comment string) {
	raw, _ := s.Value(o.ID)
	switch o.Kind {
	case setting.Bool:
		return strconv.FormatBool(raw != 0), ""
	case setting.Size:
		if sz := units.Size(raw).String(); sz != strconv.FormatUint(raw, 10)+"B" && raw != 0 {
			comment = " // " + sz
		}
	}
	lit = strconv.FormatUint(raw, 10)
	if c && raw > math.MaxInt64 {
		lit += "ULL"
	}
	return lit, comment
}

// rust renders the wasmtime crate's builder calls.
func rust(s setting.Settings) string {
	var b bytes.Buffer
	b.WriteString("// The recommended settings for the wasmtime crate (Wasmtime 39). Sizes are\n")
	b.WriteString("// bytes; an option not set here keeps Wasmtime's default.\n")
	b.WriteString("use wasmtime::{Config, InstanceAllocationStrategy, PoolingAllocationConfig};\n\n")
	var pooling, other []setting.Option
	for _, o := range set(s, false) {
		if o.Pooling {
			pooling = append(pooling, o)
		} else {
			other = append(other, o)
		}
	}
	if len(pooling) == 0 {
		b.WriteString("let pool = PoolingAllocationConfig::new();\n")
	} else {
		b.WriteString("let mut pool = PoolingAllocationConfig::new();\n")
	}
	for _, o := range pooling {
		lit, comment := number(s, o, false)
		fmt.Fprintf(&b, "pool.%s(%s);%s\n", o.Rust, lit, comment)
	}
	b.WriteString("\nlet mut config = Config::new();\n")
	b.WriteString("config.allocation_strategy(InstanceAllocationStrategy::Pooling(pool));\n")
	for _, o := range other {
		lit, comment := number(s, o, false)
		fmt.Fprintf(&b, "config.%s(%s);%s\n", o.Rust, lit, comment)
	}
	return b.String()
}

// cli renders a `wasmtime serve` command line with one -O flag per
// Wasmtime option of s, looking the options' CLI keys up in table (the
// option table; a test gives its own). An option the CLI has no flag for
// (setting.NoCLI) is named in a comment above the command instead.
func cli(s setting.Settings, table []setting.Option) string {
	var b bytes.Buffer
	b.WriteString("# The recommended settings as `wasmtime serve` flags (Wasmtime 39's -O\n")
	b.WriteString("# options; sizes are plain integers of bytes). Replace component.wasm\n")
	b.WriteString("# with your wasi:http component.\n")
	flags := []string{"pooling-allocator=y"}
	for _, o := range set(s, false) {
		o = table[o.ID]
		lit, _ := number(s, o, false)
		if o.Kind == setting.Bool {
			lit = map[string]string{"true": "y", "false": "n"}[lit]
		}
		if o.CLI == setting.NoCLI {
			fmt.Fprintf(&b, "# %s = %s: the wasmtime CLI has no flag for it; set it with the Rust or C API.\n", o.Name, lit)
			continue
		}
		flags = append(flags, o.CLI+"="+lit)
	}
	b.WriteString("wasmtime serve \\\n")
	for _, f := range flags {
		fmt.Fprintf(&b, "  -O %s \\\n", f)
	}
	b.WriteString("  component.wasm\n")
	return b.String()
}

// capi renders the Wasmtime C API calls (wasmtime/config.h).
func capi(s setting.Settings) string {
	var b bytes.Buffer
	b.WriteString("// The recommended settings for Wasmtime's C API (Wasmtime 39,\n")
	b.WriteString("// wasmtime/config.h). Sizes are bytes; an option not set here keeps\n")
	b.WriteString("// Wasmtime's default.\n")
	b.WriteString("wasm_config_t *config = wasm_config_new();\n")
	b.WriteString("wasmtime_pooling_allocation_config_t *pool = wasmtime_pooling_allocation_config_new();\n")
	var other []setting.Option
	for _, o := range set(s, false) {
		if !o.Pooling {
			other = append(other, o)
			continue
		}
		lit, comment := number(s, o, true)
		fmt.Fprintf(&b, "%s(pool, %s);%s\n", o.CSetter(), lit, comment)
	}
	b.WriteString("wasmtime_pooling_allocation_strategy_set(config, pool);\n")
	b.WriteString("wasmtime_pooling_allocation_config_delete(pool);\n")
	for _, o := range other {
		lit, comment := number(s, o, true)
		fmt.Fprintf(&b, "%s(config, %s);%s\n", o.CSetter(), lit, comment)
	}
	return b.String()
}
