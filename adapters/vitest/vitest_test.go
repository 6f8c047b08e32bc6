package vitest

import (
	"bufio"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
	"strobe/internal/shell"
	"strobe/internal/testutil"
	"strobe/report"
)

// fixtures installs the fixture workspace's dependencies (vitest, pinned
// by testdata/js/package-lock.json) once per test binary, and returns the
// workspace's directory.
func fixtures(t *testing.T) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(file), "testdata", "js")
	adapterstest.NpmCI(t, dir)
	return dir
}

func project(t *testing.T, name string) string {
	return filepath.Join(fixtures(t), "projects", name)
}

// normalise zeroes durations, names the fixture's place {{ROOT}}, and
// sorts the tests: vitest runs test files in parallel.
func normalise(rec *adapters.Recorder, out adapters.Outcome, root string) adapterstest.Result {
	fix := func(s string) string { return strings.ReplaceAll(s, root, "{{ROOT}}") }
	res := adapterstest.Normalise(rec, out, fix)
	slices.SortStableFunc(res.Tests, func(a, b report.Test) int {
		return strings.Compare(a.Suite+"\x00"+a.Name, b.Suite+"\x00"+b.Name)
	})
	for i := range res.Outcome.BuildErrors {
		res.Outcome.BuildErrors[i].Message = fix(res.Outcome.BuildErrors[i].Message)
	}
	slices.SortStableFunc(res.Outcome.BuildErrors, func(a, b report.BuildError) int { return strings.Compare(a.File, b.File) })
	return res
}

// TestVitestBasic: failures at their file and line (a TypeScript file's
// own, source-mapped), with their messages and without colours, a test's
// output, and a failure's rerun that, pasted, fails that test alone;
// under the node on PATH and node 22 (EachNode).
func TestVitestBasic(t *testing.T) { testutil.EachNode(t, testVitestBasic) }

func testVitestBasic(t *testing.T) {
	root := project(t, "basic")
	rec, out, exit := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root})
	if !exit.Exited || exit.Code != 1 {
		t.Errorf("exit = %+v, want vitest's 1 for failed tests", exit)
	}
	res := normalise(rec, out, root)
	adapterstest.Golden(t, "basic-all", res)

	tests := rec.Tests()
	if len(tests) != 11 {
		t.Fatalf("recorded %d tests, want 11: %+v", len(tests), tests)
	}
	p := rec.Progress()
	if p.Passed != 6 || p.Failed != 3 || p.Skipped != 2 {
		t.Errorf("counts %d passed, %d failed, %d skipped; want 6, 3, 2 (a skip and a todo)", p.Passed, p.Failed, p.Skipped)
	}
	// The TypeScript file's own line, source-mapped by vitest.
	tt, _ := adapterstest.TestByName(tests, "math > adds wrongly")
	f := tt.Failure
	if f == nil || f.File != "test/unit/math.test.ts" || f.Line != 17 || !strings.HasPrefix(f.Message, "expected 4 to be 5") ||
		!strings.Contains(f.Message, "- Expected\n+ Received") || strings.Contains(f.Message, "\x1b[") {
		t.Errorf("math > adds wrongly: failure %+v, want test/unit/math.test.ts:17 with the diff, without colours", f)
	}
	if f != nil && f.Rerun != `npx vitest run test/unit/math.test.ts -t '^math (?:> )?adds wrongly$'` {
		t.Errorf("rerun %q", f.Rerun)
	}
	if f != nil {
		cmd := exec.Command("/bin/sh", "-c", f.Rerun+" 2>&1")
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "NO_COLOR=1")
		if b, _ := cmd.Output(); !regexp.MustCompile(`Tests\s+1 failed \| \d+ skipped`).Match(b) || !strings.Contains(string(b), "expected 4 to be 5") {
			t.Errorf("%s ran:\n%s\nwant the one test, failed", f.Rerun, b)
		}
	}
	thr, _ := adapterstest.TestByName(tests, "strings > throws")
	if thr.Failure == nil || thr.Failure.File != "test/unit/strings.test.js" || thr.Failure.Line != 20 || thr.Failure.Message != "TypeError: boom from a test" {
		t.Errorf("strings > throws: failure %+v", thr.Failure)
	}
	up, _ := adapterstest.TestByName(tests, "strings > upper")
	if up.Output != "upper says hi\n" || up.Suite != "test/unit/strings.test.js" {
		t.Errorf("strings > upper: output %q, suite %q", up.Output, up.Suite)
	}
	if out.Crash != nil || out.BuildFailed || out.NoTests {
		t.Errorf("outcome %+v for plain failures", out)
	}
}

// TestVitestSelection runs one test by its full name (with and without its
// file, full of regexp characters) and each level, for real.
func TestVitestSelection(t *testing.T) {
	root := project(t, "basic")
	for _, tc := range []struct {
		name  string
		req   adapters.Request
		tests []string
	}{
		{"full name", adapters.Request{Test: "math > objects > compares deeply"}, []string{"math > objects > compares deeply"}},
		{"file and regexp characters", adapters.Request{Test: "test/unit/strings.test.js > strings > name with (regex) chars [x] * + ?"}, []string{"strings > name with (regex) chars [x] * + ?"}},
		{"top level", adapters.Request{Test: "top level"}, []string{"top level"}},
		{"unit", adapters.Request{Level: adapters.LevelUnit}, []string{"math > adds", "math > adds wrongly", "math > objects > compares deeply", "strings > upper", "strings > skipped for now", "strings > write this one", "strings > name with (regex) chars [x] * + ?", "strings > throws", "top level"}},
		{"integration", adapters.Request{Level: adapters.LevelIntegration}, []string{"connects"}},
		{"e2e", adapters.Request{Level: adapters.LevelE2E}, []string{"flows end to end"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.req.ProjectRoot = root
			rec, out, _ := adapterstest.RunReal(t, New(), tc.req)
			var got []string
			for _, tt := range rec.Tests() {
				got = append(got, tt.Name)
			}
			slices.Sort(got)
			want := slices.Sorted(slices.Values(tc.tests))
			if !slices.Equal(got, want) {
				t.Errorf("ran %q, want %q (hint %q)", got, want, out.Hint)
			}
		})
	}
	t.Run("no match", func(t *testing.T) {
		_, out, _ := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root, Test: "math > no such test"})
		if !out.NoTests || !strings.Contains(out.Hint, "no test matched") {
			t.Errorf("outcome %+v, want no_tests with a hint", out)
		}
	})
	// A level no file of a project has: vitest exits 1 without a word
	// (strobe's reporter in place of its own), which was read as a silent
	// crash. It is vitest's no tests.
	t.Run("no file of the level", func(t *testing.T) {
		_, out, exit := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: project(t, "noisy"), Level: adapters.LevelE2E})
		if exit.Code != 1 || !out.NoTests || !out.ExitExplained || out.Crash != nil || !strings.Contains(out.Hint, "no test file for this level") {
			t.Errorf("exit %+v, outcome %+v: want no_tests, vitest's exit 1 its word for it", exit, out)
		}
	})
}

