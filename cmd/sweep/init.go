package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/sweep-dev/sweep/configs"
	"github.com/sweep-dev/sweep/sweep"
)

// initFile is where `sweep init` writes without a FILE argument.
const initFile = "sweep.toml"

// runInit is `sweep init [-target builtin|command] [FILE]`: write a
// commented starting config, embedded in the binary, to FILE (default
// sweep.toml, "-" for stdout). It never overwrites a file.
func runInit(args []string, stdout, stderr io.Writer) int {
	set := flag.NewFlagSet("sweep init", flag.ContinueOnError)
	kind := set.String("target", string(sweep.TargetBuiltin), `the target of the config: "builtin" (sweep's own Wasmtime host) or "command" (your server)`)
	if code, ok := parseFlags(set, "init", args, stdout, stderr); !ok {
		return code
	}
	var text string
	switch sweep.TargetKind(*kind) {
	case sweep.TargetBuiltin:
		text = configs.Builtin
	case sweep.TargetCommand:
		text = configs.Command
	default:
		fmt.Fprintf(stderr, "sweep init: -target %q: want %q or %q\n", *kind, sweep.TargetBuiltin, sweep.TargetCommand)
		return 2
	}
	if set.NArg() > 1 {
		fmt.Fprintln(stderr, usageOf("init"))
		return 2
	}
	path := initFile
	if set.NArg() == 1 {
		path = set.Arg(0)
	}
	if path == "-" {
		if _, err := io.WriteString(stdout, text); err != nil {
			fmt.Fprintln(stderr, "sweep init:", err)
			return 1
		}
		return 0
	}
	if err := writeNew(path, text); err != nil {
		fmt.Fprintln(stderr, "sweep init:", err)
		if errors.Is(err, fs.ErrExist) {
			return 2
		}
		return 1
	}
	fmt.Fprintf(stdout, "wrote %s (target %s); next: sweep -config %s -dry-run\n", path, *kind, path)
	return 0
}

// writeNew writes text to a new file at path: an existing file is left
// alone (an error wrapping fs.ErrExist), and a failed write leaves no file.
func writeNew(path, text string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("%s exists; remove it or name another FILE: %w", path, fs.ErrExist)
	}
	if err != nil {
		return fmt.Errorf("writing config: %w", err)
	}
	_, err = io.WriteString(f, text)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}
