// Command figures reads the output directory of bench/run.sh and prints
// the figures of BENCHMARKS.md as a Markdown table, each against its goal.
// Every figure is a ratio (or a count) of quantities measured in the same
// run, because absolute times drift on a shared machine.
//
//	figures DIR
//
// DIR holds what bench/run.sh wrote: floor.txt (the pinned Invoke
// microbenchmark), host/ (bench/host.toml), loadcmp.jsonl, aa-never-N/ and
// aa-round-N/ (bench/aa-*.toml), grid/ and small/ with wall.tsv and
// rss-grid.tsv, truth/ (bench/truth.toml), and optionally rss-long.tsv.
// Parts that are missing are reported as "not run".
package main

import (
	"fmt"
	"io"
	"os"
	"strings"
)

// figure is one row of the table.
type figure struct {
	item  string // "1 host overhead", …
	name  string
	value string
	goal  string
	met   string // "met", "NOT met", "" (informational)
	note  string
}

// verdict renders a goal check.
func verdict(ok bool) string {
	if ok {
		return "met"
	}
	return "**NOT met**"
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: figures DIR")
		os.Exit(2)
	}
	dir := os.Args[1]
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		fmt.Fprintf(os.Stderr, "figures: %s is not a directory\n", dir)
		os.Exit(2)
	}
	var figs []figure
	for _, part := range []func(string) ([]figure, error){hostFigures, loadFigures, noiseFigures, interleaveFigures, costFigures, truthFigures} {
		f, err := part(dir)
		if err != nil {
			fmt.Fprintln(os.Stderr, "figures:", err)
			os.Exit(1)
		}
		figs = append(figs, f...)
	}
	write(os.Stdout, figs)
}

func write(w io.Writer, figs []figure) {
	fmt.Fprintln(w, "| item | figure | value | goal | | note |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|")
	for _, f := range figs {
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s |\n", f.item, f.name, f.value, f.goal, f.met,
			strings.ReplaceAll(f.note, "|", "/"))
	}
}

// notRun is the row of a part whose input is missing.
func notRun(item, what string) []figure {
	return []figure{{item: item, name: what, value: "not run"}}
}

// exists reports whether path exists.
func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func pct(x float64) string { return fmt.Sprintf("%+.1f%%", 100*x) }
