package pytest

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
// that pytest's caches never land in the repository, and returns it.
func fixture(t *testing.T, name string) string {
	t.Helper()
	requirePytest(t)
	return adapterstest.CopyFixture(t, name)
}

// requirePytest skips (fails under CI) without python3 and pytest.
func requirePytest(t *testing.T) {
	t.Helper()
	py := testutil.RequireTool(t, "python3")
	requireModules(t, py, "pytest")
}

func requireModules(t *testing.T, py string, modules ...string) {
	t.Helper()
	for _, m := range modules {
		if err := exec.Command(py, "-c", "import "+m).Run(); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("python3 cannot import %s: .ci/run must pip install it", m)
			}
			t.Skipf("python3 cannot import %s", m)
		}
	}
}

func normalise(rec *adapters.Recorder, out adapters.Outcome, root string) adapterstest.Result {
	return adapterstest.Normalise(rec, out, func(s string) string { return strings.ReplaceAll(s, root, "{{ROOT}}") })
}

func run(t *testing.T, root string, req adapters.Request) (*adapters.Recorder, adapters.Outcome, report.Exit) {
	t.Helper()
	req.ProjectRoot = root
	return adapterstest.RunReal(t, New(), req)
}

// notCI unsets CI for the pytest a golden test runs: pytest shows whole
// diffs when CI is set at all (any value), and the golden files hold the
// short ones a developer's run prints. Call it after the tool checks,
// which read CI.
func notCI(t *testing.T) {
	t.Setenv("CI", "")
	os.Unsetenv("CI")
}

func TestBasic(t *testing.T) {
	root := fixture(t, "basic")
	notCI(t)
	rec, out, exit := run(t, root, adapters.Request{})
	if exit.Code != exitFailed {
		t.Errorf("exit %+v, want pytest's 1", exit)
	}
	adapterstest.Golden(t, "basic", normalise(rec, out, root))

	tests := rec.Tests()
	want := map[string]struct {
		status report.TestStatus
		file   string
		line   int
		msg    string
	}{
		"tests/unit/test_math.py::test_passes":                  {report.TestPassed, "", 0, ""},
		"tests/unit/test_math.py::test_fails":                   {report.TestFailed, "tests/unit/test_math.py", 15, "assert 8 == 9\n +  where 8 = double(4)"},
		"tests/unit/test_math.py::test_param[3-7]":              {report.TestFailed, "tests/unit/test_math.py", 20, "assert 6 == 7\n +  where 6 = double(3)"},
		"tests/unit/test_math.py::test_raises":                  {report.TestFailed, "tests/unit/test_math.py", 24, "ValueError: bad value: 42"},
		"tests/unit/test_math.py::TestGroup::test_method_fails": {report.TestFailed, "tests/unit/test_math.py", 59, "assert 1 == 2"},
		"tests/unit/test_math.py::test_skipped":                 {report.TestSkipped, "", 0, ""},
		"tests/unit/test_math.py::test_xfail":                   {report.TestSkipped, "", 0, ""},
		"tests/unit/test_math.py::test_xpass":                   {report.TestPassed, "", 0, ""},
		"tests/unit/test_math.py::test_xpass_strict":            {report.TestFailed, "tests/unit/test_math.py", 48, "[XPASS(strict)] strict"},
		"tests/integration/test_db.py::test_needs_db":           {report.TestFailed, "tests/integration/test_db.py", 6, "error in setup: ConnectionError: database is down"},
		"tests/integration/test_db.py::test_teardown_error":     {report.TestFailed, "tests/integration/test_db.py", 12, "error in teardown: RuntimeError: teardown broke"},
		"tests/unit/test_math.py::test_prints_then_fails":       {report.TestFailed, "tests/unit/test_math.py", 30, "assert [1, 2, 3] == [1, 2, 4]"},
		"tests/unit/test_math.py::TestGroup::test_method":       {report.TestPassed, "", 0, ""},
		"tests/integration/test_db.py::test_integration_ok":     {report.TestPassed, "", 0, ""},
		"tests/unit/test_math.py::test_param[1-2]":              {report.TestPassed, "", 0, ""},
		"tests/unit/test_math.py::test_param[5-10]":             {report.TestPassed, "", 0, ""},
	}
	if len(tests) != len(want) {
		t.Errorf("recorded %d tests, want %d", len(tests), len(want))
	}
	for name, w := range want {
		got, ok := adapterstest.TestByName(tests, name)
		if !ok {
			t.Errorf("%s not recorded", name)
			continue
		}
		if got.Status != w.status {
			t.Errorf("%s: status %s, want %s", name, got.Status, w.status)
		}
		if w.status != report.TestFailed {
			continue
		}
		f := got.Failure
		if f == nil || f.File != w.file || f.Line != w.line || !strings.HasPrefix(f.Message, w.msg) {
			t.Errorf("%s: failure %+v, want %s:%d %q", name, f, w.file, w.line, w.msg)
			continue
		}
		if want := "python3 -m pytest " + shellQuoted(name); f.Rerun != want {
			t.Errorf("%s: rerun %q, want %q", name, f.Rerun, want)
		}
	}
	if got, _ := adapterstest.TestByName(tests, "tests/unit/test_math.py::test_prints_then_fails"); got.Output != "hello from stdout\nand from stderr\n" {
		t.Errorf("captured output %q", got.Output)
	}
	if got, _ := adapterstest.TestByName(tests, "tests/unit/test_math.py::test_skipped"); got.Output != "skipped: not on this platform\n" {
		t.Errorf("skip reason %q", got.Output)
	}
	if out.Crash != nil || out.BuildFailed || out.NoTests {
		t.Errorf("outcome %+v for plain failures", out)
	}
	if _, err := os.Stat(filepath.Join(root, ".pytest_cache")); err != nil {
		t.Errorf("pytest did not run in the project: %v", err)
	}
}

func shellQuoted(id string) string {
	if strings.ContainsAny(id, "[]") {
		return "'" + id + "'"
	}
	return id
}

func TestCollectionErrors(t *testing.T) {
	root := fixture(t, "collect_error")
	rec, out, exit := run(t, root, adapters.Request{})
	if exit.Code != exitInterrupted {
		t.Errorf("exit %+v, want 2: pytest stops on collection errors", exit)
	}
	adapterstest.Golden(t, "collect_error", normalise(rec, out, root))
	if !out.BuildFailed || len(out.BuildErrors) != 2 {
		t.Fatalf("outcome %+v, want build_failed with two errors", out)
	}
	imp, syn := out.BuildErrors[0], out.BuildErrors[1]
	if imp.File != "tests/test_import.py" || imp.Line != 1 || !strings.Contains(imp.Message, "No module named 'helper_that_does_not_exist'") {
		t.Errorf("import error %+v", imp)
	}
	if syn.File != "tests/test_syntax.py" || syn.Line != 2 || !strings.Contains(syn.Message, "SyntaxError") || strings.Contains(syn.Message, root) {
		t.Errorf("syntax error %+v", syn)
	}
}

func TestNoTests(t *testing.T) {
	root := fixture(t, "empty")
	_, out, exit := run(t, root, adapters.Request{})
	// pytest's exit 5 is its word for no tests, not a failure: said so,
	// or the runner answers "failed".
	if exit.Code != exitNoTests || !out.NoTests || !out.ExitExplained || out.Project == nil || out.Project.Language != "python" || !strings.Contains(out.Hint, "test_*.py") {
		t.Errorf("exit %+v, outcome %+v: want no_tests with a hint", exit, out)
	}
	root = fixture(t, "basic")
	_, out, _ = run(t, root, adapters.Request{Test: "no_such_name"})
	if !out.NoTests || !out.ExitExplained || !strings.Contains(out.Hint, "no test matched") {
		t.Errorf("-k matching nothing: outcome %+v", out)
	}
}