// TestVitestImportError: test files that fail to load (a missing import, a
// TypeScript syntax error, a throw at the top, a module they import that
// does not parse) are build errors at their file:line, and the file that
// loads still runs. A module vite's import analysis cannot read is named
// without a line (vite gives 1:0 whatever the line); it was the test
// file's error, and one vite names by its path from the root
// ("/src/comma.js") is the project's file.
func TestVitestImportError(t *testing.T) {
	root := project(t, "importerr")
	rec, out, _ := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root})
	adapterstest.Golden(t, "importerr-all", normalise(rec, out, root))
	if !out.BuildFailed {
		t.Fatalf("outcome %+v, want build_failed", out)
	}
	var got []string
	for _, e := range out.BuildErrors {
		got = append(got, e.File+":"+strconv.Itoa(e.Line))
	}
	slices.Sort(got)
	if want := []string{"broken.test.js:2", "src/comma.js:2", "src/unclosed.js:0", "syntax.test.ts:5", "throws.test.js:3"}; !slices.Equal(got, want) {
		t.Errorf("build errors at %q, want %q: %+v", got, want, out.BuildErrors)
	}
	if tt, _ := adapterstest.TestByName(rec.Tests(), "still runs"); tt.Status != report.TestPassed {
		t.Errorf("the file that loads: %+v", tt)
	}
	// A describe block whose beforeAll throws fails under its own name;
	// its test is skipped, as vitest reports it.
	hook, _ := adapterstest.TestByName(rec.Tests(), "with a failing beforeAll")
	if f := hook.Failure; hook.Status != report.TestFailed || f == nil || f.File != "hooks.test.js" || f.Line != 5 || f.Message != "setup failed" {
		t.Errorf("the failing beforeAll: %+v", hook)
	}
	// Its rerun runs the block's tests, so that the hook runs and fails
	// again: vitest's -t matches tests, and '^block$' matches none of them.
	if f := hook.Failure; f == nil || f.Rerun != `npx vitest run hooks.test.js -t '^with a failing beforeAll '` {
		t.Errorf("the failing beforeAll's rerun: %+v", f)
	} else {
		bin, _ := filepath.Abs(filepath.Join("testdata", "js", "node_modules", ".bin", "vitest"))
		cmd := exec.Command("sh", "-c", strings.Replace(f.Rerun, "npx vitest", shell.Quote(bin), 1))
		cmd.Dir = root
		out, err := cmd.CombinedOutput()
		if err == nil || !strings.Contains(string(out), "setup failed") {
			t.Errorf("rerun %q: %v, want the hook to fail again:\n%s", f.Rerun, err, out)
		}
	}
}

func TestVitestNoTests(t *testing.T) {
	root := project(t, "empty")
	_, out, exit := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root})
	if !out.NoTests || !strings.Contains(out.Hint, "found no test file") {
		t.Errorf("outcome %+v (exit %+v), want no_tests with a hint", out, exit)
	}
}

// TestVitestAbort: a test calling process.abort() kills its fork worker;
// vitest itself exits 1, and the run is a SIGABRT crash, not a pass.
func TestVitestAbort(t *testing.T) {
	root := project(t, "crash")
	_, out, _ := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root})
	c := out.Crash
	if c == nil || c.Type != report.CrashAbort || c.SignalName != "SIGABRT" || !strings.Contains(c.Message, "aborts.test.js:6") {
		t.Fatalf("crash %+v, want SIGABRT at aborts.test.js:6", c)
	}
}

// TestVitestThreads runs the same file in worker threads (pool
// "threads", given in the command): node refuses process.abort() in a
// worker thread, so the test fails with its TypeError, and nothing
// crashed.
func TestVitestThreads(t *testing.T) {
	root := project(t, "crash")
	rec, out, _ := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root, Command: []string{"npx", "vitest", "--pool=threads"}})
	tt, _ := adapterstest.TestByName(rec.Tests(), "aborts the process")
	if f := tt.Failure; f == nil || f.Line != 6 || !strings.Contains(f.Message, "process.abort() is not supported in workers") ||
		f.Rerun != `npx vitest run --pool=threads aborts.test.js -t '^aborts the process$'` {
		t.Errorf("aborts the process under threads: %+v", tt.Failure)
	}
	if out.Crash != nil {
		t.Errorf("crash %+v", out.Crash)
	}
}

// TestVitestOutputBounded: a test printing 200 MB through console.log
// leaves a bounded part in the Recorder, and the next test still runs.
func TestVitestOutputBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("200 MB of output")
	}
	root := project(t, "noisy")
	rec, out, _ := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root})
	tt, _ := adapterstest.TestByName(rec.Tests(), "prints a lot")
	if tt.Status != report.TestPassed || len(tt.Output) > adapters.PerTestOutput || !tt.OutputTruncated && !strings.Contains(tt.Output, "more output cut") {
		t.Errorf("prints a lot: %s, %d bytes of output kept, truncated %v", tt.Status, len(tt.Output), tt.OutputTruncated)
	}
	if after, _ := adapterstest.TestByName(rec.Tests(), "after the noise"); after.Status != report.TestPassed {
		t.Errorf("after the noise: %+v (hint %q)", after, out.Hint)
	}
}

