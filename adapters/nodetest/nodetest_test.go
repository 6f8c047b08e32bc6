package nodetest

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
	"strobe/adapters/kit/node"
	"strobe/internal/shell"
	"strobe/internal/testutil"
	"strobe/report"
)

func fixture(name string) string {
	abs, _ := filepath.Abs(filepath.Join("testdata", "fixtures", name))
	return abs
}

// normalise zeroes durations and names the fixture's directory {{ROOT}}.
func normalise(rec *adapters.Recorder, out adapters.Outcome, root string) adapterstest.Result {
	return adapterstest.Normalise(rec, out, func(s string) string { return strings.ReplaceAll(s, root, "{{ROOT}}") })
}

func run(t *testing.T, req adapters.Request) (*adapters.Recorder, adapters.Outcome, report.Exit) {
	t.Helper()
	testutil.RequireTool(t, "node")
	return adapterstest.RunReal(t, New(), req)
}

func byName(t *testing.T, rec *adapters.Recorder, name string) report.Test {
	t.Helper()
	tt, ok := adapterstest.TestByName(rec.Tests(), name)
	if !ok {
		t.Fatalf("no test %q among %v", name, names(rec))
	}
	return tt
}

func names(rec *adapters.Recorder) []string {
	var out []string
	for _, t := range rec.Tests() {
		out = append(out, t.Name)
	}
	return out
}

func TestNodeBasic(t *testing.T) { testutil.EachNode(t, testNodeBasic) }

func testNodeBasic(t *testing.T) {
	root := fixture("basic")
	rec, out, exit := run(t, adapters.Request{ProjectRoot: root})
	if !exit.Exited || exit.Code != 1 {
		t.Errorf("exit %+v, want node's 1 for failed tests", exit)
	}
	adapterstest.Golden(t, "basic-all", normalise(rec, out, root))
	for _, tc := range []struct {
		name, file string
		line       int
		msg        string
	}{
		{"arithmetic › adds wrongly", "test/math.test.js", 15, "Expected values to be strictly equal:\n\n4 !== 5\n\nexpected: 5\nreceived: 4"},
		{"arithmetic › compares objects", "test/math.test.js", 19, "+ actual - expected"},
		{"arithmetic › nested [regex] (chars)? › throws a TypeError", "test/math.test.js", 27, "TypeError: Cannot read properties of null (reading 'boom')"},
		{"with a failing hook", "test/hooks.test.mjs", 6, "before hook: Error: database unavailable"},
	} {
		tt := byName(t, rec, tc.name)
		f := tt.Failure
		if tt.Status != report.TestFailed || f == nil || f.File != tc.file || f.Line != tc.line || !strings.Contains(f.Message, tc.msg) {
			t.Errorf("%s: %s %+v, want failed at %s:%d with %q", tc.name, tt.Status, f, tc.file, tc.line, tc.msg)
		}
		if tt.Suite != tc.file {
			t.Errorf("%s: suite %q, want its file", tc.name, tt.Suite)
		}
	}
	f := byName(t, rec, "arithmetic › nested [regex] (chars)? › throws a TypeError").Failure
	if want := `node --test '--test-name-pattern=^throws a TypeError$' test/math.test.js`; f.Rerun != want {
		t.Errorf("rerun %q, want %q", f.Rerun, want)
	}
	for name, want := range map[string]report.TestStatus{
		"adds small numbers":                        report.TestPassed,
		"arithmetic › skipped for now":              report.TestSkipped,
		"arithmetic › divides by zero":              report.TestSkipped,
		"waits a little":                            report.TestPassed,
		"passes in ESM":                             report.TestPassed,
		"with a failing hook › never runs its body": report.TestSkipped, // cancelled by the hook
	} {
		if got := byName(t, rec, name).Status; got != want {
			t.Errorf("%s: %s, want %s", name, got, want)
		}
	}
	for _, suite := range []string{"arithmetic", "arithmetic › nested [regex] (chars)?"} {
		if _, ok := adapterstest.TestByName(rec.Tests(), suite); ok {
			t.Errorf("describe block %q recorded as a test", suite)
		}
	}
	if out.BuildFailed || out.Crash != nil || out.NoTests {
		t.Errorf("outcome %+v for plain failures", out)
	}
	// node's summary: tests 9, pass 3, fail 3, cancelled 1, skipped 1,
	// todo 1; strobe lists the hook's failure besides (node counts the
	// block among its suites), and the cancelled test with the skipped.
	if p := rec.Progress(); p.Passed != 3 || p.Failed != 4 || p.Skipped != 3 {
		t.Errorf("counts %d passed, %d failed, %d skipped; want 3, 4 (node's 3 and the hook), 3", p.Passed, p.Failed, p.Skipped)
	}
}

