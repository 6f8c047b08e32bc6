package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"strobe/adapters"
	"strobe/adapters/generic"
	"strobe/details"
	"strobe/history"
	"strobe/internal/testutil"
	"strobe/report"
	"strobe/stuck"
)

var hangBin struct {
	once sync.Once
	path string
	err  error
	out  []byte
}

// hang builds stuck/testdata/native/hang.cpp once (with symbols, so the
// stacks carry file:line).
func hang(t *testing.T) string {
	t.Helper()
	gxx := testutil.RequireTool(t, "g++")
	hangBin.once.Do(func() {
		dir, err := filepath.Abs("../stuck/testdata/native")
		if err != nil {
			hangBin.err = err
			return
		}
		hangBin.path = filepath.Join(misbehaveDir(), "hang")
		hangBin.out, hangBin.err = exec.Command(gxx, "-g", "-O1", "-pthread", "-o", hangBin.path, filepath.Join(dir, "hang.cpp")).CombinedOutput()
	})
	if hangBin.err != nil {
		t.Fatalf("building hang.cpp: %v\n%s", hangBin.err, hangBin.out)
	}
	return hangBin.path
}

// runCmd runs a command line through the generic adapter, in the native
// fixtures' directory (their project: the source files of their frames).
func runCmd(t *testing.T, timeout time.Duration, argv ...string) (*report.Response, *details.Record) {
	t.Helper()
	root, _ := filepath.Abs("../stuck/testdata/native")
	return runReq(t, Request{ProjectRoot: root, Command: strings.Join(argv, " "), Timeout: timeout})
}

func misbehaveDir() string { return filepath.Dir(misbehave) }

func stackText(s report.StuckTest) string {
	var b strings.Builder
	for _, th := range s.Threads {
		b.WriteString(th.Name + "\n  " + strings.Join(th.Stack, "\n  ") + "\n")
	}
	return b.String()
}

// checkStuckTest checks the first stuck[] entry of a test-framework run:
// it names the test, its stacks show function, and (with traces) so do its
// suggested traces.
func checkStuckTest(t *testing.T, resp *report.Response, test, function string, traces bool, start time.Time) {
	t.Helper()
	s := resp.Stuck[0]
	if s.Name != test {
		t.Errorf("stuck test %q, want %s", s.Name, test)
	}
	if txt := stackText(s); !strings.Contains(txt, function) {
		t.Errorf("stacks lack %s:\n%s", function, txt)
	}
	if traces && !strings.Contains(strings.Join(s.SuggestedTraces, " "), function) {
		t.Errorf("suggested_traces %v lack %s", s.SuggestedTraces, function)
	}
	// strobe's stop of the run (a stack dump, SIGTERM, SIGKILL) fails
	// nothing: the stuck test is stuck, not failed too.
	if sum := resp.Summary; sum == nil || sum.Stuck != len(resp.Stuck) || slices.ContainsFunc(resp.Failures, func(f report.Failure) bool { return f.Name == s.Name }) {
		t.Errorf("summary %+v with failures %+v: the stuck test %s counted failed too", sum, resp.Failures, s.Name)
	}
	t.Logf("%s after %v: %s\n%s\ntraces %v", resp.Status, time.Since(start), s.Diagnosis, stackText(s), s.SuggestedTraces)
}

// TestStuckNative: each hang is called stuck within seconds, with the
// function that waits or spins in its stacks and suggested traces.
func TestStuckNative(t *testing.T) {
	parallel(t, false)
	testutil.RequireTool(t, "eu-stack")
	bin := hang(t)
	type testCase struct {
		mode      string
		diagnosis string
		function  string
		within    time.Duration
	}
	for _, tc := range []testCase{
		{"deadlock", "deadlock", "lock_a_then_b", 6 * time.Second},
		{"busy", "endless loop", "spin_forever", 7 * time.Second},
		{"pipe", "blocked on I/O", "read_forever", 9 * time.Second},
		{"child", "blocked on a child", "wait_for_child", 7 * time.Second},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			parallel(t, tc.mode == "busy")
			start := time.Now()
			resp, rec := runCmd(t, 60*time.Second, bin, tc.mode)
			took := time.Since(start)
			if resp.Status != report.Stuck {
				t.Fatalf("status = %s, want stuck (crash %+v)", resp.Status, resp.Crash)
			}
			if took > tc.within {
				t.Errorf("verdict took %v, want under %v", took, tc.within)
			}
			if len(resp.Stuck) == 0 {
				t.Fatal("no stuck[] entry")
			}
			s := resp.Stuck[0]
			if !strings.HasPrefix(s.Diagnosis, tc.diagnosis) {
				t.Errorf("diagnosis %q, want it to start with %q", s.Diagnosis, tc.diagnosis)
			}
			if txt := stackText(s); !strings.Contains(txt, tc.function) {
				t.Errorf("stacks lack %s:\n%s", tc.function, txt)
			}
			if !strings.Contains(strings.Join(s.SuggestedTraces, " "), tc.function) {
				t.Errorf("suggested_traces %v lack %s", s.SuggestedTraces, tc.function)
			}
			if resp.Summary.Stuck != 1 {
				t.Errorf("summary.stuck = %d, want 1", resp.Summary.Stuck)
			}
			if len(rec.Response.Stuck) == 0 {
				t.Error("the details file has no stuck[]")
			}
			t.Logf("%s after %v: %s\n%s", resp.Status, took, s.Diagnosis, stackText(s))
		})
	}
}

// TestNotStuckNative: silent sleeps, silent CPU work, a working child and
// work in one loop that fills fresh memory (every stack sample alike, as a
// JIT-compiled Java method's copy of a big buffer is: commons-codec's
// 12 s test was called an endless loop) are honest work and must pass.
func TestNotStuckNative(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 9 s fixtures")
	}
	parallel(t, false)
	bin := hang(t)
	for _, args := range [][]string{{"sleep", "9"}, {"work", "8"}, {"workchild", "8"}, {"fill", "8"}} {
		t.Run(args[0], func(t *testing.T) {
			parallel(t, args[0] != "sleep")
			resp, _ := runCmd(t, 60*time.Second, append([]string{bin}, args...)...)
			if resp.Status != report.Passed {
				t.Fatalf("status = %s, want passed; stuck: %+v", resp.Status, resp.Stuck)
			}
		})
	}
}

