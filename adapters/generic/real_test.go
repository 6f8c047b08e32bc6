package generic

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
	"strobe/internal/testutil"
	"strobe/report"
)

func run(t *testing.T, root string, argv ...string) (*adapters.Recorder, adapters.Outcome, report.Exit) {
	t.Helper()
	return adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root, Command: argv})
}

func wantTest(t *testing.T, rec *adapters.Recorder, suite, name string, st report.TestStatus) report.Test {
	t.Helper()
	for _, tt := range rec.Tests() {
		if tt.Suite == suite && tt.Name == name {
			if tt.Status != st {
				t.Errorf("%s %q: %s, want %s", suite, name, tt.Status, st)
			}
			return tt
		}
	}
	t.Errorf("%s %q not recorded, want %s", suite, name, st)
	return report.Test{}
}

// TestProve runs prove on a CPAN-style t/ directory: a failed assertion
// (Test::More's diagnostic on stderr locates it), a TODO that fails and
// one that passes, a script that dies after its first test, one that
// dies of SIGSEGV. Without -v prove prints only its verdicts and summary
// report: each file is a test. With -v, its assertions are, by file.
func TestProve(t *testing.T) {
	testutil.RequireTool(t, "prove")
	t.Run("files", func(t *testing.T) {
		rec, out, exit := run(t, adapterstest.CopyFixture(t, "prove"), "prove", "-l", "t")
		if exit.Code == 0 {
			t.Errorf("exit %+v", exit)
		}
		add := wantTest(t, rec, "", "t/01-add.t", report.TestFailed)
		if f := add.Failure; f == nil || f.File != "t/01-add.t" || f.Line != 5 || !strings.Contains(f.Message, "adds wrong") ||
			!strings.Contains(f.Message, "expected: '5'") || f.Rerun != "prove -l t/01-add.t" {
			t.Errorf("t/01-add.t failed with %+v, want at t/01-add.t:5, the assertion's name and values, rerun by prove -l", f)
		}
		wantTest(t, rec, "", "t/02-todo.t", report.TestPassed)
		die := wantTest(t, rec, "", "t/03-die.t", report.TestFailed)
		if f := die.Failure; f == nil || !strings.Contains(f.Message, "You planned 4 tests but ran 1") {
			t.Errorf("t/03-die.t failed with %+v, want prove's bad plan", f)
		}
		wantTest(t, rec, "", "t/04-seg.t", report.TestFailed)
		if n := len(rec.Tests()); n != 4 {
			t.Errorf("%d tests, want the 4 files: %+v", n, rec.Tests())
		}
		if c := out.Crash; c == nil || c.Type != report.CrashSegmentationFault || c.SignalName != "SIGSEGV" || len(c.RunningTests) != 1 || c.RunningTests[0] != "t/04-seg.t" {
			t.Errorf("crash %+v, want t/04-seg.t's SIGSEGV", c)
		}
	})
	t.Run("verbose", func(t *testing.T) {
		rec, out, _ := run(t, adapterstest.CopyFixture(t, "prove"), "prove", "-lv", "t")
		wantTest(t, rec, "t/01-add.t", "adds", report.TestPassed)
		wrong := wantTest(t, rec, "t/01-add.t", "adds wrong", report.TestFailed)
		if f := wrong.Failure; f == nil || f.File != "t/01-add.t" || f.Line != 5 || !strings.Contains(f.Message, "got: '4'") {
			t.Errorf("adds wrong failed with %+v, want at t/01-add.t:5 with got and expected", f)
		}
		wantTest(t, rec, "t/02-todo.t", "future feature", report.TestSkipped) // a failing TODO
		wantTest(t, rec, "t/02-todo.t", "surprise", report.TestPassed)
		wantTest(t, rec, "", "t/03-die.t", report.TestFailed)
		for _, tt := range rec.Tests() {
			if tt.Name == "test " || tt.Name == "ok" || tt.Name == "t/01-add.t" || tt.Name == "t/02-todo.t" {
				t.Errorf("recorded %+v: prove's verdict on a file whose tests are recorded", tt)
			}
		}
		if n := len(rec.Tests()); n != 10 {
			t.Errorf("%d tests, want 8 assertions and the 2 files that died: %+v", n, rec.Tests())
		}
		if c := out.Crash; c == nil || c.Type != report.CrashSegmentationFault {
			t.Errorf("crash %+v, want t/04-seg.t's SIGSEGV", c)
		}
	})
	t.Run("died", func(t *testing.T) {
		_, out, _ := run(t, adapterstest.CopyFixture(t, "prove"), "prove", "-l", "t/01-add.t", "t/03-die.t")
		if c := out.Crash; c == nil || c.Type != report.CrashUnknown || !strings.Contains(c.Message, "t/03-die.t ended after 1 of its 4 planned tests") {
			t.Errorf("crash %+v, want t/03-die.t's end after 1 of 4 tests", c)
		}
	})
}