// TestNodeCancelled: the tests node cancels with their parent are counted
// apart from the failures, as node counts them (node: tests 11, pass 2,
// fail 2, cancelled 5, skipped 1, todo 1): skipped, each saying why, and
// the failure listed is the cause: the describe block's before hook, or
// the parent test that ended without awaiting its subtest, at the
// subtest's line. A test whose own promise never settled is node's
// cancelled too, but it is the failure: counted failed.
func TestNodeCancelled(t *testing.T) {
	root := fixture("cancelled")
	rec, out, exit := run(t, adapters.Request{ProjectRoot: root})
	if exit.Code != 1 {
		t.Errorf("exit %+v, want node's 1", exit)
	}
	adapterstest.Golden(t, "cancelled-all", normalise(rec, out, root))
	if p := rec.Progress(); p.Passed != 2 || p.Failed != 4 || p.Skipped != 7 {
		t.Errorf("counts %d passed, %d failed, %d skipped; want 2, 4 (node's 2, the hook, the parent test, the test that never settled), 7 (1 skipped, 1 todo, 5 cancelled)",
			p.Passed, p.Failed, p.Skipped)
	}
	for name, why := range map[string]string{
		"database › reads a row":                                "cancelled by node: the before hook of its describe block `database` failed",
		"database › writes a row":                               "cancelled by node: the before hook of its describe block `database` failed",
		"database › transactions › commits":                     "cancelled by node: the before hook of its describe block `database` failed",
		"parent forgets to await › runs after its parent ended": "cancelled by node: its parent test `parent forgets to await` ended without awaiting it",
		"queued behind it":                                      "cancelled by node before it ran: the test `never settles` before it never settled, and node ended the file",
	} {
		tt := byName(t, rec, name)
		if tt.Status != report.TestSkipped || tt.Failure == nil || tt.Failure.Message != why {
			t.Errorf("%s: %s %+v, want skipped: %q", name, tt.Status, tt.Failure, why)
		}
	}
	for _, tc := range []struct {
		name, file string
		line       int
		msg, rerun string
	}{
		{"database", "test/hook.test.js", 6, "before hook: Error: connection refused", "node --test test/hook.test.js"},
		{"parent forgets to await", "test/await.test.js", 5, "the test ended without awaiting its subtest `runs after its parent ended` (test/await.test.js:5)",
			"node --test '--test-name-pattern=^parent forgets to await$' test/await.test.js"},
		{"never settles", "test/pending.test.js", 3, "the test never settled", "node --test '--test-name-pattern=^never settles$' test/pending.test.js"},
		{"fails on its own", "test/hook.test.js", 18, "1 !== 2", "node --test '--test-name-pattern=^fails on its own$' test/hook.test.js"},
	} {
		tt := byName(t, rec, tc.name)
		f := tt.Failure
		if tt.Status != report.TestFailed || f == nil || f.File != tc.file || f.Line != tc.line || !strings.Contains(f.Message, tc.msg) || f.Rerun != tc.rerun {
			t.Errorf("%s: %s %+v, want failed at %s:%d with %q, rerun %q", tc.name, tt.Status, f, tc.file, tc.line, tc.msg, tc.rerun)
		}
	}
	if _, ok := adapterstest.TestByName(rec.Tests(), "database › transactions"); ok {
		t.Errorf("the cancelled describe block is recorded as a test: %q", names(rec))
	}
	for _, want := range []string{
		"node cancelled 6 tests, which its summary counts apart from its failures",
		"`queued behind it`, which never ran: the test `never settles` before it never settled (that failure is listed): counted skipped",
		"`database › reads a row`, `database › writes a row` and `database › transactions › commits`, as the before hook of their describe block `database` failed",
		"`parent forgets to await › runs after its parent ended` (test/await.test.js:5), as its parent test `parent forgets to await` ended without awaiting it, a bug in the test",
		"`never settles` (test/pending.test.js:3), as its promise never settled: counted failed",
	} {
		if !strings.Contains(out.Hint, want) {
			t.Errorf("hint %q\nwant %q", out.Hint, want)
		}
	}
}

// TestNodeBroken: test files that do not load (a missing module, a
// syntax error in ESM) are build errors at their file:line; the file
// that loads still runs.
func TestNodeBroken(t *testing.T) { testutil.EachNode(t, testNodeBroken) }

func testNodeBroken(t *testing.T) {
	root := fixture("broken")
	rec, out, _ := run(t, adapters.Request{ProjectRoot: root})
	adapterstest.Golden(t, "broken-all", normalise(rec, out, root))
	if !out.BuildFailed || len(out.BuildErrors) != 2 {
		t.Fatalf("outcome %+v, want two build errors", out)
	}
	want := []report.BuildError{
		{File: "test/missing.test.js", Line: 2, Message: "Error: Cannot find module './helpers/does-not-exist'"},
		{File: "test/syntax.test.mjs", Line: 5, Message: "SyntaxError: Unexpected token ')'"},
	}
	slices.SortFunc(out.BuildErrors, func(a, b report.BuildError) int { return strings.Compare(a.File, b.File) })
	if !slices.Equal(out.BuildErrors, want) {
		t.Errorf("build errors %+v, want %+v", out.BuildErrors, want)
	}
	if tt := byName(t, rec, "still runs"); tt.Status != report.TestPassed {
		t.Errorf("still runs: %s", tt.Status)
	}
}

func TestNodeEmpty(t *testing.T) {
	_, out, exit := run(t, adapters.Request{ProjectRoot: fixture("empty")})
	if !out.NoTests || !strings.Contains(out.Hint, "found no tests") {
		t.Errorf("outcome %+v (exit %+v), want no tests with node's file patterns", out, exit)
	}
}

// TestNodeCrash: process.abort() in a test is a crash with SIGABRT at
// the test's line, never a pass; process.exit in a test fails that test,
// named from the call's stack (node lost the file's events with its
// process), and process.exit(0), which node counts a passing file, too.
func TestNodeCrash(t *testing.T) { testutil.EachNode(t, testNodeCrash) }

