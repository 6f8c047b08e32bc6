#!/bin/sh
# Records real cargo test runs of the fixture crates for the cargo parser's
# golden tests: NAME.stdout and NAME.stderr, the fixture's absolute path
# directory replaced by /fixtures. The commands are the ones cargo.Plan builds.
# Run from this directory: ./record.sh (then go test ./adapters -run Cargo -update).
set -u
fixtures=$(cd ../../../testdata/fixtures/cargo && pwd)
libtest='RUSTC_BOOTSTRAP=1 exec "$@" -Z unstable-options --format json --report-time'
runner="target.'cfg(all())'.runner=['/bin/sh','-c','$libtest','sh']"
# The harness fixture's binaries with their own main run between markers (custom.go).
custom='echo strobe:cargo:custom-harness; command -v perl >/dev/null 2>&1 && exec perl -e "\$|=1; system {\$ARGV[0]} @ARGV; if (\$? == -1) { print STDERR qq(\$ARGV[0]: \$^E\n); \$? = 127 << 8 } \$g = \$? & 127; \$s = \$g ? 128 + \$g : \$? >> 8; print qq(\nstrobe:cargo:custom-harness-end \$s\n); kill \$g, \$\$ if \$g; exit \$s" -- "$@"; "$@"; s=$?; echo; echo strobe:cargo:custom-harness-end $s; [ $s -gt 128 ] && kill -$((s-128)) $$; exit $s'
customs="target.'cfg(all())'.runner=['/bin/sh','-c','case \${1##*/} in custom-????????????????|mimic-????????????????|quiet_args-????????????????) $custom;; esac; $libtest','sh']"
export RUST_BACKTRACE=1 # backtraces give the suggested traces

record() { # record NAME FIXTURE CARGO-ARGS... -- TEST-ARGS...
	name=$1 dir=$fixtures/$2
	shift 2
	(cd "$dir" && cargo test --no-fail-fast --message-format=json "$@") >"$name.stdout.raw" 2>"$name.stderr.raw"
	for s in stdout stderr; do
		sed "s#$fixtures#/fixtures#g" "$name.$s.raw" >"$name.$s" && rm "$name.$s.raw"
	done
}

record basic-all basic --tests --config "$runner"
# A user command: cargo test --test integration -- --nocapture --test-threads=1
record basic-nocapture basic --test integration --config "$runner" -- --nocapture --test-threads=1
record crash-all crash --tests --config "$runner"
record broken-all broken --tests --config "$runner"
record empty-all empty --tests --config "$runner"
record ws-all ws --tests --config "$runner"
# The whole suite as cargo.Plan runs it: cargo's own selection, the
# doctests after the test binaries.
record doctest-all doctest --config "$runner"
record harness-all harness --config "$customs"
# A workspace of edition 2024 crates: first's doctests run in two blocks
# (merged, then compile_fail apart) under one "Doc-tests first" line.
record wsdoc-all wsdoc --config "$runner"
# A workspace whose first crate has an example cargo test runs as a test
# binary (from target/debug/examples) before the second crate's library.
record wsex-all wsex --config "$runner"
