package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// readmeMaxLines is the most README.md may hold: it is for users (what
// sweep is, install, the two commands, a real report and how to read it,
// links); the rest lives in docs/, reports/README.md and BENCHMARKS.md.
const readmeMaxLines = 200

// readmeLink is a relative Markdown link or image: its target, without
// an #anchor.
var readmeLink = regexp.MustCompile(`\]\(([^)#:]+)(#[^)]*)?\)`)

// TestReadmeForUsers keeps README.md short, its links pointing at files that
// exist, and its test command the one .ci/run runs.
func TestReadmeForUsers(t *testing.T) {
	root := filepath.Join("..", "..")
	b, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	if n := strings.Count(readme, "\n"); n > readmeMaxLines {
		t.Errorf("README.md has %d lines, want at most %d: move detail to docs/ or reports/README.md", n, readmeMaxLines)
	}
	for _, m := range readmeLink.FindAllStringSubmatch(readme, -1) {
		if _, err := os.Stat(filepath.Join(root, m[1])); err != nil {
			t.Errorf("README.md links to %s: %v", m[1], err)
		}
	}

	// The test command is the code block after "Run the tests:".
	_, after, ok := strings.Cut(readme, "Run the tests:\n\n```sh\n")
	if !ok {
		t.Fatal("README.md has no \"Run the tests:\" followed by a sh code block")
	}
	cmd, _, _ := strings.Cut(after, "\n```")
	ci, err := os.ReadFile(filepath.Join(root, ".ci", "run"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(ci)), "\n")
	if last := lines[len(lines)-1]; last != cmd {
		t.Errorf(".ci/run ends with %q; README.md's test command is %q: .ci/run runs the test command README.md gives", last, cmd)
	}
}
