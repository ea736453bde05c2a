package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/merge"
	"github.com/sweep-dev/sweep/sweep/report"
	"github.com/sweep-dev/sweep/sweep/rundir"
)

// runMerge is `sweep merge -out DIR RUN_DIR...`: one run directory from
// the shards of one sweep, analysed and rendered as one run, or one whole
// run (of any kind, a race included) summarised again from its data. It
// reads only the runs' data, so it works in any build, on any machine.
func runMerge(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("sweep merge", flag.ContinueOnError)
	out := fs.String("out", "", "the merged (or summarised again) run `DIR` (must not hold a run yet)")
	if code, ok := parseFlags(fs, "merge", args, stdout, stderr); !ok {
		return code
	}
	if *out == "" || fs.NArg() == 0 {
		fmt.Fprintln(stderr, usageOf("merge"))
		return 2
	}
	var shards []merge.Shard
	for _, dir := range fs.Args() {
		s, err := merge.ReadShard(dir)
		if err != nil {
			fmt.Fprintln(stderr, "sweep merge:", err)
			return 2
		}
		shards = append(shards, s)
	}
	// merge.Merge checks that the shards belong together before it
	// writes anything.
	s, err := merge.Merge(shards, *out)
	var me *merge.Error
	if errors.As(err, &me) {
		fmt.Fprintln(stderr, "sweep merge:", err)
		return 2
	}
	if err != nil {
		fmt.Fprintln(stderr, "sweep merge:", err)
		return 1
	}
	if err := report.Render(*out); err != nil {
		fmt.Fprintln(stderr, "sweep merge: rendering report:", err)
		return 1
	}
	for _, w := range s.Warnings {
		if w.Code == sweep.WarnMissingShards || w.Code == sweep.WarnMachines {
			fmt.Fprintln(stderr, "sweep merge: warning:", w.Message)
		}
	}
	fmt.Fprintln(stdout, rundir.Dir(*out).SummaryMD())
	return 0
}
