package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

const readme = "../../README.md"

// readmeBlock is where README.md's Commands block (the fenced block
// after "## Commands") starts and ends in b.
func readmeBlock(t *testing.T, b []byte) (start, end int) {
	t.Helper()
	const head = "## Commands\n\n```\n"
	i := bytes.Index(b, []byte(head))
	if i < 0 {
		t.Fatalf("%s has no %q", readme, head)
	}
	start = i + len(head)
	n := bytes.Index(b[start:], []byte("```\n"))
	if n < 0 {
		t.Fatalf("%s: the Commands block is not closed", readme)
	}
	return start, start + n
}

// TestREADMECommands fails when README.md's Commands block is not what
// the command table renders; -update rewrites the block.
func TestREADMECommands(t *testing.T) {
	b, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	start, end := readmeBlock(t, b)
	var want bytes.Buffer
	writeCommands(&want, "")
	if *update {
		b = append(append(append([]byte{}, b[:start]...), want.Bytes()...), b[end:]...)
		if err := os.WriteFile(readme, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if got := string(b[start:end]); got != want.String() {
		t.Errorf("README.md's Commands block is not what the command table renders; go test ./cmd/sweep -run TestREADMECommands -update rewrites it\n got:\n%s\nwant:\n%s", got, want.String())
	}
}

// TestCommandTable: dispatch reaches every command of the table by its
// name and aliases, `sweep help` lists every form, and `sweep help NAME`
// shows the command's usage.
func TestCommandTable(t *testing.T) {
	var help, stderr bytes.Buffer
	if code := dispatch([]string{"help"}, &help, &stderr); code != 0 {
		t.Fatalf("sweep help: exit %d, %s", code, stderr.String())
	}
	for _, c := range commands() {
		for _, f := range c.forms {
			if !strings.Contains(help.String(), "\n  "+f.usage) || !strings.Contains(help.String(), f.does+"\n") {
				t.Errorf("sweep help lacks %q (%s)", f.usage, f.does)
			}
		}
		if c.name == "" || c.name == "help" {
			continue
		}
		for _, name := range append([]string{c.name}, c.aliases...) {
			if got, ok := lookup(name, false); !ok || got.name != c.name {
				t.Errorf("lookup(%q) = %q, %v; want %q", name, got.name, ok, c.name)
			}
		}
		if u := usageOf(c.name); !strings.HasPrefix(u, "usage: "+c.forms[0].usage) {
			t.Errorf("usageOf(%q) = %q", c.name, u)
		}
	}
	if _, ok := lookup("run", false); ok {
		t.Errorf(`lookup("run") found a command: "sweep run" is not a command (help run is)`)
	}
	if c, ok := lookup("run", true); !ok || c.name != "" {
		t.Errorf(`lookup("run", true) = %q, %v; want the run itself`, c.name, ok)
	}
}

// TestFormsLayout: a usage line shorter than doesColumn gets its
// description on the same line at doesColumn; a longer one on the next.
func TestFormsLayout(t *testing.T) {
	var b bytes.Buffer
	writeForms(&b, "  ", []form{{"sweep x", "does x"}, {strings.Repeat("y", doesColumn), "does y"}})
	want := "  sweep x" + strings.Repeat(" ", doesColumn-len("sweep x")) + "does x\n" +
		"  " + strings.Repeat("y", doesColumn) + "\n  " + strings.Repeat(" ", doesColumn) + "does y\n"
	if b.String() != want {
		t.Errorf("got\n%q\nwant\n%q", b.String(), want)
	}
}
