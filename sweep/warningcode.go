package sweep

//go:generate go test -run ^TestWarningGlossary$ -update .

// WarningCode names the kind of caveat a Warning carries. Callers
// compare codes, never messages; each code's one-line meaning is
// warningCodes' (docs/warnings.md is generated from it).
type WarningCode string

// The warning codes. Each one's doc is its entry in warningCodes.
const (
	WarnFewRounds      WarningCode = "few_rounds"
	WarnAAEffect       WarningCode = "aa_effect"
	WarnSameProcess    WarningCode = "same_process"
	WarnErrors         WarningCode = "errors"
	WarnFailedWindows  WarningCode = "failed_windows"
	WarnGeneratorBound WarningCode = "generator_bound"
	WarnSteal          WarningCode = "steal"
	WarnBusyMachine    WarningCode = "busy_machine"
	WarnWideSpread     WarningCode = "wide_spread"
	WarnOneCPU         WarningCode = "one_cpu"
	WarnPoolLimit      WarningCode = "pool_limit"
	WarnNoBaseline     WarningCode = "no_baseline"
	WarnNoAA           WarningCode = "no_aa"
	WarnObjective      WarningCode = "objective"
	WarnIncomplete     WarningCode = "incomplete"
	WarnMissingShards  WarningCode = "missing_shards"
	WarnMachines       WarningCode = "machines"
	WarnNoProfile      WarningCode = "no_profile"
	WarnEliminated     WarningCode = "eliminated"
	WarnUnconfirmed    WarningCode = "unconfirmed"
)

// warningCodes is every warning code with its one-line meaning, in the
// glossary's order.
var warningCodes = []struct {
	Code WarningCode
	Doc  string
}{
	{WarnFewRounds, "a cell has fewer paired rounds than any verdict needs under the run's correction: its comparisons are undecided (the baseline's: fewer than 5 good rounds, rough medians)"},
	{WarnAAEffect, "the A/A twin, identical to the baseline, differs beyond its interval: the bench itself shows an effect at that level, so distrust verdicts of that size there"},
	{WarnSameProcess, "each config ran in one server process for the whole run (restarts = \"never\"): a process's own offset travels with its config and no interval covers it"},
	{WarnErrors, "a cell, or its baseline, had 5xx or transport errors: failed requests are cheap, so CPU/req and RPS are distorted"},
	{WarnFailedWindows, "windows failed (a crashed or vanished server): they are left out of the medians, never counted as errors"},
	{WarnGeneratorBound, "the load generator ran out of CPU in some windows: their RPS may be the client's limit, not the server's"},
	{WarnSteal, "the hypervisor stole more than 2% of the pinned CPUs' time: this machine's own noise widens every interval there"},
	{WarnBusyMachine, "other work took more than 10% of the pinned server or load CPUs' time: RPS and latency are not a quiet machine's"},
	{WarnWideSpread, "the paired changes spread wider than 10% between quartiles: smaller changes cannot be resolved"},
	{WarnOneCPU, "every server ran on one CPU while the largest level is above 1: concurrency was queued, never parallel"},
	{WarnPoolLimit, "preflight: a pool limit (total_core_instances, total_memories, total_tables, total_component_instances) is below what the largest level needs"},
	{WarnNoBaseline, "no baseline windows (in the run, or at a level): nothing to compare against"},
	{WarnNoAA, "the run had no A/A twin: nothing shows what the bench calls a change where there is none"},
	{WarnObjective, "the objective named is unknown: the default (CPU per request) was used"},
	{WarnIncomplete, "the run was interrupted before every planned window was measured: resume it with -resume"},
	{WarnMissingShards, "a merged run lacks some shards of its plan: run them and merge again"},
	{WarnMachines, "the merged shards ran on different machines: changes hold, absolute levels are not comparable across shards"},
	{WarnNoProfile, "analysis.profile was asked for but a cell (or the run) got no profile: perf missing, not permitted, or it failed"},
	{WarnEliminated, "load.rounds = \"race\" dropped the config at the target level (the round, its e-value and what it was worse than): its cell has race data only, no interval"},
	{WarnUnconfirmed, "load.rounds = \"race\" stopped with the config still racing (max_rounds, run.budget, or the field within ε) but not among the finalists confirmed: never shown worse, perhaps as good as the pick; its cell has race data only, no interval"},
}
