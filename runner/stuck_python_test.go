package runner

import (
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"strobe/adapters/kit/python"
	"testing"
	"time"

	"strobe/details"
	"strobe/internal/testutil"
	"strobe/report"
)

// pyRegistration writes strobe's faulthandler registration where hang.py
// runs it first (STROBE_PY_REGISTER), as strobe's pytest plugin would.
func pyRegistration(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "register.py")
	if err := os.WriteFile(path, python.StacksModule, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// runPy runs stuck/testdata/python/hang.py through the generic adapter,
// in its directory (the project of its frames). runReq fails the test if
// a process of the run is left.
func runPy(t *testing.T, timeout time.Duration, env map[string]string, args ...string) (*report.Response, *details.Record) {
	t.Helper()
	py := testutil.RequireTool(t, "python3")
	root, _ := filepath.Abs("../stuck/testdata/python")
	return runReq(t, Request{ProjectRoot: root, Command: py + " hang.py " + strings.Join(args, " "), Env: env, Timeout: timeout})
}

// TestStacksDir: every run names a private directory for stack dumps in
// STROBE_STACKS_DIR, not made until a process makes it (Python's
// registration does), inside a directory closed to others, and gone once
// the run ends with what was written there.
func TestStacksDir(t *testing.T) {
	resp, rec := runReq(t, Request{ProjectRoot: t.TempDir(), Timeout: 30 * time.Second,
		Command: `sh -c 'd="$STROBE_STACKS_DIR"; test -n "$d" && test ! -e "$d" && mkdir "$d" && echo dump > "$d/py-1.txt" && echo "$d"'`})
	if resp.Status != report.Passed {
		t.Fatalf("status = %s, want passed: STROBE_STACKS_DIR unset or already made (stdout %q)", resp.Status, rec.Stdout.Text)
	}
	dir := strings.TrimSpace(rec.Stdout.Text)
	fi, err := os.Lstat(filepath.Dir(dir))
	if err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 {
		t.Errorf("the stacks directory's parent %s: %v, %v; want a directory closed to others (0700)", filepath.Dir(dir), fi, err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("%s is left after the run (%v)", dir, err)
	}
}

// TestStuckPython: a Python lock-order deadlock, a pure-Python busy loop
// and a coroutine awaiting an event nobody sets are stuck within seconds,
// with Python frames naming the functions (file:line; the coroutine's
// through its asyncio task), from the faulthandler dump strobe's plugin
// registers and, without it, from py-spy; no python process is left.
func TestStuckPython(t *testing.T) {
	parallel(t, false)
	testutil.RequireTool(t, "python3")
	reg := pyRegistration(t)
	type testCase struct {
		name, mode, tool string
		diagnosis        string
		frames           []string
		within           time.Duration
	}
	cases := []testCase{
		{"faulthandler/deadlock", "deadlock", "faulthandler", "deadlock", []string{"lock_a_then_b (hang.py:31)", "lock_b_then_a (hang.py:39)", "deadlock (hang.py:48)"}, 6 * time.Second},
		{"faulthandler/busy", "busy", "faulthandler", "endless loop", []string{"spin_forever (hang.py:5"}, 7 * time.Second},
		// A coroutine that awaits is on no thread's stack (the main thread
		// sits in the event loop's select): strobe's dump adds the pending
		// asyncio tasks' await chains.
		{"faulthandler/async", "async", "faulthandler", "async wait without end", []string{"wait_for_reply (hang.py:127)", "handshake (hang.py:135)"}, 8 * time.Second},
		{"py-spy/deadlock", "deadlock", "py-spy", "deadlock", []string{"lock_a_then_b (hang.py:31)", "lock_b_then_a (hang.py:39)"}, 6 * time.Second},
		{"py-spy/busy", "busy", "py-spy", "endless loop", []string{"spin_forever (hang.py:5"}, 7 * time.Second},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			parallel(t, tc.mode == "busy")
			var env map[string]string
			if tc.tool == "faulthandler" {
				env = map[string]string{"STROBE_PY_REGISTER": reg}
			} else {
				testutil.RequireTool(t, "py-spy")
			}
			start := time.Now()
			resp, rec := runPy(t, 60*time.Second, env, tc.mode)
			took := time.Since(start)
			if resp.Status != report.Stuck {
				t.Fatalf("status = %s, want stuck (crash %+v, stuck %+v)", resp.Status, resp.Crash, resp.Stuck)
			}
			if took > tc.within {
				t.Errorf("verdict took %v, want under %v", took, tc.within)
			}
			s := resp.Stuck[0]
			if !strings.HasPrefix(s.Diagnosis, tc.diagnosis) {
				t.Errorf("diagnosis %q, want it to start with %q", s.Diagnosis, tc.diagnosis)
			}
			txt := stackText(s)
			for _, f := range tc.frames {
				if !strings.Contains(txt, f) {
					t.Errorf("stacks lack %s:\n%s", f, txt)
				}
			}
			if strings.Contains(txt, "_PyEval_EvalFrameDefault") {
				t.Errorf("stacks are CPython's, not Python's:\n%s", txt)
			}
			// faulthandler names threads by their pthread id; py-spy by
			// their threading name and tid.
			if want := map[string]string{"faulthandler": "thread 0x", "py-spy": "mainthread (tid "}[tc.tool]; !strings.Contains(strings.ToLower(txt), want) {
				t.Errorf("stacks not from %s (no %q):\n%s", tc.tool, want, txt)
			}
			traces := strings.Join(s.SuggestedTraces, " ")
			if fn := tc.frames[0][:strings.IndexByte(tc.frames[0], ' ')]; !strings.Contains(traces, fn) || strings.Contains(traces, "<module>") {
				t.Errorf("suggested_traces %v, want %s and no <module>", s.SuggestedTraces, fn)
			}
			if len(rec.Response.Stuck) == 0 {
				t.Error("the details file has no stuck[]")
			}
			t.Logf("%s after %v: %s\n%s", resp.Status, took, s.Diagnosis, txt)
		})
	}
}

