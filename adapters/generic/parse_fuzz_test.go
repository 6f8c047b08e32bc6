package generic

import (
	"context"
	"testing"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
)

// genericSeeds are the formats the generic adapter reads (docs/adapters.md).
var genericSeeds = []string{
	"TAP version 13\n1..4\nok 1 - adds\nnot ok 2 - subtracts\n  ---\n  at: src/math.js:12:3\n  ...\nok 3 # SKIP no network\nnot ok 4 - later # TODO\n",
	"PASS: t/one.sh\nFAIL: t/two.sh\nSKIP: t/three.sh\nXFAIL: t/four.sh\nXPASS: t/five.sh\nERROR: t/six.sh\n",
	"running\ntests: 7 passed, 2 failed, 1 skipped\n",
	"ok\nnot ok\nok 12\n",
	// prove -v, then its summary report; Test::More's diagnostics.
	"t/a.t .. \n1..3\nok 1 - x\nnot ok 2 - y\n#   Failed test 'y'\n#   at t/a.t line 5.\n#     got: '1'\nok\nt/b.t .. ok\nt/c.t .. \nDubious, test returned 255 (wstat 65280, 0xff00)\nFailed 3/4 subtests \n\nTest Summary Report\n-------------------\nt/c.t (Wstat: 11 (Signal: SEGV) Tests: 1 Failed: 0)\n  Parse errors: Bad plan.  You planned 4 tests but ran 1.\nFiles=3, Tests=5\nResult: FAIL\n",
	// node's nested subtests; a bail out; a compiler error in a make.
	"# Subtest: s\n    not ok 1 - in\n      ---\n      error: |-\n        boom\n      stack: |-\n        x (/project/a.js:3:4)\n      ...\n    1..1\nnot ok 1 - s\nBail out! db\n",
	"make[1]: Entering directory '/project/sub'\nt.c:1:5: error: expected ';'\nmake: *** [Makefile:2: t] Error 1\n",
	// bats: a failure's comment lines, a helper's place before the test's.
	"1..3\nok 1 adds\nnot ok 2 subtracts\n# (from function `equal' in file test/helpers.bash, line 6,\n#  in test file test/calc.bats, line 25)\n#   `equal \"$output\" \"x\"' failed\n# expected: x\nok 3 skipped # skip not today\n",
}

// FuzzGeneric feeds the generic parser arbitrary streams
// (adapterstest.FuzzLines says what is checked).
func FuzzGeneric(f *testing.F) {
	for _, s := range genericSeeds {
		f.Add([]byte(s), []byte{}, []byte{}, byte(1), byte(0))
		f.Add([]byte{}, []byte(s), []byte{}, byte(0), byte(0))
	}
	f.Fuzz(func(t *testing.T, stdout, stderr, sched []byte, code, flags byte) {
		adapterstest.FuzzLines(t, func(rec *adapters.Recorder) adapters.Parser {
			// bats's name: its failures' reruns are made too.
			plan, err := generic{}.Plan(context.Background(), adapters.Request{ProjectRoot: "/project", Command: []string{"/project/node_modules/bats/bin/bats", "test"}}, rec)
			if err != nil {
				t.Fatal(err)
			}
			return plan.Parser
		}, stdout, stderr, sched, code, flags)
	})
}
