#!/bin/sh
# Records real cargo test runs of the fixture crates for the cargo parser's
# golden tests: NAME.stdout and NAME.stderr, the fixture's absolute path
# directory replaced by /fixtures. The commands are the ones cargo.Plan builds.
# Run from this directory: ./record.sh (then go test ./adapters -run Cargo -update).
set -u
fixtures=$(cd ../../../testdata/fixtures/cargo && pwd)
runner="target.'cfg(all())'.runner=[\"env\",\"RUSTC_BOOTSTRAP=1\"]"
export RUST_BACKTRACE=1 # backtraces give the suggested traces

record() { # record NAME FIXTURE CARGO-ARGS... -- TEST-ARGS...
	name=$1 dir=$fixtures/$2
	shift 2
	(cd "$dir" && cargo test --no-fail-fast --message-format=json "$@") >"$name.stdout.raw" 2>"$name.stderr.raw"
	for s in stdout stderr; do
		sed "s#$fixtures#/fixtures#g" "$name.$s.raw" >"$name.$s" && rm "$name.$s.raw"
	done
}

# The whole suite is two steps, as cargo.Plan runs them in one shell: the
# test binaries with JSON events, then the doctests with rustdoc's own output.
record_both() { # record_both NAME FIXTURE
	name=$1 dir=$fixtures/$2
	(cd "$dir" && cargo test --no-fail-fast --message-format=json --tests --config "$runner" -- -Z unstable-options --format json --report-time
		cargo test --no-fail-fast --message-format=json --doc) >"$name.stdout.raw" 2>"$name.stderr.raw"
	for s in stdout stderr; do
		sed "s#$fixtures#/fixtures#g" "$name.$s.raw" >"$name.$s" && rm "$name.$s.raw"
	done
}

record basic-all basic --tests --config "$runner" -- -Z unstable-options --format json --report-time
# A user command: cargo test --test integration -- --nocapture --test-threads=1
record basic-nocapture basic --test integration --config "$runner" -- --nocapture --test-threads=1 -Z unstable-options --format json --report-time
record crash-all crash --tests --config "$runner" -- -Z unstable-options --format json --report-time
record broken-all broken --tests --config "$runner" -- -Z unstable-options --format json --report-time
record empty-all empty --tests --config "$runner" -- -Z unstable-options --format json --report-time
record ws-all ws --tests --config "$runner" -- -Z unstable-options --format json --report-time
record_both doctest-all doctest
