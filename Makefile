# sweep — see README.md.
GO      ?= go
BIN     := bin/sweep
PLUGIN  := plugins/hello-wasip1/hello.wasm
STATICCHECK_VERSION := v0.8.2

.PHONY: all build plugins test race bench lint tidy-check cross demo clean test-engines merge-check

all: build

# -buildvcs=auto: the VCS revision goes into the binary (summary.json's
# sweep_version, which sweep check compares) even where GOFLAGS says
# -buildvcs=false, as it does on this project's machine.
build: plugins
	$(GO) build -buildvcs=auto -o $(BIN) ./cmd/sweep

plugins: $(PLUGIN)

$(PLUGIN): plugins/hello-wasip1/*.go
	GOOS=wasip1 GOARCH=wasm $(GO) build -o $@ ./plugins/hello-wasip1

# The test command README.md gives and .ci/run runs. -p 1: one package's
# tests at a time, so that no other test binary shares the CPUs while the
# driver's tests measure real servers (a CI run failed on that noise).
test:
	$(GO) vet ./...
	$(GO) test -count=1 -p 1 ./...

# The commands that need neither Linux nor cgo (report, check, init,
# version, help) build for macOS and Windows without a C toolchain.
cross:
	CGO_ENABLED=0 GOOS=darwin GOARCH=arm64 $(GO) build -o /dev/null ./cmd/sweep
	CGO_ENABLED=0 GOOS=windows GOARCH=amd64 $(GO) build -o /dev/null ./cmd/sweep

# Analysis off the machine (issue 33): a real sharded run of
# cmd/sweep/testdata/blocks.toml (about 30 s of measuring, under
# /tmp/sweep-measure.lock), merged by a CGO_ENABLED=0 build confined to
# CPU 0 and by the cgo build; the two merged run directories must be
# byte-identical. Output: $$MERGE_CHECK_DIR (default a new temp dir).
merge-check: build
	CGO_ENABLED=0 $(GO) build -o bin/sweep-nocgo ./cmd/sweep
	set -e; d=$${MERGE_CHECK_DIR:-$$(mktemp -d)}; \
	for i in 0 1; do flock /tmp/sweep-measure.lock ./$(BIN) -config cmd/sweep/testdata/blocks.toml -shard $$i/2 -out $$d/shard-$$i -q; done; \
	taskset -c 0 ./bin/sweep-nocgo merge -out $$d/merged-nocgo $$d/shard-1 $$d/shard-0; \
	./$(BIN) merge -out $$d/merged-cgo $$d/shard-0 $$d/shard-1; \
	diff -r $$d/merged-nocgo $$d/merged-cgo; \
	echo "merge-check: $$d/merged-nocgo and $$d/merged-cgo are byte-identical ($$(ls $$d/merged-cgo | wc -l) files)"

# The performance suite of BENCHMARKS.md (~21 min): Go microbenchmarks and
# side-by-side measurements of sweep itself; prints the figures table.
# Needs wrk and cc. Results: reports/bench-<UTC time>/ (or $$BENCH_OUT).
bench: build
	bench/run.sh all

# gofmt, go vet and staticcheck at the pinned version; all must be silent.
lint:
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || (gofmt -l $$(git ls-files '*.go'); exit 1)
	$(GO) vet ./...
	$(GO) run honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION) ./...

# go.mod and go.sum must be what `go mod tidy` makes them.
tidy-check:
	$(GO) mod tidy -diff

# The race detector over every package's tests, one package at a time
# (cgo and -race work together with gcc). Two tests of sweep/driver are
# skipped: they are measurements, not checks of the code's logic —
# TestGroundTruthCPU bounds CPU per request and TestSameConfigNoChange
# needs the A/A band to absorb the bench's noise — and the detector slows
# the load generator (which runs in the test binary) several times, so
# their figures would measure the detector. The driver's other tests
# (faults, Ctrl-C, resume, sliced windows, the builtin sweep) run under it.
RACE_SKIP := ^(TestGroundTruthCPU|TestSameConfigNoChange)$$
race:
	$(GO) test -race -count=1 -p 1 $$($(GO) list ./... | grep -v '/sweep/driver$$')
	$(GO) test -race -count=1 -p 1 -skip '$(RACE_SKIP)' ./sweep/driver/

# The default sweep on the built-in host.
demo: build
	./$(BIN) -config configs/grid.toml

clean:
	rm -rf bin $(PLUGIN)

# The Slurm job array of engines/README.md, for real, on a one-node Slurm
# cluster on this machine (root; installs slurm-wlm and munge with apt-get
# if missing): shards, sweep merge, sweep report. About a minute.
test-engines: build
	engines/test.sh