// TestNodeTAP reads node's TAP reporter: subtests by their parent's name,
// the YAML block's error and its location relative to the project, a
// TODO that fails, a skip; counts as node's own.
func TestNodeTAP(t *testing.T) {
	testutil.RequireTool(t, "node")
	root := adapterstest.CopyFixture(t, "nodetap")
	rec, _, _ := run(t, root, "node", "--test", "--test-reporter=tap", "test/")
	div := wantTest(t, rec, "", "divides", report.TestFailed)
	if f := div.Failure; f == nil || f.File != "test/a.test.js" || f.Line != 4 || !strings.Contains(f.Message, "2 !== 3") {
		t.Errorf("divides failed with %+v, want at test/a.test.js:4 with the assertion", f)
	}
	inner := wantTest(t, rec, "", "suite/inner bad", report.TestFailed)
	if f := inner.Failure; f == nil || f.File != "test/a.test.js" || f.Line != 9 || !strings.Contains(f.Message, "inner fails") {
		t.Errorf("suite/inner bad failed with %+v, want at test/a.test.js:9", f)
	}
	wantTest(t, rec, "", "suite/inner ok", report.TestPassed)
	if s := wantTest(t, rec, "", "suite", report.TestFailed); s.Failure != nil {
		t.Errorf("suite failed with %+v, want no failure of its own (its subtest's is listed)", s.Failure)
	}
	wantTest(t, rec, "", "todo one", report.TestSkipped)
	wantTest(t, rec, "", "skipped one", report.TestSkipped)
	p := rec.Progress()
	if p.Passed != 2 || p.Failed != 3 || p.Skipped != 2 { // node: pass 2, fail 3, skipped 1, todo 1
		t.Errorf("counts %+v, want node's", p)
	}
}

// TestTape reads tape's TAP (its package.json's test script, through npm
// as the generic adapter runs it): the YAML keys indented past the "---",
// expected and actual as block scalars ("|-"), and "at:" as a frame
// (`Test.<anonymous> (FILE:LINE:COL)`). All three were missed: the
// failure had no place and no values (qs 6.13.0 broken on purpose).
func TestTape(t *testing.T) {
	dir := filepath.Join("testdata", "fixtures", "tape")
	adapterstest.NpmCI(t, dir)
	root, _ := filepath.Abs(dir)
	rec, _, _ := run(t, root, "npx", "tape", "test/**/*.js")
	f := wantTest(t, rec, "", "should be deeply equivalent #2", report.TestFailed).Failure
	if f == nil || f.File != "test/parse.js" || f.Line != 16 || f.Message != "expected: { a: 'b', c: 'x' }\nactual: { a: 'b', c: 'd' }" {
		t.Errorf("failure %+v, want at test/parse.js:16 with tape's expected and actual", f)
	}
	if p := rec.Progress(); p.Passed != 2 || p.Failed != 1 || p.Skipped != 1 {
		t.Errorf("counts %+v, want tape's: pass 3 (a skip among them), fail 1", p)
	}
}

// TestTAPScript: a shell script's TAP that ends before its plan (exit 1,
// a signal) is a crash that says so; a bail out is a failure, not that.
func TestTAPScript(t *testing.T) {
	tap := `printf '%s\n' '1..4' 'ok 1 - a' 'ok 2 - b'; echo 'cannot open fixture' >&2; `
	t.Run("exit", func(t *testing.T) {
		_, out, _ := run(t, t.TempDir(), "/bin/sh", "-c", tap+"exit 1")
		if c := out.Crash; c == nil || !strings.Contains(c.Message, "announced 4 tests but 2 ran") || !strings.Contains(c.Message, "cannot open fixture") {
			t.Errorf("crash %+v, want the plan not met and the last error line", c)
		}
	})
	t.Run("signal", func(t *testing.T) {
		_, out, exit := run(t, t.TempDir(), "/bin/sh", "-c", tap+"kill -SEGV $$")
		if !exit.Signaled {
			t.Fatalf("exit %+v", exit)
		}
		if c := out.Crash; c == nil || !strings.Contains(c.Message, "died of SIGSEGV") {
			t.Errorf("crash %+v, want the signal in its message", c)
		}
	})
	t.Run("a name twice", func(t *testing.T) {
		// Test::More suites repeat names (Try::Tiny's t/: prove counted
		// 101 tests, strobe 80 before).
		rec, _, _ := run(t, t.TempDir(), "/bin/sh", "-c", `printf '%s\n' '1..3' 'ok 1 - lives' 'not ok 2 - lives' 'ok 3 - lives'; exit 1`)
		wantTest(t, rec, "", "lives", report.TestPassed)
		wantTest(t, rec, "", "lives #2", report.TestFailed)
		wantTest(t, rec, "", "lives #3", report.TestPassed)
	})
	t.Run("bail out", func(t *testing.T) {
		rec, out, _ := run(t, t.TempDir(), "/bin/sh", "-c", `printf '%s\n' '1..4' 'ok 1 - a' 'Bail out! no database'; exit 1`)
		if out.Crash != nil {
			t.Errorf("crash %+v, want none", out.Crash)
		}
		if b := wantTest(t, rec, "", "Bail out!", report.TestFailed); b.Failure == nil || !strings.Contains(b.Failure.Message, "no database") {
			t.Errorf("bail out %+v", b)
		}
	})
}

