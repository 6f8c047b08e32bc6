#!/bin/sh
# Records real runs of strobe's unittest runner on the fixtures: for each,
# NAME.events.jsonl (the runner's channel), NAME.stderr and NAME.exit, with
# the fixture's temporary copy written as /fixtures/FIXTURE and the
# interpreter's prefix as /python.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/runner"
cp "$here/../strobe_unittest.py" "$here/../../kit/python/strobe_events.py" "$work/runner/"
prefix=$(python3 -c 'import sys; print(sys.base_prefix)')

record() { # NAME FIXTURE ARGS...
	name=$1 fixture=$2
	shift 2
	rm -rf "$work/$fixture"
	cp -R "$here/fixtures/$fixture" "$work/$fixture"
	set +e
	(cd "$work/$fixture" && STROBE_PY_EVENTS="$work/events" PYTHONPATH="$work/runner" STROBE_FIXTURE_ABORT="${ABORT:-}" \
		python3 -m strobe_unittest "$@" >/dev/null 2>"$work/stderr")
	echo $? >"$here/$name.exit"
	set -e
	sed "s|$work/$fixture|/fixtures/$fixture|g; s|$work/runner|/strobe|g; s|$prefix|/python|g" "$work/events" >"$here/$name.events.jsonl"
	sed "s|$work/$fixture|/fixtures/$fixture|g; s|$work/runner|/strobe|g; s|$prefix|/python|g" "$work/stderr" >"$here/$name.stderr"
	rm -f "$work/events"
}

record basic basic
record broken broken
ABORT=1 record abort pkg test_top.TestTop.test_abort
