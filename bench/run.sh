#!/usr/bin/env bash
# bench/run.sh — the performance suite of BENCHMARKS.md: Go
# microbenchmarks plus side-by-side measurements of sweep itself. `make
# bench` runs `bench/run.sh all` (about 21 minutes on a 2-core machine) and
# prints the figures table; every figure is a ratio of quantities measured
# in that run. Results go to $BENCH_OUT (default reports/bench-<UTC time>).
#
#   bench/run.sh [PART...]   PART: all (default) = micro host load aa interleave cost truth,
#                            then figures; each part can be run alone, and
#                            explore (item 3's other method variants),
#                            window (item 3's noise vs window and piece) and
#                            verdict (issue 16's error rates, ~75 min) and
#                            verdict-host (the same on the built-in host, ~60 min) and
#                            crossrun (the cross-run check with run.reference, ~55 min) and
#                            busy (issue 20's other-work figure: quiet, hog on
#                            the server CPU, hog on the load CPU, ~4 min) and
#                            race (issue 32: the race in simulation and one
#                            real race beside rounds = "auto", ~15 min) and
#                            racereal (issue 32's acceptance: 20 planted races,
#                            4 auto runs, 20 tie races, ~3.5 h; resumable) too
#   bench/run.sh rss [DUR [CONFIG]]  item 4's long run: sweep CONFIG (default
#                            bench/long.toml) for DUR (default 30m),
#                            driver RSS sampled every 10 s (not part of all)
#
# Environment: BENCH_OUT (output directory; reuse one to add parts),
# BENCH_AA_REPS (repetitions of each A/A mode, default 2). Take figures on
# a quiet machine: each part records the load average when it starts.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${BENCH_OUT:-reports/bench-$(date -u +%Y%m%dT%H%M%SZ)}
AA_REPS=${BENCH_AA_REPS:-2}
mkdir -p "$OUT"
# The host point of items 1–3: configs/grid.toml's baseline, with the argv
# the driver gives a builtin slot.
HOST_SETTINGS='{"linear_memory_keep_resident":"0","touch":"64KiB"}'

log() { printf '[bench %s] %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }

# quiet PART records, as the part starts, how busy the CPUs are without
# it: the CPU time used by all processes over 2 s (in CPUs; nothing of the
# suite runs meanwhile), the share of it the hypervisor stole, and the
# 1-minute load average (which still holds the previous part).
quiet() {
	local a b busy steal
	a=$(awk '/^cpu / { print $2 + $3 + $4 + $7 + $8, $5 + $6, $9 }' /proc/stat)
	sleep 2
	b=$(awk '/^cpu / { print $2 + $3 + $4 + $7 + $8, $5 + $6, $9 }' /proc/stat)
	busy=$(echo "$a $b $(nproc)" | awk '{ printf "%.2f", $7 * ($4 - $1) / (($4 + $5 + $6) - ($1 + $2 + $3)) }')
	steal=$(echo "$a $b" | awk '{ printf "%.1f", 100 * ($6 - $3) / (($4 + $5 + $6) - ($1 + $2 + $3)) }')
	printf '%s\t%s\tbusy_cpus=%s\tsteal=%s%%\tloadavg=%s\n' "$1" "$(date -u +%FT%TZ)" "$busy" "$steal" "$(cut -d' ' -f1 /proc/loadavg)" >>"$OUT/load.tsv"
	if awk -v b="$busy" 'BEGIN { exit !(b > 0.1) }'; then
		log "warning: $busy CPUs busy with other work before $1: figures will be noisy"
	fi
}

build() {
	[ -x bin/sweep ] || { echo "bench: bin/sweep missing; run make build" >&2; exit 1; }
	go build -o bin/bench-noop ./bench/noop
	go build -o bin/bench-loadcmp ./bench/loadcmp
	go build -o bin/bench-figures ./bench/figures
	go build -o bin/bench-floor ./bench/floor
	go build -o bin/bench-interleave ./bench/interleave
	cc -O2 -o bin/bench-truth sweep/driver/testdata/truth/truth.c
	cc -O2 -o bin/bench-burnstep bench/burnstep/burnstep.c
	command -v wrk >/dev/null || { echo "bench: wrk not found (apt-get install -y wrk)" >&2; exit 1; }
}

machine() {
	{
		echo "date: $(date -u +%FT%TZ)"
		echo "nproc: $(nproc)"
		echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
		echo "kernel: $(uname -r)"
		echo "go: $(go version | cut -d' ' -f3)"
		echo "wrk: $(wrk -v 2>&1 | head -1 | cut -d' ' -f1-2)"
		echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet 2>/dev/null || echo '+changes')"
	} >"$OUT/machine.txt"
	cat "$OUT/machine.txt" >&2
}