// started runs a plan in its own process group, as the runner does,
// feeding its output to the parser, until want is running.
func started(t *testing.T, req adapters.Request, want string) (*adapters.Recorder, *adapters.Plan, *exec.Cmd, chan struct{}) {
	t.Helper()
	rec := adapters.NewRecorder()
	plan, err := New().Plan(context.Background(), req, rec)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(plan.Argv[0], plan.Argv[1:]...)
	cmd.Dir = plan.Dir
	cmd.Env = append(os.Environ(), plan.Env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan struct{})
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			plan.Parser.Line(adapters.Stderr, sc.Bytes(), false)
		}
	}()
	deadline := time.Now().Add(60 * time.Second)
	for {
		p := rec.Progress()
		if slices.ContainsFunc(p.Running, func(r adapters.RunningTest) bool { return r.Name == want }) {
			return rec, plan, cmd, lines
		}
		if time.Now().After(deadline) {
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			cmd.Wait()
			plan.Parser.(adapters.Closer).Close()
			t.Fatalf("%q never showed as running: %+v", want, p)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// stopGroup stops a run's process group as the runner does (SIGTERM, a
// grace, SIGKILL) and fails when any process of it, workers included,
// outlives it.
func stopGroup(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	pgid := cmd.Process.Pid
	syscall.Kill(-pgid, syscall.SIGTERM)
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		syscall.Kill(-pgid, syscall.SIGKILL)
		<-done
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		err := syscall.Kill(-pgid, 0)
		if errors.Is(err, syscall.ESRCH) {
			return
		}
		if time.Now().After(deadline) {
			syscall.Kill(-pgid, syscall.SIGKILL)
			t.Fatalf("a process of the run's group %d outlived it", pgid)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestVitestHang: a test awaiting a promise that never settles (its
// timeout off) shows as running while it hangs, in a fork worker the
// stuck detector judges; stopped by strobe, it stays running (no crash),
// the test after it is said not to have run (nothing did: a real
// project's answer counted 5 of a file's 6 tests), and no node process is
// left.
func TestVitestHang(t *testing.T) {
	root := project(t, "hang")
	rec, plan, cmd, lines := started(t, adapters.Request{ProjectRoot: root}, "waits forever")
	workers := forkWorkers(t, cmd.Process.Pid)
	if len(workers) == 0 {
		t.Errorf("no fork worker under vitest %d is a test process", cmd.Process.Pid)
	}
	stopGroup(t, cmd)
	<-lines
	out := plan.Parser.Finish(report.Exit{Signaled: true, Signal: int(syscall.SIGTERM), StoppedBy: report.StoppedStuck})
	plan.Parser.(adapters.Closer).Close()
	if out.Crash != nil {
		t.Errorf("crash %+v for a run strobe stopped", out.Crash)
	}
	if got := rec.Abandon(); !slices.Equal(got, []string{"waits forever"}) {
		t.Errorf("abandoned %q, want the hung test", got)
	}
	if tt, _ := adapterstest.TestByName(rec.Tests(), "quick"); tt.Status != report.TestPassed {
		t.Errorf("quick: %+v", tt)
	}
	// The test after the hang never ran, and no event names it.
	if want := "vitest was stopped at what hung: 1 test of the test files it began did not run and is in no count"; !strings.Contains(out.Hint, want) {
		t.Errorf("hint %q, want %q", out.Hint, want)
	}
}

// TestVitestCancel: a run cancelled while a test runs leaves no process
// behind, and its reporter's directory is removed.
func TestVitestCancel(t *testing.T) {
	root := project(t, "hang")
	_, plan, cmd, lines := started(t, adapters.Request{ProjectRoot: root}, "waits forever")
	stopGroup(t, cmd)
	<-lines
	plan.Parser.Finish(report.Exit{Signaled: true, Signal: int(syscall.SIGTERM), StoppedBy: report.StoppedCancelled})
	plan.Parser.(adapters.Closer).Close()
	dir := filepath.Dir(strings.TrimPrefix(plan.Argv[len(plan.Argv)-1], "--reporter="))
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the reporter's directory %s is still there (%v)", dir, err)
	}
}

// forkWorkers lists the processes under pid that IsTestProcess takes for
// test processes, from /proc.
func forkWorkers(t *testing.T, pid int) []adapters.Proc {
	t.Helper()
	var out []adapters.Proc
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		s := string(stat)
		rest := s[strings.LastIndexByte(s, ')')+2:]
		fields := strings.Fields(rest)
		if len(fields) < 2 || fields[1] != strconv.Itoa(pid) {
			continue
		}
		comm, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "comm"))
		cmdline, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		p := adapters.Proc{Name: strings.TrimSpace(string(comm)), Args: strings.Split(strings.TrimRight(string(cmdline), "\x00"), "\x00")}
		t.Logf("child %s: %s %q", e.Name(), p.Name, p.Args)
		if (vitest{}).IsTestProcess(p) {
			out = append(out, p)
		}
	}
	return out
}

// TestVitestSameNames runs tests that share a full name in one file (rows of
// test.each that print alike, a title repeated, as real projects have
// them): each is counted, the second and later named "NAME #2", …, and a
// failing one's rerun is vitest's own name, which runs every test of it.
func TestVitestSameNames(t *testing.T) {
	root := project(t, "dupes")
	rec, _, exit := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root})
	if !exit.Exited || exit.Code != 1 {
		t.Errorf("exit = %+v, want vitest's 1 for a failed test", exit)
	}
	if p := rec.Progress(); p.Passed != 5 || p.Failed != 1 {
		t.Errorf("counts %d passed, %d failed; want vitest's 5 and 1", p.Passed, p.Failed)
	}
	var names []string
	for _, tt := range rec.Tests() {
		names = append(names, tt.Name)
	}
	slices.Sort(names)
	want := []string{"same title", "same title #2", "same title #2 #2", "same title #3", "withQuery > { a: 1 }", "withQuery > { a: 1 } #2"}
	if !slices.Equal(names, want) {
		t.Errorf("names %q, want %q", names, want)
	}
	f := rec.Failure("dupes.test.js", "withQuery > { a: 1 } #2")
	if f == nil || f.Line != 10 || f.Rerun != `npx vitest run dupes.test.js -t '^withQuery (?:> )?\{ a: 1 \}$'` {
		t.Errorf("failure %+v, want dupes.test.js:10 rerun by vitest's name", f)
	}
}

// TestVitestRetryAndFails: the worker's end of a try is not the test's: a
// try the config's retry repeats, and a test.fails whose result vitest
// turns over once its tries are done, end as vitest's reporter says
// (a flaky test passed on its retry was a failure, a test.fails that
// failed as declared too).
func TestVitestRetryAndFails(t *testing.T) {
	root := project(t, "retry")
	t.Setenv("FLAKY_STATE", filepath.Join(t.TempDir(), "tried"))
	rec, _, exit := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root})
	if !exit.Exited || exit.Code != 1 {
		t.Errorf("exit = %+v, want vitest's 1 for a failed test", exit)
	}
	for name, want := range map[string]report.TestStatus{
		"fails as declared":              report.TestPassed,
		"passes though declared to fail": report.TestFailed,
		"flaky":                          report.TestPassed,
	} {
		tt, ok := rec.Lookup("retry.test.js", name)
		if !ok || tt.Status != want {
			t.Errorf("%s: %+v, want %s", name, tt, want)
		}
	}
	if p := rec.Progress(); p.Passed != 2 || p.Failed != 2 {
		t.Errorf("counts %d passed, %d failed; want vitest's 2 and 2", p.Passed, p.Failed)
	}
	// vitest throws these two from its own code, with no frame in the
	// test file: they are placed at the test's title.
	if f := rec.Failure("retry.test.js", "passes though declared to fail"); f == nil || f.Line != 9 || !strings.Contains(f.Message, "Expect test to fail") {
		t.Errorf("failure %+v, want vitest's 'Expect test to fail' at retry.test.js:9", f)
	}
	if f := rec.Failure("assertions.test.js", "expects two assertions"); f == nil || f.Line != 4 || !strings.Contains(f.Message, "expected number of assertions to be 2, but got 1") {
		t.Errorf("failure %+v, want the unmet expect.assertions at assertions.test.js:4", f)
	}
}

