#!/bin/sh
# Records ctest's console and JUnit report on the fixture project, built
# into a temporary tree, for the replay goldens (go test -run TestReplay).
# Paths of the machine are rewritten: the build tree to /build, the
# project to /src. Usage: testdata/record.sh (from adapters/ctest).
set -eu
src=$(cd "$(dirname "$0")/project" && pwd)
out=$(cd "$(dirname "$0")/recorded" && pwd)
tree=$(mktemp -d)
trap 'rm -rf "$tree"' EXIT
cmake -S "$src" -B "$tree" -DCMAKE_BUILD_TYPE=Debug >/dev/null
cmake --build "$tree" -j2 >/dev/null
fix() { sed -e "s|$tree|/build|g" -e "s|$src|/src|g"; }
record() {
	name=$1
	shift
	set +e
	ctest --test-dir "$tree" --output-on-failure --no-tests=error --output-junit "$tree/junit.xml" "$@" >"$tree/out" 2>"$tree/err"
	echo $? >"$out/$name.exit"
	set -e
	fix <"$tree/out" >"$out/$name.stdout"
	fix <"$tree/err" >"$out/$name.stderr"
	if [ -f "$tree/junit.xml" ]; then fix <"$tree/junit.xml" >"$out/$name.junit.xml"; rm "$tree/junit.xml"; fi
}
record all
record parallel -j4
record none -R '^nope$'
ctest --version | head -1 >"$out/VERSION"