func testNodeCrash(t *testing.T) {
	root := fixture("crash")
	rec, out, exit := run(t, adapters.Request{ProjectRoot: root})
	if exit.Code == 0 {
		t.Errorf("exit %+v", exit)
	}
	c := out.Crash
	if c == nil || c.SignalName != "SIGABRT" || c.Type != report.CrashAbort || !strings.Contains(c.Message, "test/abort.test.js:6") {
		t.Fatalf("crash %+v, want SIGABRT at test/abort.test.js:6", c)
	}
	p := rec.Progress()
	if p.Failed != 3 || p.Passed > 1 {
		t.Errorf("progress %+v, want a failure in each file (and at most exit0's first test passed)", p)
	}
	f := byName(t, rec, "test/abort.test.js").Failure
	if f == nil || f.File != "test/abort.test.js" || f.Line != 6 || f.Rerun != "node --test test/abort.test.js" {
		t.Errorf("failure %+v", f)
	}
	// process.exit(3) in a test: node lost the child's events, and the
	// file failed; not a build error, nothing was wrong with loading it.
	f = byName(t, rec, "exits early").Failure
	if f == nil || !strings.Contains(f.Message, "process.exit(3)") || f.File != "test/exit.test.js" || f.Line != 4 || out.BuildFailed {
		t.Errorf("failure %+v, build failed %v; want exits early at test/exit.test.js:4, its process.exit(3)", f, out.BuildFailed)
	}
	f = byName(t, rec, "exits with 0").Failure
	if f == nil || !strings.Contains(f.Message, "process.exit(0)") || f.Line != 6 || f.Rerun != "node --test '--test-name-pattern=^exits with 0$' test/exit0.test.js" {
		t.Errorf("failure %+v, want exits with 0 at test/exit0.test.js:6, its process.exit(0), run alone", f)
	}
	for _, n := range names(rec) {
		if n == "test/exit0.test.js" || n == "never runs" {
			t.Errorf("%s recorded: node counted the file passed, and never ran the test", n)
		}
	}
	if !slices.Contains(out.Indicators, report.IndicatorNotReached) || !strings.Contains(out.Hint, "process.exit in test/exit.test.js and test/exit0.test.js") {
		t.Errorf("indicators %v, hint %q: want the results node lost said", out.Indicators, out.Hint)
	}
}

// TestNodeExitInASubtest: process.exit in a subtest fails the subtest,
// named by its full title from the call's stack (before, its outermost
// parent test, whose body holds the call of the subtest, was named), and
// its rerun runs that parent test, which node must run for the subtest
// to run.
func TestNodeExitInASubtest(t *testing.T) {
	dir := t.TempDir()
	adapterstest.WriteFiles(t, dir, map[string]string{
		"package.json": `{"name": "exitsub", "private": true, "scripts": {"test": "node --test"}}` + "\n",
		"test/sub.test.js": `const { describe, test } = require('node:test');

describe('block', () => {
  test('outer', async (t) => {
    await t.test('fine', () => {});
    await t.test('inner', () => {
      process.exit(0);
    });
  });
});
`,
	})
	rec, _, _ := run(t, adapters.Request{ProjectRoot: dir})
	f := byName(t, rec, "block › outer › inner").Failure
	if f == nil || !strings.Contains(f.Message, "process.exit(0)") || f.File != "test/sub.test.js" || f.Line != 7 ||
		f.Rerun != "node --test '--test-name-pattern=^outer$' test/sub.test.js" {
		t.Errorf("failure %+v, want the subtest's process.exit(0) at test/sub.test.js:7, rerun through outer", f)
	}
}

// TestNodeAsyncAfterEnd: a promise a test rejects after it ended fails the
// file's process (exit 1) once its tests passed; node says which test and
// why only in a diagnostic, which the file's failure must carry, not
// "failed before its tests reported".
func TestNodeAsyncAfterEnd(t *testing.T) {
	rec, out, _ := run(t, adapters.Request{ProjectRoot: fixture("async")})
	if p := rec.Progress(); p.Passed != 2 || p.Failed != 1 {
		t.Errorf("progress %+v, want both tests passed and the file failed, as node counts them", p)
	}
	f := byName(t, rec, "test/rejection.test.js").Failure
	if f == nil || f.File != "test/rejection.test.js" || f.Line != 5 || !strings.Contains(f.Message, `"leaves a rejection behind"`) ||
		!strings.Contains(f.Message, "nobody catches me") || strings.Contains(f.Message, "before its tests reported") || out.BuildFailed {
		t.Errorf("failure %+v, build failed %v", f, out.BuildFailed)
	}
}

// TestNodeScripts: a test file that calls no test() (a script of plain
// asserts, a helper under test/) is one test to node, named by its file
// and counted; one whose top-level assert fails is that test failed at
// the assert, not a file that did not load. They were left out (a
// project of such files was "no tests") and the failed one was a build
// error.
func TestNodeScripts(t *testing.T) {
	rec, out, _ := run(t, adapters.Request{ProjectRoot: fixture("scripts")})
	if p := rec.Progress(); p.Passed != 3 || p.Failed != 1 {
		t.Errorf("progress %+v, want node's tests 4, pass 3, fail 1", p)
	}
	if out.BuildFailed || out.NoTests || out.Crash != nil {
		t.Errorf("outcome %+v, want a failed run", out)
	}
	for _, name := range []string{"test/plain.test.mjs", "test/helpers/double.js", "doubles"} {
		if tt := byName(t, rec, name); tt.Status != report.TestPassed {
			t.Errorf("%s: %s", name, tt.Status)
		}
	}
	f := byName(t, rec, "test/asserts.test.js").Failure
	if f == nil || f.File != "test/asserts.test.js" || f.Line != 6 || f.Message != "Expected values to be strictly equal:\n\n4 !== 5" ||
		f.Rerun != "node --test test/asserts.test.js" {
		t.Errorf("failure %+v, want the assert at test/asserts.test.js:6, rerun by its file", f)
	}
}