// TestVitestBail: --bail 1 makes vitest cancel the run at the first
// failure. The test after it in its file is reported "pending" (it never
// ran: it must not stay running, nor pass), and the file after it never
// begins; the hint says so and how many were left out.
func TestVitestBail(t *testing.T) {
	root := project(t, "bail")
	rec, out, exit := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root, Command: []string{"vitest", "--bail", "1"}})
	if exit.Code != 1 {
		t.Errorf("exit %+v, want vitest's 1", exit)
	}
	p := rec.Progress()
	if p.Passed != 1 || p.Failed != 1 || p.Skipped != 0 || len(p.Running) != 0 {
		t.Errorf("counts %+v, want 1 passed, 1 failed, none running", p)
	}
	if _, ok := rec.Lookup("test/a.test.js", "third never runs"); ok {
		t.Errorf("the test vitest cancelled was recorded: %+v", rec.Tests())
	}
	want := "vitest stopped the run early (--bail 1: 1 failed test): 1 test in the test files it began did not run, and 1 of the 2 test files did not run at all"
	if !strings.Contains(out.Hint, want) || !slices.Contains(out.Indicators, "vitest_stopped_early") {
		t.Errorf("hint %q indicators %q, want %q", out.Hint, out.Indicators, want)
	}
}

// TestVitestScriptCoverageOneTest: the script's --coverage is the whole
// suite's; a run of one test, and a failure's rerun, leave it out, or its
// threshold fails them whatever the test does.
func TestVitestScriptCoverageOneTest(t *testing.T) {
	root := project(t, "coverage")
	rec, out, exit := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root, Test: "covered"})
	if p := rec.Progress(); exit.Code != 0 || p.Passed != 1 || strings.Contains(out.Hint, "threshold") {
		t.Errorf("exit %+v, counts %+v, hint %q: want the test passed, no threshold", exit, p, out.Hint)
	}
	p, err := New().Plan(context.Background(), adapters.Request{ProjectRoot: root}, adapters.NewRecorder())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Parser.(*parser).Close()
	if got := strings.Join(p.Parser.(*parser).rerun, " "); got != "npx vitest run" {
		t.Errorf("rerun prefix %q, want npx vitest run without the script's --coverage", got)
	}
	if !slices.Contains(p.Argv, "--coverage") {
		t.Errorf("argv %q: the whole suite's run keeps the script's --coverage", p.Argv)
	}
}

// TestVitestScriptShell: a test script that needs a shell (`node
// check.js && vitest run --passWithNoTests`) is not run whole: vitest
// runs alone, with the options the script gives it, and the hint says
// that the check did not run (strobe once answered passed, saying
// nothing, where `npm test` fails at the check).
func TestVitestScriptShell(t *testing.T) {
	dir := t.TempDir()
	if err := os.Symlink(filepath.Join(fixtures(t), "node_modules"), filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	adapterstest.WriteFiles(t, dir, map[string]string{
		"package.json": `{"name": "scriptshell", "private": true, "type": "module",
			"scripts": {"test": "node check.js && vitest run --passWithNoTests --testTimeout=4321"}}`,
		"check.js":  "process.exit(1)\n",
		"a.test.js": "import {test, expect} from 'vitest'\ntest('timeout', ({task}) => { expect(task.timeout).toBe(4321) })\n",
	})
	rec, out, exit := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: dir})
	if p := rec.Progress(); exit.Code != 0 || p.Passed != 1 {
		t.Errorf("exit %+v, counts %+v: want the test passed under the script's --testTimeout", exit, p)
	}
	want := "package.json's test script also runs `node check.js`, which strobe did not run: run `npm test` for it"
	if !strings.Contains(out.Hint, want) {
		t.Errorf("hint %q, want %q", out.Hint, want)
	}
}

// TestVitestScriptNodeStackSize: the test script gives node a V8 option
// that NODE_OPTIONS refuses (`node --stack-size=256 vitest run`): in
// NODE_OPTIONS, every node process exited 9 at once and the run answered
// crashed. It goes on node's command line, as the script gives it.
func TestVitestScriptNodeStackSize(t *testing.T) {
	dir := t.TempDir()
	if err := os.Symlink(filepath.Join(fixtures(t), "node_modules"), filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	adapterstest.WriteFiles(t, dir, map[string]string{
		"package.json": `{"name": "stacksize", "private": true, "type": "module",
			"scripts": {"test": "node --stack-size=256 node_modules/.bin/vitest run"}}`,
		"a.test.js": "import {test} from 'vitest'\ntest('runs', () => {})\n",
	})
	rec, out, exit := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: dir})
	if p := rec.Progress(); exit.Code != 0 || p.Passed != 1 {
		t.Fatalf("exit %+v, counts %+v, hint %q: want the test passed", exit, p, out.Hint)
	}
	p, err := New().Plan(context.Background(), adapters.Request{ProjectRoot: dir}, adapters.NewRecorder())
	if err != nil {
		t.Fatal(err)
	}
	if closer, ok := p.Parser.(adapters.Closer); ok {
		defer closer.Close()
	}
	if want := []string{"node", "--stack-size=256"}; !slices.Equal(p.Argv[:2], want) {
		t.Errorf("argv %q, want it to start with %q", p.Argv, want)
	}
}

// TestVitestCoverageThreshold: the tests pass, the coverage does not
// meet coverage.thresholds, and vitest exits 1: the hint says what failed
// (the run is failed by its exit code). Without a command the test
// script's --coverage counts, as under `npm test` (strobe once answered
// passed).
func TestVitestCoverageThreshold(t *testing.T) {
	root := project(t, "coverage")
	for _, cmd := range [][]string{{"npx", "vitest", "run", "--coverage"}, nil} {
		name := "the test script"
		if cmd != nil {
			name = strings.Join(cmd, " ")
		}
		t.Run(name, func(t *testing.T) {
			rec, out, exit := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root, Command: cmd})
			if exit.Code != 1 {
				t.Errorf("exit %+v, want vitest's 1 for a threshold not met", exit)
			}
			if p := rec.Progress(); p.Passed != 1 || p.Failed != 0 {
				t.Errorf("counts %+v, want 1 passed", p)
			}
			want := "Coverage for lines (50%) does not meet global threshold (80%) (vitest's coverage.thresholds): the tests passed"
			if !strings.Contains(out.Hint, want) {
				t.Errorf("hint %q, want %q", out.Hint, want)
			}
		})
	}
}