// TestNotStuckPython: a silent 9 s sleep and 10 s of silent pure-Python
// computation (recursive, and a sieve in one function) pass, with Python
// frames read by faulthandler and by py-spy.
func TestNotStuckPython(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 9-10 s fixtures")
	}
	parallel(t, false)
	testutil.RequireTool(t, "python3")
	reg := pyRegistration(t)
	for _, tool := range []string{"faulthandler", "py-spy"} {
		for _, args := range [][]string{{"sleep", "9"}, {"fib", "10"}, {"sieve", "10"}} {
			t.Run(tool+"/"+args[0], func(t *testing.T) {
				var env map[string]string
				if tool == "faulthandler" {
					env = map[string]string{"STROBE_PY_REGISTER": reg}
				} else {
					testutil.RequireTool(t, "py-spy")
				}
				parallel(t, args[0] != "sleep")
				resp, _ := runPy(t, 60*time.Second, env, args...)
				if resp.Status != report.Passed {
					t.Fatalf("status = %s, want passed; stuck: %+v", resp.Status, resp.Stuck)
				}
			})
		}
	}
}

// TestNotStuckJoiningASlowPeer: the main thread joins a worker that reads
// from a peer outside the run (this test's server), which answers after
// more than a lock wait's silence and less than a read's. Its join is a
// lock wait without a timeout, but the worker's read can end it: the run
// passes (before: a deadlock after 2 s, the run killed).
func TestNotStuckJoiningASlowPeer(t *testing.T) {
	if testing.Short() {
		t.Skip("the peer answers after 3.5 s")
	}
	parallel(t, false)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		c, err := l.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		buf := make([]byte, 4)
		io.ReadFull(c, buf)
		time.Sleep(3500 * time.Millisecond)
		c.Write([]byte("pong"))
	}()
	port := strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
	resp, rec := runPy(t, 60*time.Second, nil, "peer", port)
	if resp.Status != report.Passed || !strings.Contains(rec.Stdout.Text, "reply pong") {
		t.Fatalf("status = %s, want passed after the reply; stuck: %+v; stdout %q", resp.Status, resp.Stuck, rec.Stdout.Text)
	}
}