# sweep_run NAME CONFIG: a real sweep into $OUT/NAME, timed, with the
# driver's RSS sampled every 10 s into $OUT/rss-NAME.tsv. $SWEEP_ENV adds
# environment variables (e.g. GOMAXPROCS=1) to the driver.
sweep_run() {
	local name=$1 cfg=$2 t0 t1 pid rc=0
	rm -rf "${OUT:?}/$name" "$OUT/rss-$name.tsv"
	t0=$(date +%s.%N)
	env ${SWEEP_ENV:-} ./bin/sweep -config "$cfg" -out "$OUT/$name" -q >/dev/null &
	pid=$!
	sample_rss "$pid" "$OUT/rss-$name.tsv" &
	wait "$pid" || rc=$?
	t1=$(date +%s.%N)
	wait
	[ "$rc" -eq 0 ] || { echo "bench: sweep -config $cfg failed (exit $rc)" >&2; exit 1; }
	LAST_WALL=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
}

# sample_rss PID FILE: elapsed seconds and VmRSS (kB) every 10 s.
sample_rss() {
	local pid=$1 file=$2 t0 rss
	t0=$(date +%s)
	while rss=$(awk '/^VmRSS:/ { print $2 }' "/proc/$pid/status" 2>/dev/null) && [ -n "$rss" ]; do
		printf '%d\t%s\n' $(($(date +%s) - t0)) "$rss" >>"$file"
		sleep 10
	done
}

# floor: the in-process Invoke loop pinned to the server CPU (GOMAXPROCS 1,
# as a pinned server gets), appended to floor.txt.
floor() {
	taskset -c 0 go test -run '^$' -bench 'BenchmarkInvoke/keep_resident=0/serial$' \
		-benchtime 2s -count 3 -cpu 1 ./sweep/wasmhost >>"$OUT/floor.txt"
}

part_micro() {
	quiet micro
	log "micro: go test -bench . ./sweep/... (unpinned)"
	go test -run '^$' -bench . -benchtime 2s ./sweep/... | tee "$OUT/micro.txt" | grep -E '^Benchmark' >&2
}

part_host() {
	quiet host
	log "host: bench/floor (host, no-op and Invoke loop in every round), 10 rounds of 2 s"
	./bin/bench-floor -sweep bin/sweep -noop bin/bench-noop -settings-json "$HOST_SETTINGS" \
		-c 1,16 -d 2s -rounds 10 >"$OUT/floor.jsonl"
	log "host: Invoke microbenchmark, bench/host.toml (host vs no-op in sweep), microbenchmark again"
	rm -f "$OUT/floor.txt"
	floor
	sweep_run host bench/host.toml
	floor
}

part_load() {
	quiet load
	log "load: sweep's generator vs wrk on one host process, ABBA, 8 pairs of 3 s windows"
	./bin/bench-loadcmp -c 1,16 -d 3s -reps 8 -- ./bin/sweep serve -plugin workload \
		-settings-json "$HOST_SETTINGS" -timeout 5s -log-level warn >"$OUT/loadcmp.jsonl"
}

part_aa() {
	quiet aa
	local i mode
	for i in $(seq 1 "$AA_REPS"); do
		for mode in never round sliced; do
			log "aa: bench/aa-$mode.toml, repetition $i of $AA_REPS"
			sweep_run "aa-$mode-$i" "bench/aa-$mode.toml"
			rm -f "$OUT/rss-aa-$mode-$i.tsv"
		done
	done
}

# interleave: does measuring in 50 ms pieces move the CPU per request?
# Two host processes, continuous vs interleaved windows back to back.
part_interleave() {
	quiet interleave
	log "interleave: two hosts, continuous vs interleaved (50 ms) windows, paired, c=1 and 16"
	./bin/bench-interleave -c 1,16 -d 2s -piece 50ms -reps 12 -- ./bin/sweep serve -plugin workload \
		-settings-json "$HOST_SETTINGS" -timeout 5s -log-level warn >"$OUT/interleave.jsonl"
}

