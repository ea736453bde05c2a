package config

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/fuzz/FuzzParse from configs/ and testdata/bad/")

// fuzzPath is the path Parse sees in the fuzzer; relative plugin paths
// resolve in testdata/.
const fuzzPath = "testdata/fuzz.toml"

// FuzzParse checks that Parse never panics, that every error is one line
// starting with the path and wrapping ErrConfig, and that an accepted
// config is consistent.
func FuzzParse(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse(fuzzPath, data)
		if err != nil {
			checkErrorShape(t, fuzzPath, err)
			return
		}
		if len(c.Points) < 1 || len(c.Points) > MaxPoints {
			t.Fatalf("%d points", len(c.Points))
		}
		if !slices.ContainsFunc(c.Points, c.Baseline.Equal) {
			t.Fatalf("baseline %v is not a grid point", c.Baseline)
		}
		if len(c.Points) == 1 && !c.Load.AA {
			t.Fatal("a single point without its A/A twin was accepted")
		}
		lv := c.Load.Concurrency
		if len(lv) == 0 || !slices.IsSorted(lv) || lv[0] < 1 || lv[len(lv)-1] > MaxConcurrency {
			t.Fatalf("concurrency %v", lv)
		}
		if !slices.Contains(lv, c.Analysis.TargetConcurrency) {
			t.Fatalf("target concurrency %d not in %v", c.Analysis.TargetConcurrency, lv)
		}
		if c.Load.Rounds < 1 || c.Load.Duration <= 0 || c.Load.Warmup <= 0 || c.Load.Timeout <= 0 {
			t.Fatalf("load %+v", c.Load)
		}
		for _, p := range c.Points {
			if set := c.ServerCPUsOf(p); !c.Run.ShareCPUs && set.Overlaps(c.Run.LoadCPUs) {
				t.Fatalf("cpus overlap without share_cpus: %v %v", set, c.Run.LoadCPUs)
			}
		}
	})
}

// corpusSources returns every config and bad fixture, which together are
// the fuzzer's seed corpus, keyed by corpus file name.
func corpusSources(t *testing.T) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for prefix, glob := range map[string]string{
		"config-": filepath.Join(configsDir, "*.toml"),
		"bad-":    "testdata/bad/*.toml",
	} {
		files, err := filepath.Glob(glob)
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range files {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			out[prefix+strings.TrimSuffix(filepath.Base(path), ".toml")] = data
		}
	}
	return out
}

// TestFuzzCorpus keeps testdata/fuzz/FuzzParse in step with the configs
// and bad fixtures (go test -run TestFuzzCorpus -update rewrites it).
func TestFuzzCorpus(t *testing.T) {
	dir := filepath.Join("testdata", "fuzz", "FuzzParse")
	for name, data := range corpusSources(t) {
		want := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", data)
		path := filepath.Join(dir, name)
		if *update {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil || string(got) != want {
			t.Errorf("%s is missing or stale; run go test ./sweep/config -run TestFuzzCorpus -update", path)
		}
	}
}