// TestNodeSelection runs one test by file and full title (regex
// characters escaped) and each level by its files.
func TestNodeSelection(t *testing.T) {
	for _, tc := range []struct {
		name  string
		root  string
		req   adapters.Request
		tests []string
	}{
		{"one test", "basic", adapters.Request{Test: "test/math.test.js › arithmetic › nested [regex] (chars)? › throws a TypeError"}, []string{"arithmetic › nested [regex] (chars)? › throws a TypeError"}},
		// node 20 still runs the hooks of a describe block none of whose
		// tests match: the failing before hook fails its block. node 22
		// leaves such a block out whole.
		{"own name", "basic", adapters.Request{Test: "adds small numbers"}, ownName(t)},
		// A failure of a file (a rejection after its test ended, an
		// exit) is named by the file: that name runs the file whole.
		{"failed file", "async", adapters.Request{Test: "test/rejection.test.js"}, []string{"leaves a rejection behind", "passes first", "test/rejection.test.js"}},
		{"unit", "levels", adapters.Request{Level: adapters.LevelUnit}, []string{"unit works"}},
		{"integration", "levels", adapters.Request{Level: adapters.LevelIntegration}, []string{"integration works"}},
		{"e2e", "levels", adapters.Request{Level: adapters.LevelE2E}, []string{"e2e by its file name", "e2e works"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.req.ProjectRoot = fixture(tc.root)
			rec, out, _ := run(t, tc.req)
			got := names(rec)
			slices.Sort(got)
			if !slices.Equal(got, tc.tests) {
				t.Errorf("ran %q, want %q (outcome %+v)", got, tc.tests, out)
			}
		})
	}
	_, out, _ := run(t, adapters.Request{ProjectRoot: fixture("basic"), Level: adapters.LevelE2E})
	if !out.NoTests || !strings.Contains(out.Hint, "unit/, integration/ or e2e/") {
		t.Errorf("a level without files: %+v", out)
	}
}

// TestNodeCommandFiles: node 20 takes every argument after the first file
// or directory as another one, so strobe's options go before the
// command's files, and a selection's file takes their place; the rerun
// too. Under node 22 too (EachNode): there a directory is no test file.
func TestNodeCommandFiles(t *testing.T) { testutil.EachNode(t, testNodeCommandFiles) }

func testNodeCommandFiles(t *testing.T) {
	root := fixture("basic")
	if nodeMajor(t) >= 21 {
		// node 21 and later run the directory as a test file, which does
		// not load: the answer says why, and what node takes instead.
		_, out, _ := run(t, adapters.Request{ProjectRoot: root, Command: []string{"node", "--test", "test/"}})
		want := `node ran the directory test/ as a test file: node 21 and later read each argument of node --test as a glob, not a directory; name its files with a glob ("test/**/*.{js,cjs,mjs}")`
		if !out.BuildFailed || len(out.BuildErrors) != 1 || !strings.HasPrefix(out.BuildErrors[0].Message, want) {
			t.Errorf("outcome %+v, want a build error: %s", out, want)
		}
		return
	}
	rec, out, _ := run(t, adapters.Request{ProjectRoot: root, Command: []string{"node", "--test", "test/"}})
	if p := rec.Progress(); p.Passed != 3 || p.Failed != 4 || p.Skipped != 3 {
		t.Errorf("progress %+v (hint %q), want the whole suite's 3 passed, 4 failed, 3 skipped", p, out.Hint)
	}
	f := byName(t, rec, "arithmetic › adds wrongly").Failure
	if want := "node --test '--test-name-pattern=^adds wrongly$' test/math.test.js"; f == nil || f.Rerun != want {
		t.Errorf("rerun %+v, want %q", f, want)
	}
	rec, out, _ = run(t, adapters.Request{ProjectRoot: root, Command: []string{"node", "--test", "test/"}, Test: "test/math.test.js › adds small numbers"})
	if got := names(rec); !slices.Equal(got, []string{"adds small numbers"}) {
		t.Errorf("ran %q (hint %q), want the one test", got, out.Hint)
	}
}

// TestNodeSeveral: several tests, as --failed reruns a run's failures, run
// in one node process: their files, a pattern for each; a describe
// block's hook failure by the block's name (its tests run, and its hook);
// a file's failure by the file, whole.
func TestNodeSeveral(t *testing.T) {
	for _, tc := range []struct {
		name  string
		root  string
		tests []adapters.TestRef
		want  []string
	}{
		{"tests and a block", "basic", []adapters.TestRef{
			{Suite: "test/math.test.js", Name: "arithmetic › adds wrongly"},
			{Suite: "test/math.test.js", Name: "arithmetic › nested [regex] (chars)? › throws a TypeError"},
			{Suite: "test/hooks.test.mjs", Name: "with a failing hook"},
		}, []string{"arithmetic › adds wrongly", "arithmetic › nested [regex] (chars)? › throws a TypeError", "with a failing hook", "with a failing hook › never runs its body"}},
		{"a file", "async", []adapters.TestRef{{Suite: "test/rejection.test.js", Name: "test/rejection.test.js"}},
			[]string{"leaves a rejection behind", "passes first", "test/rejection.test.js"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec, out, _ := run(t, adapters.Request{ProjectRoot: fixture(tc.root), Tests: tc.tests})
			got := names(rec)
			slices.Sort(got)
			if !slices.Equal(got, tc.want) {
				t.Errorf("ran %q, want %q (hint %q)", got, tc.want, out.Hint)
			}
		})
	}
}

