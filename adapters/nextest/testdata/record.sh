#!/bin/sh
# Records real cargo nextest runs of the fixture crate for the nextest
# parser's golden tests: NAME.stdout and NAME.stderr, with the fixture's
# absolute directory replaced by /fixtures, the rustc commit hash and
# nextest's run id by fixed words. The commands are the ones nextest's Plan
# builds. Run from this directory: ./record.sh (then go test
# ./adapters/nextest -run Golden -update, and review the diff).
set -u
fixture=$(cd fixtures/ntdemo && pwd)
export RUST_BACKTRACE=1 # backtraces give the suggested traces
export NEXTEST_EXPERIMENTAL_LIBTEST_JSON=1

normalise() { # normalise NAME
	for s in stdout stderr; do
		sed -e "s#$fixture#/fixtures/ntdemo#g" -e "s#$1#/fixtures/ntdemo#g" \
			-e 's#/rustc/[0-9a-f]\{40\}/#/rustc/HASH/#g' \
			-e 's#run ID [0-9a-f-]\{36\}#run ID RUN-ID#' \
			-e "s#$HOME#HOME#g" \
			"$2.$s.raw" >"$2.$s" && rm "$2.$s.raw"
	done
}

record() { # record NAME DIR ARGS...
	name=$1 dir=$2
	shift 2
	(cd "$dir" && cargo nextest run --no-fail-fast --message-format libtest-json-plus --status-level skip "$@") >"$name.stdout.raw" 2>"$name.stderr.raw"
	echo "$name: exit $?"
	normalise "$dir" "$name"
}

# The flaky test fails on the first try of each run: start its count anew.
rm -f "$fixture/target/tmp/ntdemo-flaky-count"
record all "$fixture"
record single "$fixture" -E 'test(=panics)'
record none "$fixture" -E 'test(=no_such_test)'

# A compile error, in a copy of the fixture.
broken=$(mktemp -d)
cp -r "$fixture/Cargo.toml" "$fixture/Cargo.lock" "$fixture/src" "$fixture/tests" "$broken"
sed -i 's/a + b/a + c/' "$broken/src/lib.rs"
record broken "$broken"
rm -rf "$broken"

# A run stopped as strobe stops a hung one: SIGTERM to the process group
# while the deadlock (without the fixture's terminate-after) hangs.
hung=$(mktemp -d)
here=$(pwd)
cp -r "$fixture/Cargo.toml" "$fixture/Cargo.lock" "$fixture/src" "$fixture/tests" "$hung"
cd "$hung"
setsid cargo nextest run --no-fail-fast --message-format libtest-json-plus --status-level skip -E 'test(=deadlock)' \
	>"$here/stopped.stdout.raw" 2>"$here/stopped.stderr.raw" &
pid=$!
cd "$here"
sleep 4
kill -TERM "-$pid"
wait "$pid"
echo "stopped: exit $?"
normalise "$hung" stopped
rm -rf "$hung"
