package mocha

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
	"strobe/adapters/kit/node"
	"strobe/internal/testutil"
	"strobe/report"
)

// fixtures is the mocha fixture package: one package.json and lockfile,
// each directory under it a project.
func fixtures() string {
	abs, _ := filepath.Abs(filepath.Join("testdata", "fixtures", "mocha"))
	return abs
}

// install runs npm ci in the fixture package once per test binary, and
// not at all when node_modules is what the lockfile pins.
func install(t *testing.T) {
	t.Helper()
	adapterstest.NpmCI(t, fixtures())
}

func project(name string) string { return filepath.Join(fixtures(), name) }

func normalise(rec *adapters.Recorder, out adapters.Outcome, root string) adapterstest.Result {
	return adapterstest.Normalise(rec, out, func(s string) string {
		return strings.ReplaceAll(strings.ReplaceAll(s, root, "{{ROOT}}"), fixtures(), "{{FIXTURES}}")
	})
}

func run(t *testing.T, req adapters.Request) (*adapters.Recorder, adapters.Outcome, report.Exit) {
	t.Helper()
	install(t)
	return adapterstest.RunReal(t, New(), req)
}

func names(rec *adapters.Recorder) []string {
	var out []string
	for _, t := range rec.Tests() {
		out = append(out, t.Name)
	}
	return out
}

func byName(t *testing.T, rec *adapters.Recorder, name string) report.Test {
	t.Helper()
	tt, ok := adapterstest.TestByName(rec.Tests(), name)
	if !ok {
		t.Fatalf("no test %q among %q", name, names(rec))
	}
	return tt
}

// TestMochaBasic: failures at their file and line with their messages,
// skips, a failing hook, and a failure's rerun that, pasted, fails that
// test alone; under the node on PATH and node 22 (EachNode).
func TestMochaBasic(t *testing.T) { testutil.EachNode(t, testMochaBasic) }

func testMochaBasic(t *testing.T) {
	root := project("basic")
	rec, out, exit := run(t, adapters.Request{ProjectRoot: root})
	if !exit.Exited || exit.Code != 5 {
		t.Errorf("exit %+v, want mocha's 5: the number of failures", exit)
	}
	adapterstest.Golden(t, "basic-all", normalise(rec, out, root))
	const file = "test/math.spec.js"
	for _, tc := range []struct {
		name string
		line int
		msg  string
	}{
		{"arithmetic › adds wrongly", 10, "Expected values to be strictly equal:\n\n4 !== 5\n\nexpected: 5\nreceived: 4"},
		{"arithmetic › compares objects", 14, "+ actual - expected"},
		{"arithmetic › nested [regex] (chars)? › throws a TypeError", 23, "TypeError: Cannot read properties of null (reading 'boom')"},
		{"with a failing beforeEach › never runs its body", 30, `"before each" hook for "never runs its body": Error: fixture unavailable`},
		{`with a failing before › "before all" hook for "never runs either"`, 38, "Error: database unavailable"},
	} {
		tt := byName(t, rec, tc.name)
		f := tt.Failure
		if tt.Status != report.TestFailed || f == nil || f.File != file || f.Line != tc.line || !strings.Contains(f.Message, tc.msg) {
			t.Errorf("%s: %s %+v, want failed at %s:%d with %q", tc.name, tt.Status, f, file, tc.line, tc.msg)
		}
	}
	f := byName(t, rec, "arithmetic › nested [regex] (chars)? › throws a TypeError").Failure
	if want := `npx mocha test/math.spec.js --ignore '!test/math.spec.js' --grep '^arithmetic (?:› )?nested \[regex\] \(chars\)\? (?:› )?throws a TypeError$'`; f.Rerun != want {
		t.Errorf("rerun %q, want %q", f.Rerun, want)
	}
	cmd := exec.Command("sh", "-c", f.Rerun)
	cmd.Dir = root
	if b, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(b), "0 passing") || !strings.Contains(string(b), "1 failing") || !strings.Contains(string(b), "TypeError") {
		t.Errorf("the rerun, pasted: %v\n%s\nwant the test alone, failed again", err, b)
	}
	if got := byName(t, rec, "arithmetic › adds wrongly").Output; got != "computing 2 + 2\n" {
		t.Errorf("output %q, want what the test printed", got)
	}
	for name, want := range map[string]report.TestStatus{
		"arithmetic › adds":                      report.TestPassed,
		"arithmetic › skipped for now":           report.TestSkipped,
		"arithmetic › is pending without a body": report.TestSkipped,
		"waits a little":                         report.TestPassed,
	} {
		if got := byName(t, rec, name).Status; got != want {
			t.Errorf("%s: %s, want %s", name, got, want)
		}
	}
	if out.BuildFailed || out.Crash != nil || out.NoTests {
		t.Errorf("outcome %+v for plain failures", out)
	}
}

// TestMochaBroken: a test file that fails to import stops mocha before it
// runs: a build error at the require.
func TestMochaBroken(t *testing.T) {
	root := project("broken")
	rec, out, _ := run(t, adapters.Request{ProjectRoot: root})
	want := []report.BuildError{{File: "test/missing.spec.js", Line: 1, Message: "Error: Cannot find module './helpers/does-not-exist'"}}
	if !out.BuildFailed || !slices.Equal(out.BuildErrors, want) || out.NoTests {
		t.Errorf("outcome %+v, want build errors %+v", out, want)
	}
	if n := len(rec.Tests()); n != 0 {
		t.Errorf("%d tests recorded", n)
	}
}

func TestMochaEmpty(t *testing.T) {
	_, out, _ := run(t, adapters.Request{ProjectRoot: project("empty")})
	if !out.NoTests || !out.ExitExplained || !strings.Contains(out.Hint, "mocha found no tests") || strings.Contains(out.Hint, "did not start") {
		t.Errorf("outcome %+v, want no tests, and only that", out)
	}
}

// TestMochaInsideThePackage: strobe pointed at a directory inside the
// package whose config's spec (found above it, relative to where mocha
// runs) matches nothing there: no tests, and the hint says why and where
// to run.
func TestMochaInsideThePackage(t *testing.T) {
	_, out, _ := run(t, adapters.Request{ProjectRoot: filepath.Join(project("levels"), "test", "unit")})
	if !out.NoTests || !strings.Contains(out.Hint, "levels/test/unit, a directory inside the package at "+fixtures()) || !strings.Contains(out.Hint, "run strobe on "+fixtures()) {
		t.Errorf("outcome %+v, want no tests and where to run them", out)
	}
}

