package config

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// configTableMarker starts the table of shipped configs in docs/CONFIG.md,
// the one list of them (README.md links to it).
const configTableMarker = "<!-- configs table:"

// configTableRow is a row of that table: its first cell names a file.
var configTableRow = regexp.MustCompile("^\\| `(configs/[^`]+)` \\|")

// TestConfigTable keeps docs/CONFIG.md's table of configs true to
// configs/: every configs/*.toml and configs/*/*.toml has exactly one
// row, and every row names a file that exists.
func TestConfigTable(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(configsDir, "..", "docs", "CONFIG.md"))
	if err != nil {
		t.Fatal(err)
	}
	rows := configTable(t, string(doc))
	var files []string
	for _, pattern := range []string{"*.toml", "*/*.toml"} {
		m, err := filepath.Glob(filepath.Join(configsDir, pattern))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range m {
			rel, err := filepath.Rel(filepath.Join(configsDir, ".."), f)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, filepath.ToSlash(rel))
		}
	}
	if len(files) < 5 {
		t.Fatalf("found %d configs in %s, want at least 5", len(files), configsDir)
	}
	for _, f := range files {
		if n := occurrences(rows, f); n != 1 {
			t.Errorf("docs/CONFIG.md's configs table has %d rows for %s, want 1: add a row saying what it asks", n, f)
		}
	}
	for _, r := range rows {
		if !slices.Contains(files, r) {
			t.Errorf("docs/CONFIG.md's configs table names %s, which is not a configs/*.toml or configs/*/*.toml file: remove the row or fix the name", r)
		}
	}
}

// configTable is the files named by the table after configTableMarker in
// doc, in order; the table ends at the first line that is not a row.
func configTable(t *testing.T, doc string) []string {
	t.Helper()
	_, after, ok := strings.Cut(doc, configTableMarker)
	if !ok {
		t.Fatalf("docs/CONFIG.md has no %q line before its configs table", configTableMarker)
	}
	lines := strings.Split(after, "\n")[1:] // the rest of the marker's line
	var rows []string
	for i, line := range lines {
		if !strings.HasPrefix(line, "|") {
			break
		}
		if i < 2 { // the header and its rule
			continue
		}
		m := configTableRow.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("docs/CONFIG.md configs table: row %q does not start with a `configs/...` file", line)
		}
		rows = append(rows, m[1])
	}
	if len(rows) == 0 {
		t.Fatal("docs/CONFIG.md: the configs table after the marker has no rows")
	}
	return rows
}

// occurrences is how many times s occurs in list.
func occurrences(list []string, s string) int {
	n := 0
	for _, x := range list {
		if x == s {
			n++
		}
	}
	return n
}
