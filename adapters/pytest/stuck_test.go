package pytest_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"strobe/adapters/adapterstest"
	"strobe/internal/testutil"
	"strobe/report"
	"strobe/runner"
)

// TestStuckAfterTheTests: every test passed and one of them started a
// thread that is no daemon: the interpreter joins it at exit, for ever.
// The run is stuck after its tests, not in one: summary.stuck 0, the
// diagnosis names threading._shutdown's wait, the hint says to join the
// thread or make it a daemon. Before, the command was counted a stuck
// test beside the two that passed, and the wait a deadlock of "the stuck
// test"; a thread that polls (sleeps of half a second) was left to the
// ten-minute timeout: under the default timeout, a process that stays
// idle 20 s after pytest reported its session's end is stuck.
func TestStuckAfterTheTests(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for a verdict")
	}
	requirePytestModule(t)
	for _, tc := range []struct {
		name, thread string
		timeout      time.Duration
	}{
		{"sleeps", "threading.Thread(target=time.sleep, args=(3600,)).start()", time.Minute},
		{"polls", "threading.Thread(target=poll).start()", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			root := t.TempDir()
			test := `import threading
import time


def poll():
    while True:
        time.sleep(0.5)


def test_passes():
    pass


def test_starts_a_thread_it_never_stops():
    ` + tc.thread + "\n"
			if err := os.WriteFile(filepath.Join(root, "test_linger.py"), []byte(test), 0o644); err != nil {
				t.Fatal(err)
			}
			resp, err := runner.Exec(context.Background(), runner.Request{ProjectRoot: root, Framework: "pytest", Timeout: tc.timeout},
				runner.Options{DetailsDir: t.TempDir(), Overdue: adapterstest.Overdue})
			if err != nil {
				t.Fatal(err)
			}
			adapterstest.CheckAfterTests(t, resp, 2, "waits at its exit (threading._shutdown) for a thread", "daemon=True", 30*time.Second)
		})
	}
}