// TestVitestProjects: two vitest projects run the same file, one in
// happy-dom, whose modules load as vite serves them (strobe's setup file
// was refused there, outside server.fs.allow: every test of the file
// failed to load, and the run answered no failure). Each project's tests
// count apart, named with their project's; a failure reruns in its
// project, and a selection by that name takes that project's test alone.
func TestVitestProjects(t *testing.T) {
	root := project(t, "envs")
	rec, out, exit := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root})
	if !exit.Exited || exit.Code != 1 || out.Crash != nil {
		t.Errorf("exit %+v crash %+v, want vitest's 1 for a failed test", exit, out.Crash)
	}
	if p := rec.Progress(); p.Passed != 3 || p.Failed != 1 {
		t.Errorf("counts %d passed, %d failed; want vitest's 3 and 1", p.Passed, p.Failed)
	}
	const failing = "globals > has no window [dom]"
	f := rec.Failure("test/env.test.ts", failing)
	if f == nil || f.Line != 9 || f.Rerun != `npx vitest run --project dom test/env.test.ts -t '^globals (?:> )?has no window$'` {
		t.Fatalf("failure %+v, want %q at test/env.test.ts:9, rerun in its project", f, failing)
	}
	bin, _ := filepath.Abs(filepath.Join("testdata", "js", "node_modules", ".bin", "vitest"))
	cmd := exec.Command("sh", "-c", strings.Replace(f.Rerun, "npx vitest", shell.Quote(bin), 1))
	cmd.Dir = root
	rerun, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(rerun), "1 failed") || strings.Contains(string(rerun), "passed") {
		t.Errorf("rerun %q: %v, want that test alone, failing:\n%s", f.Rerun, err, rerun)
	}
	for test, want := range map[string]report.TestStatus{
		"test/env.test.ts > globals > has no window [node]": report.TestPassed,
		"test/env.test.ts > " + failing:                     report.TestFailed,
	} {
		rec, _, _ := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root, Test: test})
		if tests := rec.Tests(); len(tests) != 1 || tests[0].Status != want {
			t.Errorf("--test %q: %+v, want that test alone, %s", test, tests, want)
		}
	}
}

// TestVitestShard: a command's --shard splits the suite's files, so it is
// kept for the run but not for a rerun or a run of named tests: of one
// file, vitest's shard 2/2 takes none. test/unit/strings.test.js is in
// shard 2/2 of the fixture's four files.
func TestVitestShard(t *testing.T) {
	root := project(t, "basic")
	rec, _, _ := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root, Command: []string{"npx", "vitest", "--shard=2/2"}})
	if _, ok := adapterstest.TestByName(rec.Tests(), "math > adds"); ok {
		t.Errorf("shard 2/2 ran test/unit/math.test.ts, want strings and flow alone")
	}
	tt, _ := adapterstest.TestByName(rec.Tests(), "strings > throws")
	want := `npx vitest run test/unit/strings.test.js -t '^strings (?:> )?throws$'`
	if f := tt.Failure; f == nil || f.Rerun != want {
		t.Fatalf("failure %+v, want the rerun %q", f, want)
	}
	rec, out, _ := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root, Command: []string{"npx", "vitest", "--shard=1/2"},
		Test: "test/unit/strings.test.js > strings > upper"})
	if tests := rec.Tests(); len(tests) != 1 || tests[0].Name != "strings > upper" || out.NoTests {
		t.Errorf("--test under shard 1/2 ran %+v (outcome %+v), want strings > upper", tests, out)
	}
}

// TestVitestSnapshots: under CI (the environment strobe passes on),
// vitest writes no snapshot. A snapshot that does not match fails at its
// expect with vitest's diff, and the hint says how to update it
// deliberately (-u on its rerun); a new snapshot fails, which vitest
// words as a mismatch with nothing to diff, and strobe says it was new
// and not written, with the value received; a snapshot file that does
// not parse (vitest reads it as empty, without a word) is named; the
// obsolete snapshot vitest does not fail for is named too.
func TestVitestSnapshots(t *testing.T) {
	t.Setenv("CI", "true")
	root := project(t, "snapshots")
	rec, out, exit := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root})
	if p := rec.Progress(); exit.Code != 1 || p.Passed != 1 || p.Failed != 5 {
		t.Errorf("exit %+v, counts %+v; want vitest's 1 passed, 5 failed", exit, p)
	}
	for _, tc := range []struct {
		suite, name string
		line        int
		msg         []string
	}{
		{"snap.test.js", "mismatch", 13, []string{"Snapshot `mismatch 1` mismatched", "-   \"key9\": 99,\n+   \"key9\": 9,"}},
		{"snap.test.js", "inline mismatch", 17, []string{"Snapshot `inline mismatch 1` mismatched", "-   \"x\": 1,\n+   \"x\": 2,"}},
		{"snap.test.js", "throws", 27, []string{"Snapshot `throws 1` mismatched", "Expected: \"[Error: boom then]\"\nReceived: \"[Error: boom now]\""}},
		{"snap.test.js", "new one", 31, []string{"New snapshot was not written: vitest writes no new snapshot under CI", "Received: \"fresh\""}},
		{"corrupt.test.js", "stored", 6, []string{"New snapshot was not written", "__snapshots__/corrupt.test.js.snap does not parse (SyntaxError"}},
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
	}
	for _, want := range []string{
		"3 snapshots did not match what the test gave (snap.test.js > mismatch, snap.test.js > inline mismatch, snap.test.js > throws;",
		"adding -u to its rerun (`npx vitest run -u snap.test.js -t '^mismatch$'`",
		"1 snapshot was new and not written (snap.test.js > new one)",
		"(`npx vitest run -u snap.test.js -t '^new one$'`)",
		"the snapshot file __snapshots__/corrupt.test.js.snap does not parse",
		"1 snapshot is obsolete, which no test took (snap.test.js: obsolete one 1): vitest does not fail the run for them",
	} {
		if !strings.Contains(out.Hint, want) {
			t.Errorf("hint %q, want %q in it", out.Hint, want)
		}
	}
	// The rerun, pasted, runs that test alone and fails it again.
	f := rec.Failure("snap.test.js", "mismatch")
	cmd := exec.Command("/bin/sh", "-c", f.Rerun+" 2>&1")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	b, _ := cmd.Output()
	if !regexp.MustCompile(`Tests\s+1 failed \| 4 skipped \(5\)`).Match(b) {
		t.Errorf("%s ran:\n%s\nwant the one test, failed", f.Rerun, b)
	}
}