// TestMochaCrash: process.abort() in a test kills mocha's own process: the
// test fails and the crash names SIGABRT and the test; under the node on
// PATH and node 22 (EachNode).
func TestMochaCrash(t *testing.T) { testutil.EachNode(t, testMochaCrash) }

func testMochaCrash(t *testing.T) {
	rec, out, exit := run(t, adapters.Request{ProjectRoot: project("crash")})
	if !exit.Signaled || exit.Signal != int(syscall.SIGABRT) {
		t.Fatalf("exit %+v, want SIGABRT", exit)
	}
	c := out.Crash
	if c == nil || c.SignalName != "SIGABRT" || c.Type != report.CrashAbort || !slices.Equal(c.RunningTests, []string{"aborts the process"}) {
		t.Errorf("crash %+v", c)
	}
	if tt := byName(t, rec, "aborts the process"); tt.Status != report.TestFailed || tt.Failure == nil || !strings.Contains(tt.Failure.Message, "SIGABRT") {
		t.Errorf("the aborting test: %+v", tt)
	}
	if tt := byName(t, rec, "before the crash"); tt.Status != report.TestPassed {
		t.Errorf("before the crash: %s", tt.Status)
	}
}

// TestMochaExit: process.exit(3) in a test ends mocha's own process
// without its end: the test running fails, with the exit code and its
// rerun, rather than a run that "exited with code 3 although no test failed".
func TestMochaExit(t *testing.T) {
	rec, out, exit := run(t, adapters.Request{ProjectRoot: project("exit")})
	if !exit.Exited || exit.Code != 3 {
		t.Fatalf("exit %+v, want code 3", exit)
	}
	tt := byName(t, rec, "exits the process")
	if tt.Status != report.TestFailed || tt.Failure == nil || !strings.Contains(tt.Failure.Message, "exited with code 3") ||
		tt.Failure.File != "test/exit.spec.js" || !strings.Contains(tt.Failure.Rerun, "--grep '^exits the process$'") {
		t.Errorf("the exiting test: %+v %+v", tt, tt.Failure)
	}
	if tt := byName(t, rec, "before the exit"); tt.Status != report.TestPassed {
		t.Errorf("before the exit: %s", tt.Status)
	}
	if out.Crash != nil || out.NoTests || out.BuildFailed {
		t.Errorf("outcome %+v, want the test's failure alone", out)
	}
	if want := "1 of the 3 tests mocha was to run did not run"; !strings.Contains(out.Hint, want) {
		t.Errorf("hint %q, want %q", out.Hint, want)
	}
	// The run's changes are partial: the test that did not run is not
	// removed, nor new the next time.
	if !slices.Contains(out.Indicators, report.IndicatorNotReached) {
		t.Errorf("indicators %q, want %s", out.Indicators, report.IndicatorNotReached)
	}
	// process.exit(0): mocha exits 0, and the test it ran is still no pass.
	t.Setenv("EXIT_CODE", "0")
	rec, _, exit = run(t, adapters.Request{ProjectRoot: project("exit")})
	if !exit.Exited || exit.Code != 0 {
		t.Fatalf("exit %+v, want code 0", exit)
	}
	if tt := byName(t, rec, "exits the process"); tt.Status != report.TestFailed || tt.Failure == nil || !strings.Contains(tt.Failure.Message, "exited with code 0") {
		t.Errorf("the test exiting 0: %+v %+v", tt, tt.Failure)
	}
}

func TestMochaSelection(t *testing.T) {
	for _, tc := range []struct {
		name  string
		root  string
		req   adapters.Request
		tests []string
	}{
		{"one test", "basic", adapters.Request{Test: "test/math.spec.js › arithmetic › nested [regex] (chars)? › throws a TypeError"}, []string{"arithmetic › nested [regex] (chars)? › throws a TypeError"}},
		{"full title", "basic", adapters.Request{Test: "arithmetic › adds"}, []string{"arithmetic › adds"}},
		// A before-all hook's failure is named by the hook; that name runs
		// the test the hook ran for, so the hook runs and fails again.
		{"failed hook", "basic", adapters.Request{Test: `with a failing before › "before all" hook for "never runs either"`}, []string{`with a failing before › "before all" hook for "never runs either"`}},
		{"failed hook in its file", "basic", adapters.Request{Test: `test/math.spec.js › with a failing before › "before all" hook for "never runs either"`}, []string{`with a failing before › "before all" hook for "never runs either"`}},
		// Exactly the hook's block: not a sibling block whose name begins
		// with the block's and a space, which mocha's --grep takes too.
		{"failed hook in a block", "blocks", adapters.Request{Test: `parse › "before all" hook in "parse"`}, []string{`parse › "before all" hook in "parse"`}},
		{"failed hook in a block in its file", "blocks", adapters.Request{Test: `test/blocks.spec.js › parse › "before all" hook in "parse"`}, []string{`parse › "before all" hook in "parse"`}},
		{"failed hook for a test of a block", "blocks", adapters.Request{Test: `load › "before all" hook for "reads"`}, []string{`load › "before all" hook for "reads"`}},
		{"unit", "levels", adapters.Request{Level: adapters.LevelUnit}, []string{"unit works"}},
		{"integration", "levels", adapters.Request{Level: adapters.LevelIntegration}, []string{"integration works"}},
		{"e2e", "levels", adapters.Request{Level: adapters.LevelE2E}, []string{"e2e by its file name", "e2e works"}},
		{"all", "levels", adapters.Request{}, []string{"e2e by its file name", "e2e works", "integration works", "unit works"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.req.ProjectRoot = project(tc.root)
			rec, out, _ := run(t, tc.req)
			got := names(rec)
			slices.Sort(got)
			if !slices.Equal(got, tc.tests) {
				t.Errorf("ran %q, want %q (outcome %+v)", got, tc.tests, out)
			}
		})
	}
	_, out, _ := run(t, adapters.Request{ProjectRoot: project("basic"), Level: adapters.LevelE2E})
	if !out.NoTests || !strings.Contains(out.Hint, "unit/, integration/ or e2e/") {
		t.Errorf("a level without files: %+v", out)
	}
}

