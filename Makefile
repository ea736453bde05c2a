# sweep — see README.md.
GO      ?= go
BIN     := bin/sweep
PLUGIN  := plugins/hello-wasip1/hello.wasm
STATICCHECK_VERSION := v0.8.2

.PHONY: all build plugins test race bench lint tidy-check cross demo example race-example clean test-engines merge-check

all: build

# -buildvcs=auto: the VCS revision goes into the binary (summary.json's
# sweep_version, which sweep check compares) even where GOFLAGS says
# -buildvcs=false, as it does on this project's machine. Go stamps it only
# where .git is a directory, so REVISION (the short commit, +dirty with
# uncommitted or untracked files) goes in with -ldflags -X as well, for
# builds in a git worktree; a stamped revision wins over it.
REVISION = $(shell r=$$(git rev-parse --short=7 HEAD 2>/dev/null) && { test -z "$$(git status --porcelain 2>/dev/null)" || r=$$r+dirty; echo $$r; })
build: plugins
	$(GO) build -buildvcs=auto -ldflags '-X github.com/sweep-dev/sweep/sweep/version.revision=$(REVISION)' -o $(BIN) ./cmd/sweep

plugins: $(PLUGIN)

$(PLUGIN): plugins/hello-wasip1/*.go
	GOOS=wasip1 GOARCH=wasm $(GO) build -o $@ ./plugins/hello-wasip1

# The test command README.md gives and .ci/run runs. -p 1: one package's
# tests at a time, so that no other test binary shares the CPUs while the
# driver's tests measure real servers (a CI run failed on that noise).
# It builds the component guests first (npm; about 30 s from clean) and
# requires them: the tests on the real hello and JavaScript components
# fail rather than skip when they are missing.
test: components js-plugin http-plugin
	$(GO) vet ./...
	SWEEP_REQUIRE_COMPONENTS=1 SWEEP_REQUIRE_JS=1 SWEEP_REQUIRE_HTTP=1 $(GO) test -count=1 -p 1 ./...

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
# Then internal/lint: no exported identifier is used only by tests (~10 s).
lint:
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || (gofmt -l $$(git ls-files '*.go'); exit 1)
	$(GO) vet ./...
	$(GO) run honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION) ./...
	$(GO) test -count=1 ./internal/lint

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

# reports/example, the run README.md shows: the default sweep again with
# this build (about 6 minutes of measuring, under /tmp/sweep-measure.lock),
# replacing the checked-in one. sweep/report's TestExampleCurrent fails
# when the example no longer matches the code (its schema, its build, or
# what this build renders from its data). Build from a committed tree so
# that summary.json names the commit.
example: build
	rm -rf reports/example.new
	flock /tmp/sweep-measure.lock ./$(BIN) -config configs/grid.toml -out reports/example.new -q
	rm -rf reports/example
	mv reports/example.new reports/example

# reports/race-example: a real race of configs/race.toml (16 pooling
# configs; -dry-run gives its time), replacing the checked-in one.
race-example: build
	rm -rf reports/race-example.new
	flock /tmp/sweep-measure.lock ./$(BIN) -config configs/race.toml -out reports/race-example.new -q
	rm -rf reports/race-example
	mv reports/race-example.new reports/race-example

clean:
	rm -rf bin $(PLUGIN)

# The Slurm job array of engines/README.md, for real, on a one-node Slurm
# cluster on this machine (root; installs slurm-wlm and munge with apt-get
# if missing): shards, sweep merge, sweep report. About a minute.
test-engines: build
	engines/test.sh

# Component plugins (plugins/README.md). npm installs the pinned jco and
# componentize-js into plugins/node_modules (plugins/package-lock.json);
# Node 20 or later. `components` is quick (~15 s from clean, most of it
# npm ci) and goes into CI. `js-plugin` runs componentize-js twice
# (StarlingMonkey + Wizer, ~10 s wall and ~8 s CPU each here, ~800 MB RSS)
# and stays out of the default CI: handler.wasm keeps componentize-js's
# default WASI features (stdio, random, clocks: it imports wasi:cli, io,
# clocks, filesystem, random through the preview-1 adapter, 4 core
# instances per instantiation); handler-pure.wasm disables them all and
# imports nothing (1 core instance; an uncaught JS error traps). Neither
# imports wasi:http. `js-plugin-check` runs both once under node (jco
# transpile), a sanity check only: the real tests run them on Wasmtime
# (`test-js`: the guests' tests with the guests required).
NPM             ?= npm
PLUGINS_NPM     := plugins/node_modules/.package-lock.json
JCO             := plugins/node_modules/.bin/jco
COMPONENTIZE_JS := plugins/node_modules/.bin/componentize-js
HELLO_COMPONENT := plugins/hello-wasip1/hello.component.wasm
JS_PLUGIN       := plugins/js-handler/handler.wasm
JS_PLUGIN_PURE  := plugins/js-handler/handler-pure.wasm
JS_PLUGIN_DEPS  := plugins/js-handler/handler.js plugins/wit/plugin.wit $(PLUGINS_NPM)
# The wasi:http guest (plugins/http-handler): a fetch-event JS component,
# built with the same pinned tools (~18 s wall, ~800 MB RSS). Its WIT is
# jco 1.35's wasi 0.2.12 (lib/wit/builtin/0.2.12) relabelled 0.2.10, the
# version componentize-js 0.22's engine exports incoming-handler at, and
# without wasi:sockets (the 0.2.12 sockets do not merge into the engine's
# 0.2.10 world). `--disable http` keeps outgoing fetch (and so
# outgoing-handler) out of its imports; fetch-event stays.
HTTP_PLUGIN     := plugins/http-handler/handler.wasm
HTTP_MISBEHAVE  := plugins/http-handler/misbehave.wasm
HTTP_WIT        := plugins/build/http-wit
JCO_WIT         := plugins/node_modules/@bytecodealliance/jco/lib/wit/builtin/0.2.12
HTTP_WIT_DEPS   := plugins/http-handler/wit/world.wit $(PLUGINS_NPM)

.PHONY: components js-plugin js-plugin-check http-plugin test-js test-http clean-components

components: $(HELLO_COMPONENT)

$(PLUGINS_NPM): plugins/package.json plugins/package-lock.json
	cd plugins && $(NPM) ci --no-audit --no-fund
	touch $@

# The preview-1 command wrapped into a wasi:cli/run component by jco's
# bundled adapter (node_modules/@bytecodealliance/jco/lib/
# wasi_snapshot_preview1.command.wasm).
$(HELLO_COMPONENT): $(PLUGIN) $(PLUGINS_NPM)
	$(JCO) new $(PLUGIN) --wasi-command -o $@

js-plugin: $(JS_PLUGIN) $(JS_PLUGIN_PURE)

# World `plugin` of plugins/wit/plugin.wit.
$(JS_PLUGIN): $(JS_PLUGIN_DEPS)
	$(COMPONENTIZE_JS) plugins/js-handler/handler.js --wit plugins/wit/plugin.wit \
		--world-name plugin --disable http fetch-event -o $@

$(JS_PLUGIN_PURE): $(JS_PLUGIN_DEPS)
	$(COMPONENTIZE_JS) plugins/js-handler/handler.js --wit plugins/wit/plugin.wit \
		--world-name plugin --disable http fetch-event stdio random clocks -o $@

js-plugin-check: $(JS_PLUGIN) $(JS_PLUGIN_PURE)
	rm -rf plugins/build/js-handler plugins/build/js-handler-pure
	$(JCO) transpile $(JS_PLUGIN) -q -o plugins/build/js-handler
	$(JCO) transpile $(JS_PLUGIN_PURE) -q -o plugins/build/js-handler-pure
	node plugins/js-handler/smoke.mjs ../build/js-handler/handler.js
	node plugins/js-handler/smoke.mjs ../build/js-handler-pure/handler-pure.js

http-plugin: $(HTTP_PLUGIN) $(HTTP_MISBEHAVE)

$(HTTP_WIT)/world.wit: $(HTTP_WIT_DEPS)
	rm -rf $(HTTP_WIT) && mkdir -p $(HTTP_WIT)
	sed 's/@0\.2\.12/@0.2.10/g' plugins/http-handler/wit/world.wit > $(HTTP_WIT)/world.wit
	for p in cli clocks filesystem http io random; do mkdir -p $(HTTP_WIT)/deps/$$p && \
		sed -e 's/@0\.2\.12/@0.2.10/g' -e '/include wasi:sockets/d' $(JCO_WIT)/wasi-$$p/package.wit \
		> $(HTTP_WIT)/deps/$$p/package.wit || exit 1; done

$(HTTP_PLUGIN): plugins/http-handler/handler.js plugins/js-handler/handler.js $(HTTP_WIT)/world.wit
	$(COMPONENTIZE_JS) plugins/http-handler/handler.js --wit $(HTTP_WIT) \
		--world-name http-plugin --disable http -o $@

# Without fetch-event: misbehave.js exports incomingHandler itself. The
# http feature stays on (it imports outgoing-handler, answered with an
# error code by the host): with it off, componentize-js stubs the
# wasi:http/types imports JS calls with traps.
$(HTTP_MISBEHAVE): plugins/http-handler/misbehave.js $(HTTP_WIT)/world.wit
	$(COMPONENTIZE_JS) plugins/http-handler/misbehave.js --wit $(HTTP_WIT) \
		--world-name http-misbehave --disable fetch-event -o $@

# The wasi:http guest's tests, required rather than skipped.
test-http: http-plugin
	SWEEP_REQUIRE_HTTP=1 $(GO) test -count=1 -p 1 -run 'TestHTTP' ./sweep/wasmhost/

# The tests that need the built guests, required rather than skipped.
test-js: components js-plugin
	SWEEP_REQUIRE_COMPONENTS=1 SWEEP_REQUIRE_JS=1 $(GO) test -count=1 -p 1 \
		-run 'TestRunComponent|TestJSPlugin|TestExampleConfigs' ./sweep/wasmhost/ ./sweep/config/

clean-components:
	rm -rf plugins/node_modules plugins/build $(HELLO_COMPONENT) $(JS_PLUGIN) $(JS_PLUGIN_PURE) $(HTTP_PLUGIN) $(HTTP_MISBEHAVE)