// TestVitestSnapshotsWritten: outside CI vitest writes a new snapshot and
// the test passes, and -u rewrites them all: the answer says what vitest
// wrote, as its console's summary did. Run on a copy of the snapshots
// fixture in the workspace (vitest is found hoisted there).
func TestVitestSnapshotsWritten(t *testing.T) {
	t.Setenv("CI", "false")
	ws := fixtures(t)
	for _, tc := range []struct {
		command []string
		passed  int
		want    string
	}{
		{nil, 2, "vitest changed snapshot files (1 written; "},
		{[]string{"npx", "vitest", "run", "-u"}, 5, "vitest changed snapshot files (1 written, 3 updated, 1 removed; "},
	} {
		dir := adapterstest.ScratchBeside(t, ws, "tmp-snapshots-", filepath.Join(ws, "projects", "snapshots"),
			"package.json", "snap.test.js", "__snapshots__/snap.test.js.snap")
		rec, out, _ := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: dir, Command: tc.command})
		if p := rec.Progress(); p.Passed != tc.passed {
			t.Errorf("%q: counts %+v, want %d passed", tc.command, p, tc.passed)
		}
		if tt, ok := rec.Lookup("snap.test.js", "new one"); !ok || tt.Status != report.TestPassed {
			t.Errorf("%q: the new snapshot's test %+v, want passed (written)", tc.command, tt)
		}
		if !strings.Contains(out.Hint, tc.want) || !strings.Contains(out.Hint, "a test that wrote its snapshot passed without checking anything") {
			t.Errorf("%q: hint %q, want %q in it", tc.command, out.Hint, tc.want)
		}
	}
}

// TestVitestSnapshotUnparsedWritten: outside CI vitest reads a snapshot
// file that does not parse (a merge's conflict markers) as empty, writes
// the test's snapshot over it, and the test passes: the answer names the
// file, says what vitest did, and how to get it back, as it does in CI,
// where the test fails. Nothing said so. Run on a copy of the snapshots
// fixture's files beside each vitest's project (vitest 3 is found hoisted
// in the workspace, 1 and 2 in their projects' own node_modules; those
// report through legacy.mjs, which read no snapshot file before).
func TestVitestSnapshotUnparsedWritten(t *testing.T) {
	t.Setenv("CI", "false")
	ws := fixtures(t)
	const snap = "__snapshots__/corrupt.test.js.snap"
	for _, parent := range []string{ws, filepath.Join(ws, "projects", "vitest1"), filepath.Join(ws, "projects", "vitest2")} {
		dir := adapterstest.ScratchBeside(t, parent, "tmp-unparsed-", filepath.Join(ws, "projects", "snapshots"), "corrupt.test.js", snap)
		adapterstest.WriteFiles(t, dir, map[string]string{"package.json": `{"name": "tmp-unparsed", "private": true, "type": "module", "scripts": {"test": "vitest"}}` + "\n"})
		rec, out, _ := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: dir})
		where := filepath.Base(parent)
		if tt, ok := rec.Lookup("corrupt.test.js", "stored"); !ok || tt.Status != report.TestPassed {
			t.Errorf("%s: the test %+v, want passed: vitest wrote its snapshot", where, tt)
		}
		for _, want := range []string{
			"the snapshot file " + snap + " did not parse (SyntaxError: ",
			"was written over it (outside CI)",
			"(`git checkout -- " + snap + "`)",
		} {
			if !strings.Contains(out.Hint, want) {
				t.Errorf("%s: hint %q, want %q in it", where, out.Hint, want)
			}
		}
		if b, _ := os.ReadFile(filepath.Join(dir, snap)); strings.Contains(string(b), "<<<<<<<") {
			t.Errorf("%s: vitest left %s as it was:\n%s\nwant it written over, as the hint says", where, snap, b)
		}
	}
}

// TestVitestSoft: expect.soft fails a test and lets it go on. Its failure
// is the first; the message names the later ones, a few, and counts the
// rest; later_failures keeps them all.
func TestVitestSoft(t *testing.T) {
	dir := t.TempDir()
	if err := os.Symlink(filepath.Join(fixtures(t), "node_modules"), filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	adapterstest.WriteFiles(t, dir, map[string]string{
		"package.json": `{"name": "soft", "private": true, "type": "module"}`,
		"soft.test.js": `import {test, expect} from 'vitest'

test('soft', () => {
  expect.soft(1 + 1).toBe(3)
  expect.soft('x').toBe('y')
  expect(2).toBe(4)
})

test('soft in a loop', () => {
  for (let i = 0; i < 50; i++) expect.soft(i).toBeLessThan(0)
})
`,
	})
	rec, _, _ := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: dir})
	f := rec.Failure("soft.test.js", "soft")
	want := "expected 2 to be 3 // Object.is equality\n\n- Expected\n+ Received\n\n- 3\n+ 2\nand 2 more failures in this test:\n" +
		"soft.test.js:5: expected 'x' to be 'y' // Object.is equality Expected: \"y\" Received: \"x\"\n" +
		"soft.test.js:6: expected 2 to be 4 // Object.is equality - Expected + Received - 4 + 2"
	if f == nil || f.File != "soft.test.js" || f.Line != 4 || f.Message != want {
		t.Errorf("soft: failure %+v, want soft.test.js:4 and\n%s", f, want)
	}
	f = rec.Failure("soft.test.js", "soft in a loop")
	if f == nil || f.Line != 10 || len(f.Later) != 49 || f.Later[48].Line != 10 || !strings.HasPrefix(f.Later[48].Message, "expected 49 to be less than 0") ||
		!strings.Contains(f.Message, "\nand 49 more failures in this test:\nsoft.test.js:10: expected 1 to be less than 0\n") ||
		!strings.HasSuffix(f.Message, "\n(44 more: the details file's later_failures)") {
		t.Errorf("soft in a loop: failure %+v, want 49 later failures, 5 of them named", f)
	}
}

// TestVitestUntitled: a test whose title is empty (zod's
// language-server.test.ts has `test("", () => {})`) is counted, as
// vitest counts it: strobe dropped it, 2647 passed where vitest said
// 2648. It is named "(untitled)", and its rerun runs its file.
func TestVitestUntitled(t *testing.T) {
	root := filepath.Join(fixtures(t), "tmp-untitled")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	adapterstest.WriteFiles(t, root, map[string]string{
		"package.json": `{"name": "tmp-untitled", "private": true, "scripts": {"test": "vitest"}}` + "\n",
		"untitled.test.js": `import { expect, test } from 'vitest'

test('', () => {})

test('titled', () => {})
`,
		"failing.test.js": `import { expect, test } from 'vitest'

test('', () => {
  expect(1).toBe(2)
})
`,
	})
	rec, _, _ := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root, Command: []string{"npx", "vitest", "run"}})
	if p := rec.Progress(); p.Passed != 2 || p.Failed != 1 {
		t.Errorf("counts %+v, want 2 passed and 1 failed, as vitest counts them", p)
	}
	if tt, ok := adapterstest.TestByName(rec.Tests(), untitledName); !ok || tt.Suite != "untitled.test.js" || tt.Status != report.TestPassed {
		t.Errorf("tests %+v, want %q passed in untitled.test.js", rec.Tests(), untitledName)
	}
	if f := rec.Failure("failing.test.js", untitledName); f == nil || f.Line != 4 || f.Rerun != "npx vitest run failing.test.js" {
		t.Errorf("failure %+v, want at failing.test.js:4, rerun by its file", f)
	}
}