// grepFor selects a hook's failure by the tests that run the hook: the
// test it names ("for"), at any depth of the hook's block, or the block's
// tests ("in"); a root hook's, every test. Those tests are also answered
// by their place, for strobe's reporter, which the --grep cannot say
// exactly.
func TestMochaHookGrep(t *testing.T) {
	for _, tc := range []struct {
		title, grep string
		tests       *hookTests
	}{
		{"a › b", `^a (?:› )?b$`, nil},
		{`a › "before all" hook for "t (1)"`, `^a (.* )?t \(1\)$`, &hookTests{Block: []string{"a"}, Test: "t (1)"}},
		{`a › b › "after all" hook: close for "t"`, `^a b (.* )?t$`, &hookTests{Block: []string{"a", "b"}, Test: "t"}},
		{`a › "after each" hook in "a"`, `^a `, &hookTests{Block: []string{"a"}}},
		{`"before all" hook for "t"`, `^(.* )?t$`, &hookTests{Block: []string{}, Test: "t"}},
		{`"before all" hook in "{root}"`, ``, nil},
		{`a › "before all" hook for "t" and another`, `^a (?:› )?"before all" hook for "t" and another$`, nil},
	} {
		grep, tests := grepFor(tc.title)
		if grep != tc.grep || !reflect.DeepEqual(tests, tc.tests) {
			t.Errorf("grepFor(%q) = %q, %+v; want %q, %+v", tc.title, grep, tests, tc.grep, tc.tests)
		}
	}
}

// TestMochaRootHook: a root hook plugin's failed beforeAll (in no file, no
// block) fails under the hook's name at its line; its rerun and that name
// run every test, which runs the hook again.
func TestMochaRootHook(t *testing.T) {
	root := project("roothook")
	const name = `"before all" hook: rootSetup in "{root}"`
	for _, req := range []adapters.Request{{}, {Test: name}} {
		req.ProjectRoot = root
		rec, _, _ := run(t, req)
		f := byName(t, rec, name).Failure
		if f == nil || f.File != "hooks.cjs" || f.Line != 5 || !strings.Contains(f.Message, "root hook failed") || f.Rerun != "npx mocha" {
			t.Errorf("%+v: failure %+v, want at hooks.cjs:5, rerun `npx mocha`", req, f)
		}
	}
}

