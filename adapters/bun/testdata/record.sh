#!/bin/sh
# Records bun's console and JUnit report on the fixtures, for the replay
# tests: NAME.stdout, NAME.stderr, NAME.report.xml, with the fixture's
# path normalised to /project. Run from adapters/bun/testdata after
# `npm ci` in fixtures/basic.
set -u
here=$(pwd)
bun=$here/fixtures/basic/node_modules/.bin/bun
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

record() { # NAME DIR ARGS...
	name=$1 dir=$2
	shift 2
	(cd "$dir" && "$bun" test --reporter=junit --reporter-outfile="$tmp/report.xml" "$@" >"$tmp/out" 2>"$tmp/err")
	for s in out:stdout err:stderr; do
		sed "s#$dir#/project#g" "$tmp/${s%%:*}" >"$name.${s#*:}"
	done
	if [ -f "$tmp/report.xml" ]; then sed "s#$dir#/project#g" "$tmp/report.xml" >"$name.report.xml"; fi
	rm -f "$tmp/report.xml"
}

record basic-all "$here/fixtures/basic"
mkdir -p "$tmp/broken"
printf 'import { test } from "bun:test";\ntest("x", () => {\n  const a = ;\n});\n' >"$tmp/broken/syntax.test.ts"
printf 'import { missing } from "./nope";\nimport { test } from "bun:test";\ntest("never", () => { missing(); });\n' >"$tmp/broken/import.test.ts"
printf 'import { test, expect } from "bun:test";\ntest("fine", () => { expect(1).toBe(1); });\n' >"$tmp/broken/ok.test.ts"
record broken-all "$tmp/broken"
