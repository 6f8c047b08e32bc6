package unittest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
	"strobe/internal/testutil"
	"strobe/report"
)

// fixture copies testdata/fixtures/name into a temporary directory, so
// that no __pycache__ lands in the repository.
func fixture(t *testing.T, name string) string {
	t.Helper()
	testutil.RequireTool(t, "python3")
	return adapterstest.CopyFixture(t, name)
}

func run(t *testing.T, root string, req adapters.Request) (*adapters.Recorder, adapters.Outcome, report.Exit) {
	t.Helper()
	req.ProjectRoot = root
	return adapterstest.RunReal(t, New(), req)
}

func TestBasic(t *testing.T) {
	root := fixture(t, "basic")
	rec, out, exit := run(t, root, adapters.Request{})
	if exit.Code != 1 {
		t.Errorf("exit %+v, want 1", exit)
	}
	res := adapterstest.Normalise(rec, out, func(s string) string { return strings.ReplaceAll(s, root, "{{ROOT}}") })
	adapterstest.Golden(t, "basic", res)
	for _, tc := range []struct {
		id     string
		status report.TestStatus
		line   int
		msg    string
	}{
		{"tests.test_calc.TestCalc.test_passes", report.TestPassed, 0, ""},
		{"tests.test_calc.TestCalc.test_fails", report.TestFailed, 14, "8 != 9"},
		{"tests.test_calc.TestCalc.test_raises", report.TestFailed, 17, "ValueError: bad value: 42"},
		{"tests.test_calc.TestCalc.test_prints_then_fails", report.TestFailed, 22, "False is not true : it was false"},
		{"tests.test_calc.TestCalc.test_subtests", report.TestFailed, 39, "(n=3) 6 not less than 5"},
		{"tests.test_calc.TestCalc.test_skipped", report.TestSkipped, 0, ""},
		{"tests.test_calc.TestCalc.test_xfail", report.TestSkipped, 0, ""},
		{"tests.test_calc.TestCalc.test_xpass", report.TestFailed, 32, "unexpected success"},
		{"tests.test_calc.TestFixtures.test_needs_db", report.TestFailed, 44, "error in setup: ConnectionError: database is down"},
		{"setUpClass (tests.test_calc.TestClassFixture)", report.TestFailed, 53, "error in setup: RuntimeError: class setup broke"},
		{"tests.test_ok.TestOK.test_one", report.TestPassed, 0, ""},
	} {
		got, ok := rec.Lookup("", tc.id)
		if !ok || got.Status != tc.status {
			t.Errorf("%s: %+v, want %s", tc.id, got, tc.status)
			continue
		}
		if tc.status != report.TestFailed {
			continue
		}
		f := got.Failure
		if f.File != "tests/test_calc.py" || f.Line != tc.line || !strings.HasPrefix(f.Message, tc.msg) {
			t.Errorf("%s: failure %+v, want tests/test_calc.py:%d %q", tc.id, f, tc.line, tc.msg)
		}
	}
	if f := rec.Failure("", "tests.test_calc.TestCalc.test_fails"); f == nil || f.Rerun != "python3 -m unittest tests.test_calc.TestCalc.test_fails" {
		t.Errorf("rerun of test_fails: %+v", f)
	}
	if f := rec.Failure("", "setUpClass (tests.test_calc.TestClassFixture)"); f == nil || f.Rerun != "python3 -m unittest tests.test_calc.TestClassFixture" {
		t.Errorf("rerun of setUpClass: %+v", f)
	}
	if got, _ := rec.Lookup("", "tests.test_calc.TestCalc.test_prints_then_fails"); got.Output != "hello from stdout\nand from stderr\n" {
		t.Errorf("output %q", got.Output)
	}
}

