package setting

import (
	"bytes"
	"flag"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite docs/settings.md from the option table")

const referenceFile = "../../docs/settings.md"

// TestReference fails when docs/settings.md is not what the option table
// renders; -update rewrites it (go generate does).
func TestReference(t *testing.T) {
	want := reference()
	if *update {
		if err := os.WriteFile(referenceFile, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(referenceFile)
	if err != nil {
		t.Fatalf("%v (run go generate ./sweep/setting)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is not what the option table renders; run go generate ./sweep/setting", referenceFile)
	}
	// Every option has one row, in the table for its section.
	text := string(want)
	workload := strings.Index(text, "## [workload]")
	settings := strings.Index(text, "## [settings]")
	for _, o := range Options() {
		row := referenceRow(o) + o.Doc
		i := strings.Index(text, row)
		if i < 0 || strings.Count(text, "\n| `"+o.Name+"` |") != 1 {
			t.Errorf("no single row %q", row)
			continue
		}
		if o.Knob != (i > workload && i < settings) {
			t.Errorf("%s is in the wrong table", o.Name)
		}
	}
}
