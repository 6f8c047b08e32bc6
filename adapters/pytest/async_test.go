package pytest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"strobe/adapters"
	"strobe/internal/testutil"
)

// asyncFixture copies fixture name and puts pytest-asyncio and anyio (their
// own directory, testutil.PyAsyncSite) on the PYTHONPATH its run sees.
func asyncFixture(t *testing.T, name string) string {
	t.Helper()
	root := fixture(t, name)
	t.Setenv("PYTHONPATH", testutil.RequirePythonSite(t, testutil.PyAsyncRequirements, testutil.PyAsyncSite))
	return root
}

// TestAsyncioStrictMode: under pytest-asyncio's strict mode (its default),
// an async test without @pytest.mark.asyncio fails with pytest's "async
// def functions are not natively supported … install a suitable plugin",
// though the plugin is installed; strobe says what fixes it instead (the
// marker, or asyncio_mode = "auto"), and of an async fixture that is not
// @pytest_asyncio.fixture the same. The marked tests fail and pass as
// pytest says, at their lines; the warnings pytest-asyncio gives (the
// loop scope unset, the marker's scope=, a sync test marked) fail nothing.
func TestAsyncioStrictMode(t *testing.T) {
	root := asyncFixture(t, "asyncio_strict")
	rec, out, exit := run(t, root, adapters.Request{})
	if exit.Code != exitFailed || out.Crash != nil {
		t.Errorf("exit %+v, outcome %+v, want a failed run", exit, out)
	}
	if p := rec.Progress(); p.Passed != 3 || p.Failed != 4 {
		t.Errorf("tests %q: %d passed, %d failed, want 3 passed (the warnings' tests too) and 4 failed", names(rec), p.Passed, p.Failed)
	}
	f := rec.Failure("", "test_strict.py::test_unmarked")
	want := "async def functions are not natively supported.\npytest-asyncio is installed, but in strict mode (its default) it runs only the async tests marked @pytest.mark.asyncio: " +
		"mark this test @pytest.mark.asyncio (a whole module: pytestmark = pytest.mark.asyncio), or set asyncio_mode = \"auto\" in the pytest configuration; " +
		"anyio's pytest plugin, installed too, runs only the async tests marked @pytest.mark.anyio"
	if f == nil || f.Message != want || f.File != "test_strict.py" || f.Line != 12 || f.Rerun != "python3 -m pytest test_strict.py::test_unmarked" {
		t.Errorf("test_unmarked: %+v, want %q", f, want)
	}
	f = rec.Failure("", "test_strict.py::test_undecorated_fixture")
	want = "error in setup: 'test_undecorated_fixture' requested an async fixture 'undecorated', with no plugin or hook that handled it. This is an error, as pytest does not natively support it.\n" +
		"pytest-asyncio is installed, but in strict mode (its default) it sets up only the async fixtures decorated @pytest_asyncio.fixture: " +
		"decorate 'undecorated' so (import pytest_asyncio), or set asyncio_mode = \"auto\" in the pytest configuration"
	if f == nil || f.Message != want {
		t.Errorf("test_undecorated_fixture: %+v, want %q (no anyio: the test is marked for pytest-asyncio)", f, want)
	}
	f = rec.Failure("", "test_strict.py::test_marked_fails")
	if f == nil || f.Message != "assert 8 == 9" || f.File != "test_strict.py" || f.Line != 24 || f.Rerun != "python3 -m pytest test_strict.py::test_marked_fails" {
		t.Errorf("test_marked_fails: %+v, want assert 8 == 9 at test_strict.py:24", f)
	}
	f = rec.Failure("", "test_strict.py::test_fixture_raises")
	if f == nil || f.Message != "error in setup: ConnectionError: database is down" || f.File != "test_strict.py" || f.Line != 40 {
		t.Errorf("test_fixture_raises: %+v, want the fixture's error at test_strict.py:40", f)
	}
}

// TestAsyncWithoutPlugin: with no async plugin loaded, pytest's advice
// (install one) is the right one, and stands.
func TestAsyncWithoutPlugin(t *testing.T) {
	root := asyncFixture(t, "asyncio_strict")
	rec, _, _ := run(t, root, adapters.Request{Command: []string{"python3", "-m", "pytest", "-p", "no:asyncio", "-p", "no:anyio", "test_strict.py::test_unmarked"}})
	f := rec.Failure("", "test_strict.py::test_unmarked")
	if f == nil || !strings.Contains(f.Message, "You need to install a suitable plugin") || strings.Contains(f.Message, "mark this test") {
		t.Errorf("test_unmarked: %+v, want pytest's own message", f)
	}
}

