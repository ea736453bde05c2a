#!/usr/bin/env bash
# engines/test.sh — `make test-engines`: sweep's Slurm job array, for real,
# on a one-node Slurm cluster on this machine.
#
# Builds sweep (make build), brings up the cluster (engines/slurm/cluster.sh,
# installing slurm-wlm and munge with apt-get if missing: needs root), writes
# a small grid (4 points of linear_memory_keep_resident x 2 concurrency
# levels, 3 short rounds, block_size = 2: 2 blocks), submits
# engines/slurm/sweep-array.sbatch as --array=0-1 (--exclusive: the tasks run
# one after another on the one node), waits for it, checks each task and
# shard, runs sweep merge and checks the merged run is complete with a cell
# for every config at every concurrency, checks that merge refuses a shard
# given twice (exit 2) and marks a merge with a missing shard incomplete,
# runs sweep report, and brings the cluster down (on any exit).
#
# About 3 minutes on 2 CPUs (the first time, plus the apt-get install).
# Exit 0 when all of it held; otherwise 1 with a "FAIL:" line.
#   ENGINES_TEST_TIMEOUT  seconds to wait for the array (default 900)
#   ENGINES_TEST_KEEP=1   keep the temp directory (it is kept anyway on failure)
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
timeout_s=${ENGINES_TEST_TIMEOUT:-900}
shards=2
start=$SECONDS

say() { echo "test-engines: $*"; }
fail() {
	echo "test-engines: FAIL: $*" >&2
	exit 1
}
step() { say "[$((SECONDS - start))s] $*"; }

[ "$(id -u)" -eq 0 ] || fail "needs root (cluster.sh installs slurm-wlm/munge and runs the daemons as root)"
if ! command -v jq >/dev/null; then
	DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y -q jq >/dev/null || fail "jq is missing and apt-get install jq failed"
fi