# window: how the A/A noise of interleaved windows scales with the window
# and the piece (item 3): two identical hosts at c=16, 12 repetitions each
# of 2 s in 50 ms pieces, 2 s in 20 ms pieces and 5 s in 50 ms pieces
# (≈ 8 min; not part of "all").
part_window() {
	quiet window
	local spec d p
	: >"$OUT/window.jsonl"
	for spec in 2s/50ms 2s/20ms 5s/50ms; do
		d=${spec%/*} p=${spec#*/}
		log "window: two hosts, A/B in $d windows of $p pieces, c=16"
		./bin/bench-interleave -c 16 -d "$d" -piece "$p" -reps 12 -- ./bin/sweep serve -plugin workload \
			-settings-json "$HOST_SETTINGS" -timeout 5s -log-level warn | grep '"summary"' |
			sed "s/^{/{\"window\":\"$d\",/" >>"$OUT/window.jsonl"
	done
}

part_cost() {
	quiet cost
	local cfg name
	: >"$OUT/wall.tsv"
	: >"$OUT/dryrun.tsv"
	for cfg in bench/small.toml configs/grid.toml configs/hosts.toml configs/keep-resident-2axis.toml; do
		./bin/sweep -config "$cfg" -dry-run >"$OUT/dryrun.txt"
		printf '%s\t%s\t%s\t%s\n' "$cfg" \
			"$(sed -n 's/^slots (\([0-9]*\) server.*/\1/p' "$OUT/dryrun.txt")" \
			"$(sed -n 's/^windows: \([0-9]*\) measured.*/\1/p' "$OUT/dryrun.txt")" \
			"$(sed -n 's/^estimated wall time: //p' "$OUT/dryrun.txt")" >>"$OUT/dryrun.tsv"
	done
	rm -f "$OUT/dryrun.txt"
	for cfg in bench/small.toml configs/grid.toml; do
		name=$(basename "$cfg" .toml)
		log "cost: real run of $cfg"
		sweep_run "$name" "$cfg"
		awk -F'\t' -v c="$cfg" -v w="$LAST_WALL" '$1 == c { print c "\t" w "\t" $4 "\t" $3 }' "$OUT/dryrun.tsv" >>"$OUT/wall.tsv"
	done
}

# explore: item 3's method variants (not part of all). Each A/A mode with
# 20 rounds of grid.toml's 2 s windows (a band estimated from 20 pairs, to
# decide the default restart mode); 5 s windows; and the driver at
# GOMAXPROCS=1 (what pinning it to one load CPU should imply).
part_explore() {
	quiet explore
	local v
	mkdir -p "$OUT/configs"
	for v in never round; do
		sed 's/^rounds = 5/rounds = 20/; s/^name = "bench-aa-'$v'"/name = "bench-aa-'$v'-r20"/' \
			"bench/aa-$v.toml" >"$OUT/configs/aa-$v-r20.toml"
	done
	sed 's/^duration = "2s"/duration = "5s"/; s/^rounds = 5/rounds = 8/; s/^name = "bench-aa-never"/name = "bench-aa-never-5s"/' \
		bench/aa-never.toml >"$OUT/configs/aa-never-5s.toml"
	for v in never round; do
		log "explore: restarts = $v, 20 rounds"
		sweep_run "aa-$v-r20-1" "$OUT/configs/aa-$v-r20.toml"
	done
	log "explore: restarts = never, 5 s windows, 8 rounds"
	sweep_run aa-never-5s-1 "$OUT/configs/aa-never-5s.toml"
	log "explore: restarts = never, driver GOMAXPROCS=1"
	SWEEP_ENV=GOMAXPROCS=1 sweep_run aa-never-gmp1-1 bench/aa-never.toml
	rm -f "$OUT"/rss-aa-*.tsv
}

part_truth() {
	quiet truth
	log "truth: the C ground-truth server at burn 0, 200, 1000, 5000 µs"
	sweep_run truth bench/truth.toml
	rm -f "$OUT/rss-truth.tsv"
	taskset -c 0 bin/bench-burnstep 0 200 1000 5000 >"$OUT/burnstep.tsv"
}

part_rss() {
	local dur=${1:-30m} cfg=${2:-bench/long.toml} pid
	quiet rss
	log "rss: $cfg for $dur, driver RSS every 10 s"
	rm -rf "${OUT:?}/long" "$OUT/rss-long.tsv"
	./bin/sweep -config "$cfg" -out "$OUT/long" -q >/dev/null &
	pid=$!
	sample_rss "$pid" "$OUT/rss-long.tsv" &
	sleep "$dur"
	kill -INT "$pid" 2>/dev/null || true
	wait || true
}