// TestStuckGo: goroutines that deadlock while a ticker keeps the Go
// runtime from noticing are stuck, with the goroutines' stacks; a silent
// 9 s sleep passes.
func TestStuckGo(t *testing.T) {
	parallel(t, false)
	testutil.RequireTool(t, "go")
	// A Go busy loop is confirmed from eu-stack's samples: without it the
	// run ends at its timeout instead.
	testutil.RequireTool(t, "eu-stack")
	root, _ := filepath.Abs("../stuck/testdata/godeadlock")
	type testCase struct {
		test     string
		status   report.Status
		function string
	}
	cases := []testCase{
		{"TestDeadlock", report.Stuck, "lockAThenB"},
		{"TestBusyLoop", report.Stuck, "spin"},
		// A loop that calls the standard library on every turn: a
		// sample catches it in walk or in strings.TrimSpace. Found on
		// go-chi/chi's walkXFF broken on purpose: no verdict in 3 min.
		{"TestBusyLoopCallingLibrary", report.Stuck, "walk"},
	}
	if !testing.Short() {
		cases = append(cases, testCase{"TestSleepThenPass", report.Passed, ""},
			testCase{"TestParallelOneSlow", report.Passed, ""},
			testCase{"TestPollTicker", report.Passed, ""})
	}
	for _, tc := range cases {
		t.Run(tc.test, func(t *testing.T) {
			parallel(t, strings.HasPrefix(tc.test, "TestBusyLoop"))
			start := time.Now()
			// -count=1: a cached pass would not exercise the detector.
			resp, _ := runReq(t, Request{ProjectRoot: root, Framework: "go", Command: "go test -count=1 ./...", Test: tc.test, Timeout: 60 * time.Second})
			if resp.Status != tc.status {
				t.Fatalf("status = %s, want %s; crash %+v stuck %+v", resp.Status, tc.status, resp.Crash, resp.Stuck)
			}
			if tc.status != report.Stuck {
				return
			}
			checkStuckTest(t, resp, tc.test, tc.function, false, start)
			// It reruns alone, as a failure would.
			if r := resp.Stuck[0].Rerun; !strings.Contains(r, "-run '^"+tc.test+"$'") {
				t.Errorf("stuck test's rerun %q, want it run alone", r)
			}
			// go test prints nothing of what it never ran: the answer says
			// it (TestGoStoppedSaysWhatDidNotRun, on real go test).
			if want := "go test was stopped at what hung: the tests of "; !strings.Contains(resp.Hint, want) {
				t.Errorf("hint %q, want %q", resp.Hint, want)
			}
			// The runtime's SIGQUIT dump that gives the stacks ends the
			// test binary: the stuck test must not be counted failed too.
			if s := resp.Summary; s.Failed != 0 || s.Stuck != 1 || len(resp.Failures) != 0 {
				t.Errorf("summary %+v with failures %+v, want one stuck test and none failed", *s, resp.Failures)
			}
		})
	}
}

// TestStuckGoBesideParallelTests: a test that hangs while a test that
// called t.Parallel waits for it (paused until the tests that run one at a
// time are done) is the only stuck test, with its own stacks, not the
// paused test's parked in t.Parallel; the paused test is in the hint, not
// in the running tests. Found on golang.org/x/sync's semaphore package with
// a test broken on purpose: every paused test was stuck beside it, and the
// first of them, headed the answer with its stacks.
func TestStuckGoBesideParallelTests(t *testing.T) {
	parallel(t, false)
	testutil.RequireTool(t, "go")
	root, _ := filepath.Abs("testdata/goparallel")
	start := time.Now()
	resp, _ := runReq(t, Request{ProjectRoot: root, Framework: "go", Command: "go test -count=1 ./...", Timeout: 60 * time.Second})
	if resp.Status != report.Stuck || len(resp.Stuck) != 1 {
		t.Fatalf("status %s, stuck %+v: want one stuck test", resp.Status, resp.Stuck)
	}
	checkStuckTest(t, resp, "TestHang", "goparallel.TestHang (wait_test.go:16)", false, start)
	if txt := stackText(resp.Stuck[0]); strings.Contains(txt, "testing.(*T).Parallel") || strings.Contains(txt, "TestEarly") {
		t.Errorf("stacks hold the paused test's:\n%s", txt)
	}
	if slices.ContainsFunc(resp.Stuck[0].SuggestedTraces, func(s string) bool { return strings.Contains(s, "TestEarly") }) {
		t.Errorf("suggested_traces %v name the paused test", resp.Stuck[0].SuggestedTraces)
	}
	if !slices.Equal(resp.Crash.RunningTests, []string{"TestHang"}) {
		t.Errorf("running tests %q, want TestHang alone", resp.Crash.RunningTests)
	}
	if !strings.Contains(resp.Hint, "1 more test was paused") || !strings.Contains(resp.Hint, "TestEarly") {
		t.Errorf("hint %q does not name the paused test", resp.Hint)
	}
}

// TestStuckGoParallelSiblingPassed: a parallel subtest hangs while its
// siblings pass. The sibling that passed last printed "--- PASS", whose
// event test2json holds back until a line the hang never prints: it
// passed, and is not stuck (found on spf13/cobra and go-toml broken on
// purpose, 5 runs in 5). The parent, which only waits in t.Run for c, is
// stuck and counted, as a parent whose subtest failed is counted among the
// failed, but not listed: its entry said nothing c's does not.
func TestStuckGoParallelSiblingPassed(t *testing.T) {
	parallel(t, false)
	testutil.RequireTool(t, "go")
	root, _ := filepath.Abs("testdata/goparhang")
	resp, _ := runReq(t, Request{ProjectRoot: root, Framework: "go", Command: "go test -count=1 ./...", Timeout: 60 * time.Second})
	var stuck []string
	for _, s := range resp.Stuck {
		stuck = append(stuck, s.Name)
	}
	if resp.Status != report.Stuck || !slices.Equal(stuck, []string{"TestParHang/c"}) {
		t.Fatalf("status %s, stuck %q: want TestParHang/c alone (its parent only waits for it)", resp.Status, stuck)
	}
	if s := resp.Summary; s.Passed != 3 || s.Stuck != 2 || s.Failed != 0 {
		t.Errorf("summary %+v, want a, b and d passed, c and its parent stuck", *s)
	}
}

