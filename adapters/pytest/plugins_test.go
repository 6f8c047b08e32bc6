package pytest

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
	"strobe/report"
)

// TestTimeoutSignalMethod: a test pytest-timeout stops (its signal
// method, a test past --timeout or @pytest.mark.timeout) fails as timed
// out, with where it was then; the session goes on.
func TestTimeoutSignalMethod(t *testing.T) {
	root := fixture(t, "timeout")
	requireModules(t, "python3", "pytest_timeout")
	rec, out, exit := run(t, root, adapters.Request{Command: []string{"python3", "-m", "pytest", "--timeout", "1", "--timeout-method", "signal"}})
	if exit.Code != exitFailed || out.Crash != nil || !slices.Contains(out.Indicators, "test_timed_out") {
		t.Errorf("exit %+v, outcome %+v", exit, out)
	}
	f := rec.Failure("", "test_timeout.py::test_waits")
	if f == nil || !strings.HasPrefix(f.Message, "timed out: pytest-timeout stopped the test after 1s\n") ||
		!strings.Contains(f.Message, "\n  wait_for (test_timeout.py:12)\n  test_waits (test_timeout.py:16)") ||
		!strings.Contains(f.Message, "(threading.py:") || strings.Contains(f.Message, "_pytest") || strings.Contains(f.Message, root) ||
		f.File != "test_timeout.py" || f.Line != 12 || f.Rerun != "python3 -m pytest --timeout 1 --timeout-method signal test_timeout.py::test_waits" {
		t.Errorf("test_waits: %+v, want timed out with its stack, at the helper's line", f)
	}
	f = rec.Failure("", "test_timeout.py::test_marked")
	if f == nil || !strings.HasPrefix(f.Message, "timed out: pytest-timeout stopped the test after 1s\n  test_marked (test_timeout.py:22)") || f.Line != 22 {
		t.Errorf("test_marked: %+v, want its marker's timeout", f)
	}
	if p := rec.Progress(); p.Passed != 2 || p.Failed != 2 {
		t.Errorf("tests %q: %d passed, %d failed, want test_before and test_after passed", names(rec), p.Passed, p.Failed)
	}
}

// TestTimeoutThreadMethod: pytest-timeout's thread method dumps the
// stacks and ends pytest with os._exit(1) inside the test: the test timed
// out, at the frame its thread was in, with the dump in its output; no
// crash, the test before it passed, and the hint says how many never
// ran (before: a crash, "a call to os._exit()", at the test's def line).
func TestTimeoutThreadMethod(t *testing.T) {
	root := fixture(t, "timeout")
	requireModules(t, "python3", "pytest_timeout")
	for _, verbose := range []bool{false, true} {
		argv := []string{"python3", "-m", "pytest", "--timeout", "1", "--timeout-method", "thread"}
		if verbose { // the first rule follows the test's id, not its file's dots
			argv = append(argv, "-v")
		}
		rec, out, exit := run(t, root, adapters.Request{Command: argv})
		if exit.Code != exitFailed || out.Crash != nil || !slices.Contains(out.Indicators, "test_timed_out") ||
			!slices.Contains(out.Indicators, report.IndicatorBinaryDied) {
			t.Errorf("-v %v: exit %+v, outcome %+v: want no crash", verbose, exit, out)
		}
		if !strings.Contains(out.Hint, "pytest-timeout's thread method ended pytest when test_timeout.py::test_waits ran past its timeout: 2 of the 4 tests collected did not run") {
			t.Errorf("-v %v: hint %q", verbose, out.Hint)
		}
		got, _ := rec.Lookup("", "test_timeout.py::test_waits")
		f := got.Failure
		if f == nil || !strings.HasPrefix(f.Message, "timed out: pytest-timeout stopped the test after ") ||
			!strings.Contains(f.Message, "ended pytest (its thread method's os._exit(1))\n") ||
			!strings.Contains(f.Message, "\n  wait_for (test_timeout.py:12)\n  test_waits (test_timeout.py:16)") ||
			strings.Contains(f.Message, root) || f.File != "test_timeout.py" || f.Line != 12 ||
			f.Rerun != "python3 -m pytest --timeout 1 --timeout-method thread test_timeout.py::test_waits" {
			t.Errorf("-v %v: test_waits %+v, want timed out at the helper's line", verbose, f)
		}
		if !strings.Contains(got.Output, "Stack of MainThread") {
			t.Errorf("-v %v: output %q, want pytest-timeout's dump", verbose, got.Output)
		}
		if p := rec.Progress(); p.Passed != 1 || p.Failed != 1 {
			t.Errorf("-v %v: tests %q: %d passed, %d failed", verbose, names(rec), p.Passed, p.Failed)
		}
	}
}