# part_verdict is issue 16's error-rate, power and gate figures (not part
# of all; about 75 min at the default 20 runs): BENCH_VERDICT_RUNS runs of
# bench/verdict.toml (4 identical builds + the A/A twin + a +5% build),
# then 3 of bench/verdict10.toml (every build +10%) for the cross-run
# check, then bench-verdict's table.
part_verdict() { series verdict verdict verdict10; }

# part_crossrun is issue 16's cross-run check with the reference server
# (not part of all; about 55 min at the default 20 runs): BENCH_VERDICT_RUNS
# runs of bench/crossrun.toml (an unchanged pair of work-doing builds, the
# A/A twin, run.reference), then 3 of bench/crossrun10.toml (every build
# +10%), then bench-verdict's table (its cross-run lines are the figures;
# "called worse" is the in-run +10% build).
part_crossrun() { series crossrun crossrun crossrun10 -identical "" -slow build=plus10; }

# series NAME CONFIG CONFIG10 [BENCH_VERDICT_FLAG...] runs BENCH_VERDICT_RUNS
# runs of bench/CONFIG.toml into $OUT/NAME-NN and 3 of bench/CONFIG10.toml
# (every build +10%) into $OUT/NAME10-N, then bench-verdict over them with
# the flags given; its table goes to $OUT/NAME.txt.
series() {
	local name=$1 cfg=$2 cfg10=$3 n=${BENCH_VERDICT_RUNS:-20} i slow=""
	shift 3
	go build -o bin/bench-burner ./sweep/driver/testdata/burner
	go build -o bin/bench-verdict ./bench/verdict
	quiet "$name"
	for i in $(seq -w 1 "$n"); do
		log "$name: run $i of $n"
		./bin/sweep -config "bench/$cfg.toml" -out "$OUT/$name-$i" -q >/dev/null
	done
	for i in 1 2 3; do
		log "$name: +10% builds, run $i of 3"
		./bin/sweep -config "bench/$cfg10.toml" -out "$OUT/${name}10-$i" -q >/dev/null
		slow="$slow${slow:+,}$OUT/${name}10-$i"
	done
	bin/bench-verdict "$@" -slow10 "$slow" "$OUT/$name"-[0-9]* | tee "$OUT/$name.txt"
}

# part_busy is issue 20's busy-machine figure: bench/busy.toml on the
# quiet machine, then with a CPU hog (a shell loop, normal priority)
# pinned to CPU 0 (the server's), then to CPU 1 (the load generator's);
# for each, summary.md's other-work line and its busy_machine count.
part_busy() {
	local mode cpu dir hog
	quiet busy
	for mode in quiet hog-server hog-load; do
		dir="$OUT/busy-$mode"
		hog=""
		case $mode in
		hog-server) cpu=0 ;;
		hog-load) cpu=1 ;;
		*) cpu="" ;;
		esac
		if [ -n "$cpu" ]; then
			taskset -c "$cpu" sh -c 'while :; do :; done' &
			hog=$!
		fi
		log "busy: $mode"
		./bin/sweep -config bench/busy.toml -out "$dir" -q >/dev/null || true
		[ -z "$hog" ] || { kill "$hog"; wait "$hog" 2>/dev/null || true; }
		printf '%s\tcells with busy_machine: %s\t%s\n' "$mode" \
			"$(grep -o '"busy_machine"' "$dir/summary.json" | wc -l)" \
			"$(grep -o 'Other work on the pinned CPUs.*' "$dir/summary.md" || echo 'no other-work line')" | tee -a "$OUT/busy.txt"
	done
}

# part_verdict-host is issue 16's false-verdict rate on the built-in host
# (not part of all; about 60 min at the default 20 runs):
# BENCH_VERDICT_RUNS runs of bench/verdict-host.toml (four configs that
# behave identically + the A/A twin), then bench-verdict's table.
part_verdict-host() {
	local n=${BENCH_VERDICT_RUNS:-20} i
	go build -o bin/bench-verdict ./bench/verdict
	quiet verdict-host
	for i in $(seq -w 1 "$n"); do
		log "verdict-host: run $i of $n"
		./bin/sweep -config bench/verdict-host.toml -out "$OUT/verdict-host-$i" -q >/dev/null
	done
	bin/bench-verdict -identical max_unused_warm_slots=200,max_unused_warm_slots=300,max_unused_warm_slots=400 -slow "" \
		"$OUT"/verdict-host-[0-9]* | tee "$OUT/verdict-host.txt"
}

