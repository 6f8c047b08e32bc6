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

# Tests that end their process without a panic, a #[should_panic] whose
# panic lacks the expected text, and a test that segfaults on its first try
# only, in a copy of the fixture: once as they are (exits), once with
# nextest's retries (retries), where the status lines shorten the signal
# (TRY 2 SEGV) and each try's output ends with nextest's "(test failed
# with exit code 3)" or "(test aborted with signal 11: SIGSEGV)".
exits=$(mktemp -d)
cp -r "$fixture/Cargo.toml" "$fixture/Cargo.lock" "$fixture/src" "$fixture/tests" "$exits"
cat >>"$exits/tests/integration.rs" <<'RS'

#[test]
fn exits_three() {
    std::process::exit(3);
}

#[test]
#[should_panic(expected = "overflow")]
fn wrong_panic() {
    panic!("underflow");
}

#[test]
fn segfaults_once() {
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("ntdemo-segv-count");
    let n: u32 = std::fs::read_to_string(&path).ok().and_then(|s| s.trim().parse().ok()).unwrap_or(0);
    std::fs::write(&path, (n + 1).to_string()).unwrap();
    if n == 0 {
        unsafe { std::ptr::null_mut::<i32>().write_volatile(1) };
    }
}
RS
record exits "$exits" -E 'test(=exits_three) | test(=wrong_panic)'
record retries "$exits" --retries 1 -E 'test(=segfault) | test(=aborts) | test(=exits_three) | test(=segfaults_once)'
rm -rf "$exits"

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

# A library and a binary of the same name (src/lib.rs and src/main.rs),
# in a copy of the fixture: their events share the name prefix
# "ntdemo::ntdemo", and the binary's suite starts while the library's
# tests are still ending.
samename=$(mktemp -d)
cp -r "$fixture/Cargo.toml" "$fixture/Cargo.lock" "$fixture/src" "$fixture/tests" "$samename"
cat >"$samename/src/main.rs" <<'RS'
fn main() {
    println!("{}", ntdemo::add(1, 2));
}

#[cfg(test)]
mod tests {
    #[test]
    fn bin_passes() {}

    #[test]
    fn bin_fails() {
        assert_eq!(ntdemo::add(1, 1), 3, "in the binary");
    }
}
RS
record samename "$samename" -E 'binary(ntdemo)'
rm -rf "$samename"