// TestStuckPytestBesidePluginThreads: pytest-rerunfailures (with
// pytest-xdist installed) starts a socket server thread in pytest's
// process that waits in accept without a timeout. It is the harness's,
// not the test's: a coroutine awaiting a future nobody sets is an async
// wait without end, and a sleep past the timeout is one, with the plugin
// as without it (before: "blocked on I/O", the plugin's accept). Under
// xdist (-n 1) the same, judged in the worker: pytest's own process waits
// for it in queue.get with a timeout (before: no verdict, the run's
// timeout), and the worker's execnet reader waits on its stdin.
func TestStuckPytestBesidePluginThreads(t *testing.T) {
	parallel(t, false)
	py := testutil.RequireTool(t, "python3")
	for _, m := range []string{"pytest", "xdist", "pytest_rerunfailures"} {
		if err := exec.Command(py, "-c", "import "+m).Run(); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("python3 cannot import %s: .ci/run must pip install it", m)
			}
			t.Skipf("python3 cannot import %s", m)
		}
	}
	cases := []struct {
		test, diagnosis, frame string
	}{
		{"test_awaits_forever", "async wait without end", "wait_for_reply (test_hang.py:6)"},
		{"test_sleeps_past_the_timeout", "sleeping past the timeout", "test_sleeps_past_the_timeout (test_hang.py:19)"},
	}
	for _, plugin := range []string{"without", "with", "xdist"} {
		for _, tc := range cases {
			t.Run(plugin+"/"+tc.test, func(t *testing.T) {
				parallel(t, false)
				root := filepath.Join(t.TempDir(), "pyasync")
				testutil.CopyTree(t, "../stuck/testdata/pyasync", root)
				cmd := py + " -m pytest -k " + tc.test
				switch plugin {
				case "without":
					cmd += " -p no:rerunfailures"
				case "xdist":
					cmd += " -n 1"
				}
				start := time.Now()
				resp, _ := runReq(t, Request{ProjectRoot: root, Command: cmd, Timeout: 60 * time.Second})
				if took := time.Since(start); took > 30*time.Second {
					t.Errorf("the verdict took %v", took)
				}
				if resp.Status != report.Stuck || len(resp.Stuck) == 0 {
					t.Fatalf("status = %s, want stuck (stuck %+v)", resp.Status, resp.Stuck)
				}
				s := resp.Stuck[0]
				if !strings.HasPrefix(s.Diagnosis, tc.diagnosis) || strings.Contains(s.Diagnosis, "accept") {
					t.Errorf("diagnosis %q, want %q, the plugin's accept left out", s.Diagnosis, tc.diagnosis)
				}
				if txt := stackText(s); !strings.Contains(txt, tc.frame) {
					t.Errorf("stacks lack %s:\n%s", tc.frame, txt)
				}
				if !strings.HasSuffix(s.Rerun, " test_hang.py::"+tc.test) {
					t.Errorf("stuck test's rerun %q, want it run alone", s.Rerun)
				}
			})
		}
	}
}

