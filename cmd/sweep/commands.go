package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// command is one subcommand of sweep. The table of commands drives
// dispatch, `sweep help` and README.md's Commands block
// (TestREADMECommands).
type command struct {
	name string // "" is the sweep run itself
	// aliases are other names: dispatch takes them for a named command;
	// for the run itself `sweep help` alone does ("help run").
	aliases  []string
	forms    []form
	measures bool // needs Linux and cgo (the Wasmtime host, probes, pinning)
	run      func(args []string, stdout, stderr io.Writer) int
}

// form is one usage line of a command and what it does.
type form struct{ usage, does string }

// commands are sweep's commands, in the order `sweep help` lists them.
func commands() []command {
	return []command{
		{name: "", aliases: []string{"run", "sweep"}, measures: true, run: runSweep, forms: []form{
			{"sweep -config FILE [-out DIR] [-resume DIR] [-shard i/n] [-profile] [-dry-run] [-q] [-v]", "run a sweep (or shard i of n of its blocks)"}}},
		{name: "init", run: runInit, forms: []form{
			{"sweep init [-target builtin|command] [FILE]", "write a commented starting config (default sweep.toml; - for stdout)"}}},
		{name: "serve", measures: true, run: runServe, forms: []form{
			{"sweep serve [flags]", "the built-in Wasmtime host alone"}}},
		{name: "merge", run: runMerge, forms: []form{
			{"sweep merge -out DIR RUN_DIR...", "combine the shards of one sweep (-shard) into one run directory, or summarise one whole run again"}}},
		{name: "report", run: runReport, forms: []form{
			{"sweep report DIR", "re-render a run's reports from its data"}}},
		{name: "check", run: runCheck, forms: []form{
			{"sweep check [flags] RUN_DIR", "the release gate: new vs old build in one run (paired)"},
			{"sweep check [flags] -baseline OLD [-baseline OLD2 ...] NEW", "the same across runs (unpaired; weaker)"}}},
		{name: "version", aliases: []string{"-version", "--version"}, run: runVersion, forms: []form{
			{"sweep version", "sweep's, Go's and Wasmtime's versions"}}},
		{name: "help", run: runHelp, forms: []form{
			{"sweep help [COMMAND]", "the commands, or a command's flags"}}},
	}
}

// lookup finds the command named name (or one of its aliases); the run
// itself only when run is true.
func lookup(name string, run bool) (command, bool) {
	for _, c := range commands() {
		if c.name == "" && !run {
			continue
		}
		if c.name == name || slices.Contains(c.aliases, name) {
			return c, true
		}
	}
	return command{}, false
}

// doesColumn is where a usage line's description starts.
const doesColumn = 65

// writeForms writes forms one a line after indent, each description at
// doesColumn (on a line of its own under a usage line too long for it).
func writeForms(w io.Writer, indent string, forms []form) {
	for _, f := range forms {
		if len(f.usage) < doesColumn {
			fmt.Fprintf(w, "%s%-*s%s\n", indent, doesColumn, f.usage, f.does)
			continue
		}
		fmt.Fprintf(w, "%s%s\n%s%s%s\n", indent, f.usage, indent, strings.Repeat(" ", doesColumn), f.does)
	}
}

// writeCommands writes every command's forms (README.md's Commands
// block with no indent).
func writeCommands(w io.Writer, indent string) {
	for _, c := range commands() {
		writeForms(w, indent, c.forms)
	}
}

// names lists the named commands for which keep is true.
func names(keep func(command) bool) []string {
	var out []string
	for _, c := range commands() {
		if c.name != "" && keep(c) {
			out = append(out, c.name)
		}
	}
	return out
}