// TestStuckUnderXdist: under pytest-xdist one worker hangs in a test while
// the other, done with its file (--dist loadfile), sits idle. Only the
// hung test is stuck, with the stacks of the worker that runs it. Before,
// the idle worker's last test, which had passed, read as running (its end
// waited in the main process for an event that never came) and was a
// second stuck test with the hung one's diagnosis; and the idle worker,
// waiting without a timeout for xdist's next item, was the process whose
// stacks stood for the deadlocked test's.
func TestStuckUnderXdist(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for a verdict")
	}
	py := testutil.RequireTool(t, "python3")
	for _, m := range []string{"pytest", "xdist"} {
		if err := exec.Command(py, "-c", "import "+m).Run(); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("python3 cannot import %s: .ci/run must pip install it", m)
			}
			t.Skipf("python3 cannot import %s", m)
		}
	}
	for _, tc := range []struct {
		test, diagnosis, frame string
	}{
		{"test_deadlocks", "deadlock", "test_deadlocks (test_b_hang.py:19)"},
		{"test_spins", "endless loop", "test_spins (test_b_hang.py:25)"},
	} {
		t.Run(tc.test, func(t *testing.T) {
			root := adapterstest.CopyFixture(t, "xdist_hang")
			cmd := "python3 -m pytest -n 2 --dist loadfile -k 'quick or " + tc.test + "'"
			resp, err := runner.Exec(context.Background(), runner.Request{ProjectRoot: root, Command: cmd, Timeout: time.Minute},
				runner.Options{DetailsDir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			if resp.Status != report.Stuck || len(resp.Stuck) != 1 {
				t.Fatalf("status %s, stuck %+v: want one stuck test", resp.Status, resp.Stuck)
			}
			s := resp.Stuck[0]
			if want := "test_b_hang.py::" + tc.test; s.Name != want || !strings.HasPrefix(s.Diagnosis, tc.diagnosis) {
				t.Errorf("stuck %s: %s, want %s: %s…", s.Name, s.Diagnosis, want, tc.diagnosis)
			}
			var stacks []string
			for _, th := range s.Threads {
				stacks = append(stacks, th.Stack...)
			}
			if !slices.Contains(stacks, tc.frame) {
				t.Errorf("stacks lack %s (the hung worker's):\n%s", tc.frame, strings.Join(stacks, "\n"))
			}
			if resp.Summary == nil || resp.Summary.Passed != 20 || resp.Summary.Stuck != 1 {
				t.Errorf("summary %+v, want the 20 quick tests passed and 1 stuck", resp.Summary)
			}
		})
	}
}

// TestStuckRestWithoutIt: a run strobe stopped at a hung test says how
// many tests did not run, and how to run them without it (pytest's
// --deselect), as Go's, cargo's and Maven's do (cachetools broken on
// purpose: 152 of 279 left, and no command for them).
func TestStuckRestWithoutIt(t *testing.T) {
	requirePytestModule(t)
	root := t.TempDir()
	test := `import threading


def test_first():
    pass


def test_hangs():
    threading.Event().wait()


def test_after():
    pass
`
	if err := os.WriteFile(filepath.Join(root, "test_hang.py"), []byte(test), 0o644); err != nil {
		t.Fatal(err)
	}
	resp, err := runner.Exec(context.Background(), runner.Request{ProjectRoot: root, Framework: "pytest", Timeout: time.Minute},
		runner.Options{DetailsDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Status != report.Stuck || len(resp.Stuck) != 1 || resp.Stuck[0].Name != "test_hang.py::test_hangs" {
		t.Fatalf("status %s, stuck %+v: want test_hangs stuck", resp.Status, resp.Stuck)
	}
	cmd, out, err := adapterstest.RunRest(t, resp.Hint, root)
	if err != nil || !strings.Contains(string(out), "2 passed, 1 deselected") {
		t.Errorf("%s: %v\n%s", cmd, err, out)
	}
}

// TestStuckParametrizedNotSuggested: a hung parametrized test whose id
// holds a colon (pyiso8601's "…[2007-06-23 06:40:34.00Z-…]") had its
// own function among the suggested traces: the test's name was cut at
// the id's last colon, and matched no frame. What is suggested is named as
// the tracer names it, and traces that function when given back.
func TestStuckParametrizedNotSuggested(t *testing.T) {
	requirePytestModule(t)
	root := t.TempDir()
	test := `import threading

import pytest

LOCK = threading.Lock()


def parse(s):
    with LOCK:
        with LOCK:
            return s


@pytest.mark.parametrize("s", ["06:40:34Z"])
def test_parse(s):
    assert parse(s) == s
`
	if err := os.WriteFile(filepath.Join(root, "test_parse.py"), []byte(test), 0o644); err != nil {
		t.Fatal(err)
	}
	resp, err := runner.Exec(context.Background(), runner.Request{ProjectRoot: root, Framework: "pytest", Timeout: time.Minute},
		runner.Options{DetailsDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Status != report.Stuck || len(resp.Stuck) != 1 || resp.Stuck[0].Name != "test_parse.py::test_parse[06:40:34Z]" {
		t.Fatalf("status %s, stuck %+v: want test_parse stuck", resp.Status, resp.Stuck)
	}
	// Qualified as the tracer matches (module, then qualified name): a
	// bare "parse" matched a parse in every module.
	traces := resp.Stuck[0].SuggestedTraces
	if got := strings.Join(traces, " "); got != "test_parse.parse" {
		t.Fatalf("suggested %q, want test_parse.parse alone", got)
	}
	// The suggestion, given back as an agent gives it, traces that function.
	resp, err = runner.Exec(context.Background(), runner.Request{ProjectRoot: root, Framework: "pytest", Timeout: time.Minute,
		Test: resp.Stuck[0].Name, Trace: &runner.Trace{Patterns: traces}}, runner.Options{DetailsDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Trace == nil || len(resp.Trace.Unmatched) > 0 || resp.Trace.Matched.Count != 1 {
		t.Errorf("traced with %q: trace %+v, want its one function matched", traces, resp.Trace)
	}
	if resp.Trace != nil && slices.ContainsFunc(resp.Trace.Warnings, func(w string) bool { return strings.Contains(w, "did not run under the tracer") }) {
		t.Errorf("warnings %q: the test ran under the tracer (killed with its run)", resp.Trace.Warnings)
	}
}