func TestMochaNotInstalled(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"devDependencies": {"mocha": "11.7.5"}}`), 0o644)
	os.WriteFile(filepath.Join(dir, "package-lock.json"), []byte(`{}`), 0o644)
	_, err := New().Plan(context.Background(), adapters.Request{ProjectRoot: dir}, adapters.NewRecorder())
	var u *adapters.UsageError
	if !asUsage(err, &u) || u.Framework != "mocha" || !strings.Contains(u.Hint, "npm ci") {
		t.Errorf("error %v, want a usage error saying to run npm ci", err)
	}
}

// TestMochaTooOld: strobe's reporter needs mocha 6 or later (its
// Runner.constants, --reporter-option). Under mocha 5 the run failed in
// the reporter's own file and answered build_failed, telling the user to
// fix a build error in strobe's temporary file (json-schema-traverse
// 0.4.1's mocha ^5.2.0). The installed package here is mocha's layout
// with its version alone: the plan refuses before anything runs.
func TestMochaTooOld(t *testing.T) {
	dir := t.TempDir()
	adapterstest.WriteFiles(t, dir, map[string]string{
		"package.json":                    `{"devDependencies": {"mocha": "^5.2.0"}, "scripts": {"test": "mocha spec"}}`,
		"node_modules/mocha/package.json": `{"name": "mocha", "version": "5.2.0"}`,
		"node_modules/mocha/bin/mocha":    "#!/usr/bin/env node\n",
		"spec/a.spec.js":                  "it('a', () => {})\n",
	})
	if err := os.MkdirAll(filepath.Join(dir, "node_modules", ".bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../mocha/bin/mocha", filepath.Join(dir, "node_modules", ".bin", "mocha")); err != nil {
		t.Fatal(err)
	}
	_, err := New().Plan(context.Background(), adapters.Request{ProjectRoot: dir}, adapters.NewRecorder())
	var u *adapters.UsageError
	if !asUsage(err, &u) || u.Framework != "mocha" || !strings.Contains(u.Msg, "mocha 5.2.0 is older than strobe runs") || !strings.Contains(u.Hint, "mocha@latest") {
		t.Errorf("error %v, want a usage error naming mocha 5.2.0 and how to upgrade", err)
	}
}

func asUsage(err error, u **adapters.UsageError) bool {
	e, ok := err.(*adapters.UsageError)
	*u = e
	return ok
}

// start runs a plan in a process group of its own, as the runner does.
func start(t *testing.T, req adapters.Request, env ...string) *adapterstest.Started {
	t.Helper()
	install(t)
	return adapterstest.Start(t, New(), req, env...)
}

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

// TestMochaTimeout: with mocha's own 2 s timeout, a never-settling
// promise fails as mocha says; that is the framework's answer, kept.
func TestMochaTimeout(t *testing.T) {
	rec, _, _ := run(t, adapters.Request{ProjectRoot: project("hang"), Command: []string{"mocha", "--exit"}})
	f := byName(t, rec, "waits for ever").Failure
	if f == nil || !strings.Contains(f.Message, "Timeout of 2000ms exceeded") {
		t.Errorf("failure %+v, want mocha's timeout", f)
	}
}

// TestMochaHang: with --timeout 0 the same test hangs: it is named
// running, strobe's timeout (SIGTERM to the group) leaves it running with
// no crash, and no process is left.
func TestMochaHang(t *testing.T) {
	root := project("hang")
	s := start(t, adapters.Request{ProjectRoot: root, Command: []string{"npx", "mocha", "--timeout", "0"}})
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

// TestMochaCancel: Ctrl+C to mocha alone ends it, and its reporter's
// directory goes with Close.
func TestMochaCancel(t *testing.T) {
	root := project("hang")
	s := start(t, adapters.Request{ProjectRoot: root, Command: []string{"mocha", "--timeout", "0"}})
	s.WaitRunning(t, "waits for ever")
	s.Cmd.Process.Signal(syscall.SIGINT)
	exit := s.Wait()
	exit.StoppedBy = report.StoppedCancelled
	s.Plan.Parser.Finish(exit)
	s.Plan.Parser.(adapters.Closer).Close()
	noneLeft(t, root)
	reporter := s.Plan.Argv[slices.Index(s.Plan.Argv, "--reporter")+1]
	if _, err := os.Stat(filepath.Dir(reporter)); !os.IsNotExist(err) {
		t.Errorf("the reporter's directory is left: %v", err)
	}
}

// TestMochaNoisy: 200 MB printed by a test: its output is capped.
func TestMochaNoisy(t *testing.T) {
	if testing.Short() {
		t.Skip("200 MB of output")
	}
	s := start(t, adapters.Request{ProjectRoot: project("noisy")}, "NOISY_MB=200")
	peak := sampleHeap()
	exit := s.Wait()
	if p := peak(); p > 64<<20 {
		t.Errorf("heap peaked at %d MiB while a test printed 200 MB", p>>20)
	}
	out := s.Plan.Parser.Finish(exit)
	s.Plan.Parser.(adapters.Closer).Close()
	if exit.Code != 0 || out.Crash != nil || out.NoTests {
		t.Errorf("exit %+v, outcome %+v", exit, out)
	}
	tt := byName(t, s.Rec, "prints a lot")
	if tt.Status != report.TestPassed || len(tt.Output) > adapters.PerTestOutput || !tt.OutputTruncated || !strings.HasSuffix(tt.Output, strings.Repeat("x", 63)+"\n") {
		t.Errorf("prints a lot: %s, %d bytes of output (truncated %v)", tt.Status, len(tt.Output), tt.OutputTruncated)
	}
}

func TestMochaDetect(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, text string) string {
		p := filepath.Join(dir, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(text), 0o644)
		return filepath.Dir(p)
	}
	for _, tc := range []struct {
		name string
		req  adapters.Request
		want int
	}{
		{"command", adapters.Request{ProjectRoot: dir, Command: []string{"npx", "mocha", "--timeout", "0"}}, 95},
		{"bin", adapters.Request{ProjectRoot: dir, Command: []string{"node_modules/.bin/mocha"}}, 95},
		{"pnpm", adapters.Request{ProjectRoot: dir, Command: []string{"pnpm", "exec", "mocha"}}, 95},
		{"other command", adapters.Request{ProjectRoot: dir, Command: []string{"npx", "jest"}}, 0},
		{"mocharc", adapters.Request{ProjectRoot: write("rc/.mocharc.yml", "spec: test\n")}, 90},
		{"package key", adapters.Request{ProjectRoot: write("key/package.json", `{"mocha": {"spec": "test"}}`)}, 90},
		{"script", adapters.Request{ProjectRoot: write("script/package.json", `{"scripts": {"test": "mocha --exit"}}`)}, 90},
		{"dependency", adapters.Request{ProjectRoot: write("dep/package.json", `{"devDependencies": {"mocha": "11.7.5"}}`)}, 85},
		{"nothing", adapters.Request{ProjectRoot: write("none/package.json", `{}`)}, 0},
	} {
		if got := New().Detect(tc.req).Confidence; got != tc.want {
			t.Errorf("%s: confidence %d, want %d", tc.name, got, tc.want)
		}
	}
}

func TestMochaLoadError(t *testing.T) {
	for _, tc := range []struct {
		name  string
		lines []string
		want  report.BuildError
	}{
		{"require", []string{" Exception during run: Error: Cannot find module './x'", "Require stack:", "- /p/test/a.spec.js", "    at Module._resolveFilename (node:internal/modules/cjs/loader:1207:15)", "    at Object.<anonymous> (/p/test/a.spec.js:1:16)", "    at async formattedImport (/p/node_modules/mocha/lib/nodejs/esm-utils.js:10:14)"},
			report.BuildError{File: "test/a.spec.js", Line: 1, Message: "Error: Cannot find module './x'"}},
		{"esm syntax", []string{"Exception during run: file:///p/test/b.spec.mjs:5", "});", "^", "", "SyntaxError: Unexpected token ')'"},
			report.BuildError{File: "test/b.spec.mjs", Line: 5, Message: "SyntaxError: Unexpected token ')'"}},
	} {
		got, ok := loadError("/p", tc.lines)
		if !ok || got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

// TestMochaRecorded replays a recorded event stream (record.sh).
func TestMochaRecorded(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "recorded", "basic.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	const root = "/project"
	path := filepath.Join(t.TempDir(), "events.jsonl")
	os.WriteFile(path, []byte(strings.ReplaceAll(string(b), "{{ROOT}}", root)), 0o644)
	rec := adapters.NewRecorder()
	p := node.NewEvents(rec, node.EventsConfig{Framework: "mocha", Root: root, NoTests: noTests,
		Rerun: func(file, test string) string { return "npx mocha " + file + " --grep " + grep(test) }}, "", path)
	out := p.Finish(report.Exit{Exited: true, Code: 5})
	p.Close()
	adapterstest.Golden(t, "recorded-basic", normalise(rec, out, root))
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

// TestMochaParallel: with --parallel the results are the same as serial
// mocha's, names too (the workers' own word of the tests they run leaves
// none behind, nor a name numbered twice: fixture dupes).
func TestMochaParallel(t *testing.T) {
	for _, fixture := range []string{"levels", "dupes"} {
		serial, _, _ := run(t, adapters.Request{ProjectRoot: project(fixture)})
		rec, _, _ := run(t, adapters.Request{ProjectRoot: project(fixture), Command: []string{"mocha", "--parallel"}})
		if p, want := rec.Progress(), serial.Progress(); p.Passed != want.Passed || p.Failed != want.Failed || p.Skipped != want.Skipped || len(p.Running) != 0 {
			t.Errorf("%s: progress %+v, want serial mocha's %+v", fixture, p, want)
		}
		got, want := names(rec), names(serial)
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: tests %q, want serial mocha's %q", fixture, got, want)
		}
	}
}

// TestMochaParallelExit: a test that ends its mocha --parallel worker
// (process.exit, 0 included) took its result with it; mocha said only
// "Uncaught error outside test suite: Workerpool Worker terminated
// Unexpectedly", rerun by the whole run. The test the worker ran fails
// with how the worker ended and its own rerun, mocha's pseudo-test is
// folded into it, and the hint says the file's other results went too.
func TestMochaParallelExit(t *testing.T) {
	for _, code := range []string{"3", "0"} {
		t.Setenv("EXIT_CODE", code)
		rec, out, _ := run(t, adapters.Request{ProjectRoot: project("exit"), Command: []string{"mocha", "--parallel"}})
		tt := byName(t, rec, "exits the process")
		if tt.Status != report.TestFailed || tt.Failure == nil || !strings.Contains(tt.Failure.Message, "worker exited with code "+code) ||
			!strings.Contains(tt.Failure.Rerun, "--grep '^exits the process$'") {
			t.Errorf("exit %s: the exiting test: %+v %+v", code, tt, tt.Failure)
		}
		if got := names(rec); len(got) != 1 {
			t.Errorf("exit %s: tests %q, want the exiting test alone (the others' results went with the worker)", code, got)
		}
		if !strings.Contains(out.Hint, "went with it") || !slices.Contains(out.Indicators, report.IndicatorNotReached) {
			t.Errorf("exit %s: hint %q, indicators %q; want the lost results said", code, out.Hint, out.Indicators)
		}
	}
}

func TestMochaTestProcess(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{[]string{"node", "/p/node_modules/.bin/mocha", "--reporter", "/tmp/r.cjs"}, true},
		{[]string{"node", "/p/node_modules/.bin/mocha", "--parallel"}, false},
		{[]string{"node", "/p/node_modules/mocha/lib/nodejs/worker.js"}, true},
		{[]string{"node", "--expose-gc", "/p/node_modules/mocha/lib/cli/cli.js", "--timeout", "0"}, true},
		{[]string{"node", "node_modules/mocha/bin/mocha.js"}, true},
		// What a test starts: a child it waits for.
		{[]string{"sleep", "1000"}, false},
		{[]string{"node", "-e", "setTimeout(() => {}, 3600e3)"}, false},
		{[]string{"node", "/p/test/fixtures/server.js", "mocha"}, false},
	} {
		if got := (mochaAdapter{}).IsTestProcess(adapters.Proc{Name: "node", Args: tc.args}); got != tc.want {
			t.Errorf("%q: %v, want %v", tc.args, got, tc.want)
		}
	}
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// TestMochaFallback: when strobe's reporter cannot be written, mocha's
// own JSON reporter is read, and the hint says so.
func TestMochaFallback(t *testing.T) {
	install(t)
	t.Setenv("TMPDIR", filepath.Join(t.TempDir(), "missing"))
	rec, out, _ := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: project("basic")})
	if !strings.Contains(out.Hint, "mocha's JSON reporter") {
		t.Errorf("hint %q does not say strobe fell back", out.Hint)
	}
	p := rec.Progress()
	if p.Passed != 2 || p.Failed != 5 || p.Skipped != 2 {
		t.Errorf("progress %+v, want mocha's 2 passed, 5 failed, 2 pending", p)
	}
	f := byName(t, rec, "arithmetic adds wrongly").Failure
	if f == nil || f.File != "test/math.spec.js" || f.Line != 10 || !strings.Contains(f.Message, "4 !== 5") {
		t.Errorf("failure %+v", f)
	}
}

// TestMochaParallelCancel: Ctrl+C to mocha --parallel takes its workers
// with it.
func TestMochaParallelCancel(t *testing.T) {
	s := start(t, adapters.Request{ProjectRoot: project("hang"), Command: []string{"mocha", "--parallel", "--timeout", "0"}})
	worker := func() bool {
		return slices.ContainsFunc(leftovers(fixtures()), func(c string) bool { return strings.Contains(c, "lib/nodejs/worker.js") })
	}
	for deadline := time.Now().Add(15 * time.Second); !worker(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no mocha worker started: %q", leftovers(fixtures()))
		}
	}
	time.Sleep(500 * time.Millisecond) // the worker is in the hung test
	s.Cmd.Process.Signal(syscall.SIGINT)
	exit := s.Wait()
	exit.StoppedBy = report.StoppedCancelled
	s.Plan.Parser.Finish(exit)
	s.Plan.Parser.(adapters.Closer).Close()
	noneLeft(t, fixtures())
}

// TestMochaSameNames runs tests that share a full title in one file: each
// is counted, the second and later named "NAME #2", …; a failing one's
// rerun is mocha's own title, which runs every test of it; a retried test
// is one test.
func TestMochaSameNames(t *testing.T) {
	rec, _, exit := run(t, adapters.Request{ProjectRoot: project("dupes")})
	if exit.Code != 1 {
		t.Errorf("exit %+v, want mocha's 1 for a failed test", exit)
	}
	if p := rec.Progress(); p.Passed != 5 || p.Failed != 1 || p.Skipped != 1 {
		t.Errorf("counts %d passed, %d failed, %d skipped; want mocha's 5, 1, 1", p.Passed, p.Failed, p.Skipped)
	}
	got := names(rec)
	slices.Sort(got)
	want := []string{"passes when retried", "same title", "same title #2", "same title #2 #2", "same title #3", "withQuery › { a: 1 }", "withQuery › { a: 1 } #2"}
	if !slices.Equal(got, want) {
		t.Errorf("names %q, want %q", got, want)
	}
	f := rec.Failure("test/dupes.spec.js", "withQuery › { a: 1 } #2")
	if f == nil || f.Line != 9 || f.Rerun != `npx mocha test/dupes.spec.js --ignore '!test/dupes.spec.js' --grep '^withQuery (?:› )?\{ a: 1 \}$'` {
		t.Errorf("failure %+v, want test/dupes.spec.js:9 rerun by mocha's title", f)
	}
}

// TestMochaDiffTypes shows expected and received as mocha does: only for
// values of one type (an error whose expected is a string and actual an
// object, as supertest throws, has its message alone).
func TestMochaDiffTypes(t *testing.T) {
	rec, _, _ := run(t, adapters.Request{ProjectRoot: project("diff")})
	for _, tc := range []struct{ name, msg string }{
		{"response › has the body", `Error: expected '{"user":"tobo"}' response body, got '{"user":"tobi"}'`},
		{"response › has the status", "Error: expected 200, got 404\n\nexpected: 200\nreceived: 404"},
	} {
		f := byName(t, rec, tc.name).Failure
		if f == nil || f.Message != tc.msg {
			t.Errorf("%s: failure %+v, want the message %q", tc.name, f, tc.msg)
		}
	}
}

// TestMochaBail: --bail ends mocha's run at the first failure; the hint
// says it stopped early and how many tests did not run, which are not
// counted.
func TestMochaBail(t *testing.T) {
	root := project("bail")
	rec, out, exit := run(t, adapters.Request{ProjectRoot: root, Command: []string{"npx", "mocha", "--bail"}})
	if exit.Code != 1 {
		t.Errorf("exit %+v, want mocha's 1", exit)
	}
	if p := rec.Progress(); p.Passed != 1 || p.Failed != 1 || p.Skipped != 0 || len(p.Running) != 0 {
		t.Errorf("counts %+v, want 1 passed, 1 failed", p)
	}
	want := "mocha stopped early (--bail: it ends the run at the first failure): 3 of the 5 tests did not run"
	if !strings.Contains(out.Hint, want) || !slices.Contains(out.Indicators, "mocha_stopped_early") {
		t.Errorf("hint %q indicators %q, want %q", out.Hint, out.Indicators, want)
	}
}

// TestMochaThrownElsewhere: an error thrown in the project's library code
// fails the test at its own line, and says where it was thrown: the test's
// line alone (an assert of a call's result) did not say.
func TestMochaThrownElsewhere(t *testing.T) {
	rec, _, _ := run(t, adapters.Request{ProjectRoot: project("thrown")})
	f := byName(t, rec, "scale › knows hours").Failure
	if f == nil || f.File != "test/units.spec.js" || f.Line != 9 ||
		f.Message != "TypeError: Cannot read properties of undefined (reading 'f')\n(thrown at lib/units.js:4)" {
		t.Errorf("failure %+v, want at test/units.spec.js:9, thrown at lib/units.js:4", f)
	}
}

// TestMochaNotRun: mocha skips the tests of a describe block whose hook
// failed, and runs only what `.only` marks, going on to its end without a
// word for the others. They did not run: they are counted in the hint,
// and the changes are partial (they were "removed_tests", then new).
func TestMochaNotRun(t *testing.T) {
	for _, tc := range []struct {
		fixture string
		passed  int
		failed  int
		want    string
	}{
		{"skipped", 1, 1, "2 of the 4 tests mocha was to run did not run and are in no count: a hook failed"},
		{"only", 1, 0, "2 of the 3 tests mocha was to run did not run and are in no count: `.only`"},
	} {
		t.Run(tc.fixture, func(t *testing.T) {
			rec, out, _ := run(t, adapters.Request{ProjectRoot: project(tc.fixture)})
			if p := rec.Progress(); p.Passed != tc.passed || p.Failed != tc.failed || p.Skipped != 0 {
				t.Errorf("counts %+v, want %d passed, %d failed", p, tc.passed, tc.failed)
			}
			if !strings.Contains(out.Hint, tc.want) || !slices.Contains(out.Indicators, report.IndicatorNotReached) {
				t.Errorf("hint %q, indicators %q: want %q, and the changes partial", out.Hint, out.Indicators, tc.want)
			}
		})
	}
}

// TestMochaScriptShell: a test script that needs a shell (`node check.js
// && mocha --timeout 4321`) is not run whole: mocha runs alone, with the
// options the script gives it, and the hint says that the check did not
// run (strobe once said nothing of it, and dropped the options).
func TestMochaScriptShell(t *testing.T) {
	install(t)
	dir := t.TempDir()
	if err := os.Symlink(filepath.Join(fixtures(), "node_modules"), filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	adapterstest.WriteFiles(t, dir, map[string]string{
		"package.json":   `{"name": "scriptshell", "private": true, "scripts": {"test": "node check.js && mocha --timeout 4321"}}`,
		"check.js":       "process.exit(1)\n",
		"test/a.spec.js": "const assert = require('assert')\nit('timeout', function () { assert.strictEqual(this.timeout(), 4321) })\n",
	})
	rec, out, exit := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: dir})
	if p := rec.Progress(); exit.Code != 0 || p.Passed != 1 {
		t.Errorf("exit %+v, counts %+v: want the test passed under the script's --timeout", exit, p)
	}
	want := "package.json's test script also runs `node check.js`, which strobe did not run: run `npm test` for it"
	if !strings.Contains(out.Hint, want) {
		t.Errorf("hint %q, want %q", out.Hint, want)
	}
}