// TestAutomake runs make check on a tiny autotools project: each result
// line is a test, and a failed one's .log gives its message, its
// file:line and how to rerun it alone.
func TestAutomake(t *testing.T) {
	testutil.RequireTool(t, "autoreconf")
	testutil.RequireTool(t, "automake")
	testutil.RequireTool(t, "make")
	root := adapterstest.CopyFixture(t, "automake")
	for _, argv := range [][]string{{"autoreconf", "-i"}, {"./configure"}} {
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Dir = root
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", argv, err, b)
		}
	}
	rec, _, _ := run(t, root, "make", "check")
	fail := wantTest(t, rec, "", "fail.sh", report.TestFailed)
	if f := fail.Failure; f == nil || f.File != "fail.sh" || f.Line != 3 || !strings.Contains(f.Message, "expected 2 got 3") || f.Rerun != "make check TESTS=fail.sh" {
		t.Errorf("fail.sh failed with %+v, want its log's line at fail.sh:3 and make check TESTS=fail.sh", f)
	}
	wantTest(t, rec, "", "pass.sh", report.TestPassed)
	wantTest(t, rec, "", "skip.sh", report.TestSkipped)
	wantTest(t, rec, "", "xfail.sh", report.TestSkipped)
	wantTest(t, rec, "", "xpass.sh", report.TestFailed)
	if e := wantTest(t, rec, "", "error.sh", report.TestFailed); e.Failure == nil || !strings.Contains(e.Failure.Message, "exit status: 99") {
		t.Errorf("error.sh failed with %+v", e.Failure)
	}
}

// TestMakeBuildFails: make test whose compile step fails is a build
// failure at the compiler's file:line, not a command that "reported no
// test results".
func TestMakeBuildFails(t *testing.T) {
	testutil.RequireTool(t, "make")
	testutil.RequireTool(t, "cc")
	rec, out, _ := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: adapterstest.CopyFixture(t, "cbuild")})
	if !out.BuildFailed || len(out.BuildErrors) == 0 {
		t.Fatalf("outcome %+v, want a build failure", out)
	}
	if e := out.BuildErrors[0]; e.File != "t.c" || e.Line != 1 || e.Column == 0 || e.Message == "" {
		t.Errorf("build error %+v, want t.c:1", e)
	}
	if n := len(rec.Tests()); n != 0 {
		t.Errorf("tests %+v", rec.Tests())
	}
}

// TestFrameworkLinesExitZero: a script that runs a framework and exits 0
// although its tests failed, as they print it.
func TestFrameworkLinesExitZero(t *testing.T) {
	script := `printf '%s\n' 'test parse::ok ... ok' 'test parse::bad ... FAILED' '--- FAIL: TestDiv (0.00s)' '    --- PASS: TestDiv/one (0.00s)' \
		'[       OK ] Math.Add (0 ms)' '[  FAILED  ] Math.Sub (1 ms)' 'FAILED tests/test_x.py::test_y - assert 1 == 2'; exit 0`
	rec, _, exit := run(t, t.TempDir(), "/bin/sh", "-c", script)
	if exit.Code != 0 {
		t.Fatalf("exit %+v", exit)
	}
	wantTest(t, rec, "", "parse::ok", report.TestPassed)
	wantTest(t, rec, "", "parse::bad", report.TestFailed)
	wantTest(t, rec, "", "TestDiv", report.TestFailed)
	wantTest(t, rec, "", "TestDiv/one", report.TestPassed)
	wantTest(t, rec, "", "Math.Add", report.TestPassed)
	wantTest(t, rec, "", "Math.Sub", report.TestFailed)
	if y := wantTest(t, rec, "", "tests/test_x.py::test_y", report.TestFailed); y.Failure == nil || y.Failure.Message != "assert 1 == 2" || y.Failure.File != "tests/test_x.py" {
		t.Errorf("test_y %+v", y.Failure)
	}
	t.Run("pytest's counts", func(t *testing.T) {
		_, out, _ := run(t, t.TempDir(), "/bin/sh", "-c", `echo '==== 1 failed, 3 passed, 1 skipped in 0.12s ===='`)
		if s := out.Summary; s == nil || s.Failed != 1 || s.Passed != 3 || s.Skipped != 1 {
			t.Errorf("summary %+v", s)
		}
	})
}