// TestSubtests: a test whose subTests fail several times fails at its
// first; the later failures (other subtests', an error, a helper's, the
// test's own, its tearDown's error) follow it, each at its own line, a
// few named in the message and the first 100 kept, the rest counted, as
// python -m unittest reports them.
func TestSubtests(t *testing.T) {
	root := fixture(t, "subtests")
	rec, _, exit := run(t, root, adapters.Request{})
	if exit.Code != 1 {
		t.Errorf("exit %+v, want 1", exit)
	}
	many := rec.Failure("", "test_later.TestLater.test_many")
	if many == nil || many.File != "test_later.py" || many.Line != 16 || len(many.Later) != 100 || many.LaterOmitted != 49 ||
		!strings.HasPrefix(many.Message, "(n=0) 0 != -1\nand 149 more failures in this test:\ntest_later.py:16: (n=1) 1 != -1\n") ||
		!strings.HasSuffix(many.Message, "\ntest_later.py:16: (n=5) 5 != -1\n(144 more: the details file's later_failures)") {
		t.Fatalf("test_many: %+v, want the first subtest's failure at test_later.py:16, 100 later kept and 49 counted", many)
	}
	for i, l := range many.Later {
		if want := (report.LaterFailure{File: "test_later.py", Line: 16, Message: fmt.Sprintf("(n=%d) %d != -1", i+1, i+1)}); l != want {
			t.Errorf("test_many's later failure %d: %+v, want %+v", i, l, want)
		}
	}
	mixed := rec.Failure("", "test_later.TestLater.test_mixed")
	want := []report.LaterFailure{
		{File: "test_later.py", Line: 24, Message: "[second] ValueError: boom"},
		{File: "test_later.py", Line: 7, Message: "[helper] 0 != 1 : even\ncalled from test_later.py:26 (test_mixed)"},
		{File: "test_later.py", Line: 27, Message: "False is not true : after"},
		{File: "test_later.py", Line: 31, Message: "error in teardown: RuntimeError: teardown broke"},
	}
	if mixed == nil || mixed.Line != 22 || !strings.HasPrefix(mixed.Message, "[first] 1 != 2\nand 4 more failures in this test:\n") ||
		!slices.Equal(mixed.Later, want) || mixed.LaterOmitted != 0 {
		t.Errorf("test_mixed: %+v, want the first subtest's at line 22, then %+v", mixed, want)
	}
}

// TestImportErrors: a module that does not import (ImportError,
// SyntaxError) is a build error at its line.
func TestImportErrors(t *testing.T) {
	root := fixture(t, "broken")
	rec, out, _ := run(t, root, adapters.Request{})
	want := []report.BuildError{
		{File: "tests/test_import.py", Line: 3, Message: "ModuleNotFoundError: No module named 'helper_that_does_not_exist'"},
		{File: "tests/test_syntax.py", Line: 6, Message: "SyntaxError: '(' was never closed (test_syntax.py, line 6)"},
	}
	if !out.BuildFailed || !slices.Equal(out.BuildErrors, want) {
		t.Errorf("outcome %+v, want build_failed with %+v", out, want)
	}
	// The module that imports runs beside the errors, as python -m
	// unittest runs it: its failure is not lost to them.
	z, _ := rec.Lookup("", "tests.test_fine.TestFine.test_z")
	w, _ := rec.Lookup("", "tests.test_fine.TestFine.test_w")
	if len(rec.Tests()) != 2 || z.Status != report.TestPassed || w.Status != report.TestFailed || w.Failure == nil || w.Failure.Line != 9 {
		t.Errorf("tests %+v: want test_fine's two run beside the import errors, test_w failed at line 9", rec.Tests())
	}
}