// start runs a plan in a process group of its own, as the runner does.
func start(t *testing.T, req adapters.Request, env ...string) *adapterstest.Started {
	t.Helper()
	testutil.RequireTool(t, "node")
	return adapterstest.Start(t, New(), req, env...)
}

// leftovers lists the processes whose command line names dir.
func leftovers(dir string) []string {
	var left []string
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		b, err := os.ReadFile(p)
		if err == nil && strings.Contains(string(b), dir) {
			left = append(left, strings.ReplaceAll(string(b), "\x00", " "))
		}
	}
	return left
}

func noneLeft(t *testing.T, dir string) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if len(leftovers(dir)) == 0 {
			return
		}
	}
	t.Errorf("processes left: %q", leftovers(dir))
}

// TestNodeHang: a test awaiting a promise that never settles, with a
// timer keeping the loop alive, is named running while it hangs; strobe's
// timeout (SIGTERM to the group, as the runner sends it) leaves it running,
// no crash, and no node process behind, the file's child included.
func TestNodeHang(t *testing.T) { testutil.EachNode(t, testNodeHang) }

func testNodeHang(t *testing.T) {
	root := fixture("hang")
	s := start(t, adapters.Request{ProjectRoot: root})
	s.WaitRunning(t, "waits for ever")
	if p := s.Rec.Progress(); p.Passed != 1 {
		t.Errorf("progress %+v, want the quick test passed", p)
	}
	syscall.Kill(-s.Cmd.Process.Pid, syscall.SIGTERM)
	exit := s.Wait()
	exit.StoppedBy = report.StoppedTimeout
	out := s.Plan.Parser.Finish(exit)
	s.Plan.Parser.(adapters.Closer).Close()
	if out.Crash != nil || out.NoTests || out.BuildFailed {
		t.Errorf("outcome %+v, want nothing of the adapter's", out)
	}
	if got := s.Rec.Abandon(); !slices.Equal(got, []string{"waits for ever"}) {
		t.Errorf("abandoned %q, want the hung test", got)
	}
	noneLeft(t, root)
}

// TestNodeCancel: Ctrl+C reaches node --test alone (not its group): the
// test file's child goes with it.
func TestNodeCancel(t *testing.T) {
	root := fixture("hang")
	s := start(t, adapters.Request{ProjectRoot: root})
	s.WaitRunning(t, "waits for ever")
	s.Cmd.Process.Signal(syscall.SIGINT)
	exit := s.Wait()
	exit.StoppedBy = report.StoppedCancelled
	s.Plan.Parser.Finish(exit)
	s.Plan.Parser.(adapters.Closer).Close()
	noneLeft(t, root)
	if _, err := os.Stat(filepath.Dir(s.Plan.Argv[2][len("--test-reporter="):])); !os.IsNotExist(err) {
		t.Errorf("the reporter's directory is left: %v", err)
	}
}

// TestNodeNoisy: a test printing 200 MB keeps strobe's memory bounded:
// the test's output is capped, the run's result intact.
func TestNodeNoisy(t *testing.T) {
	if testing.Short() {
		t.Skip("200 MB through node's runner takes a while")
	}
	root := fixture("noisy")
	s := start(t, adapters.Request{ProjectRoot: root}, "NOISY_MB=200")
	peak := sampleHeap()
	exit := s.Wait()
	if p := peak(); p > 64<<20 {
		t.Errorf("heap peaked at %d MiB while a test printed 200 MB", p>>20)
	}
	out := s.Plan.Parser.Finish(exit)
	s.Plan.Parser.(adapters.Closer).Close()
	if exit.Code != 0 || out.NoTests || out.Crash != nil {
		t.Errorf("exit %+v, outcome %+v", exit, out)
	}
	if p := s.Rec.Progress(); p.Passed != 2 {
		t.Errorf("progress %+v, want both tests passed", p)
	}
	for _, tt := range s.Rec.Tests() {
		if len(tt.Output) > adapters.PerTestOutput {
			t.Errorf("%s kept %d bytes of output", tt.Name, len(tt.Output))
		}
	}
}

func TestNodeDetect(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, text string) string {
		p := filepath.Join(dir, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(text), 0o644)
		return filepath.Dir(p)
	}
	imports := write("imports/test/a.test.mjs", "import test from 'node:test';\n")
	withJest := write("jest/test/a.test.js", "const test = require('node:test');\n")
	write("jest/package.json", `{"devDependencies": {"jest": "29.7.0"}}`)
	for _, tc := range []struct {
		name string
		req  adapters.Request
		want int
	}{
		{"command", adapters.Request{ProjectRoot: dir, Command: []string{"node", "--test", "test/"}}, 95},
		{"other command", adapters.Request{ProjectRoot: dir, Command: []string{"node", "test.js"}}, 0},
		{"test script", adapters.Request{ProjectRoot: fixture("basic")}, 90},
		{"imports", adapters.Request{ProjectRoot: filepath.Dir(imports)}, 70},
		{"another framework", adapters.Request{ProjectRoot: filepath.Dir(withJest)}, 0},
		{"nothing", adapters.Request{ProjectRoot: t.TempDir()}, 0},
	} {
		if got := New().Detect(tc.req).Confidence; got != tc.want {
			t.Errorf("%s: confidence %d, want %d", tc.name, got, tc.want)
		}
	}
}