func TestSelection(t *testing.T) {
	root := fixture(t, "basic")
	for _, tc := range []struct {
		name string
		req  adapters.Request
		want []string
	}{
		{"node id with parameters", adapters.Request{Test: "tests/unit/test_math.py::test_param[3-7]"}, []string{"tests/unit/test_math.py::test_param[3-7]"}},
		{"class method", adapters.Request{Test: "tests/unit/test_math.py::TestGroup::test_method"}, []string{"tests/unit/test_math.py::TestGroup::test_method"}},
		{"a name", adapters.Request{Test: "test_integration_ok"}, []string{"tests/integration/test_db.py::test_integration_ok"}},
		// -k takes every name that holds it; the plugin keeps the one.
		{"a name another begins with", adapters.Request{Test: "test_method"}, []string{"tests/unit/test_math.py::TestGroup::test_method"}},
		{"a parametrized function's name", adapters.Request{Test: "test_param"}, []string{"tests/unit/test_math.py::test_param[1-2]", "tests/unit/test_math.py::test_param[3-7]", "tests/unit/test_math.py::test_param[5-10]"}},
		{"a class", adapters.Request{Test: "TestGroup"}, []string{"tests/unit/test_math.py::TestGroup::test_method", "tests/unit/test_math.py::TestGroup::test_method_fails"}},
		{"an expression", adapters.Request{Test: "test_method or test_passes"}, []string{"tests/unit/test_math.py::test_passes", "tests/unit/test_math.py::TestGroup::test_method", "tests/unit/test_math.py::TestGroup::test_method_fails"}},
		{"level by directory", adapters.Request{Level: adapters.LevelIntegration}, []string{"tests/integration/test_db.py::test_needs_db", "tests/integration/test_db.py::test_teardown_error", "tests/integration/test_db.py::test_integration_ok"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec, _, _ := run(t, root, tc.req)
			if got := names(rec); !slices.Equal(got, tc.want) {
				t.Errorf("ran %q, want %q", got, tc.want)
			}
		})
	}
	markers := fixture(t, "markers")
	for level, want := range map[adapters.Level]string{
		adapters.LevelUnit: "test_levels.py::test_fast", adapters.LevelIntegration: "test_levels.py::test_service", adapters.LevelE2E: "test_levels.py::test_browser",
	} {
		rec, _, _ := run(t, markers, adapters.Request{Level: level})
		if got := names(rec); !slices.Equal(got, []string{want}) {
			t.Errorf("level %s by marker ran %q, want %s", level, got, want)
		}
	}
}

func names(rec *adapters.Recorder) []string {
	var out []string
	for _, t := range rec.Tests() {
		out = append(out, t.Name)
	}
	return out
}

func TestCrash(t *testing.T) {
	root := fixture(t, "crash")
	for _, tc := range []struct {
		test, signal string
		crash        report.CrashType
	}{
		{"test_crash.py::test_abort", "SIGABRT", report.CrashAbort},
		{"test_segv.py::test_segfault", "SIGSEGV", report.CrashSegmentationFault},
	} {
		rec, out, exit := run(t, root, adapters.Request{Test: tc.test})
		if tc.test == "test_crash.py::test_abort" {
			// Run whole, the file's later test never ran.
			_, out, _ := run(t, root, adapters.Request{Test: "test_crash.py"})
			if !strings.Contains(out.Hint, "1 of the 3 tests pytest collected did not run") {
				t.Errorf("test_crash.py: hint %q, want the test that never ran counted", out.Hint)
			}
		}
		if !exit.Signaled {
			t.Errorf("%s: exit %+v, want a signal", tc.test, exit)
			continue
		}
		c := out.Crash
		if c == nil || c.SignalName != tc.signal || c.Type != tc.crash || !slices.Equal(c.RunningTests, []string{tc.test}) || !strings.Contains(c.Message, "Fatal Python error") {
			t.Errorf("%s: crash %+v", tc.test, c)
		}
		// The test the interpreter was running failed, with its rerun and
		// the line faulthandler's stack names.
		file := strings.SplitN(tc.test, "::", 2)[0]
		f := rec.Failure("", tc.test)
		if f == nil || !strings.HasPrefix(f.Message, "did not finish: the Python process died of "+tc.signal+" while it ran") ||
			f.File != file || f.Line == 0 || !strings.HasSuffix(f.Rerun, tc.test) {
			t.Errorf("%s: failure %+v, want the crash's, at %s, with its rerun", tc.test, f, file)
		}
	}
}

// TestXdistWorkerCrash: a test that kills its xdist worker (os.abort)
// is a crash, as under plain pytest, though xdist replaces the worker,
// goes on and exits 1 with "worker 'gw0' crashed" for the test's report:
// it was a failure in "???" before, at the test's definition, and the
// run merely failed.
func TestXdistWorkerCrash(t *testing.T) {
	root := fixture(t, "crash")
	requireModules(t, "python3", "xdist")
	rec, out, exit := run(t, root, adapters.Request{Command: []string{"python3", "-m", "pytest", "-n", "2", "test_crash.py"}})
	const id = "test_crash.py::test_abort"
	c := out.Crash
	if exit.Signaled || c == nil || c.Type != report.CrashAbort || c.SignalName != "SIGABRT" ||
		!slices.Equal(c.RunningTests, []string{id}) || !slices.Contains(c.Indicators, "xdist_worker_crashed") ||
		!strings.Contains(c.Message, "at test_crash.py:10 (test_abort)") {
		t.Errorf("exit %+v, crash %+v: want the worker's SIGABRT in %s", exit, c, id)
	}
	f := rec.Failure("", id)
	if f == nil || !strings.HasPrefix(f.Message, "did not finish: its pytest-xdist worker died of SIGABRT while it ran") ||
		strings.Contains(f.Message, "???") || f.File != "test_crash.py" || f.Line != 10 || f.Rerun != "python3 -m pytest test_crash.py::test_abort" {
		t.Errorf("failure %+v, want the worker's crash at the dump's line, with its rerun", f)
	}
	if s := out.Summary; s != nil && (s.Passed != 2 || s.Failed != 1) {
		t.Errorf("summary %+v, want 2 passed, 1 failed", s)
	}
	for _, name := range []string{"test_crash.py::test_before", "test_crash.py::test_never_reached"} {
		if tt, ok := rec.Lookup("", name); !ok || tt.Status != report.TestPassed {
			t.Errorf("%s: %+v, want passed (xdist ran it on the other worker)", name, tt)
		}
	}
}

// TestStoppedEarly: pytest -x (or --maxfail) stops after a failure, exit
// 1 as any failed run: the answer says it stopped and how many of the
// tests collected never ran, where it said only "1 failed" before (and
// under xdist, whose -x exits 2, that pytest was interrupted: a crash).
func TestStoppedEarly(t *testing.T) {
	root := fixture(t, "basic")
	for _, args := range [][]string{{"-x"}, {"--maxfail=2"}} {
		cmd := append([]string{"python3", "-m", "pytest"}, append(args, "tests/unit/test_math.py")...)
		rec, out, _ := run(t, root, adapters.Request{Command: cmd})
		ran := len(rec.Tests())
		if !slices.Contains(out.Indicators, "pytest_stopped_early") || !strings.Contains(out.Hint, "pytest stopped early") ||
			!strings.Contains(out.Hint, "tests collected did not run") {
			t.Errorf("%v: hint %q, indicators %v: want the early stop said", args, out.Hint, out.Indicators)
		}
		if ran == 0 || ran >= 10 {
			t.Errorf("%v: %d tests recorded", args, ran)
		}
	}
	// Under pytest-xdist, -x stops the session with xdist's Interrupted,
	// exit 2: no interruption of the user's, no crash.
	requireModules(t, "python3", "xdist")
	_, out, exit := run(t, root, adapters.Request{Command: []string{"python3", "-m", "pytest", "-n", "2", "-x", "tests/unit/test_math.py"}})
	if exit.Code != exitInterrupted || out.Crash != nil || !slices.Contains(out.Indicators, "pytest_stopped_early") {
		t.Errorf("-n 2 -x: exit %+v, crash %+v, indicators %v: want the early stop, not an interruption", exit, out.Crash, out.Indicators)
	}
	_, out, _ = run(t, root, adapters.Request{Command: []string{"python3", "-m", "pytest", "tests/unit/test_math.py"}})
	if strings.Contains(out.Hint, "stopped early") {
		t.Errorf("a run to the end: hint %q", out.Hint)
	}
}