// TestTimeoutThreadMethodUnderXdist: under pytest-xdist, pytest-timeout's
// thread method ends the worker (os._exit(1)) and xdist reports only
// that the worker crashed; the worker's dump went to its stdout, which
// execnet points at /dev/null. Each test past its timeout fails as timed
// out, at the frame it was in, with pytest-timeout's dump in its output;
// no crash, and the others pass (before: "xdist worker crashed", at the
// test's def line). The timeout method from the configuration (-o) too.
// The rerun keeps the timeout, not xdist's -n.
func TestTimeoutThreadMethodUnderXdist(t *testing.T) {
	root := fixture(t, "timeout")
	requireModules(t, "python3", "pytest_timeout", "xdist")
	for _, method := range [][]string{{"--timeout-method", "thread"}, {"-o", "timeout_method=thread"}} {
		argv := append([]string{"python3", "-m", "pytest", "-n", "2", "--timeout", "2"}, method...)
		rec, out, exit := run(t, root, adapters.Request{Command: argv})
		if exit.Code != exitFailed || out.Crash != nil || !slices.Contains(out.Indicators, "test_timed_out") {
			t.Errorf("%v: exit %+v, outcome %+v, crash %+v: want a failed run, no crash", method, exit, out, out.Crash)
		}
		got, _ := rec.Lookup("", "test_timeout.py::test_waits")
		f := got.Failure
		if f == nil || !strings.HasPrefix(f.Message, "timed out: pytest-timeout stopped the test after 2s\n") ||
			!strings.Contains(f.Message, "\n  wait_for (test_timeout.py:12)\n  test_waits (test_timeout.py:16)\n") ||
			!strings.Contains(f.Message, "its thread method ended the pytest-xdist worker") ||
			strings.Contains(f.Message, "crashed") || strings.Contains(f.Message, root) || f.File != "test_timeout.py" || f.Line != 12 ||
			f.Rerun != "python3 -m pytest --timeout 2 "+strings.Join(method, " ")+" test_timeout.py::test_waits" {
			t.Errorf("%v: test_waits %+v, want timed out at the helper's line", method, f)
		}
		if !strings.Contains(got.Output, "+ Timeout +") || !strings.Contains(got.Output, "Stack of MainThread") ||
			!strings.Contains(got.Output, "in wait_for\n") {
			t.Errorf("%v: test_waits' output %q, want pytest-timeout's dump", method, got.Output)
		}
		f = rec.Failure("", "test_timeout.py::test_marked")
		if f == nil || !strings.HasPrefix(f.Message, "timed out: pytest-timeout stopped the test after 1s\n  test_marked (test_timeout.py:22)") || f.Line != 22 {
			t.Errorf("%v: test_marked %+v, want its marker's timeout", method, f)
		}
		if p := rec.Progress(); p.Passed != 2 || p.Failed != 2 {
			t.Errorf("%v: tests %q: %d passed, %d failed, want test_before and test_after passed", method, names(rec), p.Passed, p.Failed)
		}
	}
}

