#!/bin/sh
# Rebuilds the v3 captures: copies src/ to /tmp/catch2-v3-capture (a fixed
# path, which the reports' file names and the golden tests use), builds it
# against an installed Catch2 v3 (CATCH2_PREFIX, the cmake --install prefix)
# and runs each binary as strobe runs it (-r xml -o FILE -d yes [SPEC]),
# keeping the report's exact bytes, stdout, stderr and the shell's $? (128+N
# for signal N). CI has no Catch2 v3: the captures are committed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
prefix=${CATCH2_PREFIX:?set CATCH2_PREFIX to an installed Catch2 v3}
work=/tmp/catch2-v3-capture
out=$here/captures
rm -rf "$work" && cp -r "$here/src" "$work" || exit 1
cmake -S "$work" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_PREFIX_PATH="$prefix" >/dev/null || exit 1
cmake --build "$work/build" >/dev/null || exit 1
mkdir -p "$out"
cd "$work"

# run NAME BIN [ARGS...]: one run with the XML reporter.
run() {
  name=$1 bin=$2; shift 2
  "build/$bin" -r xml -o "$out/$name.xml" -d yes "$@" >"$out/$name.stdout" 2>"$out/$name.stderr"
  echo $? >"$out/$name.exit"
}
run features-all features
run features-unit features '[unit]'
run features-skipped-only features 'skips itself'
run features-no-match features 'no such test'
run crash-all crash
run crash-abort crash aborts
run custom-all custom
# The deadlock, stopped with SIGTERM as strobe stops a stuck run.
build/hang -r xml -o "$out/hang-sigterm.xml" -d yes 'quick one,transfers between accounts' >"$out/hang-sigterm.stdout" 2>"$out/hang-sigterm.stderr" &
pid=$!
sleep 1
kill -TERM $pid
wait $pid
echo $? >"$out/hang-sigterm.exit"

# Listings, as List and the probe ask for them.
list() {
  name=$1; shift
  build/features "$@" >"$out/$name.stdout" 2>"$out/$name.stderr"
  echo $? >"$out/$name.exit"
}
list list-test-names-only --list-test-names-only
list list-tests-quiet --list-tests --verbosity quiet
list list-tests --list-tests
list list-tests-quiet-unit --list-tests --verbosity quiet '[unit]'
