# strobe: the two commands a newcomer needs are `make demo` and `make test`.
GO      ?= go
BIN     := bin/strobe
VERSION := $(shell git describe --always --dirty 2>/dev/null || echo dev)

.PHONY: build demo test test-short bench vet fuzz clean

build:
	$(GO) build -ldflags "-X main.version=$(VERSION)" -o $(BIN) ./cmd/strobe

# The main job on the bundled examples: each has a passing test, a failing
# assertion and a panic, so strobe's answer shows all three.
demo: build
	@./examples/demo.sh $(BIN)

# The whole suite, real frameworks included. CI=true turns a missing tool
# into a failure instead of a skip.
test: vet
	$(GO) test -count=1 -timeout 14m ./...

test-short:
	$(GO) test -short ./...

vet:
	$(GO) vet ./...
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { gofmt -l $$(git ls-files '*.go'); echo "gofmt needed"; exit 1; }

# Each fuzz target for a bounded count (plain `make test` runs them on their
# seeds only). FUZZTIME=20s for a quick pass, FUZZ=FuzzCargo for one target.
fuzz:
	@GO=$(GO) ./scripts/fuzz.sh

# Benchmarks compare strobe with what it wraps, side by side in one run.
bench: build
	$(GO) test -count=1 -run '^$$' -bench . -benchtime 1x -timeout 30m ./bench/

clean:
	rm -rf bin
