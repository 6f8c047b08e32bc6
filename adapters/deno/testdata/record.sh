#!/bin/sh
# Records deno's console and JUnit report on the fixtures, for the replay
# tests: NAME.stdout, NAME.stderr, NAME.report.xml, with the project's
# path normalised to /project. Run from adapters/deno/testdata after
# `npm ci` in fixtures/basic.
set -u
here=$(pwd)
deno=$here/fixtures/basic/node_modules/.bin/deno
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

record() { # NAME DIR ARGS...
	name=$1 dir=$2
	shift 2
	(cd "$dir" && NO_COLOR=1 "$deno" test --junit-path="$tmp/report.xml" "$@" >"$tmp/out" 2>"$tmp/err")
	for s in out:stdout err:stderr; do
		sed "s#$dir#/project#g" "$tmp/${s%%:*}" >"$name.${s#*:}"
	done
	if [ -f "$tmp/report.xml" ]; then sed "s#$dir#/project#g" "$tmp/report.xml" >"$name.report.xml"; fi
	rm -f "$tmp/report.xml"
}

record basic-all "$here/fixtures/basic"
record basic-filter "$here/fixtures/basic" --filter '/^group$/'
mkdir -p "$tmp/broken"
echo '{}' >"$tmp/broken/deno.json"
printf 'Deno.test("typed", () => {\n  const n: number = "x";\n});\n' >"$tmp/broken/bad_test.ts"
printf 'import { x } from "./nope.ts";\nDeno.test("imp", () => { x(); });\n' >"$tmp/broken/imp_test.ts"
record broken-all "$tmp/broken"