// TestStuckGoInit: a package whose init hangs runs no test, and the tests
// of the packages before it have passed: no test was running, which read
// as a hang after the tests, named after the command, with the teardown
// hint (found on go-toml broken on purpose). Its stacks show the init: the
// stuck entry is the package, at the init's line, with its rerun.
func TestStuckGoInit(t *testing.T) {
	parallel(t, false)
	testutil.RequireTool(t, "go")
	root, _ := filepath.Abs("testdata/goinit")
	// The run's environment overrides come first in the rerun, as in a
	// failure's: they were missing from a rerun named from the stacks.
	resp, _ := runReq(t, Request{ProjectRoot: root, Framework: "go", Command: "go test -count=1 ./...", Timeout: 60 * time.Second,
		Env: map[string]string{"GODEBUG": "gctrace=0"}})
	if resp.Status != report.Stuck || len(resp.Stuck) != 1 {
		t.Fatalf("status %s, stuck %+v: want the init stuck", resp.Status, resp.Stuck)
	}
	s := resp.Stuck[0]
	if s.Name != "example.com/goinit/b (in its init, before its tests ran)" || s.File != "b/b_test.go" || s.Line != 11 ||
		s.Rerun != "GODEBUG=gctrace=0 go test -count=1 ./b" || s.AfterTests || strings.HasPrefix(s.Diagnosis, "no test was running") {
		t.Errorf("stuck %+v: want package b's init at b/b_test.go:11", s)
	}
	if strings.Contains(resp.Hint, "teardown") {
		t.Errorf("hint %q: want no advice on the tests' teardown", resp.Hint)
	}
}

// TestStuckGoBeforeAnyTest: a test binary that spins in TestMain prints
// nothing, not even its first test's name (go test -v=test2json runs it,
// for one package): its process ends the build phase, and the run is
// stuck, not left to its timeout.
func TestStuckGoBeforeAnyTest(t *testing.T) {
	testutil.RequireTool(t, "go")
	testutil.RequireTool(t, "eu-stack")
	root, _ := filepath.Abs("../stuck/testdata/godeadlock")
	resp, _ := runReq(t, Request{ProjectRoot: root, Framework: "go", Command: "go test -count=1 ./...", Test: "TestQuick",
		Env: map[string]string{"STROBE_SPIN_IN_MAIN": "1", "STROBE_MARK_FILE": filepath.Join(t.TempDir(), "mark")}, Timeout: 60 * time.Second})
	if resp.Status != report.Stuck || resp.Stuck == nil {
		t.Fatalf("status = %s, want stuck; stuck %+v", resp.Status, resp.Stuck)
	}
	// spin is inlined into TestMain: the runtime's dump names it, unless
	// the loop's PC was one the compiler gave to TestMain's own lines (one
	// CI run: "TestMain (deadlock_test.go:68)"). Either is where it spins.
	if b, _ := json.Marshal(resp.Stuck); !strings.Contains(string(b), "godeadlock.spin") && !strings.Contains(string(b), "godeadlock.TestMain") {
		t.Errorf("stuck %s, want the stacks to show spin or TestMain", b)
	}
}

// stuckCrate is the stuck detector's Rust fixture name (stuck/testdata),
// absolute, and the environment its runs share: one cargo target
// directory for every such test, so each crate is built once.
func stuckCrate(t *testing.T, name string) (string, map[string]string) {
	t.Helper()
	testutil.RequireTool(t, "cargo")
	testutil.RequireTool(t, "eu-stack")
	root, _ := filepath.Abs(filepath.Join("..", "stuck", "testdata", name))
	return root, map[string]string{"CARGO_TARGET_DIR": filepath.Join(os.TempDir(), "strobe-stuck-cargo-target")}
}

// TestStuckCargo: a Rust deadlock and a busy loop under cargo test are
// stuck, judged on the test binary (not cargo) with libtest's main thread
// left out; a silent 9 s sleep passes beside a quick test.
func TestStuckCargo(t *testing.T) {
	parallel(t, false)
	root, env := stuckCrate(t, "rustdeadlock")
	type testCase struct {
		test     string
		status   report.Status
		function string
	}
	cases := []testCase{
		{"tests::deadlock", report.Stuck, "lock_a_then_b"},
		{"tests::busy_loop", report.Stuck, "spin_forever"},
		// Every stack capture interrupts the sleep, which the kernel then
		// resumes as restart_syscall: it waited out the whole timeout.
		{"tests::sleeps_past_the_timeout", report.Stuck, "sleep_an_hour"},
	}
	if !testing.Short() {
		cases = append(cases, testCase{"tests::sleep_then_pass", report.Passed, ""})
	}
	for _, tc := range cases {
		t.Run(tc.test, func(t *testing.T) {
			parallel(t, tc.test == "tests::busy_loop")
			start := time.Now()
			resp, _ := runReq(t, Request{ProjectRoot: root, Framework: "cargo", Test: tc.test, Env: env, Timeout: 60 * time.Second})
			if resp.Status != tc.status {
				t.Fatalf("status = %s, want %s; crash %+v stuck %+v", resp.Status, tc.status, resp.Crash, resp.Stuck)
			}
			if tc.status != report.Stuck {
				return
			}
			checkStuckTest(t, resp, tc.test, tc.function, true, start)
			if r := resp.Stuck[0].Rerun; !strings.HasSuffix(r, " --exact "+tc.test) {
				t.Errorf("stuck test's rerun %q, want it run alone", r)
			}
			// The test's own thread (libtest names it after the test,
			// cut to 15 bytes) first, libtest's main thread after it.
			if th := resp.Stuck[0].Threads; len(th) == 0 {
				t.Errorf("no threads")
			} else if name, _, _ := strings.Cut(th[0].Name, " ("); name == "" || !strings.HasPrefix(tc.test, name) {
				t.Errorf("threads %q, want %s's own first", stackText(resp.Stuck[0]), tc.test)
			}
		})
	}
}

