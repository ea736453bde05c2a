package answer

import (
	"bytes"
	"flag"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/sweep-dev/sweep/sweep/config"
	"github.com/sweep-dev/sweep/sweep/setting"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// cases are recommended points' settings, as config.Config.Settings gives
// them; each has its golden files in testdata/NAME/.
var cases = []struct {
	name     string
	settings map[string]string
}{
	{"defaults", map[string]string{}},
	{"keep-resident", map[string]string{
		"linear_memory_keep_resident": "64KiB", "table_keep_resident": "512KiB",
		"max_unused_warm_slots": "10", "decommit_batch_size": "4", "memory_init_cow": "false",
		"touch": "1MiB", "compute": "40",
	}},
	{"pools", map[string]string{
		"total_memories": "64", "total_tables": "64", "total_core_instances": "256",
		"total_component_instances": "64", "max_memory_size": "16MiB",
		"max_core_instance_size": "1000", "table_elements": "10000", "memory_init_cow": "true",
		"linear_memory_keep_resident": "1MiB", "component": "true", "io_wait": "1ms",
	}},
}

// TestGolden compares the files of each case with testdata/NAME/; -update
// rewrites them.
func TestGolden(t *testing.T) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			files, err := Files(c.settings)
			if err != nil {
				t.Fatal(err)
			}
			dir := filepath.Join("testdata", c.name)
			if *update {
				if err := os.RemoveAll(dir); err != nil {
					t.Fatal(err)
				}
				if err := os.MkdirAll(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				for name, b := range files {
					if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
			entries, err := os.ReadDir(dir)
			if err != nil {
				t.Fatalf("%v (run go test ./sweep/answer -update)", err)
			}
			if len(entries) != len(files) {
				t.Errorf("%s has %d files, the answer %d", dir, len(entries), len(files))
			}
			for name, b := range files {
				want, err := os.ReadFile(filepath.Join(dir, name))
				if err != nil {
					t.Errorf("%v (run go test ./sweep/answer -update)", err)
					continue
				}
				if !bytes.Equal(b, want) {
					t.Errorf("%s differs from %s/%s (go test ./sweep/answer -update rewrites it):\n%s", name, dir, name, b)
				}
			}
		})
	}
}

// TestBlocksAndFiles: four blocks, in order, one file each; Files holds
// exactly the blocks' texts.
func TestBlocksAndFiles(t *testing.T) {
	blocks, err := Blocks(cases[1].settings)
	if err != nil {
		t.Fatal(err)
	}
	files, err := Files(cases[1].settings)
	if err != nil {
		t.Fatal(err)
	}
	var langs []string
	for _, b := range blocks {
		langs = append(langs, b.Lang)
		if b.Title == "" || !strings.HasSuffix(b.Text, "\n") {
			t.Errorf("block %q: empty title or no final newline", b.File)
		}
		if string(files[b.File]) != b.Text {
			t.Errorf("Files[%q] is not the block's text", b.File)
		}
	}
	if want := []string{"toml", "rust", "sh", "c"}; !slices.Equal(langs, want) {
		t.Errorf("block languages %v, want %v", langs, want)
	}
	if len(files) != len(blocks) {
		t.Errorf("%d files for %d blocks", len(files), len(blocks))
	}
}

// roundTripCases adds to cases one that sets every option of the table,
// at values of each kind's edges (a size without a unit, the largest
// integer, zero).
func roundTripCases() []map[string]string {
	every := map[string]string{}
	for _, o := range setting.Options() {
		v := map[setting.Kind]string{setting.Count: "7", setting.Int: "3", setting.Size: "192KiB",
			setting.Bool: "false", setting.Duration: "250us"}[o.Kind]
		every[o.Name] = v
	}
	every["max_core_instance_size"] = "1000"
	every["table_elements"] = "18446744073709551615"
	every["max_unused_warm_slots"] = "0"
	every["async_stack_keep_resident"] = "0"
	out := []map[string]string{every}
	for _, c := range cases {
		out = append(out, c.settings)
	}
	return out
}

// TestTOMLParsesBack reads each sweep fragment through sweep's config
// loader: the config it gives fixes exactly the settings it was rendered
// from.
func TestTOMLParsesBack(t *testing.T) {
	for _, m := range roundTripCases() {
		want, err := setting.FromMap(m)
		if err != nil {
			t.Fatal(err)
		}
		files, err := Files(m)
		if err != nil {
			t.Fatal(err)
		}
		text := files[tomlFile]
		cfg, err := config.Parse(filepath.Join(t.TempDir(), tomlFile), text)
		if err != nil {
			t.Errorf("the fragment does not parse: %v\n%s", err, text)
			continue
		}
		if len(cfg.Axes) != 0 {
			t.Errorf("the fragment has axes %v", cfg.Axes)
		}
		got, err := setting.FromMap(cfg.Fixed)
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("the fragment parses back to %v, want %v\n%s", got.Map(), want.Map(), text)
		}
	}
}

