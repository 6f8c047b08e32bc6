package generic

import (
	"strings"
	"testing"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
	"strobe/internal/testutil"
	"strobe/report"
)

// TestGenericTAP runs a shell script that speaks TAP, with a YAML block
// that locates the failure, and an automake line.
func TestGenericTAP(t *testing.T) {
	script := `printf '%s\n' 'TAP version 13' '1..3' 'ok 1 - adds' 'not ok 2 - divides' '  ---' '  at: src/div.sh:12' '  ...' 'ok 3 - skips # SKIP no network' 'FAIL: legacy'; exit 1`
	rec, out, exit := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: t.TempDir(), Command: []string{"/bin/sh", "-c", script}})
	if exit.Code != 1 {
		t.Errorf("exit %+v", exit)
	}
	if out.Crash != nil || out.NoTests {
		t.Errorf("outcome %+v", out)
	}
	want := map[string]report.TestStatus{"adds": report.TestPassed, "divides": report.TestFailed, "skips": report.TestSkipped, "legacy": report.TestFailed}
	for name, st := range want {
		tt, ok := adapterstest.TestByName(rec.Tests(), name)
		if !ok || tt.Status != st {
			t.Errorf("%s: %+v, want %s", name, tt, st)
		}
	}
	div, _ := adapterstest.TestByName(rec.Tests(), "divides")
	if f := div.Failure; f == nil || f.File != "src/div.sh" || f.Line != 12 {
		t.Errorf("divides failed at %+v, want src/div.sh:12 from the YAML block", f)
	}
}

// TestGenericSummaryAndAutomake: a run that only counts ("tests: 7 passed,
// 2 failed, 1 skipped") answers those counts; automake's lines of every
// kind (four and five letters before the colon) are tests.
func TestGenericSummaryAndAutomake(t *testing.T) {
	t.Run("summary", func(t *testing.T) {
		script := `printf '%s\n' 'building' 'PASSED: not automake' 'tests: 7 passed, 2 failed, 1 skipped'; exit 1`
		rec, out, _ := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: t.TempDir(), Command: []string{"/bin/sh", "-c", script}})
		if n := len(rec.Tests()); n != 0 {
			t.Errorf("%d tests recorded, want none: %+v", n, rec.Tests())
		}
		if s := out.Summary; s == nil || s.Passed != 7 || s.Failed != 2 || s.Skipped != 1 {
			t.Errorf("summary %+v, want 7 passed, 2 failed, 1 skipped", s)
		}
	})
	t.Run("surefire", func(t *testing.T) {
		// A class's line, then the totals Maven prints at the end.
		script := `printf '%s\n' '[ERROR] Tests run: 5, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.1 s <<< FAILURE!' \
			'[ERROR] Tests run: 13, Failures: 4, Errors: 4, Skipped: 2' '[INFO] BUILD FAILURE'; exit 1`
		_, out, _ := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: t.TempDir(), Command: []string{"/bin/sh", "-c", script}})
		if s := out.Summary; s == nil || s.Passed != 3 || s.Failed != 8 || s.Skipped != 2 {
			t.Errorf("summary %+v, want 3 passed, 8 failed, 2 skipped", s)
		}
	})
	t.Run("automake", func(t *testing.T) {
		script := `printf '%s\n' 'PASS: a' 'SKIP: b' 'XFAIL: c' 'XPASS: d' 'ERROR: e' 'note: PASS: f'; exit 1`
		rec, _, _ := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: t.TempDir(), Command: []string{"/bin/sh", "-c", script}})
		want := map[string]report.TestStatus{"a": report.TestPassed, "b": report.TestSkipped, "c": report.TestSkipped, "d": report.TestFailed, "e": report.TestFailed}
		for name, st := range want {
			if tt, ok := adapterstest.TestByName(rec.Tests(), name); !ok || tt.Status != st {
				t.Errorf("%s: %+v, want %s", name, tt, st)
			}
		}
		if n := len(rec.Tests()); n != len(want) {
			t.Errorf("%d tests, want %d: %+v", n, len(want), rec.Tests())
		}
	})
}

// TestGenericAskedForATest: the command cannot be told which test to run;
// a test its results do not name did not run (no_tests, not a pass of
// the suite), one they name ran with the rest, and a command that names
// no test leaves it unknown; each hint says which.
func TestGenericAskedForATest(t *testing.T) {
	tap := "printf 'ok 1 - adds\\nok 2 - subs\\n1..2\\n'"
	for _, tc := range []struct {
		name, script, test string
		noTests            bool
		hint               string
	}{
		{"not in its results", tap, "nosuch", true, "STROBE_TEST=nosuch in its environment for a script that reads it; none of the 2 tests it ran is named nosuch"},
		{"in its results", tap, "adds", false, "STROBE_TEST=adds in its environment for a script that reads it, and ran its 2 tests"},
		{"no results", "test \"$STROBE_TEST\" = 'a b'", "a b", false, "STROBE_TEST='a b' in its environment for a script that reads it; nothing in its output says whether a b ran"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, out, exit := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: t.TempDir(), Test: tc.test, Command: []string{"/bin/sh", "-c", tc.script}})
			if exit.Code != 0 || out.NoTests != tc.noTests || !strings.Contains(out.Hint, tc.hint) {
				t.Errorf("exit %+v, no tests %v, hint %q; want exit 0, no tests %v, a hint with %q", exit, out.NoTests, out.Hint, tc.noTests, tc.hint)
			}
		})
	}
}

