// Package policy decides what a run measures, round after round: every
// planned round (load.rounds = N, Fixed), rounds added only where the
// objective is not yet resolved (rounds = "auto", Auto), or a race of the
// configs at the target level followed by a confirmation of its finalists
// (rounds = "race", Race).
//
// A policy is pure. It is built from the run's Design (its head, as
// summary.json records it, and its blocks of slots) and hands the driver
// one Batch of steps at a time, deciding each from every window measured
// so far; the driver measures exactly what it is handed and appends the
// windows to results.jsonl. Every decision is a function of the windows
// on disk (and, for run.budget, of the Clock the driver reports), so
// -resume, which hands a policy the windows of the interrupted run,
// replays the decisions the run made, and summarize replays a race with
// no config file. -dry-run asks a policy for the most it can measure
// (Worst), and package expect what it can be expected to.
package policy
