package setting

import (
	"fmt"
	"go/build"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The excerpts of Wasmtime v39.0.1's source in testdata/wasmtime-v39, each
// line of which is "N:" and line N of the file.
const (
	rustConfigExcerpt = "testdata/wasmtime-v39/config.rs.excerpt"
	cliFlagsExcerpt   = "testdata/wasmtime-v39/cli-flags-lib.rs.excerpt"
	cliOptExcerpt     = "testdata/wasmtime-v39/cli-flags-opt.rs.excerpt"
)

// excerptLines returns the source lines of an excerpt, without its
// header comment and line numbers.
func excerptLines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	numbered := regexp.MustCompile(`^[0-9]+:`)
	var lines []string
	for _, l := range strings.Split(string(b), "\n") {
		if loc := numbered.FindStringIndex(l); loc != nil {
			lines = append(lines, l[loc[1]:])
		}
	}
	if len(lines) == 0 {
		t.Fatalf("%s has no source lines", path)
	}
	return lines
}

// rustMethods parses the excerpt of crates/wasmtime/src/config.rs: the
// names of the pub fns of each impl block (impl TYPE { … }), by type.
func rustMethods(t *testing.T) map[string]map[string]bool {
	implRE := regexp.MustCompile(`^impl ([A-Za-z]+) \{$`)
	fnRE := regexp.MustCompile(`^    pub fn ([a-z0-9_]+)\(`)
	methods := map[string]map[string]bool{}
	var impl string
	for _, l := range excerptLines(t, rustConfigExcerpt) {
		switch m := implRE.FindStringSubmatch(l); {
		case m != nil:
			impl = m[1]
			methods[impl] = map[string]bool{}
		case l == "}":
			impl = ""
		case impl != "":
			if f := fnRE.FindStringSubmatch(l); f != nil {
				methods[impl][f[1]] = true
			}
		}
	}
	return methods
}

// cliKeys parses the excerpt of crates/cli-flags/src/lib.rs: the -O keys,
// the fields of the OptimizeOptions struct in its wasmtime_option_group!
// with '_' replaced by '-', as crates/cli-flags/src/opt.rs matches them.
func cliKeys(t *testing.T) map[string]bool {
	lines := excerptLines(t, cliFlagsExcerpt)
	text := strings.Join(lines, "\n")
	for _, want := range []string{
		"#[arg(short = 'O', long = \"optimize\"",
		"opts_raw: Vec<opt::CommaSeparated<Optimize>>,",
	} {
		if !strings.Contains(text, want) {
			t.Fatalf("%s: -O is not the Optimize group: no %q", cliFlagsExcerpt, want)
		}
	}
	if !strings.Contains(strings.Join(excerptLines(t, cliOptExcerpt), "\n"), `let s = s.replace('_', "-");`) {
		t.Fatalf("%s: the option name rule (underscores to dashes) is not there", cliOptExcerpt)
	}
	fieldRE := regexp.MustCompile(`^        pub ([a-z0-9_]+): Option<`)
	keys := map[string]bool{}
	in := false
	for i, l := range lines {
		switch {
		case l == "    pub struct OptimizeOptions {":
			in = i > 0 && lines[i-1] == "wasmtime_option_group! {"
		case l == "    }":
			in = false
		case in:
			if m := fieldRE.FindStringSubmatch(l); m != nil {
				keys[strings.ReplaceAll(m[1], "_", "-")] = true
			}
		}
	}
	if len(keys) == 0 {
		t.Fatalf("%s: no fields of OptimizeOptions", cliFlagsExcerpt)
	}
	return keys
}