func TestSelection(t *testing.T) {
	root := fixture(t, "pkg")
	for _, tc := range []struct {
		name string
		req  adapters.Request
		want []string
	}{
		{"one test", adapters.Request{Test: "tests.integration.test_integration.TestIntegration.test_service"}, []string{"tests.integration.test_integration.TestIntegration.test_service"}},
		{"a class", adapters.Request{Test: "tests.unit.test_unit.TestUnit"}, []string{"tests.unit.test_unit.TestUnit.test_fast"}},
		// Paths, as `python -m unittest tests/unit/test_unit.py` takes them.
		{"a file", adapters.Request{Test: "tests/unit/test_unit.py"}, []string{"tests.unit.test_unit.TestUnit.test_fast"}},
		{"a directory", adapters.Request{Test: "tests/integration"}, []string{"tests.integration.test_integration.TestIntegration.test_service"}},
		{"level", adapters.Request{Level: adapters.LevelUnit}, []string{"tests.unit.test_unit.TestUnit.test_fast"}},
		{"all", adapters.Request{}, []string{"test_top.TestTop.test_abort", "test_top.TestTop.test_sleeps", "tests.integration.test_integration.TestIntegration.test_service", "tests.unit.test_unit.TestUnit.test_fast"}},
		{"command", adapters.Request{Command: []string{"python3", "-m", "unittest", "discover", "-s", "tests/integration"}}, []string{"tests.integration.test_integration.TestIntegration.test_service"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec, out, _ := run(t, root, tc.req)
			var got []string
			for _, tt := range rec.Tests() {
				got = append(got, tt.Name)
				if tt.Status != report.TestPassed {
					t.Errorf("%s: %s", tt.Name, tt.Status)
				}
			}
			if !slices.Equal(got, tc.want) || out.Crash != nil || out.NoTests {
				t.Errorf("ran %q (outcome %+v), want %q", got, out, tc.want)
			}
		})
	}
	_, out, _ := run(t, root, adapters.Request{Test: "tests.unit.test_unit.TestUnit.test_nothing"})
	if !out.NoTests || !out.ExitExplained || !strings.Contains(out.Hint, "no test matched") {
		t.Errorf("a test that does not exist: outcome %+v", out)
	}
}

func TestCrash(t *testing.T) {
	root := fixture(t, "pkg")
	t.Setenv("STROBE_FIXTURE_ABORT", "1")
	rec, out, exit := run(t, root, adapters.Request{Test: "test_top.TestTop.test_abort"})
	c := out.Crash
	if !exit.Signaled || c == nil || c.SignalName != "SIGABRT" || !slices.Equal(c.RunningTests, []string{"test_top.TestTop.test_abort"}) ||
		!strings.Contains(c.Message, "at test_top.py:9 (test_abort)") {
		t.Errorf("exit %+v, crash %+v", exit, c)
	}
	f := rec.Failure("", "test_top.TestTop.test_abort")
	if f == nil || !strings.HasPrefix(f.Message, "did not finish: the Python process died of SIGABRT while it ran") ||
		f.File != "test_top.py" || f.Line != 9 || !strings.HasSuffix(f.Rerun, "test_top.TestTop.test_abort") {
		t.Errorf("failure %+v, want the crash's at test_top.py:9 with its rerun", f)
	}
}

