#!/bin/sh
# Records strobe's reporter events from the fixture projects into
# recorded/NAME.jsonl, with the fixtures' directory written /project, for
# the golden replay tests. Needs node and `npm ci` in fixtures/.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
fx="$here/fixtures"
rec() { # name project [jest args...]
	name=$1 proj=$2
	shift 2
	out=$(mktemp)
	(cd "$fx/$proj" && STROBE_JEST_EVENTS=$out FORCE_COLOR=0 ../node_modules/.bin/jest --ci \
		--reporters="$here/../reporter.cjs" --testLocationInResults --passWithNoTests "$@" >/dev/null 2>&1) || true
	sed -e "s#$fx/$proj#/project#g" -e "s#$fx#/fixtures#g" -e 's/"ms":[0-9.]*/"ms":1/g' -e 's/pid=[0-9]*/pid=1234/g' "$out" >"$here/recorded/$name.jsonl"
	rm -f "$out"
}
rec basic basic
rec broken broken
rec crash-worker crash -w 2 --workerIdleMemoryLimit=1GB
rec single basic -t '^arith nested wrong sum$'
