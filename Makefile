# strobe: the two commands a newcomer needs are `make demo` and `make test`.
GO      ?= go
BIN     := bin/strobe
VERSION := $(shell git describe --always --dirty 2>/dev/null || echo dev)

.PHONY: build demo test test-short bench vet cross fuzz clean

# CGO_ENABLED=0: a static binary starts 1.1 ms of CPU sooner than one the
# dynamic loader links to libc (perf stat of `strobe --version`), and every
# `strobe test` starts one; nothing in strobe needs cgo.
#
# The copy: Go's linker writes the program through a memory map, and its
# pages stay in the page cache as the linker left them until they are
# evicted. Such a program started slower than a copy of it, written as
# files are, which starts as fast as a program read back from disk:
# `strobe --version` 3.2 to 3.3 ms against 2.5 to 2.9 (perf stat, 60 runs
# each, twice; Linux 6.18, ext4). The rename replaces a binary a daemon
# may be running.
build:
	CGO_ENABLED=0 $(GO) build -ldflags "-X main.version=$(VERSION)" -o $(BIN).link ./cmd/strobe
	cp $(BIN).link $(BIN).copy && mv -f $(BIN).copy $(BIN) && rm -f $(BIN).link

# The main job on the bundled examples: each has a passing test, a failing
# assertion and a panic, so strobe's answer shows all three.
demo: build
	@./examples/demo.sh $(BIN)

# The whole suite, real frameworks included. CI=true turns a missing tool
# into a failure instead of a skip. Two steps: every package but the
# runner's and the stuck detector's, two at a time; then those two, one at
# a time. Their tests judge spinning tests by their CPU share, side by side
# with waiting ones, and on two cores another package's cargo or CMake
# build beside them starved the spins (verdicts at 19 s, wanted within 7).
# The adapters' packages hold few spinning tests and pass two at a time.
# One package at a time throughout, the tests took 19 minutes on two
# cores; this way 12 (docs/design.md).
PKGS_ALONE := ^strobe/runner$$|^strobe/stuck$$
test: vet cross
	$(GO) test -p 2 -count=1 -timeout 18m $$($(GO) list ./... | grep -E -v '$(PKGS_ALONE)')
	$(GO) test -p 1 -count=1 -timeout 18m ./runner ./stuck

test-short:
	$(GO) test -short ./...

# An untidy go.mod (a direct dependency marked indirect, go.sum missing what
# tidy adds) builds here but fails elsewhere; -diff checks without writing.
vet:
	@$(GO) mod tidy -diff || { echo "go.mod or go.sum is not tidy: run go mod tidy"; exit 1; }
	$(GO) vet ./...
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { gofmt -l $$(git ls-files '*.go'); echo "gofmt needed"; exit 1; }

# The first users are on macOS: vet and build for darwin too, so nothing
# Linux-only (/proc, Pdeathsig) leaks into shared code. Go alone does it: no
# cgo, no SDK.
cross:
	GOOS=darwin GOARCH=arm64 $(GO) vet ./... && GOOS=darwin GOARCH=arm64 $(GO) build ./...
	GOOS=darwin GOARCH=amd64 $(GO) vet ./... && GOOS=darwin GOARCH=amd64 $(GO) build ./...

# Each fuzz target for a bounded count (plain `make test` runs them on their
# seeds only). FUZZTIME=20s for a quick pass, FUZZ=FuzzCargo for one target.
fuzz:
	@GO=$(GO) ./scripts/fuzz.sh

# Benchmarks compare strobe with what it wraps, side by side in one run.
bench: build
	$(GO) test -count=1 -run '^$$' -bench . -benchtime 1x -timeout 30m ./bench/

clean:
	rm -rf bin
