package ctest

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
	"strobe/internal/testutil"
	"strobe/report"
)

// propertiesSrc is testdata/properties: plain add_test commands with
// CTest's test properties (WILL_FAIL, TIMEOUT, DISABLED, fixtures, the
// regular expressions, SKIP_RETURN_CODE), a script, and two tests for
// --repeat.
var propertiesSrc, _ = filepath.Abs(filepath.Join("testdata", "properties"))

var propertiesTree struct {
	once sync.Once
	dir  string
	err  error
}

// runProperties runs ctest with args in the properties fixture's tree,
// its --repeat counters reset.
func runProperties(t *testing.T, args ...string) (*adapters.Recorder, adapters.Outcome, report.Exit) {
	t.Helper()
	testutil.RequireTool(t, "cmake")
	testutil.RequireTool(t, "ctest")
	propertiesTree.once.Do(func() { propertiesTree.dir, propertiesTree.err = buildTree(propertiesSrc) })
	if propertiesTree.err != nil {
		t.Fatalf("configuring the properties fixture: %v", propertiesTree.err)
	}
	dir := propertiesTree.dir
	os.Remove(filepath.Join(dir, "flaky.count"))
	os.Remove(filepath.Join(dir, "third.count"))
	return adapterstest.RunReal(t, ctest{}, adapters.Request{ProjectRoot: propertiesSrc,
		Command: append([]string{"ctest", "--test-dir", dir}, args...)})
}

type wantTest struct {
	name    string
	status  report.TestStatus
	message []string // parts of the failure's message
}

func checkTests(t *testing.T, rec *adapters.Recorder, want []wantTest) {
	t.Helper()
	tests := rec.Tests()
	if len(tests) != len(want) {
		t.Errorf("recorded %d tests, want %d: %+v", len(tests), len(want), tests)
	}
	for _, w := range want {
		tt, ok := adapterstest.TestByName(tests, w.name)
		if !ok || tt.Status != w.status {
			t.Errorf("%s: %+v, want %s", w.name, tt, w.status)
			continue
		}
		for _, part := range w.message {
			if tt.Failure == nil || !strings.Contains(tt.Failure.Message, part) {
				t.Errorf("%s: failure %+v, want a message with %q", w.name, tt.Failure, part)
			}
		}
	}
}

// TestProperties compares each property's test with what ctest says of
// it (`20% tests passed, 8 tests failed out of 10`, disabled not
// counted, the SKIP_RETURN_CODE test skipped), and checks that the
// failure says why ctest failed it.
func TestProperties(t *testing.T) {
	for _, args := range [][]string{{"-LE", "repeat"}, {"-LE", "repeat", "-j2"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			rec, out, exit := runProperties(t, args...)
			if exit.Code != 8 {
				t.Errorf("exit %+v, want 8", exit)
			}
			checkTests(t, rec, []wantTest{
				{"will_fail_fails", report.TestPassed, nil},
				{"will_fail_passes", report.TestFailed, []string{"the test passed (it exited 0), and its WILL_FAIL property makes ctest fail a test that passes", "all fine"}},
				{"times_out", report.TestFailed, []string{"the test timed out after 1.", "its TIMEOUT property, 1"}},
				{"disabled", report.TestSkipped, nil},
				{"db_setup", report.TestFailed, []string{"cannot connect"}},
				{"db_query", report.TestFailed, []string{"ctest did not run the test: a test it depends on failed (Failed test dependencies: db_setup)"}},
				{"pass_regex", report.TestFailed, []string{"its output matches no PASS_REGULAR_EXPRESSION [result: ok]", "result: wrong"}},
				{"pass_regexes", report.TestFailed, []string{"its output matches no PASS_REGULAR_EXPRESSION [alpha] or [beta]"}},
				{"fail_regex", report.TestFailed, []string{`its output matches its FAIL_REGULAR_EXPRESSION [ERROR], at the line "ERROR: disk full"`}},
				{"skip_code", report.TestSkipped, nil},
				{"script", report.TestFailed, []string{"the test failed (ctest: ***Failed):\nchecking config\nconfig.ini missing"}},
			})
			// A test ctest stopped at its TIMEOUT timed out: the run did
			// not crash.
			if out.Crash != nil || !slices.Contains(out.Indicators, "test_timed_out") {
				t.Errorf("crash %+v, indicators %q: want no crash, test_timed_out", out.Crash, out.Indicators)
			}
			if f := rec.Failure("", "script"); f == nil || f.File != "CMakeLists.txt" || f.Line != 41 {
				t.Errorf("script: failure %+v, want CMakeLists.txt:41 (its add_test)", f)
			}
			if s := rec.Progress(); s.Failed != 8 || s.Passed != 1 || s.Skipped != 2 {
				t.Errorf("progress %+v, want ctest's 8 failed, 1 passed, and the disabled and skipped tests", s)
			}
		})
	}
}

// TestRepeat runs ctest --repeat: a test that fails once and passes on
// its second try passes under until-pass, as ctest counts it, and is
// flaky; under until-fail the test that fails on its third run fails,
// saying so, and one that fails at once fails (it was left running).
func TestRepeat(t *testing.T) {
	rec, out, exit := runProperties(t, "-L", "repeat", "--repeat", "until-pass:3")
	if exit.Code != 0 {
		t.Errorf("until-pass: exit %+v, want 0", exit)
	}
	checkTests(t, rec, []wantTest{{"flaky", report.TestPassed, nil}, {"fails_third", report.TestPassed, nil}})
	if len(out.Flaky) != 1 || out.Flaky[0].Name != "flaky" || out.Flaky[0].Attempts != 2 || !strings.Contains(out.Flaky[0].Message, "run 1") ||
		!strings.Contains(out.Hint, "flaky (passed on try 2)") {
		t.Errorf("until-pass: flaky %+v, hint %q: want flaky passed on try 2", out.Flaky, out.Hint)
	}

	rec, out, exit = runProperties(t, "-L", "repeat", "--repeat", "until-fail:3")
	if exit.Code != 8 {
		t.Errorf("until-fail: exit %+v, want 8", exit)
	}
	checkTests(t, rec, []wantTest{
		{"flaky", report.TestFailed, []string{"run 1"}},
		{"fails_third", report.TestFailed, []string{"failed on try 3 (ctest --repeat until-fail:3), after passing 2 tries", "run 3"}},
	})
	if len(out.Flaky) != 0 {
		t.Errorf("until-fail: flaky %+v", out.Flaky)
	}
}

// TestDisabledAlone: a run that selects only a disabled test (strobe's
// --test, with the --no-tests=error strobe adds) is a skip: CTest counts
// a disabled test as none and exits 8, which the answer called a failure
// ("exited with code 8 although no test failed").
func TestDisabledAlone(t *testing.T) {
	rec, out, exit := runProperties(t, "-R", "^disabled$", "--no-tests=error")
	if exit.Code != 8 {
		t.Fatalf("exit %+v, want ctest's 8", exit)
	}
	checkTests(t, rec, []wantTest{{name: "disabled", status: report.TestSkipped}})
	if !out.ExitExplained || out.Crash != nil {
		t.Errorf("outcome %+v: want ctest's exit 8 explained, no crash", out)
	}
}