// TestWasmtimeBlocks: the Rust, CLI and C blocks set exactly the
// Wasmtime options that are set, each by its name in the table with its
// value in bytes, and no workload knob.
func TestWasmtimeBlocks(t *testing.T) {
	calls := map[string]*regexp.Regexp{
		rustFile: regexp.MustCompile(`(?m)^(?:pool|config)\.([a-z_]+)\(([^)]*)\);`),
		cliFile:  regexp.MustCompile(`(?m)^  -O ([a-z-]+)=([^ ]*) \\$`),
		cFile:    regexp.MustCompile(`(?m)^(wasmtime_[a-z_]+)\((?:pool|config), ([^)]*)\);`),
	}
	// The calls around the options.
	frame := map[string]bool{"allocation_strategy": true, "pooling-allocator": true, "wasmtime_pooling_allocation_strategy_set": true}
	for _, m := range roundTripCases() {
		s, err := setting.FromMap(m)
		if err != nil {
			t.Fatal(err)
		}
		files, err := Files(m)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]map[string]string{rustFile: {}, cliFile: {}, cFile: {}}
		for _, o := range setting.Options() {
			if o.Knob || !s.IsSet(o.ID) {
				continue
			}
			lit, _ := number(s, o, false)
			cLit, _ := number(s, o, true)
			cliLit := lit
			if o.Kind == setting.Bool {
				cliLit = map[string]string{"true": "y", "false": "n"}[lit]
			}
			want[rustFile][o.Rust] = lit
			want[cliFile][o.CLI] = cliLit
			want[cFile][o.CSetter()] = cLit
		}
		for file, re := range calls {
			got := map[string]string{}
			for _, c := range re.FindAllStringSubmatch(string(files[file]), -1) {
				if !frame[c[1]] {
					got[c[1]] = c[2]
				}
			}
			if !maps.Equal(got, want[file]) {
				t.Errorf("%s sets %v, want %v:\n%s", file, got, want[file], files[file])
			}
		}
	}
}

// TestValues: sizes are bytes in the Rust, C and CLI blocks, with the
// short form as a comment; sweep's notation in the TOML.
func TestValues(t *testing.T) {
	s, err := setting.FromMap(map[string]string{"linear_memory_keep_resident": "64KiB", "max_core_instance_size": "1000",
		"table_elements": "18446744073709551615", "memory_init_cow": "true"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		id          setting.ID
		c           bool
		lit, toml   string
		wantComment string
	}{
		{setting.LinearMemoryKeepResident, false, "65536", `"64KiB"`, " // 64KiB"},
		{setting.MaxCoreInstanceSize, false, "1000", `"1000B"`, ""},
		{setting.TableElements, false, "18446744073709551615", `"18446744073709551615"`, ""},
		{setting.TableElements, true, "18446744073709551615ULL", `"18446744073709551615"`, ""},
		{setting.MemoryInitCOW, true, "true", "true", ""},
	} {
		o := c.id.Option()
		lit, comment := number(s, o, c.c)
		if lit != c.lit || comment != c.wantComment {
			t.Errorf("number(%s, c=%v) = %q, %q; want %q, %q", o.Name, c.c, lit, comment, c.lit, c.wantComment)
		}
		if got := tomlValue(s, o); got != c.toml {
			t.Errorf("tomlValue(%s) = %s, want %s", o.Name, got, c.toml)
		}
	}
}

// TestNoCLIFlag: an option the wasmtime CLI has no flag for is said so in
// a comment, not given a flag. (Every option of Wasmtime 39 has one, so
// the test gives a table where one has none.)
func TestNoCLIFlag(t *testing.T) {
	s, err := setting.FromMap(map[string]string{"total_gc_heaps": "8", "total_memories": "16"})
	if err != nil {
		t.Fatal(err)
	}
	table := setting.Options()
	table[setting.TotalGCHeaps].CLI = setting.NoCLI
	got := cli(s, table)
	if !strings.Contains(got, "# total_gc_heaps = 8: the wasmtime CLI has no flag for it; set it with the Rust or C API.\n") {
		t.Errorf("no comment for total_gc_heaps:\n%s", got)
	}
	if strings.Contains(got, "gc-heaps=") || strings.Contains(got, "-O none") || !strings.Contains(got, "-O pooling-total-memories=16 \\\n") {
		t.Errorf("wrong flags:\n%s", got)
	}
}

// TestBadSettings: an unknown name or a bad value is an error that wraps
// setting's.
func TestBadSettings(t *testing.T) {
	for _, m := range []map[string]string{
		{"linear_memory_keep_resdent": "64KiB"},
		{"linear_memory_keep_resident": "2MB"},
	} {
		want := func() error { _, err := setting.FromMap(m); return err }()
		if _, err := Files(m); err == nil || err.Error() != "answer: "+want.Error() {
			t.Errorf("Files(%v) = %v, want answer: %v", m, err, want)
		}
	}
}
