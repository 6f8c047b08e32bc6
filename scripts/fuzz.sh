#!/bin/sh
# Runs every Go fuzz target of the repository (func FuzzX in any *_test.go)
# for a bounded count or time, one `go test -fuzz` per target since -fuzz
# takes one, and prints each target's executions, time and result.
#
#   FUZZTIME      executions (1000000x) or a duration (20s) per target; default 1000000x
#   FUZZ          a regexp choosing targets by name (FuzzCargo|FuzzGo); default all
#   FUZZPARALLEL  fuzzing workers per target; default 1 (a shared machine)
#
# A failing input is saved by go test under the package's
# testdata/fuzz/FuzzX/; plain `go test` then replays it.
set -u
cd "$(dirname "$0")/.." || exit 2
fuzztime=${FUZZTIME:-1000000x}
filter=${FUZZ:-.}
parallel=${FUZZPARALLEL:-1}
go=${GO:-go}
log=$(mktemp)
summary=$(mktemp)
trap 'rm -f "$log" "$summary"' EXIT

failed=0
for file in $(git grep -l '^func Fuzz' -- '*_test.go'); do
	pkg=./$(dirname "$file")
	for target in $(sed -n 's/^func \(Fuzz[A-Za-z0-9_]*\)(f \*testing\.F).*/\1/p' "$file"); do
		echo "$target" | grep -Eq "$filter" || continue
		echo "== $pkg $target ($fuzztime)"
		start=$(date +%s)
		# Minimizing a new coverage input of a large seed can take
		# longer than finding it; a failing input is minimized anyway.
		$go test -run '^$' -fuzz "^$target\$" -fuzztime "$fuzztime" -fuzzminimizetime 10s \
			-parallel "$parallel" "$pkg" >"$log" 2>&1
		rc=$?
		secs=$(($(date +%s) - start))
		execs=$(sed -n 's/^fuzz: elapsed: .*execs: \([0-9]*\).*/\1/p' "$log" | tail -n 1)
		if [ $rc -eq 0 ]; then
			result=ok
		else
			result=FAIL
			failed=1
			grep -v '^fuzz: elapsed' "$log" | tail -n 30
		fi
		printf '%-24s %-10s %10s execs %6ss  %s\n' "$target" "$pkg" "${execs:-?}" "$secs" "$result" | tee -a "$summary"
	done
done
echo
echo "== summary ($fuzztime per target)"
cat "$summary"
exit $failed