// TestExitInATest: a test that calls os._exit(3) ends pytest with its own
// code for an internal error; the session was cut short inside the test,
// which did not finish, and pytest had no internal error.
func TestExitInATest(t *testing.T) {
	root := fixture(t, "crash")
	rec, out, exit := run(t, root, adapters.Request{Test: "test_exit.py"})
	c := out.Crash
	if exit.Code != exitInternal || c == nil || !slices.Contains(c.Indicators, "python_session_cut_short") ||
		slices.Contains(c.Indicators, "pytest_internal_error") || !slices.Equal(c.RunningTests, []string{"test_exit.py::test_exits"}) {
		t.Errorf("exit %+v, crash %+v: want a session cut short in test_exits", exit, c)
	}
	f := rec.Failure("", "test_exit.py::test_exits")
	if f == nil || !strings.HasPrefix(f.Message, "did not finish: pytest ended (exit 3)") || f.File != "test_exit.py" || f.Line != 8 ||
		f.Rerun != "python3 -m pytest test_exit.py::test_exits" {
		t.Errorf("failure %+v, want the test that did not finish, at its definition, with its rerun", f)
	}
	if s := out.Summary; s != nil && s.Failed != 1 {
		t.Errorf("summary %+v", s)
	}
	// test_never_reached is in no count: the answer says one collected
	// test did not run.
	if !strings.Contains(out.Hint, "1 of the 3 tests pytest collected did not run") {
		t.Errorf("hint %q: want the test that never ran counted", out.Hint)
	}
}

// TestUsageError: pytest's usage errors (exit 4) are the command's, said
// with pytest's reason and what to do; an exit 4 of the code under test
// (os._exit(4), pytest.exit(returncode=4)) is still its crash.
func TestUsageError(t *testing.T) {
	root := fixture(t, "basic")
	pytest := []string{"python3", "-m", "pytest"}
	for _, tc := range []struct {
		name         string
		req          adapters.Request
		reason, hint string
	}{
		{"a name -k cannot parse", adapters.Request{Test: "test_add("}, "Wrong expression passed to '-k': test_add(", `took the test name "test_add(" as a -k expression`},
		{"a node id in no file", adapters.Request{Test: "tests/unit/test_nothere.py::test_add"}, "file or directory not found: tests/unit/test_nothere.py::test_add", "path/to/test_file.py::test_name"},
		{"a node id its file does not define", adapters.Request{Test: "tests/unit/test_math.py::test_nothing_here"}, "not found: tests/unit/test_math.py::test_nothing_here", `no test "tests/unit/test_math.py::test_nothing_here" in its file`},
		{"an unknown option", adapters.Request{Command: append(pytest, "--no-such-option")}, "unrecognized arguments: --no-such-option", "fix the argument"},
		{"a path in the command", adapters.Request{Command: append(pytest, "tests/nothere")}, "file or directory not found: tests/nothere", "fix the argument"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec, out, exit := run(t, root, tc.req)
			if exit.Code != exitUsage || out.Crash != nil || len(rec.Tests()) != 0 {
				t.Fatalf("exit %+v, crash %+v, tests %q: want pytest's usage error and no crash", exit, out.Crash, names(rec))
			}
			if !strings.HasPrefix(out.Refused, "pytest refused its command (exit 4, a usage error): "+tc.reason) || strings.Contains(out.Refused, "\n") {
				t.Errorf("refused %q, want one line with %q", out.Refused, tc.reason)
			}
			if !strings.Contains(out.Hint, tc.hint) || strings.Contains(out.Hint, "\n") {
				t.Errorf("hint %q, want one line with %q", out.Hint, tc.hint)
			}
		})
	}
	crash := fixture(t, "crash")
	os.WriteFile(filepath.Join(crash, "test_exit4.py"), []byte("import os\nimport pytest\n\n\n"+
		"def test_os_exit():\n    os._exit(4)\n\n\ndef test_pytest_exit():\n    pytest.exit('bye', returncode=4)\n"), 0o644)
	for _, id := range []string{"test_exit4.py::test_os_exit", "test_exit4.py::test_pytest_exit"} {
		_, out, exit := run(t, crash, adapters.Request{Test: id})
		if exit.Code != exitUsage || out.Refused != "" || out.Crash == nil {
			t.Errorf("%s: exit %+v, refused %q, crash %+v: want the test's exit 4 a crash", id, exit, out.Refused, out.Crash)
		}
	}
}

// TestModuleSkip: a module skipped as it is collected (importorskip,
// pytest.skip(allow_module_level=True)) is one skip in pytest's counts,
// with its reason.
func TestModuleSkip(t *testing.T) {
	root := fixture(t, "modskip")
	rec, out, exit := run(t, root, adapters.Request{})
	if exit.Code != exitOK || out.Crash != nil {
		t.Fatalf("exit %+v, outcome %+v", exit, out)
	}
	got, ok := adapterstest.TestByName(rec.Tests(), "test_optional.py")
	if !ok || got.Status != report.TestSkipped || !strings.Contains(got.Output, "skipped: could not import 'strobe_no_such_module'") {
		t.Errorf("tests %q, module %+v: want test_optional.py skipped with its reason", names(rec), got)
	}
	if len(rec.Tests()) != 2 {
		t.Errorf("tests %q, want test_ok and the skipped module", names(rec))
	}
}

// TestStartupError: pytest stopping on a conftest before its session
// (a hook pluggy refuses: exit 1 and a traceback; a pytest_configure that
// raises: exit 3) is said by its exception, not as strobe's plugin that
// did not load nor as a command that "reported no test results".
func TestStartupError(t *testing.T) {
	root := fixture(t, "startup")
	_, out, exit := run(t, root, adapters.Request{})
	c := out.Crash
	if exit.Code != 1 || c == nil || !strings.Contains(c.Message, "PluginValidationError: Plugin 'conftest.py' for hook 'pytest_collection_modifyitems'") ||
		!strings.Contains(c.Message, "strobe_no_such_argument") || strings.Contains(c.Message, root) {
		t.Errorf("exit %+v, crash %+v: want pluggy's error, relative to the project", exit, c)
	}
	if strings.Contains(out.Hint, "plugin did not load") || !strings.Contains(out.Hint, "conftest") {
		t.Errorf("hint %q", out.Hint)
	}

	conftest := "def pytest_configure(config):\n    raise ValueError(\"configure broke\")\n"
	if err := os.WriteFile(filepath.Join(root, "conftest.py"), []byte(conftest), 0o644); err != nil {
		t.Fatal(err)
	}
	_, out, exit = run(t, root, adapters.Request{})
	c = out.Crash
	if exit.Code != exitInternal || c == nil || !strings.Contains(c.Message, "ValueError: configure broke (at conftest.py:2 (pytest_configure))") ||
		strings.Contains(c.Message, "site-packages") {
		t.Errorf("exit %+v, crash %+v: want the exception and its conftest frame", exit, c)
	}
	if strings.Contains(out.Hint, "plugin did not load") {
		t.Errorf("hint %q", out.Hint)
	}
}

// TestFloodBounded: a test that prints 200 MB and fails keeps a bounded
// output and its failure.
func TestFloodBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("200 MB of output")
	}
	root := fixture(t, "flood")
	t.Setenv("FLOOD_MB", "200")
	rec, _, _ := run(t, root, adapters.Request{})
	got, ok := adapterstest.TestByName(rec.Tests(), "test_flood.py::test_floods")
	if !ok || got.Failure == nil || got.Failure.Line != 13 || !strings.Contains(got.Failure.Message, "after the flood") {
		t.Fatalf("test %+v, want its failure at line 13", got.Failure)
	}
	if len(got.Output) > adapters.PerTestOutput+8 || !got.OutputTruncated && len(got.Output) < 1000 {
		t.Errorf("kept %d bytes of output (truncated %v)", len(got.Output), got.OutputTruncated)
	}
}