// TestMochaScriptGlob: the test script runs mocha through another script
// with an unquoted glob (`npm run lint && npm run unit`, unit `mocha
// test/*-test.js`, mustache.js's). mocha expands the glob as the shell
// would: strobe runs that spec, not mocha's default one, every file of
// test/ (a helper's tests ran too, and the hint called the script no
// plain call of mocha).
func TestMochaScriptGlob(t *testing.T) {
	install(t)
	dir := t.TempDir()
	if err := os.Symlink(filepath.Join(fixtures(), "node_modules"), filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	adapterstest.WriteFiles(t, dir, map[string]string{
		"package.json": `{"name": "scriptglob", "private": true, "scripts": {"test": "npm run lint && npm run unit", ` +
			`"lint": "node check.js test/*.js", "unit": "mocha --timeout 4321 test/*-test.js"}}`,
		"check.js":       "process.exit(1)\n",
		"test/a-test.js": "const assert = require('assert')\nit('timeout', function () { assert.strictEqual(this.timeout(), 4321) })\n",
		"test/helper.js": "it('not a spec', function () {})\n",
	})
	rec, out, exit := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: dir})
	if p := rec.Progress(); exit.Code != 0 || p.Passed != 1 || p.Failed != 0 {
		t.Errorf("exit %+v, tests %q: want test/a-test.js's test alone, passed under the script's --timeout", exit, names(rec))
	}
	want := "package.json's test script also runs `node check.js test/*.js`, which strobe did not run: run `npm test` for it"
	if !strings.Contains(out.Hint, want) {
		t.Errorf("hint %q, want %q", out.Hint, want)
	}
}

