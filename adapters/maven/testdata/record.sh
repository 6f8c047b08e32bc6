#!/bin/sh
# Records the fixture projects' Maven runs for the replay tests: each
# scenario's console (recorded/<scenario>/console.txt), its poms (which
# say the modules) and the reports it wrote
# (recorded/<scenario>/<module>/target/*-reports), with the project's
# directory written as /PROJECT and the reports' <properties> (the
# machine's paths and environment) left out.
# Run from adapters/maven/testdata: sh record.sh
set -eu
here=$(pwd)
out=$here/recorded
find "$out" -mindepth 1 -maxdepth 1 -type d -exec rm -rf {} +

# record SCENARIO FIXTURE ARGS...
record() {
	scenario=$1 fixture=$2
	shift 2
	work=$(mktemp -d)
	cp -r "fixtures/$fixture" "$work/p"
	dir=$out/$scenario
	mkdir -p "$dir"
	(cd "$work/p" && mvn "$@" >"$dir/console.txt" 2>&1) || true
	sed -i "s#$work/p#/PROJECT#g" "$dir/console.txt"
	(cd "$work/p" && find . -name pom.xml -o -path '*/target/*-reports/TEST-*.xml') | while read -r f; do
		mkdir -p "$dir/$(dirname "$f")"
		sed -e '/<properties>/,/<\/properties>/d' -e "s#$work/p#/PROJECT#g" "$work/p/$f" >"$dir/$f"
	done
	rm -rf "$work"
}

record basic basic -B test
record single basic -B test -Dtest=CalcTest#addsWrongly -Dsurefire.failIfNoSpecifiedTests=false
record integration basic -B verify -Dtest=strobe_skip_surefire -Dsurefire.failIfNoSpecifiedTests=false
record broken broken -B test
record notests notests -B test
record multi multi -B test
record junit4 junit4 -B test
record junit4-filter junit4 -B test -Dtest=RowTest#notTwo -Dsurefire.failIfNoSpecifiedTests=false
