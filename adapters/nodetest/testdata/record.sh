#!/bin/sh
# Records strobe's node:test reporter on the fixtures into recorded/*.jsonl,
# the fixture's absolute directory written {{ROOT}}. Run from this directory
# with node on PATH; TestNodeRecorded replays them.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
reporter="$here/../reporter.mjs"
mkdir -p "$here/recorded"
record() { # name fixture [timeout]
	out="$here/recorded/$1.jsonl"
	root="$here/fixtures/$2"
	rm -f "$out.tmp"
	(cd "$root" && ${3:+timeout -s TERM $3} node --test --test-reporter="$reporter" --test-reporter-destination="$out.tmp" >/dev/null 2>&1) || true
	sed "s|$root|{{ROOT}}|g" "$out.tmp" >"$out"
	rm -f "$out.tmp"
}
record basic basic
record broken broken
record crash crash
record cancelled cancelled
record hang-stopped hang 3
# node's own JUnit report, which the fallback reads.
(cd "$here/fixtures/basic" && node --test --test-reporter=junit 2>/dev/null) | sed "s|$here/fixtures/basic|{{ROOT}}|g" >"$here/recorded/basic-junit.stdout" || true