func TestStacksRegistered(t *testing.T) {
	root := fixture(t, "stacks")
	dir := t.TempDir()
	t.Setenv("STROBE_STACKS_DIR", dir)
	rec, _, _ := run(t, root, adapters.Request{})
	for _, tt := range rec.Tests() {
		if tt.Status != report.TestPassed {
			t.Errorf("%s: %s %+v", tt.Name, tt.Status, tt.Failure)
		}
	}
	if len(rec.Tests()) != 2 {
		t.Errorf("ran %q", names(rec))
	}
	files, _ := filepath.Glob(filepath.Join(dir, "py-*.txt"))
	if len(files) != 1 {
		t.Errorf("stack files %q, want one for the one pytest process", files)
	}
}

// TestXdistAndTimeout: pytest-xdist's workers and pytest-timeout change
// neither the results nor who writes events; every worker registers its
// stack dump.
func TestXdistAndTimeout(t *testing.T) {
	root := fixture(t, "basic")
	requireModules(t, "python3", "xdist", "pytest_timeout")
	notCI(t)
	stacks := t.TempDir()
	t.Setenv("STROBE_STACKS_DIR", stacks)
	rec, out, _ := run(t, root, adapters.Request{Command: []string{"python3", "-m", "pytest", "-n", "2", "--timeout", "60"}})
	res := normalise(rec, out, root)
	slices.SortFunc(res.Tests, func(a, b report.Test) int { return strings.Compare(a.Name, b.Name) })
	adapterstest.Golden(t, "basic-xdist", res)
	if f := rec.Failure("", "tests/unit/test_math.py::test_fails"); f == nil || f.Line != 15 || f.Rerun != "python3 -m pytest --timeout 60 tests/unit/test_math.py::test_fails" {
		t.Errorf("failure under xdist: %+v", f)
	}
	files, _ := filepath.Glob(filepath.Join(stacks, "py-*.txt"))
	if len(files) != 3 {
		t.Errorf("stack files %q, want the controller's and two workers'", files)
	}

	stacksRoot := fixture(t, "stacks")
	rec, _, _ = run(t, stacksRoot, adapters.Request{Command: []string{"python3", "-m", "pytest", "-n", "2"}})
	for _, tt := range rec.Tests() {
		if tt.Status != report.TestPassed {
			t.Errorf("under xdist, %s: %s %+v", tt.Name, tt.Status, tt.Failure)
		}
	}
}

// TestCancelLeavesNoProcess stops a run the way the runner does (SIGTERM
// to the process group) while a test sleeps, with xdist workers when
// installed: no process remains, and the sleeping test stays running.
func TestCancelLeavesNoProcess(t *testing.T) {
	root := fixture(t, "hang")
	rec := adapters.NewRecorder()
	plan, err := New().Plan(context.Background(), adapters.Request{ProjectRoot: root, Test: "test_hang.py::test_sleeps"}, rec)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(plan.Argv[0], plan.Argv[1:]...)
	cmd.Dir, cmd.Env = plan.Dir, append(os.Environ(), plan.Env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for len(rec.Running("")) == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if got := rec.Running(""); !slices.Equal(got, []string{"test_hang.py::test_sleeps"}) {
		t.Fatalf("running %q, want the sleeping test named while it runs", got)
	}
	syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
	cmd.Wait()
	ws := cmd.ProcessState.Sys().(syscall.WaitStatus)
	out := plan.Parser.Finish(report.Exit{Signaled: ws.Signaled(), Signal: int(ws.Signal()), Exited: ws.Exited(), Code: ws.ExitStatus(), StoppedBy: report.StoppedCancelled})
	plan.Parser.(adapters.Closer).Close()
	if out.Crash != nil {
		t.Errorf("crash %+v for a run strobe stopped", out.Crash)
	}
	if err := syscall.Kill(-cmd.Process.Pid, 0); err == nil {
		t.Errorf("processes of the run's group remain after SIGTERM")
	}
	if got := rec.Abandon(); !slices.Equal(got, []string{"test_hang.py::test_sleeps"}) {
		t.Errorf("abandoned %q", got)
	}
}

func TestMissingPytest(t *testing.T) {
	py := testutil.RequireTool(t, "python3")
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, ".venv", "bin"), 0o755)
	// A venv's python that sees no site-packages: pytest is not there.
	os.WriteFile(filepath.Join(root, ".venv", "bin", "python"), []byte("#!/bin/sh\nexec "+py+" -S \"$@\"\n"), 0o755)
	os.WriteFile(filepath.Join(root, "pytest.ini"), []byte("[pytest]\n"), 0o644)
	var env []string // the client's, without a PYTHONPATH that would find pytest anyway
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PYTHONPATH=") {
			env = append(env, kv)
		}
	}
	_, err := New().Plan(context.Background(), adapters.Request{ProjectRoot: root, Env: env}, adapters.NewRecorder())
	var u *adapters.UsageError
	if !asUsage(err, &u) || u.Framework != "pytest" || u.Hint != "install it: .venv/bin/python -m pip install pytest" {
		t.Errorf("Plan = %v, want a usage error with the venv's install command", err)
	}
}

func asUsage(err error, u **adapters.UsageError) bool {
	e, ok := err.(*adapters.UsageError)
	*u = e
	return ok
}

// TestPlanFailedSpawn: a parser closed without a run leaves no directory.
func TestCloseWithoutRun(t *testing.T) {
	requirePytest(t)
	root := fixture(t, "basic")
	plan, err := New().Plan(context.Background(), adapters.Request{ProjectRoot: root}, adapters.NewRecorder())
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Dir(strings.TrimPrefix(plan.Env[1], "STROBE_PY_EVENTS="))
	plan.Parser.(adapters.Closer).Close()
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("plugin directory %s remains: %v", dir, err)
	}
}

func TestDetect(t *testing.T) {
	requirePytest(t)
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
		{"pytest command", files(), []string{"pytest", "-x"}, 95},
		{"python -m pytest", files(), []string{"python3", "-m", "pytest"}, 95},
		{"other command", files("pytest.ini", ""), []string{"make", "test"}, 0},
		{"pytest.ini", files("pytest.ini", "[pytest]\n"), nil, 90},
		{"pyproject", files("pyproject.toml", "[project]\nname='x'\n\n[tool.pytest.ini_options]\naddopts = '-q'\n"), nil, 90},
		{"pyproject without pytest", files("pyproject.toml", "[project]\nname='x'\n"), nil, 0},
		{"setup.cfg", files("setup.cfg", "[tool:pytest]\n"), nil, 90},
		{"tox.ini", files("tox.ini", "[tox]\n[pytest]\n"), nil, 90},
		{"conftest", files("conftest.py", ""), nil, 85},
		{"test files", files("tests/test_a.py", "def test_a(): pass\n"), nil, 60},
		{"suffix test files", files("pkg/a_test.py", "def test_a(): pass\n"), nil, 60},
		{"nothing", files("main.py", ""), nil, 0},
		{"only in a venv", files("venv/lib/test_x.py", ""), nil, 0},
	} {
		d := New().Detect(adapters.Request{ProjectRoot: tc.root, Command: tc.cmd})
		if d.Confidence != tc.want {
			t.Errorf("%s: confidence %d (%s), want %d", tc.name, d.Confidence, d.Hint, tc.want)
		}
	}
}

// sabotaged plans like pytest, then puts on PYTHONPATH, instead of strobe's
// modules directory (shared by the runs: not to be spoilt), a copy of it in
// copyTo without the module remove, as a broken or unloadable plugin would
// be.
type sabotaged struct {
	adapters.Adapter
	remove string
	copyTo string
}