// TestStuckCargoBenchNamedAsTheCrate: a crate whose benchmark is named
// after it and has its own main (criterion's; rust-hex's [[bench]] name
// = "hex") gives its library's unit tests binary the benchmark's name.
// The runner took that binary for the benchmark, which cargo test does
// not run, and ran it without libtest's JSON: a deadlocked unit test was
// a stuck "rustbenchname", with no rerun and no test counted.
func TestStuckCargoBenchNamedAsTheCrate(t *testing.T) {
	parallel(t, false)
	root, env := stuckCrate(t, "rustbenchname")
	start := time.Now()
	resp, _ := runReq(t, Request{ProjectRoot: root, Framework: "cargo", Env: env, Timeout: 60 * time.Second})
	if resp.Status != report.Stuck {
		t.Fatalf("status = %s, want stuck; crash %+v stuck %+v", resp.Status, resp.Crash, resp.Stuck)
	}
	checkStuckTest(t, resp, "tests::deadlock", "lock_twice", true, start)
	if r := resp.Stuck[0].Rerun; !strings.HasSuffix(r, " cargo test -p rustbenchname --lib -- --exact tests::deadlock") {
		t.Errorf("stuck test's rerun %q, want it run alone", r)
	}
	if s := resp.Summary; s == nil || s.Passed != 1 {
		t.Errorf("summary %+v, want tests::doubles passed", s)
	}
}

// TestStuckRustMain: a test that runs on its process's only thread, a
// doctest's program or a custom harness's main, is stuck within seconds
// when it deadlocks; before, libtest's rule (the main thread is the
// harness's) left it out, and the run waited for its timeout.
//
// A doctest is named as rustdoc names it, which its output does only once
// it ends: its stacks show the function rustdoc wraps it in (its file and
// line under edition 2021, its index among the merged doctests under
// 2024), and cargo's list of the doctests gives the name that holds them.
// Before, the stuck entry was named after the cargo command, with no
// file:line nor rerun.
func TestStuckRustMain(t *testing.T) {
	parallel(t, false)
	root, env := stuckCrate(t, "rustmain")
	root2024, _ := stuckCrate(t, "rustmain2024")
	rootAfter, _ := stuckCrate(t, "rustdocafter")
	for _, tc := range []struct {
		name    string
		root    string
		req     Request
		doctest string // the stuck doctest's name, file:line and rerun
		line    int
		rerun   string
	}{
		{"doctest", root, Request{Level: string(adapters.LevelDoc)}, "src/lib.rs - relock (line 7)", 7, "cargo test -p rustmain --doc -- relock"},
		{"merged doctest", root2024, Request{Level: string(adapters.LevelDoc)}, "src/lib.rs - alpha (line 17)", 17, "cargo test -p rustmain2024 --doc -- alpha"},
		// The whole suite: the unit tests passed, named as they started,
		// and a doctest after them read as "no test running, after the
		// tests", named after the command (found on bitflags, smallvec
		// and itoa broken on purpose).
		{"doctest after the unit tests", rootAfter, Request{}, "src/lib.rs - hang (line 17)", 17, "cargo test -p rustdocafter --doc -- hang"},
		{"custom harness", root, Request{Command: "cargo test --test hangs"}, "", 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			parallel(t, true) // rustdoc compiles each doctest
			req := tc.req
			req.ProjectRoot, req.Framework, req.Env, req.Timeout = tc.root, "cargo", env, 60*time.Second
			start := time.Now()
			resp, _ := runReq(t, req)
			if resp.Status != report.Stuck || len(resp.Stuck) == 0 || !strings.HasPrefix(resp.Stuck[0].Diagnosis, "deadlock") {
				t.Fatalf("status = %s, stuck %+v: want a deadlock", resp.Status, resp.Stuck)
			}
			if took := time.Since(start); took > 30*time.Second {
				t.Errorf("stuck after %s", took)
			}
			if txt := stackText(resp.Stuck[0]); !strings.Contains(txt, "Mutex") {
				t.Errorf("stacks lack the mutex's lock:\n%s", txt)
			}
			if tc.doctest == "" {
				return
			}
			s := resp.Stuck[0]
			// The run's env (CARGO_TARGET_DIR) in front, as a failure's.
			if want := withAssignments(tc.rerun, assignments(env)); s.Name != tc.doctest || s.File != "src/lib.rs" || s.Line != tc.line || s.Rerun != want {
				t.Fatalf("stuck %q at %s:%d, rerun %q; want %q at src/lib.rs:%d, rerun %q", s.Name, s.File, s.Line, s.Rerun, tc.doctest, tc.line, want)
			}
			// Its suite, as the doctests that end are recorded: the
			// history knew the stuck doctest under no suite, a new test.
			if crate, _, _ := strings.Cut(strings.TrimPrefix(tc.rerun, "cargo test -p "), " "); s.Suite != crate+" (doc)" {
				t.Errorf("stuck doctest's suite %q, want %q", s.Suite, crate+" (doc)")
			}
			// The rerun selects that doctest alone: listed, not run (it
			// hangs).
			cmd := exec.Command("/bin/sh", "-c", s.Rerun+" --list")
			cmd.Dir, cmd.Env = tc.root, append(os.Environ(), "CARGO_TARGET_DIR="+env["CARGO_TARGET_DIR"])
			out, err := cmd.CombinedOutput()
			if err != nil || !strings.Contains(string(out), "\n"+tc.doctest+": test\n") || !strings.Contains(string(out), "\n1 test, 0 benchmarks") {
				t.Errorf("%s --list (%v):\n%s", s.Rerun, err, out)
			}
		})
	}
}