// TestStuckPytestAsyncPlugins: hung async tests under the plugins that
// run them, pytest-asyncio (1.x, its own asyncio.Runner) and anyio's
// pytest plugin (a runner task that awaits the test's), are judged as a
// test under asyncio.run: a coroutine awaiting an event nobody sets is an
// async wait without end, a sleep past the timeout is one, each with the
// asyncio task's frame where the test awaits.
func TestStuckPytestAsyncPlugins(t *testing.T) {
	py := testutil.RequireTool(t, "python3")
	if err := exec.Command(py, "-c", "import pytest").Run(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("python3 cannot import pytest: .ci/run must pip install it")
		}
		t.Skip("python3 cannot import pytest")
	}
	site := testutil.RequirePythonSite(t, testutil.PyAsyncRequirements, testutil.PyAsyncSite)
	cases := []struct {
		test, diagnosis, frame string
	}{
		{"test_event_never_set", "async wait without end", "wait_for_signal (test_hang.py:8)"},
		{"test_sleeps_long", "sleeping past the timeout", "test_sleeps_long (test_hang.py:18)"},
		{"test_anyio_event_never_set", "async wait without end", "wait_forever (test_hang.py:27)"},
	}
	for _, tc := range cases {
		t.Run(tc.test, func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "async_hang")
			testutil.CopyTree(t, "../adapters/pytest/testdata/fixtures/async_hang", root)
			start := time.Now()
			resp, _ := runReq(t, Request{ProjectRoot: root, Command: py + " -m pytest test_hang.py::" + tc.test,
				Env: map[string]string{"PYTHONPATH": site}, Timeout: 60 * time.Second})
			if took := time.Since(start); took > 30*time.Second {
				t.Errorf("the verdict took %v", took)
			}
			if resp.Status != report.Stuck || len(resp.Stuck) == 0 {
				t.Fatalf("status = %s, want stuck (stuck %+v)", resp.Status, resp.Stuck)
			}
			s := resp.Stuck[0]
			if s.Name != "test_hang.py::"+tc.test || !strings.HasPrefix(s.Diagnosis, tc.diagnosis) {
				t.Errorf("stuck %s: %q, want %s", s.Name, s.Diagnosis, tc.diagnosis)
			}
			if txt := stackText(s); !strings.Contains(txt, tc.frame) {
				t.Errorf("stacks lack %s:\n%s", tc.frame, txt)
			}
		})
	}
}

// TestStuckPythonImport: a test module that hangs as pytest or the
// unittest runner imports it hangs before any test runs. Python builds
// nothing, yet that was the build phase: no verdict, and the run waited
// for the build's 30 minutes, past --timeout (found on toolz and idna
// broken on purpose). It is stuck within seconds, named after the module
// at its line, with the run of that file as its rerun.
func TestStuckPythonImport(t *testing.T) {
	py := testutil.RequireTool(t, "python3")
	testutil.RequireTool(t, "py-spy")
	if err := exec.Command(py, "-c", "import pytest").Run(); err != nil {
		t.Fatalf("pytest: %v", err)
	}
	for _, fw := range []string{"pytest", "unittest"} {
		t.Run(fw, func(t *testing.T) {
			root := fixtureTree(t, "testdata/pyimport")
			start := time.Now()
			resp, _ := runReq(t, Request{ProjectRoot: root, Framework: fw, Timeout: 120 * time.Second})
			if resp.Status != report.Stuck || len(resp.Stuck) != 1 {
				t.Fatalf("status %s, stuck %+v: want the import stuck", resp.Status, resp.Stuck)
			}
			if took := time.Since(start); took > 30*time.Second {
				t.Errorf("stuck after %s", took)
			}
			s := resp.Stuck[0]
			if s.Name != "tests/test_b.py (as it was imported, before its tests ran)" || s.File != "tests/test_b.py" || s.Line != 6 ||
				!strings.HasSuffix(s.Rerun, " tests/test_b.py") || !strings.HasPrefix(s.Diagnosis, "deadlock") {
				t.Errorf("stuck %+v: want tests/test_b.py's deadlock at line 6, rerun with the file", s)
			}
			if strings.Contains(resp.Hint, "did not load") {
				t.Errorf("hint %q: the plugin loaded, pytest was stopped", resp.Hint)
			}
		})
	}
}