func (s sabotaged) Plan(ctx context.Context, req adapters.Request, rec *adapters.Recorder) (*adapters.Plan, error) {
	plan, err := s.Adapter.Plan(ctx, req, rec)
	if err != nil {
		return plan, err
	}
	dir, rest, _ := strings.Cut(strings.TrimPrefix(plan.Env[0], "PYTHONPATH="), ":")
	if err := os.CopyFS(s.copyTo, os.DirFS(dir)); err != nil {
		return nil, err
	}
	plan.Env[0] = "PYTHONPATH=" + strings.TrimSuffix(s.copyTo+":"+rest, ":")
	return plan, os.Remove(filepath.Join(s.copyTo, s.remove))
}

// TestPluginFallback: a plugin that cannot reach its event channel leaves
// pytest running as without it, and its own output is read; a plugin
// pytest cannot import stops pytest, and the answer says why.
func TestPluginFallback(t *testing.T) {
	root := fixture(t, "basic")
	rec, out, _ := adapterstest.RunReal(t, sabotaged{New(), "strobe_events.py", filepath.Join(t.TempDir(), "modules")}, adapters.Request{ProjectRoot: root})
	if !strings.Contains(out.Hint, "plugin did not load") || out.Summary == nil || out.Summary.Failed != 8 || out.Summary.Passed != 7 {
		t.Errorf("outcome %+v, want pytest's counts and the hint", out)
	}
	if f := rec.Failure("", "tests/unit/test_math.py::test_fails"); f == nil || f.File != "tests/unit/test_math.py" || f.Line != 15 {
		t.Errorf("failure read from pytest's output: %+v", f)
	}

	// The module pytest loads, and the one it imports the hooks from.
	for _, gone := range []string{"strobe_plugin.py", "strobe_pytest.py"} {
		_, out, exit := adapterstest.RunReal(t, sabotaged{New(), gone, filepath.Join(t.TempDir(), "modules")}, adapters.Request{ProjectRoot: root})
		// pytest's own import fails (a usage error); an import within the
		// plugin fails in it (an internal error), and the hint says which.
		want, why := exitUsage, "strobe_plugin"
		if gone == "strobe_pytest.py" {
			want, why = exitInternal, "No module named 'strobe_pytest'"
		}
		if exit.Code != want || out.Crash == nil || !strings.Contains(out.Crash.Message, "strobe_plugin") || !strings.Contains(out.Hint, "plugin did not load") || !strings.Contains(out.Hint, why) {
			t.Errorf("%s gone: exit %+v, outcome %+v: want pytest's error naming the plugin and %q", gone, exit, out, why)
		}
	}
}

