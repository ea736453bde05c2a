# sweep — see README.md.
GO      ?= go
BIN     := bin/sweep
PLUGIN  := plugins/hello-wasip1/hello.wasm
STATICCHECK_VERSION := v0.8.2

.PHONY: all build plugins test bench lint demo clean

all: build

build: plugins
	$(GO) build -o $(BIN) ./cmd/sweep

plugins: $(PLUGIN)

$(PLUGIN): plugins/hello-wasip1/*.go
	GOOS=wasip1 GOARCH=wasm $(GO) build -o $@ ./plugins/hello-wasip1

# The test command README.md gives and .ci/run runs. -p 1: one package's
# tests at a time, so that no other test binary shares the CPUs while the
# driver's tests measure real servers (a CI run failed on that noise).
test:
	$(GO) vet ./...
	$(GO) test -count=1 -p 1 ./...

# The performance suite of BENCHMARKS.md (~21 min): Go microbenchmarks and
# side-by-side measurements of sweep itself; prints the figures table.
# Needs wrk and cc. Results: reports/bench-<UTC time>/ (or $$BENCH_OUT).
bench: build
	bench/run.sh all

lint:
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || (gofmt -l $$(git ls-files '*.go'); exit 1)
	$(GO) vet ./...
	$(GO) run honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION) ./...

# The default sweep on the built-in host.
demo: build
	./$(BIN) -config configs/grid.toml

clean:
	rm -rf bin $(PLUGIN)