// TestHypothesis: a property that fails says hypothesis' failing example
// (an exception note, which str() leaves out) at the test's own line,
// with no "called from" its @given wrapper; hypothesis' exception groups
// (distinct failures, FlakyFailure) say each failure, located at the
// first; a health check failure says what it is and reruns with the seed
// that reproduces it. A property's failing assert suggests tracing what
// it calls, not the test (its @given wrapper claims the test's file).
func TestHypothesis(t *testing.T) {
	root := fixture(t, "hypo")
	requireModules(t, "python3", "hypothesis")
	notCI(t) // hypothesis' CI profile derandomizes: no seed to say
	rec, _, _ := run(t, root, adapters.Request{})
	f := rec.Failure("", "test_props.py::test_double_is_even")
	if f == nil || f.Line != 12 || !strings.Contains(f.Message, "Failing test case: test_double_is_even(\n    n=100,\n)") ||
		strings.Contains(f.Message, "called from") {
		t.Errorf("test_double_is_even: %+v, want the failing example at line 12", f)
	}
	if n := adapterstest.CheckPythonSuggestions(t, filepath.Join(root, "test_props.py"), rec.Tests()); n != 1 {
		t.Errorf("checked %d failures' suggestions, want test_double_is_even's", n)
	}
	f = rec.Failure("", "test_props.py::test_two_bugs")
	if f == nil || !strings.HasPrefix(f.Message, "ExceptionGroup: Hypothesis found 2 distinct failures.") ||
		!strings.Contains(f.Message, "\n[1] ") || !strings.Contains(f.Message, "\n[2] ") ||
		!strings.Contains(f.Message, "ValueError: big (at test_props.py:18)\n    Failing test case: test_two_bugs(") ||
		!strings.Contains(f.Message, "TypeError: small (at test_props.py:20)") || (f.Line != 18 && f.Line != 20) || strings.Contains(f.Message, root) {
		t.Errorf("test_two_bugs: %+v, want both failures, at the first's line", f)
	}
	f = rec.Failure("", "test_props.py::test_flaky")
	if f == nil || !strings.HasPrefix(f.Message, "hypothesis.errors.FlakyFailure: ") ||
		!strings.Contains(f.Message, "\n[1] ValueError: only once (at test_props.py:28)") || f.Line != 28 {
		t.Errorf("test_flaky: %+v, want hypothesis' FlakyFailure with the failure it could not reproduce", f)
	}
	f = rec.Failure("", "test_props.py::test_filters_too_much")
	if f == nil || !strings.HasPrefix(f.Message, "hypothesis.errors.FailedHealthCheck: ") ||
		!strings.HasPrefix(f.Rerun, "python3 -m pytest test_props.py::test_filters_too_much --hypothesis-seed=") {
		t.Errorf("test_filters_too_much: %+v, want the health check, rerun with its seed", f)
	}
	if got, _ := rec.Lookup("", "test_props.py::test_passes"); got.Status != report.TestPassed {
		t.Errorf("test_passes: %+v", got)
	}
}

// TestExceptionGroupsAndNotes: an exception group (an asyncio TaskGroup)
// says its sub-exceptions and sits where the first was raised; an
// exception's notes are part of its message.
func TestExceptionGroupsAndNotes(t *testing.T) {
	root := fixture(t, "groups")
	rec, _, _ := run(t, root, adapters.Request{})
	f := rec.Failure("", "test_groups.py::test_taskgroup")
	if f == nil || f.Message != "ExceptionGroup: unhandled errors in a TaskGroup (1 sub-exception)\n[1] ValueError: in task (at test_groups.py:6)" ||
		f.File != "test_groups.py" || f.Line != 6 {
		t.Errorf("test_taskgroup: %+v", f)
	}
	f = rec.Failure("", "test_groups.py::test_note")
	if f == nil || f.Message != "KeyError: 'k'\nwhile loading config.toml" || f.Line != 21 {
		t.Errorf("test_note: %+v", f)
	}
}

// TestSessionTimeout: pytest-timeout's --session-timeout ends the session
// after the test that passed it (exit 1): the hint says so, where it said
// "-x or --maxfail".
func TestSessionTimeout(t *testing.T) {
	root := fixture(t, "timeout")
	requireModules(t, "python3", "pytest_timeout")
	_, out, _ := run(t, root, adapters.Request{Command: []string{"python3", "-m", "pytest", "--timeout", "1", "--session-timeout", "1", "-k", "not waits"}})
	want := "pytest stopped early: pytest-timeout's --session-timeout ended the session (session-timeout: 1.0 sec exceeded): 1 of the 3 tests collected did not run"
	if !strings.Contains(out.Hint, want) || strings.Contains(out.Hint, "maxfail") {
		t.Errorf("hint %q, want %q", out.Hint, want)
	}
}