func TestInternalError(t *testing.T) {
	root := fixture(t, "internal_error")
	_, out, exit := run(t, root, adapters.Request{})
	if exit.Code != exitInternal || out.Crash == nil {
		t.Fatalf("exit %+v, outcome %+v: want pytest's internal error", exit, out)
	}
	if msg := out.Crash.Message; !strings.Contains(msg, "RuntimeError: no marker registered for 1 items") || !strings.Contains(msg, "conftest.py:5 (pytest_collection_modifyitems)") {
		t.Errorf("message %q: want the INTERNALERROR's exception and its conftest frame", msg)
	}
	// A module that fails to import as well: build_failed, and the
	// internal error said too, or it surprises the next run.
	if err := os.WriteFile(filepath.Join(root, "test_broken.py"), []byte("import no_such_module\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, out, _ = run(t, root, adapters.Request{})
	if !out.BuildFailed || !strings.Contains(out.Hint, "internal error: RuntimeError") {
		t.Errorf("outcome %+v: want build_failed with the internal error in the hint", out)
	}
}

// TestSubtests: pytest 9 reports each failed subtest (unittest's subTest,
// its subtests fixture) under the test's node id. The test fails at its
// first failed subtest, named by its parameters; the later ones (another
// subtest's, an error, a helper's, the test's own after them) follow it,
// each at its own line, a few named and the rest counted, as pytest
// reports them; and the test passing after its subtests failed does not
// hide them.
func TestSubtests(t *testing.T) {
	root := fixture(t, "subtests")
	rec, out, exit := run(t, root, adapters.Request{})
	if exit.Code != 1 || out.Crash != nil {
		t.Fatalf("exit %+v, outcome %+v", exit, out)
	}
	fifty := []report.LaterFailure{}
	for n := 1; n < 50; n++ {
		fifty = append(fifty, report.LaterFailure{File: "test_sub.py", Line: 34, Message: fmt.Sprintf("(n=%d) %d != -1", n, n)})
	}
	want := map[string]struct {
		line  int
		msg   []string
		later []report.LaterFailure
	}{
		"test_sub.py::TestTable::test_rows": {10, []string{"(n=3) 6 not less than 5\nand 1 more failure in this test:\ntest_sub.py:10: (n=4) 8 not less than 5"},
			[]report.LaterFailure{{File: "test_sub.py", Line: 10, Message: "(n=4) 8 not less than 5"}}},
		"test_sub.py::TestTable::test_files": {15, []string{"[array] 'array' != 'table'"}, nil},
		"test_sub.py::test_fixture":          {21, []string{"[odd] (n=2) assert (2 % 2) == 1"}, nil},
		"test_sub.py::TestLater::test_fifty": {34, []string{"(n=0) 0 != -1\nand 49 more failures in this test:\ntest_sub.py:34: (n=1) 1 != -1\n",
			"test_sub.py:34: (n=5) 5 != -1\n(44 more: the details file's later_failures)"}, fifty},
		"test_sub.py::TestLater::test_mixed": {39, []string{"[first] 1 != 2\nand 3 more failures in this test:\n"}, []report.LaterFailure{
			{File: "test_sub.py", Line: 41, Message: "[second] ValueError: boom"},
			{File: "test_sub.py", Line: 25, Message: "[helper] 0 != 1 : even\ncalled from test_sub.py:43 (test_mixed)"},
			{File: "test_sub.py", Line: 44, Message: "False is not true : after"},
		}},
		"test_sub.py::test_fixture_later": {51, []string{"(n=0) assert (0 % 2) == 1\nand 2 more failures in this test:\n"}, []report.LaterFailure{
			{File: "test_sub.py", Line: 51, Message: "(n=2) assert (2 % 2) == 1"},
			{File: "test_sub.py", Line: 51, Message: "(n=4) assert (4 % 2) == 1"},
		}},
	}
	tests := rec.Tests()
	if len(tests) != len(want) {
		t.Errorf("%d tests recorded, want %d", len(tests), len(want))
	}
	for _, tt := range tests {
		w, ok := want[tt.Name]
		if !ok || tt.Status != report.TestFailed || tt.Failure == nil {
			t.Errorf("%s: %s %+v, want failed", tt.Name, tt.Status, tt.Failure)
			continue
		}
		f := tt.Failure
		if f.File != "test_sub.py" || f.Line != w.line || strings.Contains(f.Message, "error in call") {
			t.Errorf("%s: %s:%d %q, want test_sub.py:%d and no 'error in call'", tt.Name, f.File, f.Line, f.Message, w.line)
		}
		for _, m := range w.msg {
			if !strings.Contains(f.Message, m) {
				t.Errorf("%s: message %q lacks %q", tt.Name, f.Message, m)
			}
		}
		if !slices.Equal(f.Later, w.later) || f.LaterOmitted != 0 {
			t.Errorf("%s: later failures %+v (%d omitted), want %+v", tt.Name, f.Later, f.LaterOmitted, w.later)
		}
	}
}

// TestSubdirectory: strobe asked about a project's tests/ while pytest's
// rootdir (its ini file) is above. Names, files and reruns are relative
// to the directory asked about, where the rerun is pasted: pytest's node
// ids, relative to its rootdir, would name files that are not there.
func TestSubdirectory(t *testing.T) {
	dir := filepath.Join(fixture(t, "subdir"), "tests")
	rec, _, exit := run(t, dir, adapters.Request{})
	if exit.Code != 1 {
		t.Fatalf("exit %+v, want 1", exit)
	}
	var failed []report.Test
	for _, tt := range rec.Tests() {
		if tt.Status == report.TestFailed {
			failed = append(failed, tt)
		}
	}
	if len(failed) != 1 {
		t.Fatalf("failed tests %+v, want one", failed)
	}
	f := failed[0]
	if f.Name != "test_sub.py::test_fail[2]" || f.Failure.File != "test_sub.py" || f.Failure.Line != 10 {
		t.Errorf("%s at %s:%d, want test_sub.py::test_fail[2] at test_sub.py:10", f.Name, f.Failure.File, f.Failure.Line)
	}
	cmd := exec.Command("sh", "-c", f.Failure.Rerun+" -q -p no:cacheprovider")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if !strings.Contains(string(out), "1 failed in") || strings.Contains(string(out), "passed") || err == nil {
		t.Errorf("rerun %q in tests/: %v\n%s\nwant exactly that test, failed", f.Failure.Rerun, err, out)
	}
}

// TestDoctest: a failed doctest example is said as the example and what
// it printed, at the example's line (pytest's), and one that raised as
// its exception from the project frame it came from; the exception
// objects alone say "<DocTest mod.double from /abs/mod.py:1>".
func TestDoctest(t *testing.T) {
	root := fixture(t, "doctest")
	want := map[string]struct {
		line int
		msg  string
	}{
		"mod.py::mod.double": {6, ">>> double(3)\nExpected:\n    7\nGot:\n    6"},
		"mod.py::mod.boom":   {17, "ValueError: inside boom\n>>> boom()"},
	}
	check := func(t *testing.T, req adapters.Request) {
		rec, out, exit := run(t, root, req)
		if exit.Code != 1 || out.Crash != nil {
			t.Fatalf("exit %+v, outcome %+v", exit, out)
		}
		tests := rec.Tests()
		if len(tests) != len(want)+1 {
			t.Errorf("%d tests, want %d", len(tests), len(want)+1)
		}
		for _, tt := range tests {
			w, ok := want[tt.Name]
			if !ok {
				if tt.Name != "docs/guide.txt::guide.txt" || tt.Status != report.TestPassed {
					t.Errorf("%s: %s", tt.Name, tt.Status)
				}
				continue
			}
			if f := tt.Failure; f == nil || f.File != "mod.py" || f.Line != w.line || f.Message != w.msg {
				t.Errorf("%s: %+v, want mod.py:%d %q", tt.Name, f, w.line, w.msg)
			}
		}
	}
	t.Run("pytest", func(t *testing.T) { check(t, adapters.Request{}) })
	// Under xdist a doctest's report reaches the main process as pytest's
	// text, with the machine's paths: the example stays said as above.
	t.Run("xdist", func(t *testing.T) {
		requireModules(t, "python3", "xdist")
		check(t, adapters.Request{Command: []string{"python3", "-m", "pytest", "-n", "2"}})
	})
	// A given command's options stay in a failure's rerun, its paths go:
	// without --doctest-modules, the pasted rerun found no such test.
	t.Run("a given command's options", func(t *testing.T) {
		rec, _, exit := run(t, root, adapters.Request{Command: []string{"python3", "-m", "pytest", "-o", "addopts=", "--doctest-modules", "mod.py"}})
		f := rec.Failure("", "mod.py::mod.double")
		if exit.Code != 1 || f == nil || f.Rerun != "python3 -m pytest -o addopts= --doctest-modules mod.py::mod.double" {
			t.Fatalf("exit %+v, failure %+v: want the rerun with the command's options", exit, f)
		}
		cmd := exec.Command("sh", "-c", f.Rerun)
		cmd.Dir = root
		b, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || !strings.Contains(string(b), "1 failed") {
			t.Errorf("%s: %v, want the doctest failed again:\n%s", f.Rerun, err, b)
		}
	})
	// A text file of doctests, named: pytest runs its path, where -k
	// matched nothing.
	t.Run("a text file", func(t *testing.T) {
		rec, out, _ := run(t, root, adapters.Request{Test: "docs/guide.txt"})
		if got := names(rec); !slices.Equal(got, []string{"docs/guide.txt::guide.txt"}) || out.NoTests {
			t.Errorf("ran %q (no tests: %v), want the guide's doctest", got, out.NoTests)
		}
	})
}

// TestFixtureNotFound: a test asking for a fixture pytest does not have
// fails in setup with pytest's words for it, the fixtures it has among
// them, as under xdist; it said the exception's tuple,
// "FixtureLookupError: ('tmp_pth', <FixtureRequest …>)".
func TestFixtureNotFound(t *testing.T) {
	root := fixture(t, "lookup")
	check := func(t *testing.T, req adapters.Request) {
		rec, _, _ := run(t, root, req)
		f := rec.Failure("", "test_lookup.py::test_misspelt_fixture")
		if f == nil || f.File != "test_lookup.py" || f.Line != 1 ||
			!strings.HasPrefix(f.Message, "error in setup: fixture 'tmp_pth' not found\navailable fixtures: ") || !strings.Contains(f.Message, "tmp_path") {
			t.Errorf("failure %+v, want pytest's fixture 'tmp_pth' not found at test_lookup.py:1", f)
		}
	}
	t.Run("pytest", func(t *testing.T) { check(t, adapters.Request{}) })
	t.Run("xdist", func(t *testing.T) {
		requireModules(t, "python3", "xdist")
		check(t, adapters.Request{Command: []string{"python3", "-m", "pytest", "-n", "2"}})
	})
}

// TestHelperFrames: a failure raised in a shared helper is placed where
// pytest places it. A helper that sets __tracebackhide__ (pytest's way
// for a helper to hide its frames, callable or not), or a unittest
// TestCase's helper module that sets __unittest, fails at the test's
// line that called it; a helper that hides nothing fails at its own
// line, and the message says the test's line that called it, which a
// test calling the helper twice needs.
func TestHelperFrames(t *testing.T) {
	root := fixture(t, "helpers")
	rec, _, _ := run(t, root, adapters.Request{})
	for _, tc := range []struct {
		id, file string
		line     int
		msg      string
	}{
		{"test_hidden", "test_helpers.py", 10, "expected positive, got -1\nassert -1 > 0"},
		{"test_hidden_raises", "test_helpers.py", 19, "ValueError: negative: -3"},
		{"test_nested_hidden", "test_helpers.py", 23, "inner says no"},
		{"TestCase::test_unittest_hidden", "test_helpers.py", 36, "check_equal: 1 != 2"},
		{"test_plain", "conftest.py", 10, "expected positive, got -2\nassert -2 > 0\ncalled from test_helpers.py:15 (test_plain)"},
		{"test_callable_hide", "conftest.py", 22, "ignored hide, got -4\nassert -4 > 0\ncalled from test_helpers.py:27 (test_callable_hide)"},
		// helpers.py is not a test module: pytest does not rewrite its
		// assert, whose message is then its statement.
		{"test_bare", "helpers.py", 12, "assert x == 1\ncalled from test_helpers.py:31 (test_bare)"},
	} {
		f := rec.Failure("", "test_helpers.py::"+tc.id)
		if f == nil || f.File != tc.file || f.Line != tc.line || f.Message != tc.msg {
			t.Errorf("%s: failure %+v, want %s:%d %q", tc.id, f, tc.file, tc.line, tc.msg)
		}
	}
}

// TestReruns: under pytest-rerunfailures (--reruns N, its flaky marker),
// a test that fails and then passes on a rerun counts as passed and is
// named flaky with its attempts and its first failure, as nextest's
// retries are; one that fails every attempt fails, with its attempts.
// The same under pytest-xdist, whose workers rerun the tests.
func TestReruns(t *testing.T) {
	root := fixture(t, "reruns")
	requireModules(t, "python3", "pytest_rerunfailures", "xdist")
	wantFlaky := []adapters.FlakyTest{
		{Name: "test_reruns.py::test_flaky", Attempts: 2, File: "test_reruns.py", Line: 17, Message: "attempt 1\nassert 1 >= 2"},
		{Name: "test_reruns.py::test_marked", Attempts: 2, File: "test_reruns.py", Line: 42, Message: "assert 1 >= 2\n +  where 1 = attempt('marked')"},
		{Name: "test_reruns.py::test_setup_flaky", Attempts: 3, File: "test_reruns.py", Line: 32, Message: "error in setup: ConnectionError: not yet"},
	}
	for _, args := range [][]string{{"--reruns", "2"}, {"-n", "2", "--reruns", "2"}} {
		rec, out, exit := run(t, root, adapters.Request{Command: append([]string{"python3", "-m", "pytest"}, args...)})
		if exit.Code != exitFailed {
			t.Errorf("%v: exit %+v, want 1", args, exit)
		}
		p := rec.Progress()
		if p.Passed != 4 || p.Failed != 1 || len(rec.Tests()) != 5 {
			t.Errorf("%v: %d passed, %d failed of %d tests, want 4 passed, 1 failed", args, p.Passed, p.Failed, len(rec.Tests()))
		}
		flaky := slices.Clone(out.Flaky)
		slices.SortFunc(flaky, func(a, b adapters.FlakyTest) int { return strings.Compare(a.Name, b.Name) })
		if !slices.Equal(flaky, wantFlaky) {
			t.Errorf("%v: flaky %+v, want %+v", args, flaky, wantFlaky)
		}
		if !slices.Contains(out.Indicators, "flaky_tests") || !strings.Contains(out.Hint, "test_reruns.py::test_flaky (passed on try 2; failed first at test_reruns.py:17)") {
			t.Errorf("%v: hint %q, indicators %v: want the flaky tests named", args, out.Hint, out.Indicators)
		}
		f := rec.Failure("", "test_reruns.py::test_always")
		if f == nil || f.Attempts != 3 || f.File != "test_reruns.py" || f.Line != 22 ||
			f.Message != "assert 1 == 2\n(failed on all 3 tries: pytest-rerunfailures' reruns)" {
			t.Errorf("%v: failure %+v, want test_always failed on all 3 tries", args, f)
		}
	}
	// --fail-on-flaky: pytest-rerunfailures fails the run, exit 7.
	_, out, exit := run(t, root, adapters.Request{Command: []string{"python3", "-m", "pytest", "--reruns", "2", "--fail-on-flaky", "-k", "not always"}})
	if exit.Code != exitFailOnFlaky || len(out.Flaky) != 3 || !strings.Contains(out.Hint, "--fail-on-flaky") {
		t.Errorf("--fail-on-flaky: exit %+v, flaky %+v, hint %q", exit, out.Flaky, out.Hint)
	}
}

// TestPytestCovFailUnder: the tests pass, pytest-cov's --cov-fail-under
// (from pytest.ini's addopts) is not met and pytest exits 1: the hint
// says what failed, the coverage against its threshold.
func TestPytestCovFailUnder(t *testing.T) {
	root := fixture(t, "cov")
	requireModules(t, testutil.RequireTool(t, "python3"), "pytest_cov")
	rec, out, exit := run(t, root, adapters.Request{})
	if exit.Code != 1 || out.Crash != nil || out.ExitExplained {
		t.Errorf("exit %+v outcome %+v, want pytest's 1, not explained away", exit, out)
	}
	if p := rec.Progress(); p.Passed != 1 || p.Failed != 0 {
		t.Errorf("counts %+v, want 1 passed", p)
	}
	want := "coverage 75.00% is under the threshold 80% (pytest-cov's --cov-fail-under): the tests passed"
	if !strings.Contains(out.Hint, want) || !slices.Contains(out.Indicators, "coverage_threshold_not_met") {
		t.Errorf("hint %q indicators %q, want %q", out.Hint, out.Indicators, want)
	}
}

// TestPytestWarningsAsErrors: filterwarnings = error (pytest.ini) fails a
// test whose code warns, at the warning's line, and fails the collection
// of a module that warns as it is imported: a build failure whose hint
// says a warning was made an error, not that the code does not build.
func TestPytestWarningsAsErrors(t *testing.T) {
	root := fixture(t, "warnerror")
	_, out, _ := run(t, root, adapters.Request{})
	if !out.BuildFailed || len(out.BuildErrors) != 1 || out.BuildErrors[0].File != "test_at_import.py" || out.BuildErrors[0].Line != 5 {
		t.Fatalf("outcome %+v, want test_at_import.py:5's collection error", out)
	}
	want := "test_at_import.py (UserWarning) raised a warning that pytest made an error as it collected (-W error, or filterwarnings = error in the pytest configuration)"
	if !strings.Contains(out.Hint, want) {
		t.Errorf("hint %q, want %q", out.Hint, want)
	}

	rec, out, exit := run(t, root, adapters.Request{Test: "test_in_test.py"})
	f := rec.Failure("", "test_in_test.py::test_warns")
	if exit.Code != 1 || f == nil || f.File != "test_in_test.py" || f.Line != 5 || f.Message != "DeprecationWarning: old api" {
		t.Errorf("exit %+v failure %+v, want the warning as the failure at test_in_test.py:5", exit, f)
	}
	if p := rec.Progress(); p.Passed != 1 || p.Failed != 1 || out.BuildFailed {
		t.Errorf("counts %+v outcome %+v, want 1 passed, 1 failed", p, out)
	}
}

// TestPytestStrictMarkers: --strict-markers fails the collection of a
// module that uses a marker no configuration registers; the hint says
// how to register it.
func TestPytestStrictMarkers(t *testing.T) {
	root := fixture(t, "markers_strict")
	_, out, _ := run(t, root, adapters.Request{Command: []string{"python3", "-m", "pytest", "--strict-markers"}})
	if !out.BuildFailed || len(out.BuildErrors) != 1 || out.BuildErrors[0].File != "test_marker.py" {
		t.Fatalf("outcome %+v, want test_marker.py's collection error", out)
	}
	want := "pytest refused unknown markers under --strict-markers ('slowish' not found in `markers` configuration option): register each under `markers` in the pytest configuration"
	if !strings.Contains(out.Hint, want) {
		t.Errorf("hint %q, want %q", out.Hint, want)
	}
}

// TestBytecodeKept: where Python writes no bytecode (PYTHONDONTWRITEBYTECODE),
// the plugin's modules are compiled once, not at every run: the run leaves
// their bytecode in strobe's own directory, and nothing in the project.
func TestBytecodeKept(t *testing.T) {
	root := fixture(t, "basic")
	cache := adapterstest.KeepBytecodeEnv(t)
	if rec, out, _ := run(t, root, adapters.Request{}); len(rec.Tests()) != 16 || out.Hint != "" && strings.Contains(out.Hint, "did not load") {
		t.Fatalf("%d tests, outcome %+v: want the plugin's 16", len(rec.Tests()), out)
	}
	adapterstest.CheckBytecodeKept(t, "python3", cache, root, "strobe_pytest", "strobe_events", "strobe_stacks")
}

// TestPyenvShim: where python3 is a pyenv shim, strobe runs the interpreter
// it stands for, given PATH and PYENV_VERSION as pyenv exec gives them, and
// not the shim (here a shim that fails, so a run through it fails); where
// pyenv would run a hook strobe does not know, it runs the shim.
func TestPyenvShim(t *testing.T) {
	requirePytest(t)
	root, bin := adapterstest.FakePyenv(t)
	project := t.TempDir()
	adapterstest.WriteFiles(t, project, map[string]string{"tests/test_env.py": adapterstest.PyenvEnvTest(bin)})
	rec, res, exit := run(t, project, adapters.Request{})
	if exit.Code != 0 || len(rec.Tests()) != 1 || rec.Tests()[0].Status != report.TestPassed {
		t.Fatalf("exit %+v, tests %+v, outcome %+v: want test_env passed, run by %s", exit, rec.Tests(), res, filepath.Join(bin, "python3"))
	}

	// A plugin's hook that runs on every exec: pyenv's way, the shim.
	adapterstest.WriteFiles(t, root, map[string]string{"plugins/pyenv-x/etc/pyenv.d/exec/x.bash": ""})
	if _, _, exit = run(t, project, adapters.Request{}); exit.Code != adapterstest.ShimExit {
		t.Errorf("exit %+v with a hook strobe does not know: want the shim's %d", exit, adapterstest.ShimExit)
	}
}

// TestRerunOptions: a rerun keeps a given command's options that may
// decide how its test is collected or behaves, with their values, and
// leaves out those that select, order, spread or report the run, and the
// paths and node ids it named.
func TestRerunOptions(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"tests", "src"} {
		if err := os.Mkdir(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct{ args, want string }{
		{"--doctest-modules pkg tests", "--doctest-modules pkg"}, // no path pkg here: read as the unknown option's value
		{"--doctest-modules src tests", "--doctest-modules"},
		{"-p no:cacheprovider -k fast tests", "-p no:cacheprovider"},
		{"--cov src --cov-report term tests/test_a.py::test_b", ""},
		{"-x -q --runslow tests", "--runslow"},
		{"-o xfail_strict=true -n 2 tests", "-o xfail_strict=true"},
		{"--maxfail=2 tests -- -odd", ""},
		{"-p randomly --randomly-seed=5 -p no:asyncio -W error tests", "-p no:asyncio -W error"},
		{"-xvs --timeout 1 --timeout-method signal -ra --import-mode importlib", "--timeout 1 --timeout-method signal --import-mode importlib"},
		{"tests", ""},
	} {
		got := strings.Join(rerunOptions(root, strings.Fields(tc.args)), " ")
		if got != tc.want {
			t.Errorf("rerunOptions(%q) = %q, want %q", tc.args, got, tc.want)
		}
	}
}

// TestFailedAfterRename: a rerun of failed tests (--failed) after one was
// renamed, and another's file removed, runs those that remain and says
// which are gone. pytest refuses a whole command for one node id it cannot
// find: the run was an error that ran none of them (wcwidth's suite, a
// test renamed on purpose).
func TestFailedAfterRename(t *testing.T) {
	requirePytest(t)
	root := t.TempDir()
	adapterstest.WriteFiles(t, root, map[string]string{
		"test_ren.py": "import pytest\n\n\ndef test_new_name():\n    assert 1 == 2\n\n\n@pytest.mark.parametrize('n', [1, 2])\ndef test_other_fail(n):\n    assert n == 0\n\n\nclass TestC:\n    def test_m(self):\n        assert False\n",
	})
	tests := []adapters.TestRef{
		{Name: "test_ren.py::test_old_name"}, {Name: "test_ren.py::test_other_fail[1]"},
		{Name: "test_ren.py::TestC::test_m"}, {Name: "test_removed.py::test_x"},
	}
	rec, out, _ := run(t, root, adapters.Request{Tests: tests})
	var ran []string
	for _, tt := range rec.Tests() {
		ran = append(ran, tt.Name+" "+string(tt.Status))
	}
	slices.Sort(ran)
	if want := []string{"test_ren.py::TestC::test_m failed", "test_ren.py::test_other_fail[1] failed"}; !slices.Equal(ran, want) {
		t.Errorf("ran %q, want %q", ran, want)
	}
	if !strings.Contains(out.Hint, "2 of the tests asked for are no longer in their files (renamed or removed since), so they did not run: test_ren.py::test_old_name, test_removed.py::test_x") {
		t.Errorf("hint %q: want the two gone tests named", out.Hint)
	}

	// Every test asked for gone: nothing to rerun, said so, and not
	// pytest's usage error (exit 4, "not found").
	_, out, exit := run(t, root, adapters.Request{Tests: []adapters.TestRef{{Name: "test_ren.py::test_old_name"}}})
	if !out.NoTests || out.Refused != "" || out.Crash != nil || exit.Code != exitUsage ||
		!strings.Contains(out.Hint, "the test asked for is no longer in its file (renamed or removed since the run that failed it), so it did not run: test_ren.py::test_old_name") {
		t.Errorf("all gone: exit %+v, outcome %+v: want no tests, the gone test named", exit, out)
	}
}

// TestColorYes: a project whose pytest options colour the output
// (addopts = --color=yes, as wcwidth's) gets messages without terminal
// codes; its assertion diff read "At index 10 diff: \x1b[0m\x1b[94m1".
func TestColorYes(t *testing.T) {
	requirePytest(t)
	root := t.TempDir()
	adapterstest.WriteFiles(t, root, map[string]string{
		"pytest.ini":     "[pytest]\naddopts = --color=yes\n",
		"test_colour.py": "def test_lists():\n    assert [1, 2, 3] == [1, 2, 4]\n",
	})
	rec, _, _ := run(t, root, adapters.Request{})
	f := rec.Failure("", "test_colour.py::test_lists")
	if f == nil || strings.Contains(f.Message, "\x1b") || !strings.Contains(f.Message, "At index 2 diff: 3 != 4") {
		t.Errorf("failure %+v: want the diff without terminal codes", f)
	}
}

// TestHoldsNames: a node id's names are in its file as whole identifiers:
// test_one renamed test_one_renamed is gone (its id went to pytest, which
// refused the whole rerun of the failures).
func TestHoldsNames(t *testing.T) {
	src := []byte("class TestC:\n    def test_one_renamed(self):\n        pass\n\ndef test_two():\n    pass\n")
	for rest, want := range map[string]bool{
		"test_two": true, "TestC::test_one_renamed": true, "test_one": false, "TestC::test_one": false,
		"test_tw": false, "test_two[1-2]": true, "TestC": true,
	} {
		if got := holdsNames(src, rest); got != want {
			t.Errorf("holdsNames(%q) = %v, want %v", rest, got, want)
		}
	}
}

// TestConftestImportError: a conftest.py that does not import stops
// pytest with its usage error's exit 4: it is the project failing to
// load, a build failure at the conftest's line, as a test module's
// ImportError is (it was a crash of unknown type, with advice about
// arguments).
func TestConftestImportError(t *testing.T) {
	requirePytest(t)
	root := t.TempDir()
	adapterstest.WriteFiles(t, root, map[string]string{
		"conftest.py": "import os\nfrom os import no_such_name\n",
		"test_a.py":   "def test_a():\n    pass\n",
	})
	_, out, exit := run(t, root, adapters.Request{})
	if exit.Code != exitUsage || !out.BuildFailed || out.Crash != nil || len(out.BuildErrors) != 1 {
		t.Fatalf("exit %+v, outcome %+v: want a build failure", exit, out)
	}
	if be := out.BuildErrors[0]; be.File != "conftest.py" || be.Line != 2 || !strings.HasPrefix(be.Message, "ImportError: cannot import name 'no_such_name'") {
		t.Errorf("build error %+v, want conftest.py:2 and the ImportError", be)
	}
}

// TestPytestShownCommand: the answer's command named strobe's plugin
// (`-p strobe_plugin`), which only strobe's PYTHONPATH finds: pasted,
// pytest refused to start. It is the command a person types.
func TestPytestShownCommand(t *testing.T) {
	root := fixture(t, "basic")
	cmd, out := adapterstest.PasteShown(t, New(), adapters.Request{ProjectRoot: root})
	if !strings.HasSuffix(cmd, " -m pytest") || !strings.Contains(string(out), " failed") || !strings.Contains(string(out), " passed") {
		t.Errorf("%s:\n%s\nwant PYTHON -m pytest and pytest's counts", cmd, out)
	}
}
