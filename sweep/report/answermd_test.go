package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/sweep-dev/sweep/sweep"
)

// TestAnswerSection: a recommendation with settings gets "The settings as
// code" with the four blocks, and its files; one without (a command
// target, an older run) gets neither.
func TestAnswerSection(t *testing.T) {
	rec := &sweep.Recommendation{Objective: sweep.ObjectiveCPUPerReq, Concurrency: 16, Config: "linear_memory_keep_resident=64KiB",
		Settings: map[string]string{"linear_memory_keep_resident": "64KiB", "touch": "64KiB"}}
	s := sweep.Summary{Baseline: "linear_memory_keep_resident=0", Recommendation: rec}
	var b bytes.Buffer
	if err := Markdown(&b, s, nil); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"## The settings as code\n\nThe settings of the recommended config, `linear_memory_keep_resident=64KiB`, to copy",
		"**sweep config** (`answer.toml`):\n\n```toml\n", "**Rust (wasmtime crate)** (`answer.rs`):", "linear_memory_keep_resident(65536)",
		"pooling-memory-keep-resident=65536", "wasmtime_pooling_allocation_config_linear_memory_keep_resident_set(",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("summary.md lacks %q:\n%s", want, b.String())
		}
	}
	files, err := AnswerFiles(s)
	if err != nil || len(files) != 4 || !bytes.Contains(files["answer.toml"], []byte(`linear_memory_keep_resident = "64KiB"`)) {
		t.Errorf("answer files %v, %v; want the four, the TOML with the setting", keys(files), err)
	}
	rec.Settings = nil
	b.Reset()
	if err := Markdown(&b, s, nil); err != nil {
		t.Fatal(err)
	}
	if files, _ := AnswerFiles(s); strings.Contains(b.String(), "settings as code") || len(files) != 0 {
		t.Errorf("without settings: section or files written")
	}
}

func keys(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