tmp=$(mktemp -d /tmp/sweep-engines.XXXXXX)
cluster=$tmp/cluster
ok=0
cleanup() {
	local rc=$?
	"$repo/engines/slurm/cluster.sh" down "$cluster" || echo "test-engines: cluster.sh down failed" >&2
	if [ "$ok" = 1 ] && [ -z "${ENGINES_TEST_KEEP:-}" ]; then
		rm -rf "$tmp"
	else
		echo "test-engines: kept $tmp (cluster logs in $cluster/log, task output in $tmp/slurm-*.out)" >&2
	fi
	exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

step "make build"
make -s build || fail "make build"
sweep=$repo/bin/sweep
"$sweep" -h 2>&1 | grep -q -- '-shard' || fail "$sweep has no -shard flag"

step "cluster up ($cluster)"
"$repo/engines/slurm/cluster.sh" up "$cluster" || fail "cluster.sh up"
export SLURM_CONF=$cluster/slurm.conf

config=$tmp/grid.toml
cat >"$config" <<'TOML'
# engines/test.sh's grid: small and fast, but 2 blocks to shard.
name = "engines-test"

[target]
kind = "builtin"
plugin = "workload"

[workload]
touch = "64KiB"

[grid]
linear_memory_keep_resident = [0, "64KiB", "256KiB", "1MiB"]

[baseline]
linear_memory_keep_resident = 0

[load]
concurrency = [1, 4]
warmup = "200ms"
duration = "500ms"
rounds = 3
aa = true

[run]
block_size = 2
TOML
plan=$("$sweep" -config "$config" -dry-run) || fail "sweep -dry-run on the test grid"
grep -q "in $shards blocks" <<<"$plan" || fail "the test grid should plan $shards blocks; sweep -dry-run says: $plan"

out=$tmp/out
step "sbatch --array=0-$((shards - 1)) engines/slurm/sweep-array.sbatch"
job=$(cd "$tmp" && SWEEP=$sweep CONFIG=$config OUT=$out \
	sbatch --parsable --array=0-$((shards - 1)) --partition=sweep --time=15 \
	--output="$tmp/slurm-%A_%a.out" "$repo/engines/slurm/sweep-array.sbatch") || fail "sbatch"
job=${job%%;*}
say "array job $job"

deadline=$((SECONDS + timeout_s))
while [ -n "$(squeue -h -j "$job" -o %i 2>/dev/null)" ]; do
	if [ "$SECONDS" -ge "$deadline" ]; then
		squeue -j "$job" >&2 || true
		scancel "$job" || true
		fail "array job $job not done after ${timeout_s}s (cancelled)"
	fi
	sleep 2
done
step "array job $job left the queue"

# No accounting database here (sacct needs slurmdbd): the finished tasks'
# records come from slurmctld, which keeps them for MinJobAge (10 min).
records=$(scontrol -o show job "$job") || fail "scontrol show job $job"
for i in $(seq 0 $((shards - 1))); do
	rec=$(grep -E "ArrayTaskId=$i( |$)" <<<"$records") || fail "no record of task ${job}_$i"
	state=$(grep -o 'JobState=[A-Z_]*' <<<"$rec")
	code=$(grep -o ' ExitCode=[0-9:]*' <<<"$rec")
	node=$(grep -o ' NodeList=[^ ]*' <<<"$rec")
	cpus=$(grep -o ' NumCPUs=[0-9]*' <<<"$rec")
	say "task ${job}_$i: $state$code$node$cpus ($(grep -o 'StartTime=[^ ]*' <<<"$rec") $(grep -o 'EndTime=[^ ]*' <<<"$rec"))"
	if [ "$state" != JobState=COMPLETED ] || [ "$code" != " ExitCode=0:0" ]; then
		cat "$tmp/slurm-${job}_$i.out" >&2 || true
		fail "task ${job}_$i: $state$code"
	fi
	[ "$cpus" = " NumCPUs=$(nproc)" ] || fail "task ${job}_$i got$cpus, not the whole node ($(nproc) CPUs): --exclusive did not hold"
	jq -e --arg s "$i/$shards" '.complete == true and .plan.shard == $s' "$out/shard-$i/summary.json" >/dev/null ||
		fail "$out/shard-$i/summary.json is not a complete run of shard $i/$shards"
done
# --exclusive on one node: the tasks must not have overlapped.
ends=$(grep -o 'EndTime=[^ ]*' <<<"$records" | sort | head -n 1 | cut -d= -f2)
starts=$(grep -o 'StartTime=[^ ]*' <<<"$records" | sort | tail -n 1 | cut -d= -f2)
[[ "$ends" < "$starts" || "$ends" == "$starts" ]] || fail "array tasks overlapped on the one node (a task ended $ends, after the last start $starts)"

step "sweep merge"
"$sweep" merge -out "$tmp/merged" "$out"/shard-* || fail "sweep merge -out $tmp/merged $out/shard-*"
summary=$tmp/merged/summary.json
[ -s "$summary" ] || fail "sweep merge wrote no $summary"
jq -e '.complete == true' "$summary" >/dev/null || fail "merged summary.json: complete is $(jq .complete "$summary"), want true"
# A cell for every grid point (and the baseline's A/A twin) at every
# concurrency level, each measured.
missing=$(jq -r '
	. as $s
	| [ ($s.plan.points[] | {point: ., aa: false}),
	    (if $s.aa_config then {point: ($s.cells[] | select(.baseline and (.aa | not)) | .point), aa: true} else empty end) ]
	| unique[] as $want
	| $s.plan.concurrency[] as $c
	| select([ $s.cells[] | select(.point == $want.point and .aa == $want.aa and .concurrency == $c
	                              and .rounds > 0 and (.cpu_us_per_req | type) == "number") ] | length != 1)
	| "\($want.point | to_entries | map("\(.key)=\(.value)") | join(" "))\(if $want.aa then " [A/A]" else "" end) at c=\($c)"' "$summary") ||
	fail "jq over $summary"
[ -z "$missing" ] || fail "merged summary.json lacks (exactly one measured) cell for: $missing"
configs=$(jq '[.cells[].config] | unique | length' "$summary")
cells=$(jq '.cells | length' "$summary")
if [ "$configs" -ne 5 ] || [ "$cells" -ne 10 ]; then
	fail "merged summary.json: $configs configs, $cells cells; want 5 (4 points + A/A) and 10"
fi
say "merged: complete, $configs configs x 2 levels = $cells cells"

step "sweep merge: a shard twice, and a missing shard"
set +e
"$sweep" merge -out "$tmp/twice" "$out/shard-0" "$out/shard-0" >"$tmp/twice.log" 2>&1
rc=$?
set -e
[ "$rc" -eq 2 ] || fail "sweep merge with shard-0 given twice: exit $rc, want 2 ($(cat "$tmp/twice.log"))"
"$sweep" merge -out "$tmp/partial" "$out/shard-0" >"$tmp/partial.log" 2>&1 ||
	fail "sweep merge with shard 1 missing failed: $(cat "$tmp/partial.log")"
jq -e '.complete == false' "$tmp/partial/summary.json" >/dev/null ||
	fail "merge without shard 1: complete is $(jq .complete "$tmp/partial/summary.json"), want false"

step "sweep report"
"$sweep" report "$tmp/merged" || fail "sweep report $tmp/merged"
for f in summary.md throughput.png cpu_per_request.png; do
	[ -s "$tmp/merged/$f" ] || fail "sweep report wrote no $tmp/merged/$f"
done

ok=1
step "PASS: Slurm array of $shards shards ran, merged and reported"