// TestVitestThrownElsewhere: an exception the project's own code threw (a
// library function the test calls) is placed at the test's line, and its
// message says where it was thrown, at the TypeScript source's line, as
// node:test's, mocha's and Maven's do; an error the test throws itself, or
// an assertion, says nothing more. Run in a project written beside the
// workspace's (vitest is found hoisted there).
func TestVitestThrownElsewhere(t *testing.T) {
	root := filepath.Join(fixtures(t), "tmp-thrown")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	adapterstest.WriteFiles(t, root, map[string]string{
		"package.json": `{"name": "tmp-thrown", "private": true, "scripts": {"test": "vitest"}}` + "\n",
		"lib/parse.ts": `interface Pair {
  key: string
}

export function parse(s: string): Pair {
  if (s === '') throw new TypeError('nothing to parse')
  return { key: s }
}
`,
		"test/parse.test.ts": `import { expect, test } from 'vitest'
import { parse } from '../lib/parse'

test('parses', () => {
  expect(parse('a')).toEqual({ key: 'a' })
})

test('empty', () => {
  expect(parse('')).toEqual({ key: '' })
})

test('own throw', () => {
  throw new RangeError('from the test')
})

test('wrong', () => {
  expect(parse('b')).toEqual({ key: 'c' })
})
`,
	})
	rec, _, _ := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root, Command: []string{"npx", "vitest", "run"}})
	if p := rec.Progress(); p.Passed != 1 || p.Failed != 3 {
		t.Errorf("counts %+v, want 1 passed and 3 failed", p)
	}
	const file = "test/parse.test.ts"
	if f := rec.Failure(file, "empty"); f == nil || f.File != file || f.Line != 9 || f.Message != "TypeError: nothing to parse\n(thrown at lib/parse.ts:6)" {
		t.Errorf("empty: failure %+v, want at %s:9, thrown at lib/parse.ts:6", f, file)
	}
	if f := rec.Failure(file, "own throw"); f == nil || f.Line != 13 || f.Message != "RangeError: from the test" {
		t.Errorf("own throw: failure %+v, want at %s:13 with its message alone", f, file)
	}
	if f := rec.Failure(file, "wrong"); f == nil || f.Line != 17 || strings.Contains(f.Message, "thrown at") {
		t.Errorf("wrong: failure %+v, want at %s:17, no thrown at", f, file)
	}
}

// TestVitestAggregateError: an AggregateError's message says the errors it
// holds (at most five, the rest counted), where vitest's report is the
// outer error's message alone. Run in a project written beside the
// workspace's (vitest is found hoisted there).
func TestVitestAggregateError(t *testing.T) {
	root := filepath.Join(fixtures(t), "tmp-aggregate")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	for f, text := range map[string]string{
		"package.json": `{"name": "tmp-aggregate", "private": true, "scripts": {"test": "vitest"}}` + "\n",
		"aggregate.test.js": `import { test } from 'vitest'

test('any of two', async () => {
  await Promise.any([Promise.reject(new Error('first inner')), Promise.reject(new TypeError('second inner'))])
})

test('any of seven', async () => {
  await Promise.any([1, 2, 3, 4, 5, 6, 7].map((n) => Promise.reject(new RangeError('inner ' + n))))
})
`,
	} {
		if err := os.WriteFile(filepath.Join(root, f), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rec, _, _ := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root, Command: []string{"npx", "vitest", "run"}})
	for name, want := range map[string]string{
		"any of two":   "AggregateError: All promises were rejected\n\nits errors:\n  Error: first inner\n  TypeError: second inner",
		"any of seven": "its errors:\n  RangeError: inner 1\n  RangeError: inner 2\n  RangeError: inner 3\n  RangeError: inner 4\n  RangeError: inner 5\n  and 2 more",
	} {
		if f := rec.Failure("aggregate.test.js", name); f == nil || !strings.Contains(f.Message, want) {
			t.Errorf("%s: failure %+v, want %q in its message", name, f, want)
		}
	}
}

// TestVitestScope: strobe given a directory inside the package runs the
// tests under it, not every test of the package (as `vitest run DIR/`
// counts them); a level, which vitest cannot narrow to it, is refused.
func TestVitestScope(t *testing.T) {
	root := filepath.Join(project(t, "basic"), "test", "unit")
	rec, _, exit := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root})
	files := map[string]bool{}
	for _, x := range rec.Tests() {
		files[x.Suite] = true
	}
	p := rec.Progress()
	if exit.Code != 1 || p.Passed != 4 || p.Failed != 3 || p.Skipped != 2 || len(files) != 2 || !files["math.test.ts"] || !files["strings.test.js"] {
		t.Errorf("exit %+v, %d passed, %d failed, %d skipped in %v; want test/unit's 4, 3 and 2 in math.test.ts and strings.test.js", exit, p.Passed, p.Failed, p.Skipped, files)
	}
	// A rerun is pasted in test/unit and runs in the package, two up:
	// it named the file from the package and ran from test/unit.
	tt, _ := adapterstest.TestByName(rec.Tests(), "math > adds wrongly")
	if f := tt.Failure; f == nil || !strings.HasPrefix(f.Rerun, "cd ../.. && ") || !strings.Contains(f.Rerun, " test/unit/math.test.ts -t ") {
		t.Errorf("rerun of math > adds wrongly: %+v, want it run from the package's directory, two up", f)
	}

	_, err := New().Plan(context.Background(), adapters.Request{ProjectRoot: root, Level: adapters.LevelUnit}, adapters.NewRecorder())
	var ue *adapters.UsageError
	if !errors.As(err, &ue) || !strings.Contains(ue.Hint, "give the package's directory") {
		t.Errorf("a level in a directory of the package: %v, want a usage error that says what to give", err)
	}
}