// TestExitInATest: a test that calls os._exit(3) cuts the run short
// inside it; it did not finish, and fails at its definition.
func TestExitInATest(t *testing.T) {
	root := fixture(t, "pkg")
	src := "import os\nimport unittest\n\n\nclass TestExit(unittest.TestCase):\n    def test_exits(self):\n        os._exit(3)\n"
	if err := os.WriteFile(filepath.Join(root, "test_exit.py"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	rec, out, exit := run(t, root, adapters.Request{Test: "test_exit.TestExit.test_exits"})
	c := out.Crash
	if exit.Code != 3 || c == nil || !slices.Contains(c.Indicators, "python_session_cut_short") || !slices.Equal(c.RunningTests, []string{"test_exit.TestExit.test_exits"}) {
		t.Errorf("exit %+v, crash %+v", exit, c)
	}
	f := rec.Failure("", "test_exit.TestExit.test_exits")
	if f == nil || !strings.HasPrefix(f.Message, "did not finish: the unittest runner ended (exit 3) while it ran") ||
		f.File != "test_exit.py" || f.Line != 6 || !strings.HasSuffix(f.Rerun, "-m unittest test_exit.TestExit.test_exits") {
		t.Errorf("failure %+v, want the test that did not finish at test_exit.py:6 with its rerun", f)
	}
}

// TestUnrunCounted: a run cut short before its last test (a signal, a
// test's os._exit, strobe stopping it) says how many of the tests the
// runner collected did not run, as pytest's answer does: "1 passed, 1
// failed" read as the whole suite.
func TestUnrunCounted(t *testing.T) {
	root := t.TempDir()
	adapterstest.WriteFiles(t, root, map[string]string{"test_cut.py": `import os
import time
import unittest


class TestBroken(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        raise RuntimeError("class setup broke")

    def test_one(self):
        pass

    def test_two(self):
        pass


class TestCut(unittest.TestCase):
    def test_a_passes(self):
        pass

    def test_b_ends(self):
        how = os.environ.get("STROBE_FIXTURE_END")
        if how == "abort":
            os.abort()
        if how == "exit":
            os._exit(3)
        if how == "sleep":
            time.sleep(60)

    def test_c_never(self):
        pass

    def test_d_never(self):
        pass
`})
	testutil.RequireTool(t, "python3")
	// TestBroken's setUpClass failed, so its two tests did not run
	// either: its placeholder is recorded, and is no test collected.
	const want = "4 of the 6 tests unittest collected did not run and are in no count"
	for _, how := range []string{"abort", "exit"} {
		t.Setenv("STROBE_FIXTURE_END", how)
		rec, out, _ := run(t, root, adapters.Request{Test: "test_cut"})
		if out.Crash == nil || len(rec.Tests()) != 3 || !strings.Contains(out.Hint, want) {
			t.Errorf("%s: crash %+v, %d tests, hint %q: want %q", how, out.Crash, len(rec.Tests()), out.Hint, want)
		}
	}
	// strobe stops the run while test_b_ends sleeps (its timeout, a cancel).
	t.Setenv("STROBE_FIXTURE_END", "sleep")
	s := adapterstest.Start(t, New(), adapters.Request{ProjectRoot: root, Test: "test_cut"})
	s.WaitRunning(t, "test_cut.TestCut.test_b_ends")
	syscall.Kill(-s.Cmd.Process.Pid, syscall.SIGTERM)
	exit := s.Wait()
	exit.StoppedBy = report.StoppedTimeout
	out := s.Plan.Parser.Finish(exit)
	s.Plan.Parser.(adapters.Closer).Close()
	if !strings.Contains(out.Hint, want) {
		t.Errorf("stopped: hint %q, want %q", out.Hint, want)
	}
	// A run to the end says nothing of it, only of the class its
	// setUpClass kept from running (TestSetUpFailureNotRun).
	t.Setenv("STROBE_FIXTURE_END", "")
	if _, out, _ := run(t, root, adapters.Request{Test: "test_cut"}); strings.Contains(out.Hint, "collected did not run") {
		t.Errorf("a whole run: hint %q", out.Hint)
	}
}

func TestStacksRegistered(t *testing.T) {
	root := fixture(t, "pkg")
	dir := t.TempDir()
	t.Setenv("STROBE_STACKS_DIR", dir)
	run(t, root, adapters.Request{Level: adapters.LevelUnit})
	if files, _ := filepath.Glob(filepath.Join(dir, "py-*.txt")); len(files) != 1 {
		t.Errorf("stack files %q, want the runner's", files)
	}
}

func TestDetect(t *testing.T) {
	files := func(kv ...string) string {
		dir := t.TempDir()
		for i := 0; i < len(kv); i += 2 {
			os.MkdirAll(filepath.Dir(filepath.Join(dir, kv[i])), 0o755)
			os.WriteFile(filepath.Join(dir, kv[i]), []byte(kv[i+1]), 0o644)
		}
		return dir
	}
	for _, tc := range []struct {
		name string
		root string
		cmd  []string
		want int
	}{
		{"command", files(), []string{"python3", "-m", "unittest", "discover"}, 95},
		{"pytest command", files(), []string{"python3", "-m", "pytest"}, 0},
		{"unittest files", files("tests/test_a.py", "import os\nimport unittest\n\nclass TestA(unittest.TestCase):\n    def test_a(self): pass\n"), nil, 55},
		{"from unittest", files("test_a.py", "from unittest import TestCase\n\n\nclass TestA(TestCase):\n    pass\n"), nil, 55},
		// A test that imports unittest's mock is no unittest test
		// (packaging's tests): unittest was offered, and ran none.
		{"unittest's mock", files("tests/test_a.py", "from unittest import mock\n\ndef test_a(): pass\n\n\nclass TestB:\n    def test_b(self): pass\n"), nil, 0},
		// A project's own TestCase, defined in a file that is no test file.
		{"a base of its own", files("tests/test_a.py", "import unittest\nfrom tests.base import Base\n\n\nclass TestA(Base):\n    def test_a(self): pass\n"), nil, 55},
		// load_tests, which pytest does not run (more-itertools' doctests),
		// and the project's own unittest command put unittest first.
		{"load_tests", files("tests/test_a.py", "import unittest\n\nclass TestA(unittest.TestCase):\n    def test_a(self): pass\n\ndef load_tests(loader, tests, ignore):\n    return tests\n", "tests/test_b.py", "import unittest\n\nclass TestA(unittest.TestCase):\n    def test_a(self): pass\n"), nil, 65},
		{"the project's command", files("tests/test_a.py", "import unittest\n\nclass TestA(unittest.TestCase):\n    def test_a(self): pass\n", "tox.ini", "[testenv]\ncommands = {envpython} -m unittest -v\n"), nil, 65},
		{"pytest-style files", files("tests/test_a.py", "def test_a(): pass\n"), nil, 0},
		{"pytest configured", files("tests/test_a.py", "import unittest\n\nclass TestA(unittest.TestCase):\n    def test_a(self): pass\n", "setup.cfg", "[metadata]\n\n[tool:pytest]\nminversion=2.2.0\n"), nil, 0},
		{"pytest in pyproject", files("test_a.py", "import unittest\n\nclass TestA(unittest.TestCase):\n    def test_a(self): pass\n", "pyproject.toml", "[tool.pytest.ini_options]\n"), nil, 0},
		{"a conftest", files("tests/test_a.py", "import unittest\n\nclass TestA(unittest.TestCase):\n    def test_a(self): pass\n", "conftest.py", ""), nil, 0},
		{"unittest, with an unrelated setup.cfg", files("tests/test_a.py", "import unittest\n\nclass TestA(unittest.TestCase):\n    def test_a(self): pass\n", "setup.cfg", "[flake8]\n"), nil, 55},
		{"nothing", files("main.py", "import unittest\n"), nil, 0},
	} {
		if d := New().Detect(adapters.Request{ProjectRoot: tc.root, Command: tc.cmd}); d.Confidence != tc.want {
			t.Errorf("%s: confidence %d (%s), want %d", tc.name, d.Confidence, d.Hint, tc.want)
		}
	}
}

// TestCancelLeavesNoProcess stops a run as the runner does (SIGTERM to
// its process group) while a test sleeps: the test is named while it
// runs, stays running, and nothing is left.
func TestCancelLeavesNoProcess(t *testing.T) {
	root := fixture(t, "pkg")
	t.Setenv("STROBE_FIXTURE_SLEEP", "1")
	rec := adapters.NewRecorder()
	plan, err := New().Plan(context.Background(), adapters.Request{ProjectRoot: root, Test: "test_top.TestTop.test_sleeps"}, rec)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(plan.Argv[0], plan.Argv[1:]...)
	cmd.Dir, cmd.Env = plan.Dir, append(os.Environ(), plan.Env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(30 * time.Second); len(rec.Running("")) == 0 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	if got := rec.Running(""); !slices.Equal(got, []string{"test_top.TestTop.test_sleeps"}) {
		t.Fatalf("running %q, want the sleeping test", got)
	}
	syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
	cmd.Wait()
	out := plan.Parser.Finish(report.Exit{Signaled: true, Signal: int(syscall.SIGTERM), Code: 143, StoppedBy: report.StoppedCancelled})
	plan.Parser.(adapters.Closer).Close()
	if out.Crash != nil {
		t.Errorf("crash %+v for a run strobe stopped", out.Crash)
	}
	if syscall.Kill(-cmd.Process.Pid, 0) == nil {
		t.Error("processes of the run's group remain")
	}
}

// TestPackages: discovery loads a package as unittest's own does, its
// TestCases (simplejson keeps one in tests/__init__.py) and its
// load_tests, which loads the whole package in its stead.
func TestPackages(t *testing.T) {
	root := fixture(t, "pkginit")
	rec, out, exit := run(t, root, adapters.Request{})
	var got []string
	for _, tt := range rec.Tests() {
		got = append(got, tt.Name)
	}
	slices.Sort(got)
	// What `python3 -m unittest -v` runs in the fixture.
	want := []string{"loaded.test_keep.TestKeep.test_keep", "suite.TestInInit.test_here", "suite.test_a.TestA.test_a"}
	if !slices.Equal(got, want) || exit.Code != 0 || out.Crash != nil || out.BuildFailed {
		t.Errorf("ran %q (exit %+v, outcome %+v), want %q", got, exit, out, want)
	}
}

// TestDoctests: a doctest a module's load_tests adds fails at its
// example's line, its report's paths relative to the project, and its
// rerun names the module that loads it: its own id (calc.double) is a
// function, which unittest cannot run.
func TestDoctests(t *testing.T) {
	root := fixture(t, "doctests")
	rec, _, exit := run(t, root, adapters.Request{})
	if exit.Code != 1 {
		t.Fatalf("exit %+v, want 1", exit)
	}
	var f *report.Failure
	for _, tt := range rec.Tests() {
		if tt.Name == "calc.double" {
			f = tt.Failure
		} else if tt.Status != report.TestPassed {
			t.Errorf("%s: %s", tt.Name, tt.Status)
		}
	}
	if f == nil {
		t.Fatalf("tests %+v: no failure of calc.double", rec.Tests())
	}
	if f.File != "calc.py" || f.Line != 6 || !strings.Contains(f.Message, "Expected:\n    7\nGot:\n    6") || strings.Contains(f.Message, root) {
		t.Errorf("failure %+v: want calc.py:6, expected and got, no absolute path", f)
	}
	if f.Rerun != "python3 -m unittest test_calc" {
		t.Errorf("rerun %q, want python3 -m unittest test_calc", f.Rerun)
	}
	cmd := exec.Command("sh", "-c", f.Rerun)
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "Failed example:") {
		t.Errorf("rerun %q: %v\n%s\nwant the doctest failing", f.Rerun, err, out)
	}
}

// TestDoctestsByName: a doctest given to --test by the name the answer
// gives it runs: a module's function's (calc.double), which unittest's
// loader calls as if it made tests (a crash, exit 1), and a doc file's
// (calc_txt), which names no module (no tests).
func TestDoctestsByName(t *testing.T) {
	root := fixture(t, "doctests")
	for name, status := range map[string]report.TestStatus{"calc.double": report.TestFailed, "calc_txt": report.TestPassed} {
		rec, out, exit := run(t, root, adapters.Request{Test: name})
		tests := rec.Tests()
		if len(tests) != 1 || tests[0].Name != name || tests[0].Status != status || out.Crash != nil {
			t.Errorf("--test %s ran %+v (exit %+v, crash %+v), want %s alone, %s", name, tests, exit, out.Crash, name, status)
		}
	}
}

// TestOwnIDs: a TestCase that overrides id() (a row of a data file:
// test_rows.RowTest.runTest.2) cannot be loaded by its id: the rerun named
// it and failed with "'function' object has no attribute '2'", and
// --failed ran nothing (found on idna). Its rerun names the module that
// loads it.
func TestOwnIDs(t *testing.T) {
	root := fixture(t, "ownid")
	rec, _, exit := run(t, root, adapters.Request{})
	if exit.Code != 1 {
		t.Fatalf("exit %+v, want 1", exit)
	}
	f := rec.Failure("", "test_rows.RowTest.runTest.2")
	if f == nil || f.Rerun != "python3 -m unittest test_rows" || f.Select != "test_rows" {
		t.Fatalf("failure %+v among %+v, want test_rows.RowTest.runTest.2 rerun and selected (--failed) by its module", f, rec.Tests())
	}
	cmd := exec.Command("sh", "-c", f.Rerun)
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "AssertionError: 2 != 3") {
		t.Errorf("rerun %q: %v\n%s\nwant the row failing", f.Rerun, err, out)
	}
}

// TestHelperFrames: a failure raised in a helper is placed where
// unittest's own traceback places it. An assertion in a module that sets
// __unittest (unittest's way to hide its frames) fails at the test's
// line that called it; any other exception there, and a helper that
// hides nothing, at the helper's line, the message saying the test's
// line that called it (a test that calls the helper twice fails one
// call).
func TestHelperFrames(t *testing.T) {
	root := fixture(t, "helpers")
	rec, _, _ := run(t, root, adapters.Request{})
	for _, tc := range []struct {
		id, file string
		line     int
		msg      string
	}{
		{"test_hidden", "test_helpers.py", 10, "check_equal: 1 != 2"},
		{"test_hidden_error", "uthelpers.py", 11, "ValueError: explode 3\ncalled from test_helpers.py:13 (test_hidden_error)"},
		{"test_plain", "plainhelp.py", 2, "check_small: 4\ncalled from test_helpers.py:17 (test_plain)"},
		// An assert without a message says nothing: its statement does
		// (Python places its failure at the line of the test it spans).
		{"test_bare_assert", "test_helpers.py", 22, "assert n == 1"},
	} {
		f := rec.Failure("", "test_helpers.TestHelpers."+tc.id)
		if f == nil || f.File != tc.file || f.Line != tc.line || f.Message != tc.msg {
			t.Errorf("%s: failure %+v, want %s:%d %q", tc.id, f, tc.file, tc.line, tc.msg)
		}
	}
}

// TestBytecodeKept: where Python writes no bytecode (PYTHONDONTWRITEBYTECODE),
// the runner (run as python -m strobe_unittest) and its modules are compiled
// once, not at every run, and nothing is written in the project.
func TestBytecodeKept(t *testing.T) {
	root := fixture(t, "basic")
	cache := adapterstest.KeepBytecodeEnv(t)
	if rec, out, _ := run(t, root, adapters.Request{}); len(rec.Tests()) != 11 || out.Hint != "" && strings.Contains(out.Hint, "did not load") {
		t.Fatalf("%d tests, outcome %+v: want the runner's 11", len(rec.Tests()), out)
	}
	adapterstest.CheckBytecodeKept(t, "python3", cache, root, "strobe_unittest", "strobe_events", "strobe_stacks")
}

// TestPyenvShim: where python3 is a pyenv shim, the runner runs under the
// interpreter it stands for, as pyenv exec would run it (the shim fails).
func TestPyenvShim(t *testing.T) {
	testutil.RequireTool(t, "python3")
	_, bin := adapterstest.FakePyenv(t)
	project := t.TempDir()
	adapterstest.WriteFiles(t, project, map[string]string{"tests/__init__.py": "", "tests/test_env.py": adapterstest.PyenvEnvTest(bin)})
	rec, res, exit := run(t, project, adapters.Request{})
	if exit.Code != 0 || len(rec.Tests()) != 1 || rec.Tests()[0].Status != report.TestPassed {
		t.Fatalf("exit %+v, tests %+v, outcome %+v: want test_env passed, run by %s", exit, rec.Tests(), res, filepath.Join(bin, "python3"))
	}
}

// TestShownCommand: the answer's command named strobe's runner (`python3
// -m strobe_unittest`), which only strobe's PYTHONPATH finds: pasted,
// Python found no such module. It is unittest's own command, which runs
// the same tests.
func TestShownCommand(t *testing.T) {
	root := fixture(t, "basic")
	cmd, out := adapterstest.PasteShown(t, New(), adapters.Request{ProjectRoot: root})
	if !strings.HasSuffix(cmd, " -m unittest") || !strings.Contains(string(out), "Ran ") {
		t.Errorf("%s:\n%s\nwant PYTHON -m unittest and unittest's count", cmd, out)
	}
}
