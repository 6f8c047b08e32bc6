package jest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
	"strobe/internal/testutil"
	"strobe/report"
)

// fixtures holds the fixture projects; jest is installed once at its top
// (package-lock.json) and found hoisted from each project below, as in a
// workspace.
var fixtures, _ = filepath.Abs(filepath.Join("testdata", "fixtures"))

// requireJest installs the fixtures' jest with npm ci, once per test
// binary, unless node_modules is already what the lockfile pins.
func requireJest(t *testing.T) {
	t.Helper()
	adapterstest.NpmCI(t, fixtures)
}

func fixture(name string) string { return filepath.Join(fixtures, name) }

func run(t *testing.T, req adapters.Request) (*adapters.Recorder, adapters.Outcome, report.Exit) {
	t.Helper()
	requireJest(t)
	return adapterstest.RunReal(t, New(), req)
}

func find(t *testing.T, rec *adapters.Recorder, suite, name string) report.Test {
	t.Helper()
	tt, ok := rec.Lookup(suite, name)
	if !ok {
		var names []string
		for _, x := range rec.Tests() {
			names = append(names, x.Suite+" | "+x.Name)
		}
		t.Fatalf("no test %q in %q; recorded:\n%s", name, suite, strings.Join(names, "\n"))
	}
	return tt
}

// TestJestBasic: failures at their file and line with their messages,
// without colours or stacks, skips and todos counted; under the node on
// PATH and node 22 (EachNode).
func TestJestBasic(t *testing.T) { testutil.EachNode(t, testJestBasic) }

func testJestBasic(t *testing.T) {
	rec, out, exit := run(t, adapters.Request{ProjectRoot: fixture("basic")})
	if exit.Code != 1 || out.BuildFailed || out.Crash != nil || out.NoTests {
		t.Fatalf("exit %+v outcome %+v", exit, out)
	}
	for _, tc := range []struct {
		suite, name string
		status      report.TestStatus
		line        int
		msg         string
	}{
		{"math.test.js", "adds", report.TestPassed, 0, ""},
		{"math.test.js", "arith › nested › wrong sum", report.TestFailed, 10, "Expected: 5\nReceived: 4"},
		{"math.test.js", "arith › objects differ", report.TestFailed, 15, "-     3,\n+     2,"},
		{"math.test.js", "arith › throws", report.TestFailed, 19, "TypeError: boom in test"},
		{"math.test.js", "arith › skipped one", report.TestSkipped, 0, ""},
		{"math.test.js", "arith › write me", report.TestSkipped, 0, ""},
		{"math.test.js", "name with (regex) [chars] $1.50?", report.TestPassed, 0, ""},
		{"other.test.js", "passes too", report.TestPassed, 0, ""},
		{"other.test.js", "slow but fine", report.TestPassed, 0, ""},
	} {
		tt := find(t, rec, tc.suite, tc.name)
		if tt.Status != tc.status {
			t.Errorf("%s: status %s, want %s", tc.name, tt.Status, tc.status)
		}
		if tc.status != report.TestFailed {
			continue
		}
		f := tt.Failure
		if f == nil || f.File != "math.test.js" || f.Line != tc.line || !strings.Contains(f.Message, tc.msg) || strings.Contains(f.Message, "\x1b[") {
			t.Errorf("%s: failure %+v, want math.test.js:%d with %q, no colour", tc.name, f, tc.line, tc.msg)
		}
		if strings.Contains(f.Message, "    at ") {
			t.Errorf("%s: the message keeps its stack: %q", tc.name, f.Message)
		}
	}
	if p := rec.Progress(); p.Passed != 4 || p.Failed != 3 || p.Skipped != 2 {
		t.Errorf("counts %+v, want 4 passed, 3 failed, 2 skipped", p)
	}
}

// TestJestOwnTimeout: jest's own per-test timeout fails a test whose
// error has no frame of the test's body; strobe runs jest without
// --testLocationInResults (it costs jest half again its CPU time), and
// the failure must still be placed at its test.
func TestJestOwnTimeout(t *testing.T) {
	rec, _, exit := run(t, adapters.Request{ProjectRoot: fixture("slow")})
	f := rec.Failure("slow.test.js", "waits › past its timeout")
	if exit.Code != 1 || f == nil || f.File != "slow.test.js" || f.Line != 6 || !strings.Contains(f.Message, "Exceeded timeout of 100 ms") {
		t.Errorf("exit %+v, failure %+v; want jest's timeout at slow.test.js:6", exit, f)
	}
}

// TestJestRerun runs a failure's rerun command as a person would paste it
// (npx jest …, from the package's directory): it must run that test
// alone, and fail it again; under the node on PATH and node 22
// (EachNode).
func TestJestRerun(t *testing.T) { testutil.EachNode(t, testJestRerun) }

func testJestRerun(t *testing.T) {
	rec, _, _ := run(t, adapters.Request{ProjectRoot: fixture("basic")})
	f := find(t, rec, "math.test.js", "arith › nested › wrong sum").Failure
	want := `npx jest --runTestsByPath math.test.js -t '^arith (?:› )?nested (?:› )?wrong sum$'`
	if f == nil || f.Rerun != want {
		t.Fatalf("rerun = %q, want %q", f.Rerun, want)
	}
	b, err := pasted(fixture("basic"), f.Rerun)
	got := string(b)
	if err == nil || !strings.Contains(got, "1 failed, 8 skipped, 9 total") && !strings.Contains(got, "Tests:       1 failed") {
		t.Errorf("the rerun command did not fail that one test: %v\n%s", err, got)
	}
}

func TestJestSingle(t *testing.T) {
	for _, tc := range []struct{ test, suite, name string }{
		{"math.test.js › name with (regex) [chars] $1.50?", "math.test.js", "name with (regex) [chars] $1.50?"},
		{"arith › nested › wrong sum", "math.test.js", "arith › nested › wrong sum"},
		{"other.test.js::passes too", "other.test.js", "passes too"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec, out, _ := run(t, adapters.Request{ProjectRoot: fixture("basic"), Test: tc.test})
			tests := rec.Tests()
			if len(tests) != 1 || tests[0].Suite != tc.suite || tests[0].Name != tc.name || out.NoTests {
				t.Errorf("ran %+v (outcome %+v), want only %s › %s", tests, out, tc.suite, tc.name)
			}
		})
	}
	t.Run("no match", func(t *testing.T) {
		rec, out, exit := run(t, adapters.Request{ProjectRoot: fixture("basic"), Test: "math.test.js › nothing like it"})
		if len(rec.Tests()) != 0 || !out.NoTests || exit.Code != 0 || !strings.Contains(out.Hint, "no jest test matched") {
			t.Errorf("tests %+v exit %+v outcome %+v, want no tests and the hint", rec.Tests(), exit, out)
		}
	})
}

// TestJestBlock: a describe block's name runs the block's tests, nested
// ones included, and nothing else: not the sibling block "parse errors"
// (whose beforeAll throws), the test "parse all" nor the block "PARSE"
// (which fail), all of which jest's -t, a regexp over the titles joined
// by spaces and ignoring case, would let through. jest then exits 0.
// jest 30 too, whose runner keeps its state apart from its module's.
func TestJestBlock(t *testing.T) {
	jest30, _ := filepath.Abs(filepath.Join("testdata", "jest30"))
	for _, tc := range []struct {
		root, test, suite string
		want              []string
	}{
		{fixture("blocks"), "parse", "parse.test.js", []string{"parse › nested › reads a word", "parse › reads a number"}},
		{fixture("blocks"), "parse.test.js › parse", "parse.test.js", []string{"parse › nested › reads a word", "parse › reads a number"}},
		{fixture("blocks"), "parse › nested", "parse.test.js", []string{"parse › nested › reads a word"}},
		{fixture("blocks"), "parse › reads a number", "parse.test.js", []string{"parse › reads a number"}},
		{jest30, "blocks.test.js › parse", "blocks.test.js", []string{"parse › reads a number"}},
	} {
		t.Run(filepath.Base(tc.root)+"/"+tc.test, func(t *testing.T) {
			requireJest(t)
			if tc.root == jest30 {
				adapterstest.NpmCI(t, jest30)
			}
			rec, out, exit := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: tc.root, Test: tc.test})
			var got []string
			for _, tt := range rec.Tests() {
				if tt.Suite != tc.suite || tt.Status != report.TestPassed {
					t.Errorf("%s › %s: %s %+v", tt.Suite, tt.Name, tt.Status, tt.Failure)
				}
				got = append(got, tt.Name)
			}
			slices.Sort(got)
			if !slices.Equal(got, tc.want) || exit.Code != 0 || out.NoTests {
				t.Errorf("ran %q (exit %+v, outcome %+v), want %q and exit 0", got, exit, out, tc.want)
			}
		})
	}
}

