#!/usr/bin/env bash
# Runs strobe on the bundled examples. go-demo, rust-demo, python-demo
# (pytest) and js-demo (node:test) each have a passing test, a failing
# assertion and an error on purpose, so strobe must
# answer FAILED (exit 1) with the failures' file:line; hang-demo has a
# deadlock, which strobe must call STUCK within seconds, with the stacks.
# Any other answer fails the demo.
set -uo pipefail
strobe=${1:-bin/strobe}
cd "$(dirname "$0")/.."
status=0
out=$(mktemp)
# A daemon of its own, stopped at the end: the demo shows this build, not
# whatever daemon an earlier strobe left running.
export STROBE_HOME=$(mktemp -d /tmp/strobe-demo.XXXXXX)
trap '"$strobe" stop >/dev/null 2>&1; rm -rf "$out" "$STROBE_HOME"' EXIT

# expect VERDICT ARGS...: run strobe test ARGS, show its answer, check it.
expect() {
  local verdict=$1
  shift
  echo "\$ strobe test $*"
  "$strobe" test "$@" | tee "$out"
  local rc=${PIPESTATUS[0]}
  echo
  if [ "$rc" -ne 1 ] || ! grep -q "$verdict" "$out"; then
    echo "demo: expected $verdict (exit 1) from strobe test $*, got exit $rc" >&2
    status=1
  fi
}

expect FAILED examples/go-demo
expect FAILED examples/rust-demo
expect FAILED examples/python-demo
expect FAILED examples/js-demo
expect STUCK examples/hang-demo
expect '"status": "failed"' examples/rust-demo --test tests::peek_sees_the_top --json
exit $status