# sample_tree PID FILE: every 0.2 s, the total RSS (kB) of PID and all
# its descendants, the number of `sweep serve` servers among them and the
# largest server's RSS; then the peaks.
sample_tree() {
	local pid=$1 file=$2
	while kill -0 "$pid" 2>/dev/null; do
		ps -e -o pid=,ppid=,rss=,args= | awk -v root="$pid" '
			{ par[$1] = $2; rss[$1] = $3; serve[$1] = ($5 == "serve") }
			END {
				for (p in par) { q = p; while (q != "" && q != root && q in par && q != 1) q = par[q]; if (q == root) { tot += rss[p]; if (serve[p] && p != root) { n++; if (rss[p] > big) big = rss[p] } } }
				printf "%d\t%d\t%d\n", tot, n, big
			}' >>"$file"
		sleep 0.2
	done
}

# part_blocks is issue 18's figures: the 48-point grid (peak RSS of sweep
# and its servers against (block_size + 2) × one server + the driver, and
# wall time against the dry-run estimate), then the 12-point grid whole
# and as 3 shards merged (bench-shards compares them). About 17 min.
part_blocks() {
	local pid t0 t1 i
	go build -o bin/bench-shards ./bench/shards
	quiet blocks
	log "blocks: 48-point grid"
	./bin/sweep -config bench/blocks48.toml -dry-run | tail -1 | tee "$OUT/blocks48-estimate.txt"
	rm -rf "${OUT:?}/blocks48" "$OUT/blocks48-rss.tsv"
	t0=$(date +%s.%N)
	./bin/sweep -config bench/blocks48.toml -out "$OUT/blocks48" -q >/dev/null &
	pid=$!
	sample_tree "$pid" "$OUT/blocks48-rss.tsv" &
	wait "$pid"
	t1=$(date +%s.%N)
	wait
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "blocks48 wall time: %.1f s\n", b - a }' | tee -a "$OUT/blocks.txt"
	awk -F'\t' '$1 > t { t = $1 } $2 > n { n = $2 } $3 > s { s = $3 } END { printf "blocks48 peak: total RSS %.1f MiB, %d servers alive at once, largest server %.1f MiB\n", t/1024, n, s/1024 }' \
		"$OUT/blocks48-rss.tsv" | tee -a "$OUT/blocks.txt"
	log "blocks: 12-point grid whole"
	rm -rf "$OUT/blocks12-whole" "$OUT"/blocks12-shard-* "$OUT/blocks12-merged"
	./bin/sweep -config bench/blocks12.toml -out "$OUT/blocks12-whole" -q >/dev/null
	for i in 0 1 2; do
		log "blocks: 12-point grid shard $i/3"
		./bin/sweep -config bench/blocks12.toml -shard "$i/3" -out "$OUT/blocks12-shard-$i" -q >/dev/null
	done
	./bin/sweep merge -out "$OUT/blocks12-merged" "$OUT"/blocks12-shard-[012] >/dev/null
	bin/bench-shards "$OUT/blocks12-whole" "$OUT/blocks12-merged" | tee -a "$OUT/blocks.txt"
}

# part_race is issue 32's figures: the race rule in simulation (bench-race,
# 2000 seeded runs per case, pure, a few minutes), one real race of
# bench/race.toml on the built-in host and of bench/race24.toml (24
# planted burner builds), each followed by rounds = "auto" on the same
# grid (same session), with their wall times. About 35 min.
part_race() {
	local t0 t1
	go build -o bin/bench-race ./bench/race
	log "race: simulation"
	nice -n 10 bin/bench-race -runs 2000 -auto-runs 200 -seed 1 | tee "$OUT/race-sim.md"
	quiet race
	rm -rf "${OUT:?}/race-real" "$OUT/race-auto"
	t0=$(date +%s.%N)
	./bin/sweep -config bench/race.toml -out "$OUT/race-real" -q >/dev/null
	t1=$(date +%s.%N)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "race wall time: %.1f s\n", b - a }' | tee -a "$OUT/race.txt"
	sed -e 's/^rounds = "race"/rounds = "auto"/' -e '/^finalists/d' -e '/^race_clip/d' bench/race.toml >"$OUT/race-auto.toml"
	t0=$(date +%s.%N)
	./bin/sweep -config "$OUT/race-auto.toml" -out "$OUT/race-auto" -q >/dev/null
	t1=$(date +%s.%N)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "auto wall time: %.1f s\n", b - a }' | tee -a "$OUT/race.txt"
	grep -o '"words": *"[^"]*"' "$OUT/race-real/summary.json" | tee -a "$OUT/race.txt"
	# The planted 24-build grid on the burner, race then auto.
	go build -o bin/race-burner ./sweep/driver/testdata/burner
	sed -e 's/^rounds = "race"/rounds = "auto"/' -e '/^finalists/d' -e 's#"\.\./bin/#"'"$PWD"'/bin/#' bench/race24.toml >"$OUT/race24-auto.toml"
	for k in race auto; do
		cfg=bench/race24.toml
		[ "$k" = race ] || cfg="$OUT/race24-auto.toml"
		rm -rf "${OUT:?}/race24-$k"
		t0=$(date +%s.%N)
		./bin/sweep -config "$cfg" -out "$OUT/race24-$k" -q >/dev/null
		t1=$(date +%s.%N)
		awk -v k="$k" -v a="$t0" -v b="$t1" 'BEGIN { printf "race24 %s wall time: %.1f s\n", k, b - a }' | tee -a "$OUT/race.txt"
	done
	grep -o '"words": *"[^"]*"' "$OUT/race24-race/summary.json" | tee -a "$OUT/race.txt"
}

