package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// usage writes every command's usage lines and the exit codes.
func usage(w io.Writer) {
	fmt.Fprintln(w, "usage:")
	writeCommands(w, "  ")
	fmt.Fprintln(w, "\nexit codes: 0 ok, 1 failure or regression, 2 bad usage or bad config")
	fmt.Fprintln(w, "`sweep help COMMAND` or `sweep COMMAND -h` lists a command's flags; see README.md and docs/CONFIG.md")
}

// usageOf is a command's usage lines ("" is the sweep run itself).
func usageOf(name string) string {
	c, ok := lookup(name, true)
	if !ok {
		return ""
	}
	var b strings.Builder
	writeForms(&b, "  ", c.forms)
	return "usage: " + strings.TrimSuffix(strings.TrimPrefix(b.String(), "  "), "\n")
}

// parseFlags parses args into fs, the flag set of command name. -h or
// -help prints the command's usage and every flag to stdout and gives
// exit code 0; a bad flag prints the error and the usage to stderr and
// gives 2. ok is true when the command should go on.
func parseFlags(fs *flag.FlagSet, name string, args []string, stdout, stderr io.Writer) (code int, ok bool) {
	show := func(w io.Writer) {
		if name == "" { // sweep itself: every command, then the run's flags
			usage(w)
		} else {
			fmt.Fprintln(w, usageOf(name))
		}
		if hasFlags(fs) {
			fmt.Fprintln(w, "\nflags:")
			fs.SetOutput(w)
			fs.PrintDefaults()
			fs.SetOutput(stderr)
		}
	}
	fs.SetOutput(io.Discard) // the error is said below, on one line
	fs.Usage = func() {}     // shown below, where it belongs
	err := fs.Parse(args)
	fs.SetOutput(stderr)
	switch {
	case errors.Is(err, flag.ErrHelp):
		show(stdout)
		return 0, false
	case err != nil:
		prog := strings.TrimSpace("sweep " + name)
		fmt.Fprintf(stderr, "%s: %v (%s -h lists the flags)\n", prog, err, prog)
		return 2, false
	}
	fs.Usage = func() { show(stderr) }
	return 0, true
}

// hasFlags reports whether fs defines any flag.
func hasFlags(fs *flag.FlagSet) bool {
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	return n > 0
}

// runHelp is `sweep help [COMMAND]`.
func runHelp(args []string, stdout, stderr io.Writer) int {
	switch {
	case len(args) == 0:
		usage(stdout)
		return 0
	case len(args) > 1:
		fmt.Fprintln(stderr, "usage: sweep help [COMMAND]")
		return 2
	case args[0] == "help":
		fmt.Fprintln(stdout, usageOf("help"))
		return 0
	}
	if c, ok := lookup(args[0], true); ok {
		return c.run([]string{"-h"}, stdout, stderr)
	}
	all := names(func(command) bool { return true })
	fmt.Fprintf(stderr, "sweep help: unknown command %q (commands: %s)\n", args[0], strings.Join(all, ", "))
	return 2
}