func TestJestLevels(t *testing.T) {
	for _, tc := range []struct {
		level adapters.Level
		want  []string
	}{
		{adapters.LevelUnit, []string{"test/unit/unit.test.js › unit works"}},
		{adapters.LevelIntegration, []string{"test/integration/integration.test.js › integration works"}},
		{adapters.LevelE2E, []string{"test/checkout.e2e.test.js › e2e by suffix", "test/e2e/e2e.test.js › e2e works"}},
	} {
		t.Run(string(tc.level), func(t *testing.T) {
			rec, out, _ := run(t, adapters.Request{ProjectRoot: fixture("levels"), Level: tc.level})
			var got []string
			for _, x := range rec.Tests() {
				got = append(got, x.Suite+" › "+x.Name)
			}
			if strings.Join(sorted(got), "\n") != strings.Join(tc.want, "\n") || out.NoTests {
				t.Errorf("level %s ran %q, want %q", tc.level, got, tc.want)
			}
		})
	}
	t.Run("none", func(t *testing.T) {
		_, out, _ := run(t, adapters.Request{ProjectRoot: fixture("basic"), Level: adapters.LevelE2E})
		if !out.NoTests || !strings.Contains(out.Hint, "e2e/ directory") {
			t.Errorf("outcome %+v, want no tests with the level's convention", out)
		}
	})
}

func sorted(s []string) []string {
	out := append([]string{}, s...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

func TestJestBroken(t *testing.T) {
	rec, out, _ := run(t, adapters.Request{ProjectRoot: fixture("broken")})
	if !out.BuildFailed || len(out.BuildErrors) != 2 {
		t.Fatalf("outcome %+v, want two build errors", out)
	}
	byFile := map[string]report.BuildError{}
	for _, e := range out.BuildErrors {
		byFile[e.File] = e
	}
	if e := byFile["syntax.test.js"]; e.Line != 2 || !strings.Contains(e.Message, "Unexpected token") {
		t.Errorf("syntax error = %+v, want syntax.test.js:2", e)
	}
	if e := byFile["missing.test.js"]; e.Line != 1 || !strings.Contains(e.Message, "Cannot find module './does-not-exist'") {
		t.Errorf("import error = %+v, want missing.test.js:1", e)
	}
	if tt := find(t, rec, "ok.test.js", "fine"); tt.Status != report.TestPassed {
		t.Errorf("the good file's test: %+v", tt)
	}
}

// TestJestAfterAll: jest reports an afterAll hook that throws as the file's
// testExecError, after its tests ran and passed: a failure of the file at
// the hook's line, rerun by the file, not a test file that failed to load.
func TestJestAfterAll(t *testing.T) {
	rec, out, _ := run(t, adapters.Request{ProjectRoot: fixture("afterall")})
	if out.BuildFailed {
		t.Errorf("outcome %+v, want no build error: the file loaded and its tests ran", out)
	}
	if tt := find(t, rec, "teardown.test.js", "db › connects"); tt.Status != report.TestPassed {
		t.Errorf("the test: %+v", tt)
	}
	tt := find(t, rec, "teardown.test.js", "teardown.test.js")
	if f := tt.Failure; tt.Status != report.TestFailed || f == nil || f.File != "teardown.test.js" || f.Line != 3 ||
		f.Message != "Error: teardown failed" || f.Rerun != "npx jest --runTestsByPath teardown.test.js" {
		t.Errorf("the afterAll's failure: %+v %+v", tt, f)
	}
}

// TestJestAfterAllSelected: the afterAll's failure is named by its file,
// and that name, given as the test or as a failure to rerun (--failed),
// runs the file whole, so that the hook runs and fails again: jest does not
// say which block's afterAll it was, and -t '^teardown\.test\.js$' selects
// no test.
func TestJestAfterAllSelected(t *testing.T) {
	for _, req := range []adapters.Request{
		{Test: "teardown.test.js"},
		{Tests: []adapters.TestRef{{Suite: "teardown.test.js", Name: "teardown.test.js"}}},
	} {
		req.ProjectRoot = fixture("afterall")
		rec, out, _ := run(t, req)
		if tt := find(t, rec, "teardown.test.js", "db › connects"); tt.Status != report.TestPassed {
			t.Errorf("%+v: the test %+v", req, tt)
		}
		if tt := find(t, rec, "teardown.test.js", "teardown.test.js"); tt.Status != report.TestFailed || tt.Failure == nil || tt.Failure.Line != 3 {
			t.Errorf("%+v: the afterAll's failure %+v (hint %q)", req, tt, out.Hint)
		}
	}
}

// TestJest30LateFailure: jest 30 fails a test for a promise it rejected
// that nobody handled once the test file ends, having reported the test
// passed as it ended; the file's result is the last word.
func TestJest30LateFailure(t *testing.T) {
	dir, _ := filepath.Abs(filepath.Join("testdata", "jest30"))
	adapterstest.NpmCI(t, dir)
	rec, _, _ := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: dir, Test: "unhandled.test.js"})
	tt := find(t, rec, "unhandled.test.js", "later › rejects once it returned")
	if f := tt.Failure; tt.Status != report.TestFailed || f == nil || f.File != "unhandled.test.js" || f.Line != 3 || !strings.Contains(f.Message, "nobody handles me") {
		t.Errorf("the test that left a rejection: %+v %+v, want failed at unhandled.test.js:3", tt, f)
	}
	if tt := find(t, rec, "unhandled.test.js", "later › runs next"); tt.Status != report.TestPassed {
		t.Errorf("the next test: %+v", tt)
	}
	if p := rec.Progress(); p.Passed != 1 || p.Failed != 1 {
		t.Errorf("progress %+v, want jest's 1 failed, 1 passed", p)
	}
}

