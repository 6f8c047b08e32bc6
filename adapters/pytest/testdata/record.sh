#!/bin/sh
# Records real pytest runs of the fixtures with strobe's plugin: for each,
# NAME.events.jsonl (the plugin's channel), NAME.stdout, NAME.stderr and
# NAME.exit, with the fixture's temporary copy written as /fixtures/FIXTURE.
# Needs python3 with pytest, pytest-xdist and pytest-timeout.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/plugin"
# Where pytest and the interpreter live on the recording machine: written
# as /site-packages and /python.
site=$(python3 -c 'import os, pytest; print(os.path.dirname(os.path.dirname(pytest.__file__)))')
prefix=$(python3 -c 'import sys; print(sys.base_prefix)')
cp "$here/../strobe_plugin.py" "$here/../strobe_pytest.py" "$here/../../kit/python/strobe_events.py" "$work/plugin/"

record() { # NAME FIXTURE ARGS...
	name=$1 fixture=$2
	shift 2
	rm -rf "$work/$fixture"
	cp -R "$here/fixtures/$fixture" "$work/$fixture"
	set +e
	(cd "$work/$fixture" && STROBE_PY_EVENTS="$work/events" PYTHONPATH="$work/plugin${PYTHONPATH:+:$PYTHONPATH}" \
		python3 -m pytest -p strobe_plugin "$@" >"$work/stdout" 2>"$work/stderr")
	echo $? >"$here/$name.exit"
	set -e
	for s in events stdout stderr; do
		out=$here/$name.$s
		[ $s = events ] && out=$here/$name.events.jsonl
		sed "s|$work/$fixture|/fixtures/$fixture|g; s|$work/plugin|/strobe|g; s|$site|/site-packages|g; s|$prefix|/python|g" "$work/$s" >"$out"
	done
	rm -f "$work/events"
}

record basic basic
record basic-xdist basic -n 2 --timeout 60
record collect-error collect_error
record crash-abort crash test_crash.py
record empty empty
record markers-unit markers -m unit