// TestHardTimeoutCapturesStacks: a wait the detector cannot call stuck (a
// sleep longer than the run may last, but with its deadline inside the
// margin the rules ignore) still ends with the test process's stacks.
func TestHardTimeoutCapturesStacks(t *testing.T) {
	testutil.RequireTool(t, "eu-stack")
	bin := hang(t)
	resp, rec := runCmd(t, 1500*time.Millisecond, bin, "sleep", "4")
	if resp.Status != report.Timeout {
		t.Fatalf("status = %s, want timeout", resp.Status)
	}
	if len(resp.Stuck) == 0 || !strings.HasPrefix(resp.Stuck[0].Diagnosis, "no verdict before the 1.5s timeout") {
		t.Fatalf("stuck %+v, want the stacks taken at the timeout", resp.Stuck)
	}
	if txt := stackText(resp.Stuck[0]); !strings.Contains(txt, "main") {
		t.Errorf("stacks lack main:\n%s", txt)
	}
	if len(rec.Response.Stuck) == 0 {
		t.Error("the details file has no stuck[]")
	}
}

// TestWarningWhileSuspected: a running answer carries the suspicion before
// the verdict.
func TestWarningWhileSuspected(t *testing.T) {
	bin := hang(t)
	root, _ := filepath.Abs("../stuck/testdata/native")
	r, err := Start(context.Background(), Request{ProjectRoot: root, Command: bin + " deadlock", Timeout: 30 * time.Second}, Options{DetailsDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	var warning string
	for warning == "" {
		select {
		case <-r.Done():
			t.Fatalf("the run ended (%s) with no warning seen", r.Result().Status)
		case <-time.After(50 * time.Millisecond):
			warning = r.Running().Progress.Warning
		}
	}
	<-r.Done()
	if !strings.HasPrefix(warning, "possible deadlock") {
		t.Errorf("warning %q, want a possible deadlock", warning)
	}
	if r.Result().Status != report.Stuck {
		t.Errorf("status = %s, want stuck", r.Result().Status)
	}
}

// TestStuckWaitsForATestKnownToBeSlow: a test that computes in a tight
// loop looks like a spin. Once it has passed in 1.5 s, a run where it takes
// 3.5 s passes too: the detector holds its verdict until twice its last
// time (and QuietLoop) have gone by. Without that it was called an
// endless loop at about 2.5 s.
func TestStuckWaitsForATestKnownToBeSlow(t *testing.T) {
	testutil.RequireTool(t, "go")
	testutil.RequireTool(t, "eu-stack")
	if testing.Short() {
		t.Skip("runs go test twice for seconds")
	}
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "go.mod"), []byte("module example.com/slow\n\ngo 1.22\n"), 0o644)
	os.WriteFile(filepath.Join(root, "slow_test.go"), []byte(`package slow

import (
	"os"
	"sync/atomic"
	"testing"
	"time"
)

// TestCompute spins on arithmetic for SLOW_FOR, then passes.
func TestCompute(t *testing.T) {
	d, _ := time.ParseDuration(os.Getenv("SLOW_FOR"))
	var stop atomic.Bool
	time.AfterFunc(d, func() { stop.Store(true) })
	n := uint64(1)
	for !stop.Load() {
		n = n*6364136223846793005 + 1442695040888963407
	}
	if n == 0 {
		t.Fatal("zero")
	}
}
`), 0o644)
	opts := Options{DetailsDir: t.TempDir(), HistoryDir: t.TempDir()}
	run := func(d string) *report.Response {
		resp, err := Exec(context.Background(), Request{ProjectRoot: root, Framework: "go", Command: "go test -count=1 ./...",
			Env: map[string]string{"SLOW_FOR": d}, Timeout: time.Minute}, opts)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	if resp := run("1500ms"); resp.Status != report.Passed {
		t.Fatalf("first run: %s (%+v), want passed", resp.Status, resp.Stuck)
	}
	if resp := run("3500ms"); resp.Status != report.Passed {
		// A rare failure in CI named no running test: the details file
		// says what the parser had read by then.
		b, _ := os.ReadFile(resp.Details)
		t.Fatalf("second run: %s (%+v), want passed: it took 1.5 s last time\ndetails:\n%s", resp.Status, resp.Stuck, tailString(string(b), 4000))
	}
}

func tailString(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

// passThenStuck runs the Go module at root twice under the default
// timeout, sharing a history: once passing, which records how long its
// test took, then with the variable hang set, when the test must be
// stuck; it returns the second answer.
func passThenStuck(t *testing.T, root, hang string) *report.Response {
	t.Helper()
	return passThen(t, root, Options{}, map[string]string{hang: "1"})
}

// passThen is passThenStuck with the runner's options (a shorter
// Overdue) and the second run's environment.
func passThen(t *testing.T, root string, opts Options, second map[string]string) *report.Response {
	t.Helper()
	opts.DetailsDir, opts.HistoryDir = t.TempDir(), t.TempDir()
	run := func(env map[string]string) *report.Response {
		// The default timeout is ten minutes: a missed verdict must not
		// wait that long here.
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		defer cancel()
		resp, err := Exec(ctx, Request{ProjectRoot: root, Framework: "go", Env: env}, opts)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	if resp := run(nil); resp.Status != report.Passed {
		t.Fatalf("first run: %s, want passed", resp.Status)
	}
	resp := run(second)
	if resp.Status != report.Stuck || len(resp.Stuck) != 1 {
		t.Fatalf("second run: %s (%+v), want stuck", resp.Status, resp.Stuck)
	}
	return resp
}

// writeParseLoop writes a Go module whose parse loops through real code
// (strings.Fields and sort.Strings over and over, its stacks changing as
// work's do) once STUCK is set, and the tests given after it.
func writeParseLoop(t *testing.T, root, tests string) {
	t.Helper()
	os.WriteFile(filepath.Join(root, "go.mod"), []byte("module example.com/parse\n\ngo 1.22\n"), 0o644)
	os.WriteFile(filepath.Join(root, "parse_test.go"), []byte(`package parse

import (
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
)

func parse(s string) int {
	n, pos := 0, 0
	for pos < len(s) {
		fields := strings.Fields(s[pos:])
		sort.Strings(fields)
		n += len(strconv.Itoa(len(fields)))
		if os.Getenv("STUCK") == "" {
			pos = len(s)
		}
	}
	return n
}
`+tests), 0o644)
}

// tookMs is the diagnosis's account of TestParse's last pass: a millisecond
// or two, however loaded the machine is (it runs beside the package's
// other parallel tests).
var tookMs = regexp.MustCompile(`TestParse took [0-9]ms when it last passed`)

// A Go test looping through real code (a parser whose cursor never moves)
// has stacks that change as work's do, so no endless loop is ever
// confirmed: only the ten-minute timeout ended it. Once it has run far past
// the under-a-millisecond it took when it last passed (and 20 s), silent,
// it is stuck, with the stacks that show where it works. (A test that took
// under a millisecond is recorded as 0 ms: it was never late either.)
func TestStuckBusyFarPastItsUsualTime(t *testing.T) {
	testutil.RequireTool(t, "go")
	if testing.Short() {
		t.Skip("waits 20 s for the verdict")
	}
	parallel(t, true)
	root := t.TempDir()
	writeParseLoop(t, root, `
func TestParse(t *testing.T) {
	if parse(strings.Repeat("b a c ", 200)) == 0 {
		t.Fatal("nothing read")
	}
}
`)
	resp := passThenStuck(t, root, "STUCK")
	s := resp.Stuck[0]
	if s.Name != "TestParse" || !strings.Contains(s.Diagnosis, "busy far past its usual time") ||
		!tookMs.MatchString(s.Diagnosis) || s.ElapsedMS < stuck.DefaultOverdue.Milliseconds() {
		t.Errorf("stuck: %+v, want TestParse busy far past its usual time, after %v", s, stuck.DefaultOverdue)
	}
	if !strings.Contains(fmt.Sprint(s.Threads), "parse_test.go:") {
		t.Errorf("threads %+v, want the test's own frames", s.Threads)
	}
	if !strings.Contains(resp.Hint, "set a timeout") {
		t.Errorf("hint %q, want the way out for a test that is only slower", resp.Hint)
	}
}

// The same loop in a test the project's last runs never saw pass (an
// agent's new test): its own time is unknown, so only the ten-minute
// timeout ended it. Measured against the project's slowest test (here
// TestQuick's millisecond), and after three times Overdue (a minute under
// the default; 4 s here, so 12 s), it is stuck, with its stacks.
func TestStuckNewTestBusyFarPastTheSlowest(t *testing.T) {
	testutil.RequireTool(t, "go")
	if testing.Short() {
		t.Skip("waits 12 s for the verdict")
	}
	parallel(t, true)
	root := t.TempDir()
	writeParseLoop(t, root, `
func TestQuick(t *testing.T) {}

func TestParse(t *testing.T) {
	if os.Getenv("NEW") == "" {
		t.Skip("not written yet")
	}
	if parse(strings.Repeat("b a c ", 200)) == 0 {
		t.Fatal("nothing read")
	}
}
`)
	overdue := 4 * time.Second
	resp := passThen(t, root, Options{Overdue: overdue}, map[string]string{"NEW": "1", "STUCK": "1"})
	s := resp.Stuck[0]
	if s.Name != "TestParse" || !strings.Contains(s.Diagnosis, "busy far past its usual time") ||
		!strings.Contains(s.Diagnosis, "TestParse has not passed in the project's last runs, whose slowest test took") ||
		s.ElapsedMS < (stuck.NewOverdueFactor*overdue).Milliseconds() {
		t.Errorf("stuck: %+v, want TestParse busy far past the project's slowest test, after %v", s, stuck.NewOverdueFactor*overdue)
	}
	if !strings.Contains(fmt.Sprint(s.Threads), "parse_test.go:") {
		t.Errorf("threads %+v, want the test's own frames", s.Threads)
	}
	if !strings.Contains(resp.Hint, "a test not seen to pass 10 times the project's slowest (and 12s)") {
		t.Errorf("hint %q, want the way out for a new test that is only slow", resp.Hint)
	}
}

// A Go test blocked on a channel beside a ticker looks like one polling
// for a condition that will come true; under the default timeout, once it
// has waited ten times what it took when it last passed (and 20 s), it is
// stuck, instead of waiting out the ten minutes.
func TestStuckOverdueBesideATicker(t *testing.T) {
	testutil.RequireTool(t, "go")
	testutil.RequireTool(t, "gdb") // the goroutines tell a ticker's poll from a deadlock
	if testing.Short() {
		t.Skip("waits 20 s for the verdict")
	}
	parallel(t, false)
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "go.mod"), []byte("module example.com/tick\n\ngo 1.22\n"), 0o644)
	os.WriteFile(filepath.Join(root, "tick_test.go"), []byte(`package tick

import (
	"os"
	"testing"
	"time"
)

func TestWaits(t *testing.T) {
	done := make(chan struct{})
	tk := time.NewTicker(50 * time.Millisecond)
	defer tk.Stop()
	go func() {
		for range tk.C {
			if os.Getenv("HANG") == "" {
				close(done)
				return
			}
		}
	}()
	<-done
}
`), 0o644)
	resp := passThenStuck(t, root, "HANG")
	s := resp.Stuck[0]
	if s.Name != "TestWaits" || !strings.Contains(s.Diagnosis, "waiting far past its usual time") ||
		!strings.Contains(s.Diagnosis, "TestWaits took") || s.ElapsedMS < stuck.DefaultOverdue.Milliseconds() {
		t.Errorf("stuck: %+v, want TestWaits waiting far past its usual time, after %v", s, stuck.DefaultOverdue)
	}
	if !strings.Contains(fmt.Sprint(s.Threads), "tick_test.go:21") {
		t.Errorf("threads %+v, want the test's receive at tick_test.go:21", s.Threads)
	}
	if !strings.Contains(resp.Hint, "set a timeout") {
		t.Errorf("hint %q, want the way out for a test that is only slower", resp.Hint)
	}
}

// TestStuckTokio: a tokio test awaiting a future that never completes
// parks the runtime's threads in futex waits without a timeout; it is
// called an async wait, not a deadlock, with the test's own function in
// the stacks (a #[tokio::test]'s is below some 30 frames of the runtime).
// Two std mutexes taken in opposite orders on the blocking pool, while
// the runtime's threads are parked, are still a deadlock.
func TestStuckTokio(t *testing.T) {
	parallel(t, false)
	root, env := stuckCrate(t, "rusttokio")
	for _, tc := range []struct{ test, diagnosis, function string }{
		{"tests::oneshot_never_sent", "async wait without end", "tests::oneshot_never_sent"},
		{"tests::notify_never_notified", "async wait without end", "tests::notify_never_notified"},
		{"tests::blocking_deadlock", "deadlock", "lock_a_then_b"},
	} {
		t.Run(tc.test, func(t *testing.T) {
			parallel(t, false)
			start := time.Now()
			resp, _ := runReq(t, Request{ProjectRoot: root, Framework: "cargo", Test: tc.test, Env: env, Timeout: 60 * time.Second})
			if resp.Status != report.Stuck || len(resp.Stuck) == 0 {
				t.Fatalf("status = %s, want stuck; crash %+v stuck %+v", resp.Status, resp.Crash, resp.Stuck)
			}
			if d := resp.Stuck[0].Diagnosis; !strings.HasPrefix(d, tc.diagnosis) {
				t.Errorf("diagnosis %q, want it to start with %q", d, tc.diagnosis)
			}
			checkStuckTest(t, resp, tc.test, tc.function, false, start)
		})
	}
}

// TestStuckSmol: smol's block_on (async-io's, which async-std's executor
// runs on too) waits in its reactor's epoll_wait, its driver thread for the
// reactor's lock; futures-lite's block_on parks the thread. Both were a deadlock:
// nothing is locked, a future never completes. Their suggested traces
// were polling's functions, whose "src/lib.rs" named the project's file.
func TestStuckSmol(t *testing.T) {
	parallel(t, false)
	root, env := stuckCrate(t, "rustsmol")
	for _, tc := range []struct{ test, runtime string }{
		{"tests::channel_never_sent", "async-io (smol, async-std)"},
		{"tests::pending_forever", "futures-lite"},
		{"tests::async_std_never_sent", "async-io (smol, async-std)"},
	} {
		t.Run(tc.test, func(t *testing.T) {
			parallel(t, false)
			start := time.Now()
			resp, _ := runReq(t, Request{ProjectRoot: root, Framework: "cargo", Test: tc.test, Env: env, Timeout: 60 * time.Second})
			if resp.Status != report.Stuck || len(resp.Stuck) == 0 {
				t.Fatalf("status = %s, want stuck; crash %+v stuck %+v", resp.Status, resp.Crash, resp.Stuck)
			}
			s := resp.Stuck[0]
			if want := "async wait without end"; !strings.HasPrefix(s.Diagnosis, want) || !strings.Contains(s.Diagnosis, "the "+tc.runtime+" runtime") {
				t.Errorf("diagnosis %q, want %s in the %s runtime", s.Diagnosis, want, tc.runtime)
			}
			for _, tr := range s.SuggestedTraces {
				if !strings.HasPrefix(tr, "rustsmol::") {
					t.Errorf("suggested trace %s is not the project's", tr)
				}
			}
			checkStuckTest(t, resp, tc.test, "rustsmol::"+tc.test, false, start)
		})
	}
}

// TestStuckElapsedWithoutStart: a stuck test named by the runtime's own
// stacks (the JVM's deadlock report, under Surefire, whose console names
// only the class) has no start; it was stuck since the run began at
// most, not for math.MaxInt64 nanoseconds ("stuck after
// 2562047h47m16.854s").
func TestStuckElapsedWithoutStart(t *testing.T) {
	start := time.Now()
	r := &Run{started: start, rec: adapters.NewRecorder()}
	got := r.stuckTests(&watch{}, "deadlock", start.Add(5*time.Second), []stuck.RunningTest{{Name: "HangTest#deadlocks"}})
	if len(got) != 1 || got[0].ElapsedMS != 5000 {
		t.Errorf("stuck %+v, want HangTest#deadlocks stuck for 5000 ms", got)
	}
}

// TestStuckSubtestHoldsTheStacks: a Go subtest that hangs (a testify suite
// method, "Test_dir/TestZDeadlock" on gofrs/flock) is running beside its
// parent, which only waits in t.Run: the stacks and the headline are the
// subtest's, not the parent's.
func TestStuckSubtestHoldsTheStacks(t *testing.T) {
	start := time.Now()
	r := &Run{started: start, rec: adapters.NewRecorder()}
	w := &watch{ownThreads: []report.Thread{{Name: "goroutine 9"}}}
	got := r.stuckTests(w, "deadlock", start.Add(2*time.Second), []stuck.RunningTest{
		{Name: "Test_dir", Since: start}, {Name: "Test_dir/TestZDeadlock", Since: start}})
	if len(got) != 2 || got[0].Name != "Test_dir/TestZDeadlock" || len(got[0].Threads) != 1 || got[1].Name != "Test_dir" || got[1].Threads != nil {
		t.Errorf("stuck %+v, want Test_dir/TestZDeadlock first with the stacks, then Test_dir", got)
	}
}

// TestPastDurationsOfItsFramework: how long a test took when it last
// passed comes from the project's earlier runs of the run's framework.
// spdlog's CMake tree run through ctest (one test, its Catch2 binary)
// after three runs of the binary through catch2 (its test cases) read
// those three, found no time for the binary, and left a deadlock beside
// spdlog's periodic flusher, which wakes every second, to the ten-minute
// timeout.
func TestPastDurationsOfItsFramework(t *testing.T) {
	root := t.TempDir()
	opts := Options{DetailsDir: t.TempDir(), HistoryDir: t.TempDir()}
	store := history.Open(opts.HistoryDir)
	for _, run := range []struct{ id, framework, test string }{
		{"r1", "failsonend", "utests"},
		{"r2", "catch2", "to_hex"},
		{"r3", "catch2", "to_hex"},
		{"r4", "catch2", "to_hex"},
	} {
		record := `{"tests":[{"name":"` + run.test + `","status":"passed","duration_ms":6000}]}`
		if err := os.WriteFile(details.Path(opts.DetailsDir, run.id), []byte(record), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := store.Record(history.Run{ID: run.id, Root: root, Key: history.Key{Framework: run.framework}, Status: report.Passed,
			Tests: []report.Test{{Name: run.test, Suite: "s", Status: report.TestPassed}}}); err != nil {
			t.Fatal(err)
		}
	}
	r := &Run{opts: opts, req: Request{ProjectRoot: root}, adapter: failsOnEnd{}}
	took, group, slowest := r.pastDurations()
	if got := slowest(); got != 6*time.Second {
		t.Errorf("the slowest test of the failsonend runs took %v, want 6s", got)
	}
	if got := took("utests"); got != 6*time.Second {
		t.Errorf("utests took %v when it last passed, want 6s (the failsonend run's)", got)
	}
	if got := group("utest"); got != 6*time.Second {
		t.Errorf("the tests named utest… took %v together, want 6s", got)
	}
}

// failsOnEnd is an adapter whose one test starts with the command and
// fails when the command ends, however it ended: one that reads the signal
// strobe stopped the run with as the test's failure.
type failsOnEnd struct{ argv []string }

func (failsOnEnd) Name() string                               { return "failsonend" }
func (failsOnEnd) Detect(adapters.Request) adapters.Detection { return adapters.Detection{} }

func (a failsOnEnd) Plan(ctx context.Context, req adapters.Request, rec *adapters.Recorder) (*adapters.Plan, error) {
	req.Command = a.argv
	plan, err := generic.New().Plan(ctx, req, rec)
	if err != nil {
		return nil, err
	}
	rec.BeginTesting()
	rec.Start("", "hangs")
	plan.Parser = failOnFinish{plan.Parser, rec}
	return plan, nil
}

type failOnFinish struct {
	adapters.Parser
	rec *adapters.Recorder
}

func (p failOnFinish) Finish(exit report.Exit) adapters.Outcome {
	p.rec.End("", "hangs", report.TestFailed, 0, &report.Failure{Name: "hangs", Message: "signal: killed"})
	return p.Parser.Finish(exit)
}

// TestStuckIsNotAlsoFailed: the runner, not each adapter, keeps a test it
// stopped as stuck out of the failed ones.
func TestStuckIsNotAlsoFailed(t *testing.T) {
	testutil.RequireTool(t, "eu-stack")
	withAdapter(t, failsOnEnd{argv: []string{hang(t), "deadlock"}})
	root, _ := filepath.Abs("../stuck/testdata/native")
	resp, rec := runReq(t, Request{ProjectRoot: root, Framework: "failsonend", Timeout: 60 * time.Second})
	if resp.Status != report.Stuck || len(resp.Stuck) != 1 || resp.Stuck[0].Name != "hangs" {
		t.Fatalf("status %s, stuck %+v: want the test hangs stuck", resp.Status, resp.Stuck)
	}
	if s := resp.Summary; s.Failed != 0 || s.Stuck != 1 || len(resp.Failures) != 0 {
		t.Errorf("summary %+v, failures %+v: want one stuck test, none failed", *s, resp.Failures)
	}
	if i := slices.IndexFunc(rec.Tests, func(x report.Test) bool { return x.Name == "hangs" }); i < 0 || rec.Tests[i].Status != report.TestStuck {
		t.Errorf("details file's tests %+v: want hangs stuck", rec.Tests)
	}
}

// TestStacksOwnerFirst: go test runs packages side by side, and when
// tests of two packages hang at once the stacks are one process's: they
// went with the first test listed, another package's (sourcegraph/conc
// broken on purpose: TestWaitGroup/panic/is_propagated of the root
// package showed iter's TestIterator goroutines). The test the stacks
// show comes first, and gets them.
func TestStacksOwnerFirst(t *testing.T) {
	threads := []report.Thread{{Name: "goroutine 25 [waiting]", Stack: []string{
		"sync.(*WaitGroup).Wait (waitgroup.go:206)",
		"github.com/sourcegraph/conc/iter.Iterator[go.shape.int].ForEachIdx (iter/iter.go:84)",
		"github.com/sourcegraph/conc/iter_test.TestIterator.func1 (iter/iter_test.go:40)",
	}}}
	tests := []stuck.RunningTest{{Name: "TestWaitGroup/panic/is_propagated"}, {Name: "TestWaitGroup/all_spawned_run"},
		{Name: "TestIterator/safe_for_reuse"}, {Name: "TestMap"}}
	var got []string
	for _, t := range stacksOwnerFirst(tests, threads) {
		got = append(got, t.Name)
	}
	want := []string{"TestIterator/safe_for_reuse", "TestWaitGroup/panic/is_propagated", "TestWaitGroup/all_spawned_run", "TestMap"}
	if !slices.Equal(got, want) {
		t.Errorf("order %q, want %q", got, want)
	}
	// The first test's own stacks, or stacks that show no test, keep the order.
	for _, stack := range [][]string{
		{"example.com/m.TestWaitGroup.func2 (wg_test.go:9)", "example.com/m/iter_test.TestIterator.func1 (iter/iter_test.go:40)"},
		{"main.main (main.go:3)"},
	} {
		out := stacksOwnerFirst(tests, []report.Thread{{Stack: stack}})
		if out[0].Name != tests[0].Name {
			t.Errorf("stacks %q: %s first, want %s", stack, out[0].Name, tests[0].Name)
		}
	}
	for _, tc := range []struct {
		frame, name string
		want        bool
	}{
		{"pkg.TestMap.func1 (m_test.go:3)", "TestMap", true},
		{"pkg.TestMapErr (m_test.go:9)", "TestMap", false},
		{"tests::test_map (tests/t.rs:4)", "test_map", true},
		{"tests::test_map_err (tests/t.rs:4)", "test_map", false},
		{"pkg.TestMap", "TestMap", true},
	} {
		if got := framesFunction(tc.frame, tc.name); got != tc.want {
			t.Errorf("framesFunction(%q, %q) = %v, want %v", tc.frame, tc.name, got, tc.want)
		}
	}
}