// TestJestProjects: a config of two projects that both run a file runs
// its tests twice, and jest counts each run: each test's name ends with
// its project's, whichever run ends first. A failure's rerun selects the
// project that ran it, and pasted runs it there alone; its name, given to
// --test (or --failed), answers that project's copy alone.
func TestJestProjects(t *testing.T) {
	rec, _, _ := run(t, adapters.Request{ProjectRoot: fixture("projects")})
	var got []string
	for _, tt := range rec.Tests() {
		got = append(got, tt.Suite+" › "+tt.Name+": "+string(tt.Status))
	}
	slices.Sort(got)
	want := []string{
		"one/one.test.js › runs in one [one]: passed",
		"shared/shared.test.js › fails in both [one]: failed",
		"shared/shared.test.js › fails in both [two]: failed",
		"shared/shared.test.js › fails in two only [one]: passed",
		"shared/shared.test.js › fails in two only [two]: failed",
		"shared/shared.test.js › passes in both [one]: passed",
		"shared/shared.test.js › passes in both [two]: passed",
		"two/two.test.js › fails in two [two]: failed",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("recorded:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for project, want := range map[string]string{
		"one": `npx jest --selectProjects one --runTestsByPath shared/shared.test.js -t '^fails in both$'`,
		"two": `npx jest --selectProjects two --runTestsByPath shared/shared.test.js -t '^fails in both$'`,
	} {
		if f := rec.Failure("shared/shared.test.js", "fails in both ["+project+"]"); f == nil || f.Line != 5 || f.Rerun != want {
			t.Errorf("the failure in project %s: %+v, want at line 5, rerun %s", project, f, want)
		}
	}
	f := rec.Failure("shared/shared.test.js", "fails in two only [two]")
	if f == nil || f.Rerun != `npx jest --selectProjects two --runTestsByPath shared/shared.test.js -t '^fails in two only$'` {
		t.Fatalf("the failure in project two: %+v", f)
	}
	b, err := pasted(fixture("projects"), f.Rerun)
	if err == nil || !strings.Contains(string(b), "Tests:       1 failed, 2 skipped, 3 total") {
		t.Errorf("the rerun did not fail that one test in one project: %v\n%s", err, b)
	}
	for _, req := range []adapters.Request{
		{Test: "shared/shared.test.js › fails in two only [two]"},
		{Test: "fails in two only [two]"},
		{Tests: []adapters.TestRef{{Suite: "shared/shared.test.js", Name: "fails in two only [two]"}}},
	} {
		req.ProjectRoot = fixture("projects")
		rec, out, _ := run(t, req)
		tt, ok := rec.Lookup("shared/shared.test.js", "fails in two only [two]")
		if !ok || tt.Status != report.TestFailed || req.Test != "" && len(rec.Tests()) != 1 {
			t.Errorf("%+v ran %+v (hint %q), want that project's failure", req, rec.Tests(), out.Hint)
		}
	}
}

// TestJestExit: process.exit in a test run in band ends jest itself before
// its run's end, with the code given, 0 too: the test fails, at the exit's
// line, and the run is no pass.
func TestJestExit(t *testing.T) {
	for _, code := range []string{"0", "3"} {
		t.Setenv("EXIT_CODE", code)
		rec, out, exit := run(t, adapters.Request{ProjectRoot: fixture("exit")})
		if !exit.Exited || strconv.Itoa(exit.Code) != code {
			t.Fatalf("exit %+v, want code %s", exit, code)
		}
		tt := find(t, rec, "exit.test.js", "exits the process")
		if f := tt.Failure; tt.Status != report.TestFailed || f == nil || f.File != "exit.test.js" || f.Line != 4 ||
			!strings.Contains(f.Message, "exited with code "+code) || f.Rerun != "npx jest --runTestsByPath exit.test.js -t '^exits the process$'" {
			t.Errorf("exit %s: the exiting test %+v %+v", code, tt, f)
		}
		if tt := find(t, rec, "exit.test.js", "before the exit"); tt.Status != report.TestPassed {
			t.Errorf("before the exit: %+v", tt)
		}
		if want := "jest exited with code " + code + " before its run's end, in exit.test.js › exits the process (listed as failed): the tests after it in its file did not run"; !strings.Contains(out.Hint, want) {
			t.Errorf("exit %s: hint %q, want %q", code, out.Hint, want)
		}
		// The run's changes are partial: the tests that did not run are
		// not removed, nor new the next time.
		if !slices.Contains(out.Indicators, report.IndicatorNotReached) {
			t.Errorf("exit %s: indicators %q, want %s", code, out.Indicators, report.IndicatorNotReached)
		}
	}
}

// TestJestExitWorker: process.exit in a test a worker runs ends the
// worker, which jest calls its file's failure to run: the file loaded and
// ran tests, so it is no build error; the test fails at the exit's line,
// the hint says the rest of its file did not run, and the other file's
// tests count (before: build_failed, the test left running).
func TestJestExitWorker(t *testing.T) {
	rec, out, exit := run(t, adapters.Request{ProjectRoot: fixture("exitworker"), Command: []string{"npx", "jest", "-w", "2", "--workerIdleMemoryLimit=1GB"}})
	if out.BuildFailed || out.Crash != nil || exit.Code != 1 {
		t.Fatalf("exit %+v outcome %+v, want a test's failure", exit, out)
	}
	tt := find(t, rec, "exits.test.js", "exits the process")
	if f := tt.Failure; tt.Status != report.TestFailed || f == nil || f.File != "exits.test.js" || f.Line != 4 ||
		!strings.Contains(f.Message, "exited with code 0") || !strings.Contains(f.Rerun, "--runTestsByPath exits.test.js -t '^exits the process$'") {
		t.Errorf("the exiting test %+v %+v", tt, f)
	}
	if p := rec.Progress(); p.Passed != 2 || p.Failed != 1 || len(p.Running) != 0 {
		t.Errorf("counts %+v, want 2 passed and 1 failed", p)
	}
	if want := "a test ended its jest worker's process (process.exit): exits.test.js › exits the process; the tests of its file after it did not run"; !strings.Contains(out.Hint, want) {
		t.Errorf("hint %q, want %q", out.Hint, want)
	}
	if !slices.Equal(out.Indicators, []string{report.IndicatorNotReached}) {
		t.Errorf("indicators %q, want %s once", out.Indicators, report.IndicatorNotReached)
	}
}

func TestJestNoTests(t *testing.T) {
	rec, out, exit := run(t, adapters.Request{ProjectRoot: fixture("empty")})
	if len(rec.Tests()) != 0 || !out.NoTests || exit.Code != 0 || out.Project == nil || !strings.Contains(out.Hint, "testMatch") {
		t.Errorf("exit %+v outcome %+v, want no tests", exit, out)
	}
}

// TestJestCrash: a test that calls process.abort() is a crash with
// SIGABRT that names it, whether a worker ran it or jest's own process;
// under the node on PATH and node 22 (EachNode).
func TestJestCrash(t *testing.T) { testutil.EachNode(t, testJestCrash) }

func testJestCrash(t *testing.T) {
	t.Run("worker", func(t *testing.T) {
		rec, out, exit := run(t, adapters.Request{ProjectRoot: fixture("crash"), Command: []string{"npx", "jest", "-w", "2", "--workerIdleMemoryLimit=1GB"}})
		c := out.Crash
		if exit.Signaled || c == nil || c.SignalName != "SIGABRT" || c.Type != report.CrashAbort ||
			len(c.RunningTests) != 1 || c.RunningTests[0] != "aborts" || !strings.Contains(c.Message, "abort.test.js › aborts") {
			t.Fatalf("exit %+v crash %+v, want SIGABRT in the worker running aborts", exit, c)
		}
		if tt := find(t, rec, "fine.test.js", "unaffected"); tt.Status != report.TestPassed {
			t.Errorf("the other file: %+v", tt)
		}
	})
	t.Run("in band", func(t *testing.T) {
		_, out, exit := run(t, adapters.Request{ProjectRoot: fixture("crash"), Command: []string{"npx", "jest", "-i"}})
		c := out.Crash
		if !exit.Signaled || exit.Signal != int(syscall.SIGABRT) || c == nil || c.SignalName != "SIGABRT" ||
			len(c.RunningTests) != 1 || c.RunningTests[0] != "aborts" {
			t.Fatalf("exit %+v crash %+v, want jest dead of SIGABRT in aborts", exit, c)
		}
	})
}

// started runs a plan in its own process group, as the runner does, and
// waits until the recorder shows name running.
func started(t *testing.T, req adapters.Request, name string) (*adapters.Recorder, *adapters.Plan, *exec.Cmd, func() report.Exit) {
	t.Helper()
	requireJest(t)
	rec := adapters.NewRecorder()
	plan, err := New().Plan(context.Background(), req, rec)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(plan.Argv[0], plan.Argv[1:]...)
	cmd.Dir, cmd.Env = plan.Dir, append(os.Environ(), plan.Env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	wait := func() report.Exit {
		err := cmd.Wait()
		ws := cmd.ProcessState.Sys().(syscall.WaitStatus)
		if ws.Signaled() {
			return report.Exit{Signaled: true, Signal: int(ws.Signal()), Code: 128 + int(ws.Signal())}
		}
		_ = err
		return report.Exit{Exited: true, Code: ws.ExitStatus()}
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		running := false
		for _, r := range rec.Progress().Running {
			running = running || r.Name == name
		}
		if running {
			return rec, plan, cmd, wait
		}
		if time.Now().After(deadline) {
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			wait()
			t.Fatalf("%s never started; recorded %+v", name, rec.Tests())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// groupGone waits for every process of the group to be gone.
func groupGone(t *testing.T, pgid int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for syscall.Kill(-pgid, 0) == nil {
		if time.Now().After(deadline) {
			out, _ := exec.Command("ps", "-o", "pid,pgid,args", "-g", itoa(pgid)).CombinedOutput()
			t.Fatalf("processes of the run left:\n%s", out)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestJestHang: a test awaiting a promise that never settles (jest's
// timeout an hour away) is named running, live, while it hangs; when
// strobe stops the run (SIGTERM to the group, as on its hard timeout or a
// cancel), jest and its workers are gone, and the test stays running,
// with no crash.
func TestJestHang(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		by   string
	}{
		{"workers timeout", []string{"npx", "jest", "-w", "2", "--workerIdleMemoryLimit=1GB"}, report.StoppedTimeout},
		{"in band cancel", []string{"npx", "jest", "-i"}, report.StoppedCancelled},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec, plan, cmd, wait := started(t, adapters.Request{ProjectRoot: fixture("hang"), Command: tc.args}, "waits forever")
			syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
			exit := wait()
			exit.StoppedBy = tc.by
			out := plan.Parser.Finish(exit)
			plan.Parser.(adapters.Closer).Close()
			groupGone(t, cmd.Process.Pid)
			if out.Crash != nil || out.BuildFailed {
				t.Errorf("outcome %+v, want no crash for a run strobe stopped", out)
			}
			if names := rec.Abandon(); len(names) != 1 || names[0] != "waits forever" {
				t.Errorf("running at the end: %q, want the hung test", names)
			}
		})
	}
}

// TestJestWorkers: the stuck detector judges jest's workers, and jest's
// main process only when it runs the tests itself.
func TestJestWorkers(t *testing.T) {
	_, plan, cmd, wait := started(t, adapters.Request{ProjectRoot: fixture("hang"), Command: []string{"npx", "jest", "-w", "2", "--workerIdleMemoryLimit=1GB"}}, "waits forever")
	defer func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		wait()
		plan.Parser.(adapters.Closer).Close()
	}()
	tp := New().(adapters.TestProcesser)
	main := adapters.Proc{PID: cmd.Process.Pid, Name: "node", Args: plan.Argv}
	if tp.IsTestProcess(main) {
		t.Error("jest's main process, beside its workers, judged as a test process")
	}
	workers := 0
	b, _ := exec.Command("pgrep", "-P", itoa(cmd.Process.Pid)).Output()
	for _, pid := range strings.Fields(string(b)) {
		args, _ := os.ReadFile("/proc/" + pid + "/cmdline")
		if tp.IsTestProcess(adapters.Proc{Name: "node", Args: strings.Split(string(args), "\x00")}) {
			workers++
		}
	}
	if workers != 2 {
		t.Errorf("%d workers judged as test processes, want 2", workers)
	}
	if !tp.IsTestProcess(adapters.Proc{PID: os.Getpid(), Name: "node", Args: []string{"node", "/p/node_modules/.bin/jest", "-i"}}) {
		t.Error("jest in band (no workers) not judged as the test process")
	}
}

// TestJestFlood: 200 MB printed by a test, then a failed assertion: the
// failure is read, and the test keeps a bounded tail of its output.
func TestJestFlood(t *testing.T) {
	if testing.Short() {
		t.Skip("prints 200 MB")
	}
	rec, _, _ := run(t, adapters.Request{ProjectRoot: fixture("flood")})
	tt := find(t, rec, "flood.test.js", "flood then fail")
	if tt.Failure == nil || tt.Failure.Line != 7 || !strings.Contains(tt.Failure.Message, "failed after the flood") {
		t.Errorf("failure %+v, want the assertion after the flood at flood.test.js:7", tt.Failure)
	}
	if !tt.OutputTruncated || len(tt.Output) > adapters.PerTestOutput {
		t.Errorf("output %d bytes, truncated %v: want a bounded tail", len(tt.Output), tt.OutputTruncated)
	}
}

func TestJestMissing(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "package.json"), []byte(`{"devDependencies":{"jest":"29.7.0"}}`), 0o644)
	os.WriteFile(filepath.Join(root, "package-lock.json"), []byte(`{}`), 0o644)
	_, err := New().Plan(context.Background(), adapters.Request{ProjectRoot: root}, adapters.NewRecorder())
	var u *adapters.UsageError
	if !adapters.IsUsage(err) {
		t.Fatalf("Plan error %v, want a usage error", err)
	}
	u = err.(*adapters.UsageError)
	if u.Framework != "jest" || !strings.Contains(u.Hint, "npm ci") {
		t.Errorf("usage error %+v, want jest and the install command", u)
	}
}

// TestJestTypeScript: a .ts test file run through babel-jest fails at its
// own line, as jest's source maps give it.
func TestJestTypeScript(t *testing.T) {
	rec, out, _ := run(t, adapters.Request{ProjectRoot: fixture("ts")})
	if out.BuildFailed || out.Crash != nil {
		t.Fatalf("outcome %+v", out)
	}
	if tt := find(t, rec, "shapes.test.ts", "area › square"); tt.Status != report.TestPassed {
		t.Errorf("square: %+v", tt)
	}
	f := find(t, rec, "shapes.test.ts", "area › circle is wrong").Failure
	if f == nil || f.File != "shapes.test.ts" || f.Line != 17 || !strings.Contains(f.Message, "Expected: 3") {
		t.Errorf("failure %+v, want shapes.test.ts:17", f)
	}
}

// TestJestFallback: what strobe does for a jest without the reporter
// events (before 27), on jest 29's own --json output: the same tests,
// failures at the same lines, and the hint saying how they were read.
func TestJestFallback(t *testing.T) {
	requireJest(t)
	if usesReporter("26.6.3") || !usesReporter("27.0.0") || !usesReporter("") {
		t.Error("usesReporter draws the line wrong")
	}
	fallback := func(dir string) (*adapters.Recorder, adapters.Outcome) {
		rec := adapters.NewRecorder()
		p := newParser(rec, dir, dir, t.TempDir())
		p.rerun, p.fallback, p.note = []string{"npx", "jest"}, filepath.Join(p.dir, "results.json"), "fallback"
		p.start()
		cmd := exec.Command(filepath.Join(fixtures, "node_modules", ".bin", "jest"), "--ci", "--json", "--outputFile="+p.fallback, "--testLocationInResults", "--passWithNoTests")
		cmd.Dir, cmd.Env = dir, append(os.Environ(), "FORCE_COLOR=0")
		cmd.Run()
		out := p.Finish(report.Exit{Exited: true, Code: cmd.ProcessState.ExitCode()})
		p.Close()
		return rec, out
	}
	// Tests that share a name are named as the reporter names them.
	rec, _ := fallback(fixture("dupes"))
	var names []string
	for _, tt := range rec.Tests() {
		names = append(names, tt.Name)
	}
	slices.Sort(names)
	if want := []string{"same title", "same title #2", "same title #2 #2", "same title #3", "withQuery › { a: 1 }", "withQuery › { a: 1 } #2"}; !slices.Equal(names, want) {
		t.Errorf("names %q, want %q", names, want)
	}
	rec, out := fallback(fixture("basic"))
	if out.Hint != "fallback" || out.BuildFailed {
		t.Errorf("outcome %+v", out)
	}
	if pr := rec.Progress(); pr.Passed != 4 || pr.Failed != 3 || pr.Skipped != 2 {
		t.Errorf("counts %+v, want 4 passed, 3 failed, 2 skipped", pr)
	}
	f := find(t, rec, "math.test.js", "arith › nested › wrong sum").Failure
	if f == nil || f.File != "math.test.js" || f.Line != 10 || !strings.Contains(f.Message, "Expected: 5") || strings.Contains(f.Message, "\x1b") {
		t.Errorf("failure %+v, want math.test.js:10", f)
	}
}

// TestJestScriptNodeStackSize: the test script runs jest's program under
// node with --stack-size, from package.json's config
// ($npm_package_config_test_stack_size), as xmldom's does. The script
// needed a shell (the $), so strobe ran jest without the option, and the
// tests that check it failed; with the value written in, the option went
// into NODE_OPTIONS, which refuses it: every node process exited 9, and
// the run answered crashed. It goes on node's command line, the config
// in the environment, as npm gives them.
func TestJestScriptNodeStackSize(t *testing.T) {
	dir := fixture("stacksize")
	rec, out, exit := run(t, adapters.Request{ProjectRoot: dir})
	if p := rec.Progress(); exit.Code != 0 || p.Passed != 2 || p.Failed != 0 {
		t.Fatalf("exit %+v, counts %+v, hint %q: want both tests passed, as under npm test", exit, p, out.Hint)
	}
	if out.Hint != "" {
		t.Errorf("hint %q: the script is one call of jest", out.Hint)
	}
	// A failure's rerun, pasted, runs under the same node options.
	p, err := New().Plan(context.Background(), adapters.Request{ProjectRoot: dir}, adapters.NewRecorder())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Parser.(adapters.Closer).Close()
	if want := []string{"node", "--stack-size=256"}; !slices.Equal(p.Argv[:2], want) {
		t.Errorf("argv %q, want it to start with %q", p.Argv, want)
	}
	rerun := p.Parser.(interface{ Rerun(string, string) string }).Rerun("stacksize.test.js", "the stack is the small one")
	if want := "npm_package_config_test_stack_size=256 node --stack-size=256 "; !strings.HasPrefix(rerun, want) || !strings.Contains(rerun, "node_modules/.bin/jest --runTestsByPath") {
		t.Errorf("rerun %q, want it to start with %q and run jest's program", rerun, want)
	}
	cmd := exec.Command("/bin/sh", "-c", rerun+" 2>&1")
	cmd.Dir = dir
	if b, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(b), "1 passed") {
		t.Errorf("%s: %v\n%s", rerun, err, b)
	}
}

// TestJestLoneSurrogates: two titles that differ only in a lone
// surrogate become one name once read (U+FFFD for each), and the second
// test's result went over the first's: xmldom's 2,018 tests answered
// 2,017. The reporter numbers them as it numbers any two tests of one
// name.
func TestJestLoneSurrogates(t *testing.T) {
	rec, _, _ := run(t, adapters.Request{ProjectRoot: fixture("surrogates")})
	if p := rec.Progress(); p.Passed != 1 || p.Failed != 1 {
		t.Errorf("counts %d passed, %d failed; want jest's 1 and 1", p.Passed, p.Failed)
	}
	f := rec.Failure("surrogates.test.js", "no \uFFFD here #2")
	if f == nil || f.Line != 6 || f.Rerun != `npx jest --runTestsByPath surrogates.test.js -t '^no . here$'` {
		t.Fatalf("failure %+v, want the second test failing at surrogates.test.js:6, its rerun matching the surrogate", f)
	}
	// Its rerun, and --test with its name, run it.
	cmd := exec.Command("/bin/sh", "-c", f.Rerun+" 2>&1")
	cmd.Dir = fixture("surrogates")
	// jest knows both by that name, as any two tests of one name.
	if b, _ := cmd.CombinedOutput(); !strings.Contains(string(b), "Tests:       1 failed, 1 passed, 2 total") {
		t.Errorf("%s did not run both tests of that name:\n%s", f.Rerun, b)
	}
	rec, _, _ = run(t, adapters.Request{ProjectRoot: fixture("surrogates"), Test: "no \uFFFD here #2"})
	if p := rec.Progress(); p.Failed != 1 || p.Passed != 0 {
		t.Errorf("--test: counts %+v, want the second test alone, failed", p)
	}
}

// TestJestSameNames runs tests that share a full name in one file (rows of
// test.each that print alike, a title repeated): each is counted, the
// second and later named "NAME #2", …, and a failing one's rerun is jest's
// own name, which runs every test of it.
func TestJestSameNames(t *testing.T) {
	rec, _, exit := run(t, adapters.Request{ProjectRoot: fixture("dupes")})
	if exit.Code != 1 {
		t.Errorf("exit %+v, want jest's 1 for a failed test", exit)
	}
	if p := rec.Progress(); p.Passed != 4 || p.Failed != 1 || p.Skipped != 1 {
		t.Errorf("counts %d passed, %d failed, %d skipped; want jest's 4, 1, 1", p.Passed, p.Failed, p.Skipped)
	}
	var names []string
	for _, tt := range rec.Tests() {
		names = append(names, tt.Name)
	}
	slices.Sort(names)
	want := []string{"same title", "same title #2", "same title #2 #2", "same title #3", "withQuery › { a: 1 }", "withQuery › { a: 1 } #2"}
	if !slices.Equal(names, want) {
		t.Errorf("names %q, want %q", names, want)
	}
	f := rec.Failure("dupes.test.js", "withQuery › { a: 1 } #2")
	if f == nil || f.Line != 8 || f.Rerun != `npx jest --runTestsByPath dupes.test.js -t '^withQuery (?:› )?\{ a: 1 \}$'` {
		t.Errorf("failure %+v, want dupes.test.js:8 rerun by jest's name", f)
	}

	// "NAME #2" selected by strobe's name, alone (--test) or among
	// others (--failed): jest knows it only as NAME, so every test of
	// that name runs, and the second is the failure again. Its -t was
	// "#2" and matched nothing: --failed dropped the failure without a
	// word, --test found no test.
	for _, req := range []adapters.Request{
		{Test: "withQuery › { a: 1 } #2"},
		{Tests: []adapters.TestRef{{Suite: "dupes.test.js", Name: "withQuery › { a: 1 } #2"}, {Suite: "dupes.test.js", Name: "same title #3"}}},
	} {
		req.ProjectRoot = fixture("dupes")
		rec, _, _ := run(t, req)
		if f := rec.Failure("dupes.test.js", "withQuery › { a: 1 } #2"); f == nil || f.Line != 8 {
			t.Errorf("%q %v: failure %+v, want the second withQuery row failing at dupes.test.js:8", req.Test, req.Tests, f)
		}
		if p := rec.Progress(); p.Failed != 1 {
			t.Errorf("%q %v: %d failed, want 1", req.Test, req.Tests, p.Failed)
		}
		// Alone, it is all the run answers: the first row, which jest
		// runs too, is left out (a failure of it failed the run).
		if p := rec.Progress(); req.Test != "" && p.Passed != 0 {
			t.Errorf("%q: %d passed, want the second row alone", req.Test, p.Passed)
		}
	}

	// The second "same title" ends jest (process.exit, in band): its
	// rerun too is by jest's name, not "same title #2", which is none.
	t.Setenv("EXIT_SECOND", "1")
	rec, _, _ = run(t, adapters.Request{ProjectRoot: fixture("dupes")})
	if f := rec.Failure("dupes.test.js", "same title #2"); f == nil || f.Line != 14 || f.Rerun != `npx jest --runTestsByPath dupes.test.js -t '^same title$'` {
		t.Errorf("the test that exits: %+v, want dupes.test.js:14 rerun by jest's name", f)
	}
}

// TestJestCoverageThreshold runs a project whose tests all pass but whose
// coverage is under its threshold: jest exits 1, and the hint says why.
func TestJestCoverageThreshold(t *testing.T) {
	rec, out, exit := run(t, adapters.Request{ProjectRoot: fixture("threshold")})
	if exit.Code != 1 {
		t.Errorf("exit %+v, want jest's 1 for a threshold not met", exit)
	}
	if p := rec.Progress(); p.Passed != 1 || p.Failed != 0 {
		t.Errorf("counts %+v, want 1 passed", p)
	}
	want := `coverage of lines 66.66% is under the threshold 100% (jest's coverageThreshold, "global"): the tests passed`
	if !strings.Contains(out.Hint, want) || !slices.Contains(out.Indicators, "coverage_threshold_not_met") {
		t.Errorf("hint %q indicators %q, want %q", out.Hint, out.Indicators, want)
	}
}

// TestJestScriptFlags: without a command, the test script's options are
// the project's: its --coverage brings in the config's threshold, which
// fails the run as it fails `npm test` (strobe once answered passed).
func TestJestScriptFlags(t *testing.T) {
	rec, out, exit := run(t, adapters.Request{ProjectRoot: fixture("scriptflags")})
	if exit.Code != 1 {
		t.Errorf("exit %+v, want jest's 1 for a threshold not met under the script's --coverage", exit)
	}
	if p := rec.Progress(); p.Passed != 1 || p.Failed != 0 {
		t.Errorf("counts %+v, want 1 passed", p)
	}
	if !slices.Contains(out.Indicators, "coverage_threshold_not_met") {
		t.Errorf("indicators %q, want coverage_threshold_not_met (hint %q)", out.Indicators, out.Hint)
	}
}

// TestJestScriptFlagsOneTest: the script's --coverage is the whole
// suite's; a run of one test, and a failure's rerun, leave it out, or its
// threshold fails them whatever the test does (strobe once failed `--test
// covered` of a passing test for it).
func TestJestScriptFlagsOneTest(t *testing.T) {
	rec, out, exit := run(t, adapters.Request{ProjectRoot: fixture("scriptflags"), Test: "covered"})
	if p := rec.Progress(); exit.Code != 0 || p.Passed != 1 || slices.Contains(out.Indicators, "coverage_threshold_not_met") {
		t.Errorf("exit %+v, counts %+v, indicators %q: want the test passed, no threshold", exit, p, out.Indicators)
	}
	p, err := New().Plan(context.Background(), adapters.Request{ProjectRoot: fixture("scriptflags")}, adapters.NewRecorder())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Parser.(*parser).Close()
	if got := strings.Join(p.Parser.(*parser).rerun, " "); got != "npx jest" {
		t.Errorf("rerun prefix %q, want npx jest without the script's coverage options", got)
	}
}

// TestJestScriptShell: a test script that needs a shell (`node lint.js
// && jest --coverage`) is not run whole: jest runs alone, with the
// options the script gives it (its --coverage fails the threshold), and
// the hint says that the linter did not run. strobe once ran jest
// without the script's options and said nothing of the linter: passed,
// where `npm test` fails.
func TestJestScriptShell(t *testing.T) {
	rec, out, exit := run(t, adapters.Request{ProjectRoot: fixture("scriptshell")})
	if exit.Code != 1 || !slices.Contains(out.Indicators, "coverage_threshold_not_met") {
		t.Errorf("exit %+v, indicators %q: want jest's 1 for the threshold the script's --coverage checks", exit, out.Indicators)
	}
	if p := rec.Progress(); p.Passed != 1 || p.Failed != 0 {
		t.Errorf("counts %+v, want 1 passed", p)
	}
	want := "package.json's test script also runs `node lint.js`, which strobe did not run: run `npm test` for it"
	if !strings.Contains(out.Hint, want) {
		t.Errorf("hint %q, want %q", out.Hint, want)
	}
	// One test, a level: not what `npm test` runs, so nothing to say.
	_, out, _ = run(t, adapters.Request{ProjectRoot: fixture("scriptshell"), Test: "covered"})
	if strings.Contains(out.Hint, "test script") {
		t.Errorf("hint %q for one test: want nothing of the test script", out.Hint)
	}
}

// TestJestScriptEnv: an ES module project's test script sets node's
// --experimental-vm-modules (`NODE_OPTIONS=… jest`, as jest's docs say)
// and a time zone. strobe ran jest alone, without them: every test file
// "failed to build" on its import statement, where `npm test` ran the
// tests. The run and the failure's pasted rerun set what the script sets.
func TestJestScriptEnv(t *testing.T) {
	rec, out, exit := run(t, adapters.Request{ProjectRoot: fixture("esm")})
	if p := rec.Progress(); exit.Code != 1 || p.Passed != 2 || p.Failed != 1 || out.BuildFailed {
		t.Fatalf("exit %+v, counts %+v, build failed %v (hint %q): want 2 passed and 1 failed, as npm test", exit, p, out.BuildFailed, out.Hint)
	}
	if strings.Contains(out.Hint, "test script") {
		t.Errorf("hint %q: the script is one call of jest, which strobe ran as it is", out.Hint)
	}
	f := find(t, rec, "sum.test.js", "adds wrongly").Failure
	want := "NODE_OPTIONS=--experimental-vm-modules TZ=Pacific/Auckland npx jest --runTestsByPath sum.test.js -t '^adds wrongly$'"
	if f == nil || f.Rerun != want {
		t.Fatalf("failure %+v, want the rerun %s", f, want)
	}
	b, err := pasted(fixture("esm"), f.Rerun, "PATH="+filepath.Join(fixture("esm"), "..", "node_modules", ".bin")+":"+os.Getenv("PATH"))
	if !strings.Contains(string(b), "Tests:       1 failed, 2 skipped, 3 total") {
		t.Errorf("the pasted rerun (%v): %s\nwant the one test failed, the others skipped", err, b)
	}
}

// TestJestEnvFile: a test script that loads an env file
// (`dotenv -e .env.ci -- jest`) runs jest under it, so the tests see its
// values as npm test's do (1 passed, 1 failed): strobe ran jest alone,
// and both failed. The rerun loads it too, and names no value.
func TestJestEnvFile(t *testing.T) {
	rec, out, exit := run(t, adapters.Request{ProjectRoot: fixture("dotenv")})
	if p := rec.Progress(); exit.Code != 1 || p.Passed != 1 || p.Failed != 1 {
		t.Fatalf("exit %+v, counts %+v (hint %q): want 1 passed and 1 failed, as npm test", exit, p, out.Hint)
	}
	f := find(t, rec, "greet.test.js", "greets wrongly").Failure
	want := "npx dotenv -e .env.ci -- npx jest --runTestsByPath greet.test.js -t '^greets wrongly$'"
	if f == nil || f.Rerun != want {
		t.Fatalf("failure %+v, want the rerun %s", f, want)
	}
	b, err := pasted(fixture("dotenv"), f.Rerun)
	if !strings.Contains(string(b), "Expected: \"goodbye\"\n    Received: \"hello\"") || !strings.Contains(string(b), "Tests:       1 failed, 1 skipped, 2 total") {
		t.Errorf("the pasted rerun (%v): %s\nwant the one test failed as in the run, the other skipped", err, b)
	}
}

// TestJestBail: --bail ends jest's run at the first failure (in band:
// beside workers, the other files may all have run by the time jest reads
// the failed file's result): the hint says it stopped early and what did
// not run, and no test is left running or counted as passed that did not
// run.
func TestJestBail(t *testing.T) {
	for _, args := range [][]string{{"--bail", "-i"}} {
		rec, out, exit := run(t, adapters.Request{ProjectRoot: fixture("bail"), Command: append([]string{"npx", "jest"}, args...)})
		if exit.Code != 1 {
			t.Errorf("%q: exit %+v, want 1", args, exit)
		}
		p := rec.Progress()
		if p.Failed != 1 || len(p.Running) != 0 || p.Passed+p.Failed >= 6 {
			t.Errorf("%q: counts %+v, want 1 failed, none running, not all 6 tests", args, p)
		}
		want := regexp.MustCompile(`^jest stopped early \(--bail 1: it ends the run once that many tests failed\): [1-3] of the 4 test files did not run`)
		if !want.MatchString(out.Hint) || !slices.Contains(out.Indicators, "jest_stopped_early") {
			t.Errorf("%q: hint %q indicators %q, want %s", args, out.Hint, out.Indicators, want)
		}
	}
}

// TestJestSnapshots: strobe runs jest with --ci, which writes no new
// snapshot: a test whose snapshot is new fails, and its rerun keeps --ci,
// or it would pass and write the snapshot. Obsolete snapshots, for which
// jest fails the run, are named in the hint: strobe's reporter replaces
// the console's summary that listed them.
func TestJestSnapshots(t *testing.T) {
	rec, out, exit := run(t, adapters.Request{ProjectRoot: fixture("snapshots")})
	if exit.Code != 1 {
		t.Errorf("exit %+v, want 1", exit)
	}
	if tt := find(t, rec, "snap.test.js", "kept"); tt.Status != report.TestPassed {
		t.Errorf("kept: %+v", tt)
	}
	f := rec.Failure("snap.test.js", "brand new")
	if f == nil || f.Line != 7 || !strings.Contains(f.Message, "New snapshot was not written") ||
		f.Rerun != "npx jest --ci --runTestsByPath snap.test.js -t '^brand new$'" {
		t.Errorf("the new snapshot's failure %+v, want snap.test.js:7 rerun with --ci", f)
	}
	if f := rec.Failure("snap.test.js", "kept"); f != nil {
		t.Errorf("kept failed: %+v", f)
	}
	for _, want := range []string{"2 snapshots are obsolete, which no test took (jest fails a run for them)", "snap.test.js: gone 1", "__snapshots__/removed.test.js.snap"} {
		if !strings.Contains(out.Hint, want) {
			t.Errorf("hint %q, want %q in it", out.Hint, want)
		}
	}
}

// TestJestShard: a command's --shard splits the suite's files, so it is
// kept for the run but not for a rerun or a run of named tests: of one
// file, jest's shard 2/2 takes none. math.test.js is in shard 2/2 of the
// fixture's two files.
func TestJestShard(t *testing.T) {
	rec, _, _ := run(t, adapters.Request{ProjectRoot: fixture("basic"), Command: []string{"npx", "jest", "--shard=2/2"}})
	if _, ok := rec.Lookup("other.test.js", "passes too"); ok {
		t.Errorf("shard 2/2 ran other.test.js, want math.test.js alone")
	}
	f := find(t, rec, "math.test.js", "arith › nested › wrong sum").Failure
	want := `npx jest --runTestsByPath math.test.js -t '^arith (?:› )?nested (?:› )?wrong sum$'`
	if f == nil || f.Rerun != want {
		t.Fatalf("failure %+v, want the rerun %q", f, want)
	}
	rec, out, _ := run(t, adapters.Request{ProjectRoot: fixture("basic"), Command: []string{"npx", "jest", "--shard=1/2"},
		Test: "math.test.js › adds"})
	if tests := rec.Tests(); len(tests) != 1 || tests[0].Name != "adds" || out.NoTests {
		t.Errorf("--test under shard 1/2 ran %+v (outcome %+v), want math.test.js › adds", tests, out)
	}
}

// TestJestSnapshotFailures: a snapshot that does not match fails at its
// expect with jest's diff (snapshot against received), reruns alone, and
// the hint says how to update it deliberately (-u on that rerun), not on
// the whole suite. A new snapshot in a file that keeps an obsolete one is
// said to be a test renamed; a snapshot file that does not parse (which
// jest reads as empty, every snapshot new, without a word) is named, and
// not as an obsolete file. jest --ci writes nothing here: the fixture
// stays as committed.
func TestJestSnapshotFailures(t *testing.T) {
	rec, out, exit := run(t, adapters.Request{ProjectRoot: fixture("snapfail")})
	if p := rec.Progress(); exit.Code != 1 || p.Passed != 1 || p.Failed != 5 {
		t.Errorf("exit %+v, counts %+v; want 1 passed, 5 failed (jest's own count)", exit, p)
	}
	for _, tc := range []struct {
		suite, name string
		line        int
		msg         []string
	}{
		{"snap.test.js", "mismatch", 10, []string{"Snapshot name: `mismatch 1`", "-   \"key9\": 99,\n+   \"key9\": 9,"}},
		{"snap.test.js", "inline mismatch", 14, []string{"toMatchInlineSnapshot", "-   \"x\": 1,\n+   \"x\": 2,"}},
		{"snap.test.js", "throws", 24, []string{"toThrowErrorMatchingSnapshot", "Snapshot: \"boom then\"\nReceived: \"boom now\""}},
		{"renamed.test.js", "new name", 3, []string{"New snapshot was not written", "strobe runs jest with --ci", "Received: \"value\""}},
		{"corrupt.test.js", "stored", 4, []string{"New snapshot was not written", "__snapshots__/corrupt.test.js.snap does not parse (SyntaxError"}},
	} {
		f := rec.Failure(tc.suite, tc.name)
		if f == nil || f.File != tc.suite || f.Line != tc.line {
			t.Errorf("%s: failure %+v, want %s:%d", tc.name, f, tc.suite, tc.line)
			continue
		}
		for _, m := range tc.msg {
			if !strings.Contains(f.Message, m) {
				t.Errorf("%s: message %q, want %q in it", tc.name, f.Message, m)
			}
		}
		if strings.Contains(f.Message, "continuous integration") {
			t.Errorf("%s: message %q keeps jest's guess that this is CI", tc.name, f.Message)
		}
	}
	for _, want := range []string{
		"3 snapshots did not match what the test gave (snap.test.js › mismatch, snap.test.js › inline mismatch, snap.test.js › throws;",
		"adding -u to its rerun (`npx jest -u --runTestsByPath snap.test.js -t '^mismatch$'`",
		"1 snapshot was new and not written (renamed.test.js › new name)",
		"(`npx jest -u --runTestsByPath renamed.test.js -t '^new name$'`)",
		"a test renamed keeps its snapshot under its old name",
		"1 snapshot is obsolete, which no test took (jest fails a run for them): renamed.test.js: old name 1 (",
		"the snapshot file __snapshots__/corrupt.test.js.snap does not parse",
	} {
		if !strings.Contains(out.Hint, want) {
			t.Errorf("hint %q, want %q in it", out.Hint, want)
		}
	}
	if strings.Contains(out.Hint, "old name 1; __snapshots__/corrupt.test.js.snap") {
		t.Errorf("hint %q names the unreadable file obsolete", out.Hint)
	}
	// The rerun, pasted, runs that test alone and fails it again; it
	// writes nothing (no -u).
	f := rec.Failure("snap.test.js", "mismatch")
	b, _ := pasted(fixture("snapfail"), f.Rerun)
	if !strings.Contains(string(b), "Tests:       1 failed, 3 skipped, 4 total") {
		t.Errorf("%s ran:\n%s\nwant the one test, failed", f.Rerun, b)
	}
}

// TestJestSnapshotsWritten: a command that asks jest to update snapshots
// (-u) passes, and the answer says what jest wrote, which its console's
// summary said and strobe's reporter replaces. Run on a copy of the
// snapfail fixture beside it (jest is found hoisted there).
func TestJestSnapshotsWritten(t *testing.T) {
	requireJest(t)
	dir := adapterstest.ScratchBeside(t, fixtures, "tmp-update-", fixture("snapfail"),
		"package.json", "snap.test.js", "renamed.test.js", "__snapshots__/snap.test.js.snap", "__snapshots__/renamed.test.js.snap")
	rec, out, exit := run(t, adapters.Request{ProjectRoot: dir, Command: []string{"npx", "jest", "-u"}})
	if p := rec.Progress(); exit.Code != 0 || p.Passed != 5 || p.Failed != 0 {
		t.Errorf("exit %+v, counts %+v; want 5 passed", exit, p)
	}
	want := "jest changed snapshot files, as the command's -u asked (1 written, 3 updated, 1 removed): review them before committing"
	if out.Hint != want {
		t.Errorf("hint %q, want %q", out.Hint, want)
	}
}

// TestJestSnapshotUnparsedWritten: with the command's -u jest reads a
// snapshot file that does not parse (a merge's conflict markers) as
// empty, writes the test's snapshot over it, and the test passes: the
// answer names the file, says what jest did, and how to get it back, as
// it does without -u, where the test fails. It said only that jest
// changed snapshot files. Run on a copy of the snapfail fixture's file
// beside it (jest is found hoisted there).
func TestJestSnapshotUnparsedWritten(t *testing.T) {
	requireJest(t)
	const snap = "__snapshots__/corrupt.test.js.snap"
	dir := adapterstest.ScratchBeside(t, fixtures, "tmp-unparsed-", fixture("snapfail"), "package.json", "corrupt.test.js", snap)
	rec, out, _ := run(t, adapters.Request{ProjectRoot: dir, Command: []string{"npx", "jest", "-u"}})
	if tt, ok := rec.Lookup("corrupt.test.js", "stored"); !ok || tt.Status != report.TestPassed {
		t.Errorf("the test %+v, want passed: jest wrote its snapshot", tt)
	}
	for _, want := range []string{
		"the snapshot file " + snap + " did not parse (SyntaxError: ",
		"the command's -u wrote each snapshot its tests took over it",
		"(`git checkout -- " + snap + "`)",
	} {
		if !strings.Contains(out.Hint, want) {
			t.Errorf("hint %q, want %q in it", out.Hint, want)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, snap)); strings.Contains(string(b), "<<<<<<<") {
		t.Errorf("jest left %s as it was:\n%s\nwant it written over, as the hint says", snap, b)
	}
}

// TestJestSnapshotHints: snapshots named with a hint
// (toMatchSnapshot('hint'), as babel-plugin-tester names every one, key
// `NAME: hint 1`) of the tests a selection leaves out are not obsolete.
// jest marks a skipped test's snapshots checked by its name alone, so a
// run of one test (dmnd/dedent's macro tests) counted the others'
// obsolete and exited 1 although the test passed; its -u deleted them.
// strobe's setup file marks them checked, for a test named (--test) and
// for several (--failed: -t alone), and the snapshot file is left as
// committed.
func TestJestSnapshotHints(t *testing.T) {
	snap := filepath.Join(fixture("snaphints"), "__snapshots__", "hinted.test.js.snap")
	before, err := os.ReadFile(snap)
	if err != nil {
		t.Fatal(err)
	}
	for _, req := range []adapters.Request{
		{ProjectRoot: fixture("snaphints"), Test: "hinted.test.js › macros › as a function"},
		{ProjectRoot: fixture("snaphints"), Test: "macros"},
		{ProjectRoot: fixture("snaphints"), Tests: []adapters.TestRef{
			{Suite: "hinted.test.js", Name: "macros › as a template string"}, {Suite: "hinted.test.js", Name: "plain"}}},
	} {
		rec, out, exit := run(t, req)
		if p := rec.Progress(); exit.Code != 0 || p.Passed == 0 || p.Failed != 0 || out.Crash != nil || strings.Contains(out.Hint, "obsolete") {
			t.Errorf("%q %v: exit %+v, counts %+v, crash %+v, hint %q; want the tests passed, nothing obsolete",
				req.Test, req.Tests, exit, p, out.Crash, out.Hint)
		}
	}
	if after, _ := os.ReadFile(snap); string(after) != string(before) {
		t.Errorf("the runs changed %s:\n%s", snap, after)
	}
	// The whole suite: failing.test.js fails before it takes its
	// snapshot, which jest lists obsolete (strobe adds no setup file to
	// a run of every test): it is said to be the failed test's, not to
	// be removed with -u.
	rec, out, exit := run(t, adapters.Request{ProjectRoot: fixture("snaphints")})
	if p := rec.Progress(); exit.Code != 1 || p.Passed != 3 || p.Failed != 1 {
		t.Errorf("all: exit %+v, counts %+v; want 3 passed, 1 failed (jest's count)", exit, p)
	}
	want := "1 snapshot that jest lists as obsolete belongs to a test that failed before taking it (failing.test.js: transforms: transforms 1): not obsolete, and jest -u would delete them"
	if !strings.Contains(out.Hint, want) || strings.Contains(out.Hint, "which no test took") {
		t.Errorf("all: hint %q, want %q and no snapshot said obsolete", out.Hint, want)
	}
}

// TestJestAggregateError: an AggregateError's message says the errors it
// holds (at most five, the rest counted), with their names, in a run in
// band and in jest's workers (whose results come back through JSON, which
// kept none of them), where jest's own message is the outer error's
// alone. Under node 22 (EachNode) the names came from jest's copy of each
// held error, whose stack node 22 reads as nothing: "Error: second inner"
// for a TypeError. The workers' run has a cache of its own: with the
// timings of an earlier run of the two quick files, jest runs them in
// band whatever -w says.
func TestJestAggregateError(t *testing.T) { testutil.EachNode(t, testJestAggregateError) }

func testJestAggregateError(t *testing.T) {
	for _, args := range [][]string{{"npx", "jest", "--runInBand"}, {"npx", "jest", "-w", "2", "--cacheDirectory", t.TempDir()}} {
		rec, _, _ := run(t, adapters.Request{ProjectRoot: fixture("aggregate"), Command: args})
		for _, tc := range []struct{ file, name, want string }{
			{"aggregate.test.js", "any of two", "AggregateError: All promises were rejected\n\nits errors:\n  Error: first inner\n  TypeError: second inner"},
			{"seven.test.js", "any of seven", "its errors:\n  RangeError: inner 1\n  RangeError: inner 2\n  RangeError: inner 3\n  RangeError: inner 4\n  RangeError: inner 5\n  and 2 more"},
		} {
			if f := rec.Failure(tc.file, tc.name); f == nil || !strings.Contains(f.Message, tc.want) {
				t.Errorf("%v %s: failure %+v, want %q in its message", args, tc.name, f, tc.want)
			}
		}
	}
}

// TestJestScope: strobe given a directory inside the package runs the
// tests under it, with a level or a name within it too, not every test
// of the package.
func TestJestScope(t *testing.T) {
	levels := fixture("levels")
	for _, tc := range []struct {
		name string
		req  adapters.Request
		want []string
	}{
		{"a directory", adapters.Request{ProjectRoot: filepath.Join(levels, "test", "e2e")}, []string{"e2e.test.js › e2e works"}},
		{"a level in it", adapters.Request{ProjectRoot: filepath.Join(levels, "test"), Level: adapters.LevelE2E}, []string{"checkout.e2e.test.js › e2e by suffix", "e2e/e2e.test.js › e2e works"}},
		{"a name in it", adapters.Request{ProjectRoot: filepath.Join(levels, "test", "unit"), Test: "unit works"}, []string{"unit.test.js › unit works"}},
		{"a name outside it", adapters.Request{ProjectRoot: filepath.Join(levels, "test", "unit"), Test: "e2e works"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec, _, _ := run(t, tc.req)
			var got []string
			for _, x := range rec.Tests() {
				got = append(got, x.Suite+" › "+x.Name)
			}
			if strings.Join(sorted(got), "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("ran %q, want %q", got, tc.want)
			}
		})
	}
}

// TestJestLateError: a timer one test left behind throws (or rejects a
// promise) while the next test runs, and jest fails that next test, which
// alone passes. The failure says which test's function threw it, and its
// rerun is the file, which fails it again; a test's own error keeps its
// own rerun.
func TestJestLateError(t *testing.T) {
	root := fixture("late")
	rec, out, _ := run(t, adapters.Request{ProjectRoot: root})
	for _, tc := range []struct {
		name, origin, msg string
		line              int
	}{
		{"late › waits", "late › leaves a timer that throws", "late boom", 7},
		{"late › waits again", "late › leaves a rejection", "late rejection", 15},
	} {
		f := find(t, rec, "late.test.js", tc.name).Failure
		if f == nil || f.File != "late.test.js" || f.Line != tc.line || !strings.Contains(f.Message, tc.msg) ||
			!strings.Contains(f.Message, "its stack points into the test `"+tc.origin+"`") || f.Rerun != "npx jest --runTestsByPath late.test.js" ||
			f.Select != "late.test.js" {
			t.Errorf("%s: failure %+v, want the error traced to %s and the file's rerun", tc.name, f, tc.origin)
			continue
		}
		cmd := exec.Command("sh", "-c", f.Rerun)
		cmd.Dir = root
		if b, _ := cmd.CombinedOutput(); !strings.Contains(string(b), tc.msg) {
			t.Errorf("rerun %q printed %s, want %q again", f.Rerun, b, tc.msg)
		}
	}
	own := find(t, rec, "late.test.js", "late › throws its own").Failure
	if own == nil || strings.Contains(own.Message, "points into") || own.Rerun != "npx jest --runTestsByPath late.test.js -t '^late (?:› )?throws its own$'" || own.Select != "" {
		t.Errorf("a test's own error: %+v, want its own rerun", own)
	}
	if want := "jest failed 2 tests for an error thrown in another test's function"; !strings.Contains(out.Hint, want) {
		t.Errorf("hint %q, want %q", out.Hint, want)
	}
	// What --failed and a retry select (failure.select, the file) fails
	// the test again; its name alone would pass it.
	again, _, _ := run(t, adapters.Request{ProjectRoot: root, Tests: []adapters.TestRef{{Suite: "late.test.js", Name: "late.test.js"}}})
	if f := find(t, again, "late.test.js", "late › waits").Failure; f == nil || !strings.Contains(f.Message, "late boom") {
		t.Errorf("late › waits, selected by its failure's select: %+v, want the late error again", f)
	}
}

// TestJestArgs: jest is found after node's options, any number of them
// (an ES module project's `node --experimental-vm-modules --no-warnings
// node_modules/jest/bin/jest.js` was not taken for jest, which then ran
// without them: every test file "failed to build").
func TestJestArgs(t *testing.T) {
	for cmd, want := range map[string]string{
		"jest --ci":      "--ci",
		"npx jest -i":    "-i",
		"pnpm exec jest": "",
		"node --experimental-vm-modules --no-warnings node_modules/jest/bin/jest.js --ci": "--ci",
		"node -r ts-node/register --expose-gc node_modules/.bin/jest x":                   "x",
	} {
		args, ok := jestArgs(strings.Fields(cmd))
		if !ok || strings.Join(args, " ") != want {
			t.Errorf("jestArgs(%q) = %q, %v; want %q", cmd, args, ok, want)
		}
	}
	for _, cmd := range []string{"node build.js", "npx vitest", "node -r jest.js other.js"} {
		if args, ok := jestArgs(strings.Fields(cmd)); ok {
			t.Errorf("jestArgs(%q) = %q: want no jest", cmd, args)
		}
	}
}

// pasted runs a rerun command as a person pastes it into a shell in dir,
// without colour, env set after the environment's; it answers the
// command's output, both streams.
func pasted(dir, rerun string, env ...string) ([]byte, error) {
	cmd := exec.Command("/bin/sh", "-c", rerun)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "FORCE_COLOR=0"), env...)
	return cmd.CombinedOutput()
}