# part_racereal is issue 32's acceptance on real servers: RACE_RUNS
# (default 20) races of bench/race24.toml (24 planted burner builds), a
# rounds = "auto" run of the same grid after every RACE_AUTO_EVERY-th
# race (default 5: runs 1, 6, 11, 16), then RACE_TIED (default 20) races of
# bench/race24-tied.toml (24 identical builds). Each run lands in
# OUT/race24-{race,auto,tied}-NN with wall.txt; a run that has wall.txt is
# not run again, so the series continues in the same BENCH_OUT. The whole
# part holds the measuring lock (/tmp/sweep-measure.lock). About 3–4 min a
# race, 7 an auto run, 5 a tie run. bench-racereal prints the figures.
part_racereal() {
	local n=${RACE_RUNS:-20} every=${RACE_AUTO_EVERY:-5} tiedN=${RACE_TIED:-20} k
	go build -o bin/race-burner ./sweep/driver/testdata/burner
	go build -o bin/bench-racereal ./bench/racereal
	sed -e 's/^rounds = "race"/rounds = "auto"/' -e '/^finalists/d' -e 's#"\.\./bin/#"'"$PWD"'/bin/#' bench/race24.toml >"$OUT/race24-auto.toml"
	for k in $(seq 1 "$n"); do
		one_race race "$k" bench/race24.toml
		if [ $(((k - 1) % every)) -eq 0 ]; then
			one_race auto $(((k - 1) / every + 1)) "$OUT/race24-auto.toml"
		fi
	done
	for k in $(seq 1 "$tiedN"); do
		one_race tied "$k" bench/race24-tied.toml
	done
	bin/bench-racereal "$OUT" | tee "$OUT/race-real.md"
}

# one_race KIND K CONFIG runs one run of part_racereal into
# OUT/race24-KIND-K (two digits) under the measuring lock, unless done.
one_race() {
	local dir
	dir=$(printf '%s/race24-%s-%02d' "$OUT" "$1" "$2")
	[ -f "$dir/wall.txt" ] && return 0
	rm -rf "${dir:?}"
	quiet "race24-$1-$2"
	log "race-real: $1 $2"
	# The clock starts once the lock is held: waiting for another
	# measurement is not the run's wall time.
	flock /tmp/sweep-measure.lock bash -c 't0=$(date +%s.%N)
		./bin/sweep -config "$1" -out "$2" -q >/dev/null || exit
		t1=$(date +%s.%N)
		awk -v a="$t0" -v b="$t1" "BEGIN { printf \"%.1f\\n\", b - a }" >"$2/wall.txt"' _ "$3" "$dir"
}

part_figures() {
	bin/bench-figures "$OUT" | tee "$OUT/figures.md"
	log "figures in $OUT/figures.md"
}

build
machine
[ $# -gt 0 ] || set -- all
case "$1" in
rss) part_rss "${2:-30m}" "${3:-}"; part_figures; exit 0 ;;
all) set -- micro host load aa interleave cost truth ;;
esac
for p in "$@"; do
	case "$p" in
	micro | host | load | aa | interleave | window | explore | cost | truth | verdict | verdict-host | crossrun | busy | blocks | race | racereal | figures) "part_$p" ;;
	*) echo "bench: unknown part $p (micro host load aa interleave window explore cost truth verdict verdict-host crossrun busy blocks race racereal figures all, or rss [DUR [CONFIG]])" >&2; exit 2 ;;
	esac
done
[ "${!#}" = figures ] || part_figures