// TestVitest2: vitest before 3 has no live events; its JSON report,
// read at the end, gives the counts and the failure's place, and the run
// is a test run from its start (no build phase: before, the stuck
// detector never judged it and only the build's half hour stopped a
// hang).
func TestVitest2(t *testing.T) {
	root := project(t, "vitest2")
	rec := adapters.NewRecorder()
	plan, err := New().Plan(context.Background(), adapters.Request{ProjectRoot: root}, rec)
	if err != nil {
		t.Fatal(err)
	}
	plan.Parser.(adapters.Closer).Close()
	if p := rec.Progress(); p.Phase != adapters.PhaseRunning {
		t.Errorf("phase %v once planned, want running: no event of vitest 2's says the tests began", p.Phase)
	}
	if !slices.Contains(plan.Argv, "--reporter=json") {
		t.Errorf("argv %q: want vitest 2's JSON report", plan.Argv)
	}

	rec, _, exit := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root})
	if !exit.Exited || exit.Code != 1 {
		t.Errorf("exit = %+v, want vitest's 1 for a failed test", exit)
	}
	if p := rec.Progress(); p.Passed != 1 || p.Failed != 1 || p.Skipped != 2 {
		t.Errorf("counts %d passed, %d failed, %d skipped; want 1, 1, 2", p.Passed, p.Failed, p.Skipped)
	}
	tt, _ := adapterstest.TestByName(rec.Tests(), "carries")
	if f := tt.Failure; f == nil || f.File != "sum.test.js" || f.Line != 8 || !strings.HasPrefix(f.Message, "expected 10 to be 11") {
		t.Errorf("carries: %+v, want its failure at sum.test.js:8", f)
	}
}

// TestVitestOldSelection: vitest 1 and 2 report the tests -t left out as
// skipped, so a name that matched nothing answered passed (0 passed, N
// skipped); vitest 1 also names every test after the file's empty suite
// (" carry > tens"), so a -t of the name it prints matched nothing. The
// names are vitest's, a name selects its test, one that matches nothing
// is no_tests, and the rerun runs the test.
func TestVitestOldSelection(t *testing.T) {
	for _, tc := range []struct{ project, name, file string }{
		{"vitest1", "carry > tens", "sum.test.js"},
		{"vitest2", "carries", "sum.test.js"},
	} {
		t.Run(tc.project, func(t *testing.T) {
			root := project(t, tc.project)
			rec, out, _ := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root, Test: tc.name})
			p := rec.Progress()
			tt, _ := adapterstest.TestByName(rec.Tests(), tc.name)
			if p.Failed != 1 || p.Passed != 0 || p.Skipped != 0 || tt.Failure == nil {
				t.Fatalf("--test %q: %d passed, %d failed, %d skipped, tests %+v; want the one test failed, nothing else", tc.name, p.Passed, p.Failed, p.Skipped, rec.Tests())
			}
			_, out, _ = adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root, Test: "no such test"})
			if !out.NoTests {
				t.Errorf("--test of no test: outcome %+v, want no_tests", out)
			}
			argv, err := shell.Split(tt.Failure.Rerun)
			if err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(argv[0], argv[1:]...)
			cmd.Dir = root
			b, _ := cmd.CombinedOutput()
			if !strings.Contains(string(b), "1 failed") || strings.Contains(string(b), "passed") {
				t.Errorf("rerun %q:\n%s\nwant the one test failed", tt.Failure.Rerun, b)
			}
		})
	}
}

// withoutReport plans as vitest does, then points the parser at a JSON
// report that is never written: a run strobe stopped, whose report never
// came.
type withoutReport struct {
	adapters.Adapter
	dir string
}

func (w withoutReport) Plan(ctx context.Context, req adapters.Request, rec *adapters.Recorder) (*adapters.Plan, error) {
	plan, err := w.Adapter.Plan(ctx, req, rec)
	if err == nil {
		plan.Parser.(*parser).jsonReport = filepath.Join(w.dir, "never.json")
	}
	return plan, err
}

// TestVitestOldWithoutReport: vitest 1 and 2 write their JSON report only
// at the end, and a run strobe stopped had no test at all. Each test's
// end comes from strobe's reporter beside it as vitest learns of it, with
// the name the report gives and the failure's message and place.
func TestVitestOldWithoutReport(t *testing.T) {
	for _, tc := range []struct{ project, failed string }{
		{"vitest1", "carry > tens"},
		{"vitest2", "carries"},
	} {
		t.Run(tc.project, func(t *testing.T) {
			root := project(t, tc.project)
			rec, _, _ := adapterstest.RunReal(t, withoutReport{New(), t.TempDir()}, adapters.Request{ProjectRoot: root})
			p := rec.Progress()
			if p.Passed != 1 || p.Failed != 1 {
				t.Fatalf("%d passed, %d failed, tests %+v; want adds passed and %s failed", p.Passed, p.Failed, rec.Tests(), tc.failed)
			}
			f := rec.Failure("sum.test.js", tc.failed)
			if f == nil || f.File != "sum.test.js" || f.Line == 0 || !strings.HasPrefix(f.Message, "expected 10 to be 11") || !strings.Contains(f.Rerun, "-t") {
				t.Errorf("%s: failure %+v, want expected 10 to be 11 at sum.test.js, and a rerun", tc.failed, f)
			}
		})
	}
}

// TestVitestSharedLoadError: a tsconfig.json whose extends names a package
// that is not installed fails every TypeScript test file's transform with
// one error, which vite's tsconfig reader keeps and names after the file
// it failed first; each file is a build error of its own, not the first
// failing one named again (three files answered a, b and b).
func TestVitestSharedLoadError(t *testing.T) {
	root := filepath.Join(fixtures(t), "tmp-sharedload")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	files := map[string]string{
		"package.json":  `{"name": "tmp-sharedload", "private": true, "type": "module", "scripts": {"test": "vitest"}}` + "\n",
		"tsconfig.json": `{"extends": "@tsconfig/not-installed/tsconfig.json", "compilerOptions": {"strict": true}}` + "\n",
	}
	for _, f := range []string{"a", "b", "c"} {
		files["test/"+f+".test.ts"] = "import { expect, test } from 'vitest'\n\ntest('" + f + "', () => {\n  expect(1 as number).toBe(1)\n})\n"
	}
	adapterstest.WriteFiles(t, root, files)
	_, out, _ := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root, Command: []string{"npx", "vitest", "run"}})
	var got []string
	for _, b := range out.BuildErrors {
		got = append(got, b.File)
		if !strings.Contains(b.Message, `failed to resolve "extends"`) {
			t.Errorf("%s: message %q, want tsconfck's", b.File, b.Message)
		}
	}
	slices.Sort(got)
	if want := []string{"test/a.test.ts", "test/b.test.ts", "test/c.test.ts"}; !out.BuildFailed || !slices.Equal(got, want) {
		t.Errorf("build failed %v, errors in %q; want one in each of %q", out.BuildFailed, got, want)
	}
}

// TestVitestShownCommand: the answer's command named strobe's reporter,
// in a directory removed after the run (`--reporter=/tmp/…/reporter.mjs`):
// pasted, vitest could not load it. It is the command a person types.
func TestVitestShownCommand(t *testing.T) {
	cmd, out := adapterstest.PasteShown(t, New(), adapters.Request{ProjectRoot: project(t, "basic")})
	if cmd != "npx vitest run" || !strings.Contains(string(out), "3 failed | 6 passed") {
		t.Errorf("%s:\n%s\nwant `npx vitest run` and vitest's counts", cmd, out)
	}
}