// TestNodeRecorded replays recorded event streams (record.sh) through the
// parser, as if read from the reporter's file.
func TestNodeRecorded(t *testing.T) {
	for _, tc := range []struct {
		name string
		exit report.Exit
	}{
		{"basic", report.Exit{Exited: true, Code: 1}},
		{"broken", report.Exit{Exited: true, Code: 1}},
		{"crash", report.Exit{Exited: true, Code: 1}},
		{"cancelled", report.Exit{Exited: true, Code: 1}},
		{"hang-stopped", report.Exit{Signaled: true, Signal: 15, SignalName: "SIGTERM", Code: 143, StoppedBy: report.StoppedTimeout}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("testdata", "recorded", tc.name+".jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			const root = "/project"
			path := filepath.Join(t.TempDir(), "events.jsonl")
			os.WriteFile(path, []byte(strings.ReplaceAll(string(b), "{{ROOT}}", root)), 0o644)
			rec := adapters.NewRecorder()
			p := node.NewEvents(rec, node.EventsConfig{Framework: "node:test", Root: root, NoTests: noTests,
				Rerun: func(file, test string) string { return "node --test " + file + " # " + test }}, "", path)
			out := p.Finish(tc.exit)
			p.Close()
			adapterstest.Golden(t, "recorded-"+tc.name, normalise(rec, out, root))
		})
	}
}

// sampleHeap samples the heap in use every 10 ms until the function it
// returns is called, which answers the peak.
func sampleHeap() func() uint64 {
	var peak uint64
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			peak = max(peak, m.HeapInuse)
			select {
			case <-done:
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
	}()
	return func() uint64 {
		close(done)
		<-stopped
		return peak
	}
}

// TestNodeTestProcess: the children node runs each file in are the test
// processes, not the node --test parent.
func TestNodeTestProcess(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{[]string{"node", "--test", "--test-reporter=/tmp/r.mjs"}, false},
		{[]string{"/usr/bin/node", "/p/test/a.test.js"}, true},
	} {
		if got := (nodeTest{}).IsTestProcess(adapters.Proc{Name: "node", Args: tc.args}); got != tc.want {
			t.Errorf("%q: %v, want %v", tc.args, got, tc.want)
		}
	}
}

// TestNodeFallback: when strobe's reporter cannot be written, node's own
// JUnit reporter is read, and the hint says so.
func TestNodeFallback(t *testing.T) {
	t.Setenv("TMPDIR", filepath.Join(t.TempDir(), "missing"))
	rec, out, _ := run(t, adapters.Request{ProjectRoot: fixture("basic")})
	if !strings.Contains(out.Hint, "node's JUnit reporter") {
		t.Errorf("hint %q does not say strobe fell back", out.Hint)
	}
	p := rec.Progress()
	// JUnit has no test case for the failing hook itself: its test fails.
	if p.Passed != 3 || p.Failed != 4 || p.Skipped != 2 {
		t.Errorf("progress %+v, want node's 3 passed, 4 failed, 2 skipped", p)
	}
	tt := byName(t, rec, "arithmetic › adds wrongly")
	if f := tt.Failure; f == nil || f.File != "test/math.test.js" || f.Line != 15 || !strings.Contains(f.Message, "4 !== 5") {
		t.Errorf("failure %+v", tt.Failure)
	}
}

// TestNodeSameNames runs tests that share a full name in one file: each is
// counted, the second and later named "NAME #2", …; a failing one's rerun
// is node's own name, which runs every test of it.
func TestNodeSameNames(t *testing.T) {
	rec, _, exit := run(t, adapters.Request{ProjectRoot: fixture("dupes")})
	if exit.Code != 1 {
		t.Errorf("exit %+v, want node's 1 for a failed test", exit)
	}
	if p := rec.Progress(); p.Passed != 4 || p.Failed != 1 || p.Skipped != 1 {
		t.Errorf("counts %d passed, %d failed, %d skipped; want node's 4, 1, 1", p.Passed, p.Failed, p.Skipped)
	}
	got := names(rec)
	slices.Sort(got)
	want := []string{"same title", "same title #2", "same title #2 #2", "same title #3", "withQuery › { a: 1 }", "withQuery › { a: 1 } #2"}
	if !slices.Equal(got, want) {
		t.Errorf("names %q, want %q", got, want)
	}
	f := rec.Failure("test/dupes.test.js", "withQuery › { a: 1 } #2")
	if f == nil || f.Line != 9 || f.Rerun != `node --test '--test-name-pattern=^\{ a: 1 \}$' test/dupes.test.js` {
		t.Errorf("failure %+v, want test/dupes.test.js:9 rerun by node's name", f)
	}
}

// TestNodeScriptShell: a test script that needs a shell (`node check.js
// && node --test test/`) is not run whole: node --test runs alone, with
// the script's files, and the hint says that the check did not run.
func TestNodeScriptShell(t *testing.T) {
	skipDirectories(t)
	dir := t.TempDir()
	adapterstest.WriteFiles(t, dir, map[string]string{
		"package.json":   `{"name": "scriptshell", "private": true, "scripts": {"test": "node check.js && node --test spec/"}}`,
		"check.js":       "process.exit(1)\n",
		"spec/a.test.js": "const test = require('node:test')\ntest('in spec', () => {})\n",
		"other.test.js":  "const test = require('node:test')\ntest('not in the script', () => {})\n",
	})
	rec, out, exit := run(t, adapters.Request{ProjectRoot: dir})
	if got := names(rec); exit.Code != 0 || !slices.Equal(got, []string{"in spec"}) {
		t.Errorf("exit %+v, tests %q: want the script's spec/ alone", exit, got)
	}
	want := "package.json's test script also runs `node check.js`, which strobe did not run: run `npm test` for it"
	if !strings.Contains(out.Hint, want) {
		t.Errorf("hint %q, want %q", out.Hint, want)
	}
}