// TestJestThrownElsewhere: an exception the project's own code threw (a
// library function the test calls) is placed at the test's line, and its
// message says where it was thrown, as mocha's, node:test's and vitest's
// do; an error the test throws itself, or an assertion, says nothing more;
// a failure in a function of the test file outside the test is at the
// test's line that called it. Run in a project written beside the
// fixtures (jest is found hoisted).
func TestJestThrownElsewhere(t *testing.T) {
	requireJest(t)
	dir := adapterstest.ScratchBeside(t, fixtures, "tmp-thrown-", "")
	adapterstest.WriteFiles(t, dir, map[string]string{
		"package.json": `{"name": "tmp-thrown", "private": true, "scripts": {"test": "jest"}}` + "\n",
		"lib/parse.js": `'use strict';

function parse(s) {
  if (s === '') throw new TypeError('nothing to parse');
  return {key: s};
}

module.exports = {parse};
`,
		"test/parse.test.js": `const {parse} = require('../lib/parse');

test('parses', () => {
  expect(parse('a')).toEqual({key: 'a'});
});

test('empty', () => {
  expect(parse('')).toEqual({key: ''});
});

test('own throw', () => {
  throw new RangeError('from the test');
});

test('wrong', () => {
  expect(parse('b')).toEqual({key: 'c'});
});

test('through a helper', () => {
  expect(parsed('')).toEqual({key: ''});
});

function parsed(s) {
  return parse(s);
}

function expectKey(s, key) {
  expect(parse(s).key).toBe(key);
}

test('helper assertion', () => {
  expectKey('b', 'c');
});
`,
	})
	rec, _, _ := run(t, adapters.Request{ProjectRoot: dir})
	if p := rec.Progress(); p.Passed != 1 || p.Failed != 5 {
		t.Errorf("counts %+v, want 1 passed and 5 failed", p)
	}
	const file = "test/parse.test.js"
	if f := rec.Failure(file, "empty"); f == nil || f.File != file || f.Line != 8 ||
		!strings.HasPrefix(f.Message, "TypeError: nothing to parse") || !strings.HasSuffix(f.Message, "\n(thrown at lib/parse.js:4)") {
		t.Errorf("empty: failure %+v, want at %s:8, thrown at lib/parse.js:4", f, file)
	}
	if f := rec.Failure(file, "own throw"); f == nil || f.Line != 12 || strings.Contains(f.Message, "thrown at") {
		t.Errorf("own throw: failure %+v, want at %s:12, no thrown at", f, file)
	}
	if f := rec.Failure(file, "wrong"); f == nil || f.Line != 16 || strings.Contains(f.Message, "thrown at") {
		t.Errorf("wrong: failure %+v, want at %s:16, no thrown at", f, file)
	}
	// A function of the test file that the test calls (luxon's diff
	// tests' helpers) is not where the test failed: the test's own line
	// is, the helper's said in the message.
	if f := rec.Failure(file, "through a helper"); f == nil || f.Line != 20 ||
		!strings.HasSuffix(f.Message, "\n(thrown at lib/parse.js:4)\n(through test/parse.test.js:24, a function the test calls)") {
		t.Errorf("through a helper: failure %+v, want at %s:20, thrown at lib/parse.js:4, through line 24", f, file)
	}
	if f := rec.Failure(file, "helper assertion"); f == nil || f.Line != 32 || strings.Contains(f.Message, "thrown at") ||
		!strings.HasSuffix(f.Message, "\n(through test/parse.test.js:28, a function the test calls)") {
		t.Errorf("helper assertion: failure %+v, want at %s:32, through line 28", f, file)
	}
}

// TestJestShownCommand: the answer's command named strobe's reporter, in
// a directory removed after the run (`--reporters=/tmp/…/reporter.cjs`):
// pasted, jest could not find it. It is the command a person types, with
// the options that change what jest does (--ci, --passWithNoTests).
func TestJestShownCommand(t *testing.T) {
	requireJest(t)
	cmd, out := adapterstest.PasteShown(t, New(), adapters.Request{ProjectRoot: fixture("basic"), Test: "math.test.js"})
	if cmd != "npx jest --ci --passWithNoTests --runTestsByPath math.test.js" || !strings.Contains(string(out), "Tests:") {
		t.Errorf("%s:\n%s\nwant the file's run through npx jest, and jest's summary", cmd, out)
	}
}