// TestMochaScriptNodeStackSize: the test script gives node a V8 option
// that NODE_OPTIONS refuses (`node --stack-size=256 mocha`): in
// NODE_OPTIONS, node exited 9 at once and the run answered crashed. It
// goes on node's command line, and in the rerun.
func TestMochaScriptNodeStackSize(t *testing.T) {
	install(t)
	dir := t.TempDir()
	if err := os.Symlink(filepath.Join(fixtures(), "node_modules"), filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	adapterstest.WriteFiles(t, dir, map[string]string{
		"package.json": `{"name": "stacksize", "private": true, "scripts": {"test": "node --stack-size=256 node_modules/.bin/mocha"}}`,
		"test/a.spec.js": "const assert = require('assert')\n" +
			"it('small stack', function () { let d = 0; const down = () => { d++; down() }; assert.throws(down, RangeError); assert.ok(d < 5000, `depth ${d}`) })\n",
	})
	rec, out, exit := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: dir})
	if p := rec.Progress(); exit.Code != 0 || p.Passed != 1 {
		t.Fatalf("exit %+v, counts %+v, hint %q: want the test passed under the script's stack size", exit, p, out.Hint)
	}
	rerun := rec.Tests()[0].Name
	p, err := New().Plan(context.Background(), adapters.Request{ProjectRoot: dir, Test: rerun}, adapters.NewRecorder())
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"node", "--stack-size=256"}; !slices.Equal(p.Argv[:2], want) {
		t.Errorf("argv %q, want it to start with %q", p.Argv, want)
	}
}