// TestNodeSubtests: node counts a parent test (t.test) as a test, and runs
// a subtest only inside its parent, which a name pattern must match too:
// the rerun of a failing subtest, a pattern for its own name, ran nothing
// ("tests 3, pass 0, fail 0"), and so did its selection by full title.
func TestNodeSubtests(t *testing.T) { testutil.EachNode(t, testNodeSubtests) }

func testNodeSubtests(t *testing.T) {
	root := fixture("subtests")
	rec, _, _ := run(t, adapters.Request{ProjectRoot: root})
	if p := rec.Progress(); p.Passed != 3 || p.Failed != 4 {
		t.Errorf("progress %+v, want node's 3 passed and 4 failed of 7 tests", p)
	}
	const file = "test/subtests.test.js"
	for name, parent := range map[string]string{"parent › child fails": "parent", "block › block's parent › inner fails": "block's parent"} {
		f := rec.Failure(file, name)
		if f == nil {
			t.Fatalf("%s: no failure among %q", name, names(rec))
		}
		argv, err := shell.Split(f.Rerun)
		if err != nil || !slices.Contains(argv, "--test-name-pattern=^"+parent+"$") {
			t.Fatalf("%s: rerun %s (%v), want it through its parent %q", name, f.Rerun, err, parent)
		}
		// Run as printed, the rerun runs the subtest.
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Dir = root
		out, _ := cmd.CombinedOutput()
		leaf := name[strings.LastIndex(name, Sep)+len(Sep):]
		if !strings.Contains(string(out), "not ok 1 - "+leaf) && !strings.Contains(string(out), "not ok 2 - "+leaf) {
			t.Errorf("%s did not run %s:\n%s", f.Rerun, name, out)
		}
		// Selected by its full title, it runs too.
		sel, _, _ := run(t, adapters.Request{ProjectRoot: root, Test: file + Sep + name})
		if got, ok := adapterstest.TestByName(sel.Tests(), name); !ok || got.Status != report.TestFailed {
			t.Errorf("--test %q ran %q", file+Sep+name, names(sel))
		}
	}
	// A describe block's test is still selected alone.
	sel, _, _ := run(t, adapters.Request{ProjectRoot: root, Test: file + " › block › first"})
	if got := names(sel); !slices.Equal(got, []string{"block › first"}) {
		t.Errorf("--test block › first ran %q", got)
	}
}

// TestNodeAggregateError: an AggregateError's message says the errors it
// holds (at most five, the rest counted), where node's is the outer
// error's alone.
func TestNodeAggregateError(t *testing.T) {
	root := t.TempDir()
	test := `const test = require('node:test');

test('any of two', async () => {
  await Promise.any([Promise.reject(new Error('first inner')), Promise.reject(new TypeError('second inner'))]);
});

test('any of seven', async () => {
  await Promise.any([1, 2, 3, 4, 5, 6, 7].map((n) => Promise.reject(new RangeError('inner ' + n))));
});
`
	if err := os.MkdirAll(filepath.Join(root, "test"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "test", "aggregate.test.js"), []byte(test), 0o644); err != nil {
		t.Fatal(err)
	}
	rec, _, _ := run(t, adapters.Request{ProjectRoot: root})
	for name, want := range map[string]string{
		"any of two":   "AggregateError: All promises were rejected\n\nits errors:\n  Error: first inner\n  TypeError: second inner",
		"any of seven": "its errors:\n  RangeError: inner 1\n  RangeError: inner 2\n  RangeError: inner 3\n  RangeError: inner 4\n  RangeError: inner 5\n  and 2 more",
	} {
		if f := byName(t, rec, name).Failure; f == nil || !strings.Contains(f.Message, want) {
			t.Errorf("%s: failure %+v, want %q in its message", name, f, want)
		}
	}
}

// TestNodeThrownElsewhere: an error thrown in the project's code outside
// the test file (a library function, a helper module, in a callback as
// light-my-request's tests are) is placed at the test's line, which alone
// does not say where it came from: the message adds where it was thrown,
// as mocha's does. A test file's own throw adds nothing.
func TestNodeThrownElsewhere(t *testing.T) {
	root := t.TempDir()
	adapterstest.WriteFiles(t, root, map[string]string{
		"lib/units.js": `'use strict'
const table = { s: 1 }
exports.scale = function scale (unit) {
  return table[unit].f * 60
}
`,
		"test/units.test.js": `'use strict'
const test = require('node:test')
const { scale } = require('../lib/units')

test('knows hours', () => {
  scale('h')
})

test('throws its own', () => {
  throw new RangeError('mine')
})
`,
	})
	rec, _, _ := run(t, adapters.Request{ProjectRoot: root})
	if f := byName(t, rec, "knows hours").Failure; f == nil || f.File != "test/units.test.js" || f.Line != 6 ||
		f.Message != "TypeError: Cannot read properties of undefined (reading 'f')\n(thrown at lib/units.js:4)" {
		t.Errorf("failure %+v, want at test/units.test.js:6, thrown at lib/units.js:4", f)
	}
	if f := byName(t, rec, "throws its own").Failure; f == nil || f.Line != 10 || f.Message != "RangeError: mine" {
		t.Errorf("failure %+v, want RangeError: mine at line 10 and no more", f)
	}
}

