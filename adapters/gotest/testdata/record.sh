#!/bin/sh
# Records real `go test -json` runs of the fixtures under
# testdata/fixtures/go into NAME.jsonl (stdout), NAME.stderr (stderr, when
# not empty) and NAME.exit (the exit code). The fixture's absolute path is
# written as {{ROOT}} so that the recordings do not depend on where the
# repository is checked out; the golden test puts the real path back.
#
# Run from anywhere: adapters/gotest/testdata/record.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
fixtures=$(cd "$here/../../../testdata/fixtures/go" && pwd)

record() { # name fixture go-test-args...
	name=$1 fixture=$2
	shift 2
	(cd "$fixtures/$fixture" && go test -json "$@" >"$here/$name.jsonl" 2>"$here/$name.stderr"; echo $? >"$here/$name.exit")
	sed -i "s|$fixtures/$fixture|{{ROOT}}|g" "$here/$name.jsonl" "$here/$name.stderr"
	[ -s "$here/$name.stderr" ] || rm "$here/$name.stderr"
}

record basic-all basic ./...
record basic-unit basic -short ./...
record basic-single basic -run '^TestTable$/^two_plus_two$' ./...
record crash-segv crash ./segv
record crash-abort crash ./abort
record crash-killed crash ./killed
record crash-deadlock crash ./deadlock
record crash-mapwrites crash ./mapwrites
record crash-timeout crash -timeout 1s ./hang
# Ten parallel tests end around the alarm: test2json prints the timeout
# panic in the output of a test that just finished, before its pass event
# (seen in 12 runs out of 12 on a 2-core machine; check the order).
record crash-timeout-late-pass crash -timeout 1s -parallel 10 ./lateparallel
record broken-all broken ./...
record empty-all empty ./...

# The same packages through `go test -v=test2json`, which strobe runs for
# one package and converts itself: framed/NAME.txt must parse to NAME's
# golden too.
mkdir -p "$here/framed"
recordframed() { # name fixture go-test-args...
	name=$1 fixture=$2
	shift 2
	(cd "$fixtures/$fixture" && go test -v=test2json "$@" >"$here/framed/$name.txt" 2>/dev/null)
	sed -i "s|$fixtures/$fixture|{{ROOT}}|g" "$here/framed/$name.txt"
}
recordframed crash-segv crash ./segv
recordframed crash-abort crash ./abort
recordframed crash-killed crash ./killed
recordframed crash-deadlock crash ./deadlock
recordframed crash-mapwrites crash ./mapwrites
recordframed crash-timeout crash -timeout 1s ./hang
recordframed crash-timeout-late-pass crash -timeout 1s -parallel 10 ./lateparallel