// TestMochaSameTitleRerun: two files hold a test of the same full title,
// and the config's spec names both. The failure's rerun, and a rerun of
// it alone (Request.TestSuite), run the failed one alone: its file, the
// other ignored. Both once ran the other file's test too (the rerun's
// file went into the config's spec; --failed and retries gave mocha the
// title alone).
func TestMochaSameTitleRerun(t *testing.T) {
	root := project("samename")
	rec, _, exit := run(t, adapters.Request{ProjectRoot: root})
	if p := rec.Progress(); exit.Code != 1 || p.Passed != 1 || p.Failed != 1 {
		t.Fatalf("exit %+v, counts %+v: want 1 passed, 1 failed", exit, p)
	}
	f := rec.Failure("test/a.spec.js", "shared › same title")
	want := `npx mocha test/a.spec.js --ignore '!test/a.spec.js' --grep '^shared (?:› )?same title$'`
	if f == nil || f.Rerun != want {
		t.Fatalf("failure %+v, want rerun %q", f, want)
	}
	cmd := exec.Command("sh", "-c", f.Rerun)
	cmd.Dir = root
	out, _ := cmd.CombinedOutput()
	if s := string(out); !strings.Contains(s, "0 passing") || !strings.Contains(s, "1 failing") {
		t.Errorf("rerun %q printed %s, want a's test alone: 0 passing, 1 failing", f.Rerun, s)
	}
	// --failed one test at a time, a retry: the runner names the test's
	// suite beside its name.
	rec, _, exit = run(t, adapters.Request{ProjectRoot: root, Test: "shared › same title", TestSuite: "test/a.spec.js"})
	if p := rec.Progress(); exit.Code != 1 || p.Passed != 0 || p.Failed != 1 {
		t.Errorf("the failure rerun alone: exit %+v, counts %+v: want a's test alone, failed", exit, p)
	}
}

// TestMochaHookHang: a "before all" hook that never ends hangs the run
// before any test of its block starts; the hook is named running (it
// was the whole mocha command line), and a hook that passed is no test.
func TestMochaHookHang(t *testing.T) {
	root := project("hookhang")
	s := start(t, adapters.Request{ProjectRoot: root, Command: []string{"npx", "mocha", "--timeout", "0"}})
	s.WaitRunning(t, `setup › "before all" hook for "never runs"`)
	syscall.Kill(-s.Cmd.Process.Pid, syscall.SIGTERM)
	exit := s.Wait()
	exit.StoppedBy = report.StoppedTimeout
	s.Plan.Parser.Finish(exit)
	s.Plan.Parser.(adapters.Closer).Close()
	if got := names(s.Rec); !slices.Equal(got, []string{"ready › passes after its hook", `setup › "before all" hook for "never runs"`}) {
		t.Errorf("tests %q, want the passing test and the hung hook", got)
	}
	noneLeft(t, root)
}

// TestMochaAggregateError: an AggregateError's message says the errors it
// holds (at most five, the rest counted), and its place is its first held
// error's, where mocha gives the outer error's message alone and no frame.
func TestMochaAggregateError(t *testing.T) {
	rec, _, _ := run(t, adapters.Request{ProjectRoot: project("aggregate")})
	for _, tc := range []struct {
		name, want string
		line       int
	}{
		{"any of two", "AggregateError: All promises were rejected\n\nits errors:\n  Error: first inner\n  TypeError: second inner", 5},
		{"any of seven", "its errors:\n  RangeError: inner 1\n  RangeError: inner 2\n  RangeError: inner 3\n  RangeError: inner 4\n  RangeError: inner 5\n  and 2 more", 11},
	} {
		f := byName(t, rec, tc.name).Failure
		if f == nil || !strings.Contains(f.Message, tc.want) || f.File != "test/aggregate.js" || f.Line != tc.line {
			t.Errorf("%s: failure %+v, want %q in its message, at test/aggregate.js:%d", tc.name, f, tc.want, tc.line)
		}
	}
}

// TestMochaAfterRun: a test calls done() again once the run has ended:
// mocha throws "done() called multiple times" from its handler and node
// exits 7, every test having passed. The test is failed for it, at its
// line, and the hint says what happened (before: "exited with code 7
// although no test failed", and the error only on stderr).
func TestMochaAfterRun(t *testing.T) {
	rec, out, exit := run(t, adapters.Request{ProjectRoot: project("afterrun")})
	if !exit.Exited || exit.Code != 7 {
		t.Fatalf("exit %+v, want node's 7", exit)
	}
	tt := byName(t, rec, "calls done twice")
	f := tt.Failure
	if tt.Status != report.TestFailed || f == nil || f.File != "test/afterrun.spec.js" || f.Line != 6 ||
		!strings.Contains(f.Message, "done() called multiple times") || !strings.Contains(f.Message, "after the run had ended") ||
		!strings.Contains(f.Rerun, "--grep '^calls done twice$'") {
		t.Errorf("the test that called done twice: %s %+v", tt.Status, f)
	}
	if got := byName(t, rec, "passes first").Status; got != report.TestPassed {
		t.Errorf("passes first: %s", got)
	}
	if want := "mocha's process failed after its run had ended (exit code 7)"; !strings.Contains(out.Hint, want) || !strings.Contains(out.Hint, "test/afterrun.spec.js:6") {
		t.Errorf("hint %q, want %q and where", out.Hint, want)
	}
}