// TestNodeOwnNumberedTitle: a test whose own title is `dup #2`, beside a
// test `dup`, selected by its name (alone, with its file, and as a failure
// rerun alone or with others), runs alone: the pattern for strobe's
// `NAME #2` also matched `dup`, which ran too. A numbered name proper (the
// dupes fixture's) still matches its title.
func TestNodeOwnNumberedTitle(t *testing.T) {
	root := fixture("numbered")
	for _, req := range []adapters.Request{
		{Test: "dup #2"},
		{Test: "test/numbered.test.js › dup #2"},
		{Test: "dup #2", TestSuite: "test/numbered.test.js"},
		{Tests: []adapters.TestRef{{Suite: "test/numbered.test.js", Name: "dup #2"}}},
	} {
		req.ProjectRoot = root
		rec, _, _ := run(t, req)
		if got := names(rec); !slices.Equal(got, []string{"dup #2"}) {
			t.Errorf("%+v ran %q, want dup #2 alone", req, got)
		}
	}
	rec, _, _ := run(t, adapters.Request{ProjectRoot: fixture("dupes"), Test: "test/dupes.test.js › withQuery › { a: 1 } #2"})
	if got := names(rec); !slices.Contains(got, "withQuery › { a: 1 } #2") {
		t.Errorf("a numbered name ran %q, want its test among them", got)
	}
}

// TestNodeAwaitedUnsettled: a parent test that awaits a subtest whose
// promise never settles: node cancels both, with the same words. The
// subtest's failure is listed; the parent is counted, as a parent failed
// through its subtests is, not listed again with another rerun.
func TestNodeAwaitedUnsettled(t *testing.T) {
	rec, _, _ := run(t, adapters.Request{ProjectRoot: fixture("awaitpending")})
	if p := rec.Progress(); p.Passed != 1 || p.Failed != 2 {
		t.Errorf("counts %+v, want 1 passed, 2 failed (node: pass 1, cancelled 2)", p)
	}
	if f := byName(t, rec, "watcher › waits for reload").Failure; f == nil || f.Line != 8 {
		t.Errorf("the subtest's failure %+v, want it listed at its line", f)
	}
	if tt := byName(t, rec, "watcher"); tt.Status != report.TestFailed || tt.Failure != nil {
		t.Errorf("watcher: %s %+v, want counted failed, not listed", tt.Status, tt.Failure)
	}
}

// TestNodeNewlineName: a test titled with a newline (`test('a\nb')`) has a
// rerun on one line, its pattern's newline escaped (\x0a), which run as
// printed runs that test alone; the pattern held the newline raw, and the
// command printed over two lines.
func TestNodeNewlineName(t *testing.T) {
	bash := testutil.RequireTool(t, "bash")
	root := t.TempDir()
	adapterstest.WriteFiles(t, root, map[string]string{
		"test/nl.test.js": `const test = require('node:test');
const assert = require('node:assert');

test('a\nb', () => {
  assert.fail('boom');
});

test('a b', () => {});

test('ab', () => {});
`,
	})
	rec, _, _ := run(t, adapters.Request{ProjectRoot: root})
	f := byName(t, rec, "a\nb").Failure
	if want := `node --test '--test-name-pattern=^a\x0ab$' test/nl.test.js`; f == nil || f.Rerun != want {
		t.Fatalf("failure %+v, want its rerun %s", f, want)
	}
	cmd := exec.Command(bash, "-c", f.Rerun)
	cmd.Dir = root
	out, _ := cmd.CombinedOutput()
	if !strings.Contains(string(out), "# fail 1\n") || !strings.Contains(string(out), "# pass 0\n") {
		t.Errorf("%s ran more or less than a\\nb:\n%s", f.Rerun, out)
	}
}

// nodeMajor is the major version of the node on PATH.
func nodeMajor(t *testing.T) int {
	t.Helper()
	out, err := exec.Command("node", "--version").Output()
	if err != nil {
		t.Fatalf("node --version: %v", err)
	}
	major, _, _ := strings.Cut(strings.TrimPrefix(strings.TrimSpace(string(out)), "v"), ".")
	n, err := strconv.Atoi(major)
	if err != nil {
		t.Fatalf("node --version: %q", out)
	}
	return n
}

// ownName is what a run of the test `adds small numbers` of the fixture
// basic records: node 20 also runs the hook of the describe block beside
// it, which fails; node 22 runs nothing of that block.
func ownName(t *testing.T) []string {
	if nodeMajor(t) >= 22 {
		return []string{"adds small numbers"}
	}
	return []string{"adds small numbers", "with a failing hook"}
}

// skipDirectories skips a test of a command that names a directory
// (`node --test test/`): node 21 and later read each argument as a glob,
// and run `test/` as a file, which fails to load for the user too
// (TestNodeCommandFiles checks what strobe answers then).
func skipDirectories(t *testing.T) {
	if v := nodeMajor(t); v >= 21 {
		t.Skipf("node %d runs a directory argument as a test file (MODULE_NOT_FOUND): a command naming one fails for the user too", v)
	}
}

// TestNodeShownCommand: the answer's command named strobe's reporter and
// preload, in a directory removed after the run (`--test-reporter=/tmp/…
// --require /tmp/…/exit.cjs`): pasted, node could not load them. It is
// the command a person types, which runs the same tests.
func TestNodeShownCommand(t *testing.T) {
	testutil.RequireTool(t, "node")
	cmd, out := adapterstest.PasteShown(t, New(), adapters.Request{ProjectRoot: fixture("basic")})
	if cmd != "node --test" || !strings.Contains(string(out), "# fail ") && !strings.Contains(string(out), "ℹ fail ") {
		t.Errorf("%s:\n%s\nwant `node --test` and node's counts", cmd, out)
	}
}