// TestGenericWorkspacesRoot: an npm workspaces root's test script runs its
// packages' tests (npm test -ws), whose results strobe cannot read through
// it: the hint names the packages with tests to run strobe on.
func TestGenericWorkspacesRoot(t *testing.T) {
	testutil.RequireTool(t, "npm")
	root := t.TempDir()
	adapterstest.WriteFiles(t, root, map[string]string{
		"package.json":            `{"name": "mono", "private": true, "workspaces": ["packages/*"], "scripts": {"test": "echo ran the workspaces"}}`,
		"packages/a/package.json": `{"name": "a", "scripts": {"test": "jest"}}`,
		"packages/b/package.json": `{"name": "b"}`,
		"packages/c/package.json": `{"name": "c", "scripts": {"test": "vitest run"}}`,
	})
	_, out, exit := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root})
	if want := "this is a workspaces root: its test script ran the tests of its packages, whose results strobe does not read through it; run strobe on each package (packages/a, packages/c)"; exit.Code != 0 || !strings.Contains(out.Hint, want) {
		t.Errorf("exit %+v, hint %q; want %q", exit, out.Hint, want)
	}
}

// TestGenericUnittest: `python3 -m unittest -v` through generic (a
// Makefile's test target) is counted by unittest's own totals; the bare
// "ok" it prints after a test that wrote to stderr is no TAP test (it was
// "1 passed, 1 failed" for 4 tests, and for more-itertools' 774).
func TestGenericUnittest(t *testing.T) {
	python := testutil.RequireTool(t, "python3")
	root := t.TempDir()
	adapterstest.WriteFiles(t, root, map[string]string{"test_m.py": `import sys, unittest

class T(unittest.TestCase):
    def test_a(self):
        pass

    def test_b_writes(self):
        sys.stderr.write("noise\n")

    def test_c(self):
        pass

    def test_d_fails(self):
        self.assertEqual(1, 2)

    @unittest.skip("not now")
    def test_e(self):
        pass
`})
	rec, out, exit := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root, Command: []string{python, "-m", "unittest", "-v"}})
	s := out.Summary
	if exit.Code != 1 || s == nil || s.Passed != 3 || s.Failed != 1 || s.Skipped != 1 || out.Unread != 4 {
		t.Errorf("exit %+v, summary %+v, unread %d, tests %+v; want unittest's 3 passed, 1 failed, 1 skipped", exit, s, out.Unread, rec.Tests())
	}
	if tt, ok := adapterstest.TestByName(rec.Tests(), "test 1"); ok {
		t.Errorf("a bare ok read as a TAP test: %+v", tt)
	}
}

// TestPerlDiagAfterItsPlace: Test::More writes a failure's diagnostics to
// stderr, apart from prove's TAP on stdout: the "at" line may place the
// failure before its "got:" and "expected:" lines come, which were lost
// (TestProve/verbose, 1 run in several on a loaded machine).
func TestPerlDiagAfterItsPlace(t *testing.T) {
	for _, order := range []string{"not ok first", "diagnostics first"} {
		rec := adapters.NewRecorder()
		p := newParser(rec, "/project", []string{"prove", "-lv", "t"})
		notOK := func() {
			p.Line(adapters.Stdout, []byte("t/01-add.t .. "), false)
			p.Line(adapters.Stdout, []byte("not ok 2 - adds wrong"), false)
		}
		if order == "not ok first" {
			notOK()
		}
		for _, l := range []string{"#   Failed test 'adds wrong'", "#   at t/01-add.t line 5."} {
			p.Line(adapters.Stderr, []byte(l), false)
		}
		if order == "diagnostics first" {
			notOK()
		}
		for _, l := range []string{"#          got: '4'", "#     expected: '5'"} {
			p.Line(adapters.Stderr, []byte(l), false)
		}
		p.Finish(report.Exit{Exited: true, Code: 1})
		var f *report.Failure
		for _, tt := range rec.Tests() {
			if tt.Name == "adds wrong" {
				f = tt.Failure
			}
		}
		if f == nil || f.File != "t/01-add.t" || f.Line != 5 || !strings.Contains(f.Message, "got: '4'\nexpected: '5'") {
			t.Errorf("%s: failure %+v, want at t/01-add.t:5 with got and expected", order, f)
		}
	}
}