// TestAsyncioAutoMode: under asyncio_mode = "auto" an unmarked async test
// runs, and its failure is its assert.
func TestAsyncioAutoMode(t *testing.T) {
	root := asyncFixture(t, "asyncio_strict")
	rec, _, _ := run(t, root, adapters.Request{Command: []string{"python3", "-m", "pytest", "-o", "asyncio_mode=auto", "test_strict.py::test_unmarked", "test_strict.py::test_undecorated_fixture"}})
	if p := rec.Progress(); p.Passed != 2 || p.Failed != 0 {
		t.Errorf("tests %q: %d passed, %d failed, want both passed", names(rec), p.Passed, p.Failed)
	}
}

// TestAnyio: anyio's pytest plugin (the asyncio backend): a marked test's
// failure at its line; an unmarked one, with pytest-asyncio not loaded,
// says to mark it @pytest.mark.anyio.
func TestAnyio(t *testing.T) {
	root := asyncFixture(t, "anyio")
	rec, out, exit := run(t, root, adapters.Request{Command: []string{"python3", "-m", "pytest", "-p", "no:asyncio"}})
	if exit.Code != exitFailed || out.Crash != nil {
		t.Errorf("exit %+v, outcome %+v, want a failed run", exit, out)
	}
	if p := rec.Progress(); p.Passed != 1 || p.Failed != 2 {
		t.Errorf("tests %q: %d passed, %d failed, want 1 passed and 2 failed", names(rec), p.Passed, p.Failed)
	}
	f := rec.Failure("", "test_anyio.py::test_marked_fails")
	if f == nil || f.Message != "assert 8 == 9" || f.File != "test_anyio.py" || f.Line != 23 || f.Rerun != "python3 -m pytest -p no:asyncio test_anyio.py::test_marked_fails" {
		t.Errorf("test_marked_fails: %+v, want assert 8 == 9 at test_anyio.py:23", f)
	}
	f = rec.Failure("", "test_anyio.py::test_unmarked")
	want := "async def functions are not natively supported.\nanyio's pytest plugin is installed, but it runs only the async tests marked @pytest.mark.anyio: " +
		"mark this test @pytest.mark.anyio, or set anyio_mode = \"auto\" in the pytest configuration"
	if f == nil || f.Message != want || f.Line != 26 {
		t.Errorf("test_unmarked: %+v, want %q", f, want)
	}
}

// TestAsyncioWarningsAsErrors: under filterwarnings = error,
// pytest-asyncio's deprecation of the marker's scope= fails the module's
// collection, as pytest says: a build error at the module that uses it,
// not at pytest-asyncio's own file, here in a directory beside the
// project on PYTHONPATH, which pytest says as
// "../site/pytest_asyncio/plugin.py" (before: that file, joined to the
// project, was the project's). The module beside it does not run, as
// pytest stops after a collection error.
func TestAsyncioWarningsAsErrors(t *testing.T) {
	root := asyncFixture(t, "asyncio_warnerror")
	beside := filepath.Join(filepath.Dir(root), "site")
	if err := os.Symlink(os.Getenv("PYTHONPATH"), beside); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PYTHONPATH", beside)
	_, out, exit := run(t, root, adapters.Request{})
	if exit.Code != exitInterrupted || !out.BuildFailed || len(out.BuildErrors) != 1 {
		t.Fatalf("exit %+v, outcome %+v, want one collection error", exit, out)
	}
	e := out.BuildErrors[0]
	if e.File != "test_scope.py" || !strings.Contains(e.Message, `PytestDeprecationWarning: The "scope" keyword argument to the asyncio marker has been deprecated`) {
		t.Errorf("build error %+v, want test_scope.py's, pytest-asyncio's warning", e)
	}
	if !strings.HasPrefix(out.Hint, "test_scope.py (PytestDeprecationWarning) raised a warning that pytest made an error as it collected") {
		t.Errorf("hint %q, want test_scope.py named", out.Hint)
	}
}

// TestAsyncioLoopScopeWarningAsError: pytest-asyncio warns as pytest
// starts when asyncio_default_fixture_loop_scope is unset; -W error makes
// that pytest's internal error (exit 3), before any test, as raw pytest
// says. The hint says what to set, not only that the process crashed.
func TestAsyncioLoopScopeWarningAsError(t *testing.T) {
	root := asyncFixture(t, "asyncio_strict")
	rec, out, exit := run(t, root, adapters.Request{Command: []string{"python3", "-m", "pytest", "-W", "error"}})
	if exit.Code != exitInternal || out.Crash == nil || !strings.Contains(out.Crash.Message, `PytestDeprecationWarning: The configuration option "asyncio_default_fixture_loop_scope" is unset.`) {
		t.Fatalf("exit %+v, outcome %+v, want pytest's internal error with the warning", exit, out)
	}
	want := "set asyncio_default_fixture_loop_scope = function in the pytest configuration"
	if !strings.Contains(out.Hint, want) {
		t.Errorf("hint %q, want %q", out.Hint, want)
	}
	if p := rec.Progress(); p.Passed+p.Failed != 0 {
		t.Errorf("tests %q ran", names(rec))
	}
}