// TestExitStatusAlone: a command that exits 0 and prints nothing strobe
// reads passes by its exit status, and the answer says that is all it
// rests on; one whose tests strobe read needs no such word.
func TestExitStatusAlone(t *testing.T) {
	for _, tc := range []struct {
		name, script string
		alone        bool
	}{
		{"its own format", `echo 'running my tests'; echo 'all 12 good'`, true},
		{"silent", `true`, true},
		{"TAP", `echo 'ok 1 - adds'`, false},
		{"a summary line", `echo '3 passed, 0 failed'`, false},
		{"failed", `echo 'running my tests'; exit 1`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, out, _ := run(t, t.TempDir(), "/bin/sh", "-c", tc.script)
			if got := strings.Contains(out.Hint, "exit status alone"); got != tc.alone {
				t.Errorf("hint %q: says the exit status alone decided: %v, want %v", out.Hint, got, tc.alone)
			}
		})
	}
}

// TestBats runs bats (the Bash Automated Testing System, from npm as its
// users install it) on a project whose failures are placed by bats's
// "# (in test file …, line N)" comments: one in the test itself, one in a
// helper the test calls (the test's own line is the place). The message
// is the command that failed and what the test printed, and the rerun,
// pasted in the project root, runs that one test.
func TestBats(t *testing.T) {
	testutil.RequireTool(t, "bash")
	dir := filepath.Join("testdata", "fixtures", "bats")
	adapterstest.NpmCI(t, dir)
	root, _ := filepath.Abs(dir)
	rec, _, exit := run(t, root, filepath.Join(root, "node_modules", "bats", "bin", "bats"), "test")
	if exit.Code != 1 {
		t.Errorf("exit %+v, want bats's 1", exit)
	}
	if p := rec.Progress(); p.Passed != 2 || p.Failed != 3 || p.Skipped != 1 {
		t.Errorf("counts %+v, want bats's: 2 passed, 3 failed, 1 skipped", p)
	}
	for _, c := range []struct {
		name, msg, rerun string
		line             int
	}{
		{"subtraction (by one) is broken", "`[ \"$result\" -eq 5 ]' failed", `node_modules/bats/bin/bats --filter '^subtraction \(by one\) is broken$' test/calc.bats`, 15},
		{"output is compared in a helper", "`equal \"$output\" \"goodbye\"' failed\nexpected: goodbye\nactual:   hello", `node_modules/bats/bin/bats --filter '^output is compared in a helper$' test/calc.bats`, 25},
		// bats filters on the name as the source writes it, escapes and all.
		{"a name with `quotes` and $dollars", "`[ \"$(expr 2 + 2)\" = 5 ]' failed", `node_modules/bats/bin/bats --filter '^a name with \\?` + "`" + `quotes\\?` + "`" + ` and \\?\$dollars$' test/calc.bats`, 29},
	} {
		f := wantTest(t, rec, "", c.name, report.TestFailed).Failure
		if f == nil || f.File != "test/calc.bats" || f.Line != c.line || f.Message != c.msg || f.Rerun != c.rerun {
			t.Errorf("%s: failure %+v, want at test/calc.bats:%d, %q, rerun %s", c.name, f, c.line, c.msg, c.rerun)
			continue
		}
		cmd := exec.Command("sh", "-c", f.Rerun)
		cmd.Dir = root
		out, _ := cmd.Output()
		if got := string(out); !strings.HasPrefix(got, "1..1\nnot ok 1 "+c.name+"\n") {
			t.Errorf("rerun %s ran:\n%s\nwant that one test alone", f.Rerun, got)
		}
	}
	wantTest(t, rec, "", "skipped for now", report.TestSkipped)

	// --test: bats is told the one test (--filter), a name it does not
	// have is no test, not the exit status's pass.
	bats := filepath.Join(root, "node_modules", "bats", "bin", "bats")
	one := adapters.Request{ProjectRoot: root, Command: []string{bats, "test"}, Test: "subtraction (by one) is broken"}
	rec, _, _ = adapterstest.RunReal(t, New(), one)
	if p := rec.Progress(); p.Passed != 0 || p.Failed != 1 {
		t.Errorf("--test: counts %+v, want that one test, failed", p)
	}
	none := adapters.Request{ProjectRoot: root, Command: []string{bats, "test"}, Test: "nope"}
	_, out, _ := adapterstest.RunReal(t, New(), none)
	if !out.NoTests || !strings.HasPrefix(out.Hint, "bats ran no test named nope (--filter '^nope$')") || strings.Contains(out.Hint, "exit status") {
		t.Errorf("--test nope: %+v, want no tests, said so", out)
	}
}
