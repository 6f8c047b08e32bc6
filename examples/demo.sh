#!/usr/bin/env bash
# Runs strobe on the bundled examples. Each example has a passing test, a
# failing assertion and a panic on purpose, so strobe must answer "failed"
# (exit 1) with the failures' file:line; anything else fails the demo.
set -uo pipefail
strobe=${1:-bin/strobe}
cd "$(dirname "$0")/.."
status=0
for ex in go-demo rust-demo; do
  echo "\$ strobe test examples/$ex"
  "$strobe" test "examples/$ex"
  rc=$?
  echo
  if [ "$rc" -ne 1 ]; then
    echo "demo: expected exit 1 (tests failed on purpose) from examples/$ex, got $rc" >&2
    status=1
  fi
done
echo "\$ strobe test examples/rust-demo --test tests::peek_sees_the_top --json"
"$strobe" test examples/rust-demo --test tests::peek_sees_the_top --json
[ $? -eq 1 ] || status=1
exit $status