// TestMochaLateError: a timer that one test left behind throws while the
// next one runs; mocha fails the next one, which alone passes. The failure
// says which test threw it, at its line, and its rerun is the file, which
// fails again; a test's own uncaught error keeps its own rerun.
func TestMochaLateError(t *testing.T) {
	root := project("late")
	rec, out, _ := run(t, adapters.Request{ProjectRoot: root})
	f := byName(t, rec, "late › waits").Failure
	file := "test/late.spec.js"
	if f == nil || f.File != file || f.Line != 8 || !strings.Contains(f.Message, "late boom") ||
		!strings.Contains(f.Message, "thrown in the test `late › leaves a timer that throws`") ||
		f.Rerun != "npx mocha test/late.spec.js --ignore '!test/late.spec.js'" || f.Select != file {
		t.Fatalf("the test the late error was pinned on: %+v", f)
	}
	if !strings.Contains(out.Hint, "mocha caught 1 error as uncaught") {
		t.Errorf("hint %q, want the uncaught error said", out.Hint)
	}
	own := byName(t, rec, "late › throws its own uncaught error").Failure
	if own == nil || own.Line != 18 || strings.Contains(own.Message, "uncaught") || !strings.Contains(own.Rerun, "--grep") || own.Select != "" {
		t.Errorf("a test's own uncaught error: %+v, want its own failure and rerun", own)
	}
	if got := byName(t, rec, "late › leaves a timer that throws").Status; got != report.TestPassed {
		t.Errorf("the test that left the timer: %s, want passed, as mocha says", got)
	}
	// The rerun, pasted, fails the test again.
	cmd := exec.Command("sh", "-c", f.Rerun)
	cmd.Dir = root
	b, _ := cmd.CombinedOutput()
	if !strings.Contains(string(b), "late boom") {
		t.Errorf("rerun %q printed %s, want the late error again", f.Rerun, b)
	}
	// What --failed and a retry select (failure.select: the file's name,
	// beside the test's suite) runs the file whole and fails the test
	// again; a --grep of the file's name ran no test.
	again, _, _ := run(t, adapters.Request{ProjectRoot: root, Test: f.Select, TestSuite: file})
	if g := byName(t, again, "late › waits").Failure; g == nil || !strings.Contains(g.Message, "late boom") || len(again.Tests()) != 3 {
		t.Errorf("late › waits, selected by its failure's select: %+v of %q, want the late error again, in the file's 3 tests", g, names(again))
	}
}

// TestMochaExitInHook: process.exit(0) in a "before all" hook ends mocha
// with code 0 before the block's tests: the hook fails, and the hint says
// how many of the tests mocha was to run did not run.
func TestMochaExitInHook(t *testing.T) {
	rec, out, exit := run(t, adapters.Request{ProjectRoot: project("exithook")})
	if !exit.Exited || exit.Code != 0 {
		t.Fatalf("exit %+v, want code 0", exit)
	}
	if p := rec.Progress(); p.Failed != 1 || p.Passed != 1 || len(p.Running) != 0 {
		t.Errorf("counts %+v, want the first test passed and the hook failed", p)
	}
	if want := "2 of the 3 tests mocha was to run did not run"; !strings.Contains(out.Hint, want) {
		t.Errorf("hint %q, want %q", out.Hint, want)
	}
}

// TestMochaNumberedTest: --test with the name strobe gave the second test
// of a full title ("NAME #2") runs it: mocha knows it by the title alone,
// and a --grep of the numbered name matched no test (no_tests).
func TestMochaNumberedTest(t *testing.T) {
	root := project("dupes")
	rec, out, _ := run(t, adapters.Request{ProjectRoot: root, Test: "test/dupes.spec.js" + sep + "withQuery › { a: 1 } #2"})
	if out.NoTests {
		t.Fatalf("no tests: %+v", out)
	}
	f := rec.Failure("test/dupes.spec.js", "withQuery › { a: 1 } #2")
	if f == nil || f.Line != 9 {
		t.Errorf("withQuery › { a: 1 } #2: failure %+v, want the failure at test/dupes.spec.js:9; ran %q", f, names(rec))
	}
}

// TestMochaExitNumbered: the rerun of a test that ended mocha's process
// greps for its title as mocha knows it, not for strobe's numbered name
// ("same title #2"), which ran no test; pasted, it runs the test again.
func TestMochaExitNumbered(t *testing.T) {
	root := project("exitdup")
	rec, _, exit := run(t, adapters.Request{ProjectRoot: root})
	if !exit.Exited || exit.Code != 3 {
		t.Fatalf("exit %+v, want code 3", exit)
	}
	f := rec.Failure("test/exitdup.spec.js", "same title #2")
	if f == nil || !strings.Contains(f.Rerun, "--grep '^same title$'") {
		t.Fatalf("same title #2: failure %+v, want a rerun by mocha's title", f)
	}
	cmd := exec.Command("/bin/sh", "-c", f.Rerun)
	cmd.Dir = root
	b, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 3 {
		t.Errorf("%s: %v, want the test to exit 3 again:\n%s", f.Rerun, err, b)
	}
}

// TestMochaOddPath: the rerun of a test in a file whose name holds glob
// characters (test/(group)/[id].spec.js, as a router names routes) runs
// that test: its --ignore '!FILE' found no file when the characters were
// escaped with backslashes, which mocha turns into slashes.
func TestMochaOddPath(t *testing.T) {
	root := project("oddpath")
	rec, _, _ := run(t, adapters.Request{ProjectRoot: root})
	f := byName(t, rec, "route › id").Failure
	if f == nil || f.File != "test/(group)/[id].spec.js" {
		t.Fatalf("failure %+v, want one in test/(group)/[id].spec.js", f)
	}
	cmd := exec.Command("sh", "-c", f.Rerun)
	cmd.Dir = root
	out, _ := cmd.CombinedOutput()
	if !strings.Contains(string(out), "0 passing") || !strings.Contains(string(out), "1 failing") {
		t.Errorf("rerun %q:\n%s\nwant the one test, failing", f.Rerun, out)
	}
}

// TestMochaAfterEachAfterFailure: a test that failed, then its "after
// each" hook: the answer keeps the test's own failure (the assertion, its
// diff and line) and adds the hook's after it. The hook's replaced it.
func TestMochaAfterEachAfterFailure(t *testing.T) {
	rec, _, exit := run(t, adapters.Request{ProjectRoot: project("aftereach")})
	if exit.Code != 2 {
		t.Errorf("exit %+v, want mocha's 2: two failures (the test's, the hook's)", exit)
	}
	tt := byName(t, rec, "audit › first")
	f := tt.Failure
	if p := rec.Progress(); p.Failed != 1 || f == nil || f.Line != 11 || !strings.Contains(f.Message, "price: 2") ||
		!strings.Contains(f.Message, `"after each" hook for "first": Error: cleanup failed`) {
		t.Errorf("%+v: failure %+v; want the assertion at line 11, then the hook's failure", rec.Progress(), f)
	}
}

// TestMochaShownCommand: the answer's command named strobe's reporter, in
// a directory removed after the run (`mocha --reporter /tmp/…/reporter.cjs
// --reporter-option out=… --require …`): pasted, mocha could not load it.
// It is the command a person types, which runs the same tests.
func TestMochaShownCommand(t *testing.T) {
	install(t)
	cmd, out := adapterstest.PasteShown(t, New(), adapters.Request{ProjectRoot: project("basic")})
	if cmd != "npx mocha" || !strings.Contains(string(out), "5 failing") {
		t.Errorf("%s:\n%s\nwant `npx mocha` and mocha's 5 failures", cmd, out)
	}
}