// TestWasmtimeNames checks the table's Rust method and CLI key of every
// Wasmtime option against Wasmtime v39.0.1's own source (the excerpts in
// testdata/wasmtime-v39): a pooling option's Rust name is a method of
// PoolingAllocationConfig, memory_init_cow's a method of Config, and each
// CLI key is an -O option (or NoCLI, and then no -O option is named like
// the option, with or without pooling-).
func TestWasmtimeNames(t *testing.T) {
	methods := rustMethods(t)
	keys := cliKeys(t)
	// The calls around the options that sweep/answer writes.
	for _, m := range []struct{ impl, name string }{
		{"Config", "new"}, {"Config", "allocation_strategy"}, {"Config", "memory_init_cow"},
		{"PoolingAllocationConfig", "new"},
	} {
		if !methods[m.impl][m.name] {
			t.Errorf("%s: %s has no method %s", rustConfigExcerpt, m.impl, m.name)
		}
	}
	if rust := strings.Join(excerptLines(t, rustConfigExcerpt), "\n"); !strings.Contains(rust, "pub enum InstanceAllocationStrategy {\n    Pooling(PoolingAllocationConfig),\n}") {
		t.Errorf("%s: no InstanceAllocationStrategy::Pooling(PoolingAllocationConfig)", rustConfigExcerpt)
	}
	if !keys["pooling-allocator"] {
		t.Errorf("%s: no -O pooling-allocator", cliFlagsExcerpt)
	}
	for _, o := range Options() {
		if o.Knob {
			if o.Rust != "" || o.CLI != "" {
				t.Errorf("%s is a workload knob, not a Wasmtime option: Rust %q, CLI %q", o.Name, o.Rust, o.CLI)
			}
			continue
		}
		impl := "PoolingAllocationConfig"
		if !o.Pooling {
			impl = "Config"
		}
		if o.Rust == "" || !methods[impl][o.Rust] {
			t.Errorf("%s: Rust %q is not a method of wasmtime::%s in %s", o.Name, o.Rust, impl, rustConfigExcerpt)
		}
		switch {
		case o.CLI == "":
			t.Errorf("%s: no CLI (write NoCLI when the wasmtime CLI has none)", o.Name)
		case o.CLI == NoCLI:
			dashed := strings.ReplaceAll(o.Name, "_", "-")
			for _, guess := range []string{dashed, "pooling-" + dashed} {
				if keys[guess] {
					t.Errorf("%s: CLI is NoCLI, but -O %s is in %s", o.Name, guess, cliFlagsExcerpt)
				}
			}
		case !keys[o.CLI]:
			t.Errorf("%s: CLI %q is not an -O option in %s", o.Name, o.CLI, cliFlagsExcerpt)
		}
	}
}

// TestCSetters checks every Wasmtime option's CSetter against the
// wasmtime/config.h that the wasmtime-go module of go.mod ships: the
// macro that declares the setter and the name it pastes together.
func TestCSetters(t *testing.T) {
	header := strings.Join(strings.Fields(string(wasmtimeConfigHeader(t))), " ")
	for _, want := range []string{
		"#define WASMTIME_POOLING_ALLOCATION_CONFIG_PROP(name, ty) \\ WASM_API_EXTERN void wasmtime_pooling_allocation_config_##name##_set( \\ wasmtime_pooling_allocation_config_t *, ty);",
		"#define WASMTIME_CONFIG_PROP(ret, name, ty) \\ WASM_API_EXTERN ret wasmtime_config_##name##_set(wasm_config_t *, ty);",
		"wasmtime_pooling_allocation_config_new()",
		"wasmtime_pooling_allocation_strategy_set(",
		"wasmtime_pooling_allocation_config_delete(",
	} {
		if !strings.Contains(header, want) {
			t.Errorf("wasmtime/config.h has no %q", want)
		}
	}
	for _, o := range Options() {
		var decl, name string
		switch {
		case o.Knob:
			if o.CSetter() != "" {
				t.Errorf("workload knob %s has a C setter %q", o.Name, o.CSetter())
			}
			continue
		case o.Pooling:
			decl = fmt.Sprintf("WASMTIME_POOLING_ALLOCATION_CONFIG_PROP(%s,", o.Name)
			name = "wasmtime_pooling_allocation_config_" + o.Name + "_set"
		default:
			decl = fmt.Sprintf("WASMTIME_CONFIG_PROP(void, %s,", o.Name)
			name = "wasmtime_config_" + o.Name + "_set"
		}
		if !strings.Contains(header, decl) {
			t.Errorf("%s: wasmtime/config.h has no %s", o.Name, decl)
		}
		if o.CSetter() != name {
			t.Errorf("%s: CSetter() = %q, config.h declares %s", o.Name, o.CSetter(), name)
		}
	}
}

// wasmtimeConfigHeader reads wasmtime/config.h from the module directory
// of the wasmtime-go version in go.mod, or skips the test when the module
// cache is not at hand.
func wasmtimeConfigHeader(t *testing.T) []byte {
	const mod = "github.com/bytecodealliance/wasmtime-go/v39"
	gomod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	version := ""
	for _, line := range strings.Split(string(gomod), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == mod {
			version = f[1]
		}
	}
	cache := os.Getenv("GOMODCACHE")
	if cache == "" {
		cache = filepath.Join(build.Default.GOPATH, "pkg", "mod")
	}
	path := filepath.Join(cache, filepath.FromSlash(mod)+"@"+version, "build", "include", "wasmtime", "config.h")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("wasmtime-go's config.h: %v", err)
	}
	return b
}
