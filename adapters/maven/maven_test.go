package maven

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
	"strobe/internal/testutil"
	"strobe/report"
)

func TestDetect(t *testing.T) {
	pom := t.TempDir()
	adapterstest.WriteFiles(t, pom, map[string]string{"pom.xml": "<project/>"})
	for _, tc := range []struct {
		name string
		root string
		cmd  []string
		want int
	}{
		{"pom", pom, nil, confPom},
		{"nothing", t.TempDir(), nil, 0},
		{"mvn command", t.TempDir(), []string{"mvn", "-B", "test"}, confCommand},
		{"wrapper command", t.TempDir(), []string{"./mvnw", "verify"}, confCommand},
		{"other command", pom, []string{"make", "test"}, 0},
		// A -Dtest pattern's '*' puts the command line through the shell.
		{"mvn in the shell", t.TempDir(), []string{"/bin/sh", "-c", "mvn -B test -Dtest=Strobe*"}, confCommand},
		{"a script in the shell", t.TempDir(), []string{"/bin/sh", "-c", "mvn -B test && echo done"}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := New().Detect(adapters.Request{ProjectRoot: tc.root, Command: tc.cmd}); got.Confidence != tc.want {
				t.Errorf("confidence %d (%s), want %d", got.Confidence, got.Hint, tc.want)
			}
		})
	}
}

func TestPlan(t *testing.T) {
	root := t.TempDir()
	adapterstest.WriteFiles(t, root, map[string]string{"pom.xml": "<project/>", "mvnw": "#!/bin/sh\n"})
	os.Chmod(filepath.Join(root, "mvnw"), 0o755)
	wrapper := filepath.Join(root, "mvnw")
	for _, tc := range []struct {
		name string
		req  adapters.Request
		want []string
	}{
		{"suite", adapters.Request{}, []string{wrapper, "-B", "test"}},
		{"unit", adapters.Request{Level: adapters.LevelUnit}, []string{wrapper, "-B", "test"}},
		{"single", adapters.Request{Test: "CalcTest#adds"}, []string{wrapper, "-B", "test", "-Dtest=CalcTest#adds", noFailProp}},
		{"a JUnit 5 invocation", adapters.Request{Test: "ParamTest#isOdd(int)[2]"}, []string{wrapper, "-B", "test", "-Dtest=ParamTest#isOdd", noFailProp}},
		// -Dtest=RowTest#notTwo runs nothing (Surefire 3) or fails on
		// JUnit 4's filter (Surefire 2): a row selects its class.
		{"a JUnit 4 Parameterized row", adapters.Request{Test: "RowTest#notTwo[1: n=2]"}, []string{wrapper, "-B", "test", "-Dtest=RowTest", noFailProp}},
		{"integration", adapters.Request{Level: adapters.LevelIntegration}, []string{wrapper, "-B", "verify", noSurefire, noFailProp}},
		{"one integration test", adapters.Request{Level: adapters.LevelIntegration, Test: "SlowIT"},
			[]string{wrapper, "-B", "verify", noSurefire, noFailProp, "-Dit.test=SlowIT", noFailItProp}},
		{"command", adapters.Request{Command: []string{"mvn", "-q", "test"}}, []string{"mvn", "-q", "test"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.req.ProjectRoot = root
			plan, err := New().Plan(context.Background(), tc.req, adapters.NewRecorder())
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(plan.Argv, tc.want) || plan.Dir != root {
				t.Errorf("argv %q in %s, want %q in the root", plan.Argv, plan.Dir, tc.want)
			}
		})
	}
}

func TestPlanRefuses(t *testing.T) {
	root := t.TempDir()
	adapterstest.WriteFiles(t, root, map[string]string{"pom.xml": "<project/>"})
	for _, tc := range []struct {
		name      string
		req       adapters.Request
		framework string
	}{
		{"no maven", adapters.Request{Env: []string{"PATH=" + t.TempDir()}}, "maven"},
		{"e2e", adapters.Request{Level: adapters.LevelE2E}, "maven"},
		{"command and test", adapters.Request{Command: []string{"mvn", "test"}, Test: "X"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.req.ProjectRoot = root
			_, err := New().Plan(context.Background(), tc.req, adapters.NewRecorder())
			var u *adapters.UsageError
			if !errors.As(err, &u) || u.Framework != tc.framework || (tc.framework != "" && u.Hint == "") {
				t.Errorf("error %v, want a usage error for framework %q with a hint", err, tc.framework)
			}
		})
	}
}

func TestIsTestProcess(t *testing.T) {
	booter := []string{"/usr/lib/jvm/java-17/bin/java", "-jar", "/p/target/surefire/surefirebooter-2026_3.jar", "/p/target/surefire", "x-jvmRun1"}
	for _, tc := range []struct {
		name string
		p    adapters.Proc
		want bool
	}{
		{"forked jvm", adapters.Proc{Name: "java", Args: booter}, true},
		{"forked booter class", adapters.Proc{Name: "java", Args: []string{"java", "-cp", "x", "org.apache.maven.surefire.booter.ForkedBooter"}}, true},
		{"sh that starts it", adapters.Proc{Name: "sh", Args: append([]string{"/bin/sh", "-c"}, booter...)}, false},
		{"maven itself", adapters.Proc{Name: "java", Args: []string{"java", "-classpath", "/usr/share/maven/boot/plexus-classworlds.jar", "org.codehaus.plexus.classworlds.launcher.Launcher", "test"}}, false},
	} {
		if got := (mavenAdapter{}).IsTestProcess(tc.p); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestIsHarnessThread(t *testing.T) {
	p := adapters.Proc{PID: 100, Name: "java", Args: []string{"java", "-jar", "/p/target/surefire/surefirebooter-1.jar"}}
	for _, tc := range []struct {
		tid  int
		name string
		want bool
	}{
		{100, "java", true},  // the launcher's thread joins main
		{101, "java", false}, // main, which runs the tests
		{102, "GC Thread#0", true},
		{103, "VM Periodic Tas", true},
		{104, "C2 CompilerThre", true},
		{105, "surefire-forked", true},
		{106, "other-locker", false},
		{107, "ForkJoinPool-1-", false},
	} {
		if got := (mavenAdapter{}).IsHarnessThread(p, tc.tid, tc.name); got != tc.want {
			t.Errorf("thread %d %q: %v, want %v", tc.tid, tc.name, got, tc.want)
		}
	}
	mvn := adapters.Proc{PID: 90, Name: "java", Args: []string{"java", "org.codehaus.plexus.classworlds.launcher.Launcher"}}
	if !(mavenAdapter{}).IsHarnessThread(mvn, 91, "java") {
		t.Error("a thread of Maven's own JVM is not the harness")
	}
}

// requireMaven skips without mvn, and fails under CI=true.
func requireMaven(t *testing.T) {
	t.Helper()
	testutil.RequireTool(t, "mvn")
	testutil.RequireTool(t, "java")
}

// TestOutOfMemory: a test that needs more than its fork's heap kills the
// fork ("There was an error in the forked process" / "Java heap space").
// Maven's closing "Failed to execute goal" made it a build failure, cut
// at its colon (commons-codec's 1 GiB test on a busy machine): it is a
// crash of the tests in the class that ran, out of memory, with the hint
// saying where the heap is set.
func TestOutOfMemory(t *testing.T) {
	requireMaven(t)
	root := adapterstest.CopyFixture(t, "oom")
	_, out, _ := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root})
	c := out.Crash
	if out.BuildFailed || c == nil || c.Message != "There was an error in the forked process: Java heap space" ||
		!slices.Contains(c.Indicators, "out_of_memory") || !slices.Equal(c.RunningTests, []string{"com.example.BigTest"}) {
		t.Fatalf("build failed %v, crash %+v: want the fork's OutOfMemoryError in BigTest", out.BuildFailed, c)
	}
	if !strings.Contains(out.Hint, "the forked JVM ran out of memory in BigTest: give Surefire's fork a larger heap") {
		t.Errorf("hint %q", out.Hint)
	}
}

func TestRealBasic(t *testing.T) {
	requireMaven(t)
	root := adapterstest.CopyFixture(t, "basic")
	rec, out, exit := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root})
	if exit.Code != 1 || out.BuildFailed || out.NoTests || out.Crash != nil {
		t.Fatalf("exit %+v, outcome %+v", exit, out)
	}
	p := rec.Progress()
	if p.Passed != 2 || p.Failed != 3 || p.Skipped != 1 {
		t.Errorf("counts %+v, want 2 passed, 3 failed, 1 skipped", p)
	}
	for _, tc := range []struct {
		name, file string
		line       int
		message    string
	}{
		{"CalcTest#addsWrongly", "src/test/java/com/example/CalcTest.java", 16, "expected: <5> but was: <4>"},
		{"CalcTest#dividesByZero", "src/test/java/com/example/CalcTest.java", 21, "java.lang.ArithmeticException: / by zero\n(thrown at src/main/java/com/example/Calc.java:9)"},
		{"OtherTest#failsWithMessage", "src/test/java/com/example/OtherTest.java", 15, "one and one make two ==> expected: <true> but was: <false>"},
	} {
		tt, ok := adapterstest.TestByName(rec.Tests(), tc.name)
		if !ok || tt.Failure == nil {
			t.Errorf("%s: %+v, want a failure", tc.name, tt)
			continue
		}
		if f := tt.Failure; f.File != tc.file || f.Line != tc.line || f.Message != tc.message {
			t.Errorf("%s: %s:%d %q, want %s:%d %q", tc.name, f.File, f.Line, f.Message, tc.file, tc.line, tc.message)
		}
	}
	// The rerun is pasteable: it runs that one test, and it fails again.
	tt, _ := adapterstest.TestByName(rec.Tests(), "CalcTest#addsWrongly")
	cmd := exec.Command("sh", "-c", tt.Failure.Rerun)
	cmd.Dir = root
	b, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(b), "Tests run: 1, Failures: 1, Errors: 0, Skipped: 0") {
		t.Errorf("rerun %q: %v\n%s", tt.Failure.Rerun, err, b)
	}
}

// TestRealMultiRelease: a multi-release jar's sources for Java 11 and
// later, in src/main/java11 and src/test/java11 beside (or instead of)
// src/main/java, added by build-helper-maven-plugin as jsoup does. Its
// failures were at src/test/java/…/ClockTest.java, a file that is not
// there, and the exception its code threw said nowhere where.
func TestRealMultiRelease(t *testing.T) {
	requireMaven(t)
	root := adapterstest.CopyFixture(t, "multirelease")
	rec, out, _ := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root})
	if p := rec.Progress(); p.Passed != 1 || p.Failed != 2 || out.BuildFailed {
		t.Fatalf("counts %+v, outcome %+v: want 1 passed, 2 failed", p, out)
	}
	for _, tc := range []struct {
		name    string
		line    int
		message string
	}{
		{"ClockTest#roundsUp", 15, "expected: <2> but was: <1>"},
		{"ClockTest#refusesNegative", 20, "java.lang.IllegalArgumentException: negative minutes: -1\n(thrown at src/main/java11/com/example/Clock.java:6)"},
	} {
		f := rec.Failure("com.example.ClockTest", tc.name)
		if f == nil || f.File != "src/test/java11/com/example/ClockTest.java" || f.Line != tc.line || f.Message != tc.message {
			t.Errorf("%s: %+v, want at src/test/java11/com/example/ClockTest.java:%d, %q", tc.name, f, tc.line, tc.message)
		}
	}
}

func TestRealSingle(t *testing.T) {
	requireMaven(t)
	root := adapterstest.CopyFixture(t, "basic")
	rec, out, _ := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root, Test: "OtherTest#passes"})
	tests := rec.Tests()
	if len(tests) != 1 || tests[0].Name != "OtherTest#passes" || tests[0].Status != report.TestPassed || out.NoTests {
		t.Errorf("tests %+v, outcome %+v; want OtherTest#passes alone, passed", tests, out)
	}
	rec, out, _ = adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root, Test: "NoSuchTest"})
	if n := len(rec.Tests()); n != 0 || !out.NoTests || !strings.Contains(out.Hint, "-Dtest") {
		t.Errorf("%d tests, outcome %+v; want no_tests with the -Dtest hint (and no stale report of the run before)", n, out)
	}
}

func TestRealIntegration(t *testing.T) {
	requireMaven(t)
	root := adapterstest.CopyFixture(t, "basic")
	rec, out, exit := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root, Level: adapters.LevelIntegration})
	tests := rec.Tests()
	if exit.Code != 0 || len(tests) != 1 || tests[0].Name != "SlowIT#integrates" || tests[0].Status != report.TestPassed {
		t.Errorf("exit %+v, tests %+v, outcome %+v; want SlowIT#integrates alone, passed", exit, tests, out)
	}
}

func TestRealBroken(t *testing.T) {
	requireMaven(t)
	root := adapterstest.CopyFixture(t, "broken")
	_, out, _ := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root})
	want := []report.BuildError{{File: "src/test/java/com/example/BrokenTest.java", Line: 10, Column: 29,
		Message: "cannot find symbol; symbol: method multiply(int,int); location: class com.example.Calc"}}
	if !out.BuildFailed || !slices.Equal(out.BuildErrors, want) {
		t.Errorf("outcome %+v, want build_failed at %+v", out, want)
	}
}

// TestBuildErrorDetails: javac's detail lines under an error join its
// message; one whose first line ends in ";" (java-classmate broken on
// purpose) read "given types;; required".
func TestBuildErrorDetails(t *testing.T) {
	root := t.TempDir()
	rec := adapters.NewRecorder()
	p := newParser(rec, root, []string{"."}, []string{"mvn", "-B", "test"})
	for _, l := range []string{
		"[ERROR] " + root + "/src/test/java/com/fasterxml/classmate/TypeResolverTest.java:[160,29] method isArray in class com.fasterxml.classmate.ResolvedType cannot be applied to given types;",
		"  required: no arguments",
		"  found:    int",
		"  reason: actual and formal argument lists differ in length",
		"[INFO] 1 error",
	} {
		p.Line(adapters.Stdout, []byte(l), false)
	}
	out := p.Finish(report.Exit{Exited: true, Code: 1})
	want := "method isArray in class com.fasterxml.classmate.ResolvedType cannot be applied to given types; required: no arguments; found: int; reason: actual and formal argument lists differ in length"
	if len(out.BuildErrors) != 1 || out.BuildErrors[0].Message != want || out.BuildErrors[0].Line != 160 {
		t.Errorf("build errors %+v, want one at line 160: %q", out.BuildErrors, want)
	}
}

func TestRealNoTests(t *testing.T) {
	requireMaven(t)
	root := adapterstest.CopyFixture(t, "notests")
	_, out, exit := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root})
	if exit.Code != 0 || !out.NoTests || out.Hint == "" {
		t.Errorf("exit %+v, outcome %+v; want no_tests with a hint", exit, out)
	}
}

func TestRealMulti(t *testing.T) {
	requireMaven(t)
	root := adapterstest.CopyFixture(t, "multi")
	rec, _, _ := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root})
	greets, _ := adapterstest.TestByName(rec.Tests(), "GreeterTest#greets")
	app, _ := adapterstest.TestByName(rec.Tests(), "AppTest#greetsTheWorld")
	if greets.Status != report.TestPassed || app.Failure == nil || app.Failure.File != "app/src/test/java/com/example/app/AppTest.java" || app.Failure.Line != 11 {
		t.Fatalf("core %+v, app %+v; want core passed, app failed at app/src/test/java/…/AppTest.java:11", greets, app)
	}
	cmd := exec.Command("sh", "-c", app.Failure.Rerun)
	cmd.Dir = root
	b, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(b), "Tests run: 1, Failures: 1") || strings.Contains(string(b), "GreeterTest") {
		t.Errorf("rerun %q: %v\n%s", app.Failure.Rerun, err, b)
	}
	// com.example.shared.SharedTest is in both modules: Surefire runs
	// core's two and app's one, and the modules' same() are two tests.
	// They were one: the counts lost core's.
	if p := rec.Progress(); p.Passed != 3 || p.Failed != 2 {
		t.Errorf("counts %+v, want Surefire's 3 passed (greets, core's same and onlyCore), 2 failed", p)
	}
	core, _ := rec.Lookup("com.example.shared.SharedTest", "SharedTest#same")
	appSame, _ := rec.Lookup("com.example.shared.SharedTest (app)", "SharedTest#same")
	if core.Status != report.TestPassed || appSame.Status != report.TestFailed || appSame.Failure == nil ||
		appSame.Failure.File != "app/src/test/java/com/example/shared/SharedTest.java" || !strings.Contains(appSame.Failure.Rerun, "-pl app") {
		t.Errorf("core's same %+v, app's %+v; want core's passed, app's failed in app's file with a rerun in app", core, appSame)
	}
}

// TestRealJUnit5 runs JUnit 5's other kinds of test: @Nested classes
// (Outer$Inner, selected as such), parameterized, repeated and dynamic
// tests (an invocation is Class#method(args)[n]; -Dtest selects the
// method, all its invocations), @Disabled and a failed assumption
// (skipped), a test inherited from an abstract base class in another
// package (at the base class's file:line, as commons-cli's parser
// tests). Counts are Surefire's.
func TestRealJUnit5(t *testing.T) {
	requireMaven(t)
	root := adapterstest.CopyFixture(t, "junit5")
	rec, out, exit := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root})
	if exit.Code != 1 || out.BuildFailed || out.NoTests || out.Crash != nil {
		t.Fatalf("exit %+v, outcome %+v", exit, out)
	}
	if p := rec.Progress(); p.Passed != 9 || p.Failed != 12 || p.Skipped != 2 {
		t.Errorf("counts %+v, want Surefire's 9 passed, 12 failed, 2 skipped", p)
	}
	for _, tc := range []struct {
		name, file string
		line       int
		sel        string
	}{
		{"NestedTest$Inner#innerFails", "NestedTest.java", 18, "com.example.NestedTest$Inner#innerFails"},
		{"NestedTest$Inner$Deeper#deepFails", "NestedTest.java", 29, "com.example.NestedTest$Inner$Deeper#deepFails"},
		{"ParamTest#isOdd(int)[2]", "ParamTest.java", 13, "com.example.ParamTest#isOdd"},
		{"ParamTest#adds(String, String, String)[2]", "ParamTest.java", 19, "com.example.ParamTest#adds"},
		{"RepeatTest#repeats(RepetitionInfo)[2]", "RepeatTest.java", 11, "com.example.RepeatTest#repeats"},
		{"MiscTest#dynamic()[3]", "MiscTest.java", 34, "com.example.MiscTest#dynamic"},
		{"MiscTest#displayed", "MiscTest.java", 29, "com.example.MiscTest#displayed"},
		{"InheritTest#namesItself", "base/ContractBase.java", 12, "com.example.InheritTest#namesItself"},
	} {
		tt, ok := adapterstest.TestByName(rec.Tests(), tc.name)
		if !ok || tt.Failure == nil {
			t.Errorf("%s: %+v, want a failure", tc.name, tt)
			continue
		}
		f := tt.Failure
		if f.File != "src/test/java/com/example/"+tc.file || f.Line != tc.line || !strings.Contains(f.Rerun, "'-Dtest="+tc.sel+"' ") {
			t.Errorf("%s: %s:%d, rerun %q; want %s:%d and -Dtest=%s", tc.name, f.File, f.Line, f.Rerun, tc.file, tc.line, tc.sel)
		}
	}
	for _, name := range []string{"MiscTest#disabled", "MiscTest#assumes"} {
		if tt, _ := adapterstest.TestByName(rec.Tests(), name); tt.Status != report.TestSkipped {
			t.Errorf("%s: %+v, want skipped", name, tt)
		}
	}
	// A nested class's rerun runs its test alone.
	tt, _ := adapterstest.TestByName(rec.Tests(), "NestedTest$Inner#innerFails")
	if tt.Failure != nil {
		cmd := exec.Command("sh", "-c", tt.Failure.Rerun)
		cmd.Dir = root
		if b, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(b), "Tests run: 1, Failures: 1, Errors: 0, Skipped: 0") {
			t.Errorf("rerun %q: %v\n%s", tt.Failure.Rerun, err, b)
		}
	}
	// A retry names the invocation: it runs the method's invocations and
	// finds that one among them.
	rec, _, _ = adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root, Test: "ParamTest#isOdd(int)[2]"})
	if tt, ok := adapterstest.TestByName(rec.Tests(), "ParamTest#isOdd(int)[2]"); !ok || tt.Status != report.TestFailed || len(rec.Tests()) != 4 {
		t.Errorf("test ParamTest#isOdd(int)[2]: %+v among %d tests, want it failed among isOdd's 4 invocations", tt, len(rec.Tests()))
	}
}

// TestRealRerunFailing: Surefire's rerunFailingTestsCount runs a failed
// test again and rewrites its class's report after the class's first
// closing line, which said it failed. A test that passed on its second
// try is flaky and passed, where it was failed; one that failed every try
// stays failed.
func TestRealRerunFailing(t *testing.T) {
	requireMaven(t)
	root := adapterstest.CopyFixture(t, "junit5")
	rec, out, _ := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root,
		Command: []string{"mvn", "-B", "test", "-Dsurefire.rerunFailingTestsCount=2", "-Dtest=FlakyCheck"}})
	if p := rec.Progress(); p.Passed != 2 || p.Failed != 1 {
		t.Errorf("counts %+v, want Surefire's 2 passed (one flaky), 1 failed", p)
	}
	if tt, _ := adapterstest.TestByName(rec.Tests(), "FlakyCheck#secondTry"); tt.Status != report.TestPassed {
		t.Errorf("FlakyCheck#secondTry: %+v, want passed", tt)
	}
	if tt, _ := adapterstest.TestByName(rec.Tests(), "FlakyCheck#alwaysFails"); tt.Status != report.TestFailed {
		t.Errorf("FlakyCheck#alwaysFails: %+v, want failed", tt)
	}
	want := adapters.FlakyTest{Suite: "com.example.FlakyCheck", Name: "FlakyCheck#secondTry", Attempts: 2,
		File: "src/test/java/com/example/FlakyCheck.java", Line: 15, Message: "the first try fails ==> expected: <2> but was: <1>"}
	if len(out.Flaky) != 1 || out.Flaky[0] != want {
		t.Errorf("flaky %+v, want %+v", out.Flaky, want)
	}
	if !strings.Contains(out.Hint, "flaky: FlakyCheck#secondTry (passed on try 2; failed first at src/test/java/com/example/FlakyCheck.java:15)") {
		t.Errorf("hint %q: want the flaky test named", out.Hint)
	}
}

// TestRealJUnit5AssertAll: assertAll's MultipleFailuresError is the
// test's first failure, at its line in the test, after assertAll's
// heading; the others follow it, each at its own line from its frame in
// the trace (an exception said with its type); past the trace strobe
// keeps, the message's list names the rest, without a line.
func TestRealJUnit5AssertAll(t *testing.T) {
	requireMaven(t)
	root := adapterstest.CopyFixture(t, "junit5")
	rec, _, _ := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root, Test: "AssertAllTest"})
	const src = "src/test/java/com/example/AssertAllTest.java"
	f := rec.Failure("com.example.AssertAllTest", "AssertAllTest#group")
	want := []report.LaterFailure{
		{File: src, Line: 17, Message: "not true ==> expected: <true> but was: <false>"},
		{File: src, Line: 19, Message: "java.lang.IllegalStateException: bad state"},
	}
	if f == nil || f.File != src || f.Line != 16 || !strings.HasPrefix(f.Message, "group (3 failures)\nexpected: <1> but was: <2>\nand 2 more failures in this test:\n") ||
		!slices.Equal(f.Later, want) {
		t.Errorf("group: %+v, want the first at %s:16 and then %+v", f, src, want)
	}
	f = rec.Failure("com.example.AssertAllTest", "AssertAllTest#many")
	if f == nil || f.File != src || f.Line != 27 || len(f.Later) != 49 || f.LaterOmitted != 0 ||
		!strings.HasPrefix(f.Message, "Multiple Failures (50 failures)\nexpected: <-1> but was: <0>\nand 49 more failures in this test:\n"+src+":27: expected: <-1> but was: <1>\n") {
		t.Fatalf("many: %+v, want the first at %s:27 and 49 later", f, src)
	}
	for i, l := range f.Later {
		if l.Message != fmt.Sprintf("expected: <-1> but was: <%d>", i+1) || (l.Line != 27 && l.Line != 0) || (i < 30 && l.Line != 27) {
			t.Errorf("many's later failure %d: %+v", i, l)
		}
	}
}

// TestRealReactor runs a reactor where core's test fails, app (which
// needs core) is skipped and tools' tests do not compile. Maven stops at
// core unless told -fae; with it, tools' compile error is a build error
// beside core's failure. Either way the modules Maven skipped are named:
// their tests never ran. core's compiler warnings (-Xlint:all) are not
// build errors.
func TestRealReactor(t *testing.T) {
	requireMaven(t)
	root := adapterstest.CopyFixture(t, "reactor")
	check := func(t *testing.T, rec *adapters.Recorder) {
		t.Helper()
		greets, _ := adapterstest.TestByName(rec.Tests(), "GreeterTest#greets")
		if p := rec.Progress(); p.Passed != 1 || p.Failed != 1 || greets.Failure == nil ||
			greets.Failure.File != "core/src/test/java/com/example/core/GreeterTest.java" || greets.Failure.Line != 10 {
			t.Errorf("counts %+v, GreeterTest#greets %+v; want Surefire's 1 passed, 1 failed at core/…/GreeterTest.java:10", p, greets)
		}
	}
	t.Run("fail-at-end", func(t *testing.T) {
		rec, out, _ := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root, Command: []string{"mvn", "-B", "-fae", "test"}})
		check(t, rec)
		want := []report.BuildError{{File: "tools/src/test/java/com/example/tools/ToolTest.java", Line: 8, Column: 21,
			Message: "incompatible types: java.lang.String cannot be converted to int"}}
		if !out.BuildFailed || !slices.Equal(out.BuildErrors, want) {
			t.Errorf("outcome %+v, want build_failed at %+v beside core's failure", out, want)
		}
		if !strings.Contains(out.Hint, "Maven skipped app: its tests did not run") {
			t.Errorf("hint %q, want app named skipped", out.Hint)
		}
	})
	t.Run("fail-fast", func(t *testing.T) {
		rec, out, _ := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root})
		check(t, rec)
		if out.BuildFailed || len(out.BuildErrors) > 0 {
			t.Errorf("outcome %+v: Maven stopped before compiling tools; core's warnings are no build errors", out)
		}
		if !strings.Contains(out.Hint, "Maven skipped app, tools: their tests did not run") || !slices.Contains(out.Indicators, report.IndicatorNotReached) {
			t.Errorf("hint %q, indicators %q: want app and tools named skipped, and the run not reaching them said", out.Hint, out.Indicators)
		}
	})
}

// A class's @BeforeAll or @AfterAll that throws fails the class, not a
// test: Surefire writes it as a test case without a name and counts it
// (Tests run: 3, Errors: 2). It is the class's failure, at the hook's
// line, and its rerun runs the class.
func TestRealHooks(t *testing.T) {
	requireMaven(t)
	root := adapterstest.CopyFixture(t, "hooks")
	rec, out, exit := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root})
	if exit.Code != 1 || out.BuildFailed || out.NoTests || out.Crash != nil {
		t.Fatalf("exit %+v, outcome %+v", exit, out)
	}
	if p := rec.Progress(); p.Passed != 1 || p.Failed != 2 || p.Skipped != 0 {
		t.Errorf("counts %+v, want Surefire's: 1 passed, 2 failed", p)
	}
	for _, tc := range []struct {
		name, message string
		line          int
	}{
		{"SetupTest", "java.lang.IllegalStateException: no database", 9},
		{"TeardownTest", "java.lang.IllegalStateException: still connected", 9},
	} {
		tt, ok := adapterstest.TestByName(rec.Tests(), tc.name)
		if !ok || tt.Failure == nil {
			t.Errorf("%s: %+v, want the class failed", tc.name, tt)
			continue
		}
		f := tt.Failure
		file := "src/test/java/com/example/" + tc.name + ".java"
		if f.File != file || f.Line != tc.line || f.Message != tc.message || !strings.HasSuffix(f.Rerun, "-Dtest=com.example."+tc.name+" "+noFailProp) {
			t.Errorf("%s: %s:%d %q, rerun %q; want %s:%d %q, the class rerun", tc.name, f.File, f.Line, f.Message, f.Rerun, file, tc.line, tc.message)
		}
	}
	tt, _ := adapterstest.TestByName(rec.Tests(), "SetupTest")
	if tt.Failure == nil {
		return
	}
	cmd := exec.Command("sh", "-c", tt.Failure.Rerun)
	cmd.Dir = root
	if b, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(b), "no database") {
		t.Errorf("rerun %q: %v\n%s", tt.Failure.Rerun, err, b)
	}
}

// JUnit 4 names a class that failed before its tests (an @BeforeClass
// that threw, no runnable method) initializationError: no method of that
// name exists, so -Dtest=FooTest#initializationError would run nothing
// and pass. Its rerun and its selection are the class.
func TestInitializationError(t *testing.T) {
	root := t.TempDir()
	adapterstest.WriteFiles(t, root, map[string]string{
		"target/surefire-reports/TEST-com.x.FooTest.xml": `<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="com.x.FooTest" tests="1" errors="1" skipped="0" failures="0">
  <testcase name="initializationError" classname="com.x.FooTest" time="0.015">
    <error message="class setup broke" type="java.lang.IllegalStateException"><![CDATA[java.lang.IllegalStateException: class setup broke
	at com.x.FooTest.setUpClass(FooTest.java:37)
]]></error>
  </testcase>
</testsuite>`,
		"src/test/java/com/x/FooTest.java": "",
	})
	rec := adapters.NewRecorder()
	p := newParser(rec, root, []string{"."}, []string{"mvn", "-B", "test"})
	p.Line(adapters.Stdout, []byte("[ERROR] Tests run: 1, Failures: 0, Errors: 1, Skipped: 0, Time elapsed: 0.016 s <<< FAILURE! -- in com.x.FooTest"), false)
	f := rec.Failure("com.x.FooTest", "FooTest#initializationError")
	if f == nil || f.File != "src/test/java/com/x/FooTest.java" || f.Line != 37 || f.Rerun != "mvn -B test -Dtest=com.x.FooTest "+noFailProp {
		t.Errorf("failure %+v, want FooTest.java:37 rerun by the class", f)
	}
	if got := multiSelection(t.TempDir(), []adapters.TestRef{{Suite: "com.x.FooTest", Name: "FooTest#initializationError"}}); got != "com.x.FooTest" {
		t.Errorf("multiSelection = %q, want the class", got)
	}
	if got := selection(adapters.Request{Test: "FooTest#initializationError"}); !slices.Equal(got, []string{"-Dtest=FooTest", noFailProp}) {
		t.Errorf("selection = %q, want the class", got)
	}
	// An @AfterClass that threw, once the class's tests ran (JSON-java's
	// CookieTest): executionError.
	if got := p.rerun(".", surefireDir, "com.x.FooTest", "executionError"); got != "mvn -B test -Dtest=com.x.FooTest "+noFailProp {
		t.Errorf("executionError's rerun %q, want the class", got)
	}
}

// TestThrownInMainCode: an exception thrown in the project's main code
// (commons-validator's ISBNValidator, called by the test) is placed at
// the test's line, which alone does not say where it came from: the
// message adds where it was thrown, the innermost frame whose source is
// the project's. JUnit's assertion frames and the JDK's are not.
func TestThrownInMainCode(t *testing.T) {
	root := t.TempDir()
	adapterstest.WriteFiles(t, root, map[string]string{
		"target/surefire-reports/TEST-com.x.IsbnTest.xml": `<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="com.x.IsbnTest" tests="2" errors="1" skipped="0" failures="1">
  <testcase name="converts" classname="com.x.IsbnTest" time="0.013">
    <error message="conversion table missing" type="java.lang.IllegalStateException"><![CDATA[java.lang.IllegalStateException: conversion table missing
	at java.base/java.util.Objects.requireNonNull(Objects.java:259)
	at com.x.Isbn.convert(Isbn.java:167)
	at com.x.Isbn.validate(Isbn.java:250)
	at com.x.IsbnTest.converts(IsbnTest.java:268)
	at java.base/jdk.internal.reflect.NativeMethodAccessorImpl.invoke0(Native Method)
]]></error>
  </testcase>
  <testcase name="valid" classname="com.x.IsbnTest" time="0.024">
    <failure message="valid-3 ==&gt; expected: &lt;true&gt; but was: &lt;false&gt;" type="org.opentest4j.AssertionFailedError"><![CDATA[org.opentest4j.AssertionFailedError: valid-3 ==> expected: <true> but was: <false>
	at org.junit.jupiter.api.AssertionUtils.fail(AssertionUtils.java:55)
	at org.junit.jupiter.api.AssertTrue.assertTrue(AssertTrue.java:40)
	at com.x.IsbnTest.valid(IsbnTest.java:189)
]]></failure>
  </testcase>
</testsuite>`,
		"src/main/java/com/x/Isbn.java":     "",
		"src/test/java/com/x/IsbnTest.java": "",
	})
	rec := adapters.NewRecorder()
	p := newParser(rec, root, []string{"."}, []string{"mvn", "-B", "test"})
	p.Line(adapters.Stdout, []byte("[ERROR] Tests run: 2, Failures: 1, Errors: 1, Skipped: 0, Time elapsed: 0.055 s <<< FAILURE! -- in com.x.IsbnTest"), false)
	f := rec.Failure("com.x.IsbnTest", "IsbnTest#converts")
	if f == nil || f.File != "src/test/java/com/x/IsbnTest.java" || f.Line != 268 ||
		f.Message != "java.lang.IllegalStateException: conversion table missing\n(thrown at src/main/java/com/x/Isbn.java:167)" {
		t.Errorf("failure %+v, want at IsbnTest.java:268, thrown at src/main/java/com/x/Isbn.java:167", f)
	}
	if f := rec.Failure("com.x.IsbnTest", "IsbnTest#valid"); f == nil || f.Line != 189 || strings.Contains(f.Message, "thrown at") {
		t.Errorf("failure %+v, want at IsbnTest.java:189 with JUnit's message alone", f)
	}
}

// TestBareAssertion: JUnit 3's assertFalse(x) without a message (a
// report of FasterXML/java-classmate's, broken on purpose) failed with
// "junit.framework.AssertionFailedError" alone: the message adds the
// line that failed. An assertion with a message keeps it alone.
func TestBareAssertion(t *testing.T) {
	root := t.TempDir()
	src := strings.Repeat("\n", 159) + "        assertFalse(arrayType.isArray());\n" + "        assertEquals(\"x\", y);\n"
	adapterstest.WriteFiles(t, root, map[string]string{
		"target/surefire-reports/TEST-com.fasterxml.classmate.TypeResolverTest.xml": `<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="com.fasterxml.classmate.TypeResolverTest" tests="2" errors="0" skipped="0" failures="2">
  <testcase name="testArrayTypes" classname="com.fasterxml.classmate.TypeResolverTest" time="0.001">
    <failure type="junit.framework.AssertionFailedError"><![CDATA[junit.framework.AssertionFailedError
	at junit.framework.Assert.fail(Assert.java:55)
	at junit.framework.Assert.assertTrue(Assert.java:22)
	at junit.framework.Assert.assertFalse(Assert.java:39)
	at junit.framework.Assert.assertFalse(Assert.java:47)
	at junit.framework.TestCase.assertFalse(TestCase.java:216)
	at com.fasterxml.classmate.TypeResolverTest.testArrayTypes(TypeResolverTest.java:160)
	at java.base/jdk.internal.reflect.NativeMethodAccessorImpl.invoke0(Native Method)
	at junit.framework.TestCase.runTest(TestCase.java:177)
]]></failure>
  </testcase>
  <testcase name="testNames" classname="com.fasterxml.classmate.TypeResolverTest" time="0.001">
    <failure message="expected:&lt;[x]&gt; but was:&lt;[z]&gt;" type="junit.framework.ComparisonFailure"><![CDATA[junit.framework.ComparisonFailure: expected:<[x]> but was:<[z]>
	at junit.framework.Assert.assertEquals(Assert.java:100)
	at junit.framework.TestCase.assertEquals(TestCase.java:261)
	at com.fasterxml.classmate.TypeResolverTest.testNames(TypeResolverTest.java:161)
]]></failure>
  </testcase>
</testsuite>`,
		"src/test/java/com/fasterxml/classmate/TypeResolverTest.java": src,
	})
	rec := adapters.NewRecorder()
	p := newParser(rec, root, []string{"."}, []string{"mvn", "-B", "test"})
	p.Line(adapters.Stdout, []byte("[ERROR] Tests run: 2, Failures: 2, Errors: 0, Skipped: 0, Time elapsed: 0.014 s <<< FAILURE! -- in com.fasterxml.classmate.TypeResolverTest"), false)
	f := rec.Failure("com.fasterxml.classmate.TypeResolverTest", "TypeResolverTest#testArrayTypes")
	if f == nil || f.Line != 160 || f.Message != "junit.framework.AssertionFailedError\n(failed: assertFalse(arrayType.isArray());)" {
		t.Errorf("failure %+v, want the line that failed in the message", f)
	}
	f = rec.Failure("com.fasterxml.classmate.TypeResolverTest", "TypeResolverTest#testNames")
	if f == nil || f.Line != 161 || f.Message != "expected:<[x]> but was:<[z]>" {
		t.Errorf("failure %+v, want JUnit's message alone", f)
	}
}

// TestShellCommandRerun: a given command with a -Dtest pattern runs
// through /bin/sh -c; its rerun is Maven's own command line with the
// failed test's -Dtest in place of the pattern, not arguments after the
// shell's script (which the shell never passes to mvn).
func TestShellCommandRerun(t *testing.T) {
	root := t.TempDir()
	adapterstest.WriteFiles(t, root, map[string]string{"pom.xml": "<project/>"})
	cmd := []string{"/bin/sh", "-c", "mvn -B test -Drat.skip=true -Dtest=Strobe*"}
	plan, err := New().Plan(context.Background(), adapters.Request{ProjectRoot: root, Command: cmd}, adapters.NewRecorder())
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(plan.Argv, cmd) {
		t.Errorf("argv %q, want the command as given", plan.Argv)
	}
	want := "mvn -B test -Drat.skip=true '-Dtest=com.x.FooTest#bar' " + noFailProp
	if got := plan.Parser.(*parser).rerun(".", surefireDir, "com.x.FooTest", "bar"); got != want {
		t.Errorf("rerun %q, want %q", got, want)
	}
}

// TestRealSurefire2 runs JUnit 5 under Surefire 2.22.2, which names an
// invocation method{Types}[n] (method[n] without parameters) and trims
// traces to the test class's frames. Each failure's rerun selects its
// method, as under Surefire 3; @Timeout's failure, whose trimmed trace
// has no frame of the test, is at the method's declaration. Without the
// project's own launcher, Surefire 2.22's finds no Jupiter 5.14 test and
// Maven passes: no tests, with JUnit's reason.
func TestRealSurefire2(t *testing.T) {
	requireMaven(t)
	root := adapterstest.CopyFixture(t, "surefire2")
	rec, out, exit := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root})
	if exit.Code != 1 || out.BuildFailed || out.NoTests || out.Crash != nil {
		t.Fatalf("exit %+v, outcome %+v", exit, out)
	}
	if p := rec.Progress(); p.Passed != 5 || p.Failed != 4 || p.Skipped != 0 {
		t.Errorf("counts %+v, want Surefire's 5 passed, 4 failed", p)
	}
	for _, tc := range []struct {
		name   string
		line   int
		method string
	}{
		{"InvocationTest#repeats{RepetitionInfo}[2]", 20, "repeats"},
		{"InvocationTest#same{int, int}[2]", 26, "same"},
		{"InvocationTest#dynamic[2]", 31, "dynamic"},
		{"InvocationTest#slow", 36, "slow"},
	} {
		tt, ok := adapterstest.TestByName(rec.Tests(), tc.name)
		if !ok || tt.Failure == nil {
			t.Errorf("%s: %+v, want a failure", tc.name, tt)
			continue
		}
		f := tt.Failure
		if f.File != "src/test/java/com/example/InvocationTest.java" || f.Line != tc.line ||
			!strings.Contains(f.Rerun, "'-Dtest=com.example.InvocationTest#"+tc.method+"' ") {
			t.Errorf("%s: %s:%d, rerun %q; want InvocationTest.java:%d and -Dtest=…#%s", tc.name, f.File, f.Line, f.Rerun, tc.line, tc.method)
		}
	}
	tt, _ := adapterstest.TestByName(rec.Tests(), "InvocationTest#dynamic[2]")
	if tt.Failure != nil {
		cmd := exec.Command("sh", "-c", tt.Failure.Rerun)
		cmd.Dir = root
		if b, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(b), "Tests run: 2, Failures: 1, Errors: 0, Skipped: 0") {
			t.Errorf("rerun %q: %v\n%s", tt.Failure.Rerun, err, b)
		}
	}

	rec, out, exit = adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root, Command: []string{"mvn", "-B", "test", "-Dskew"}})
	if exit.Code != 0 || len(rec.Tests()) != 0 || !out.NoTests || !strings.Contains(out.Hint, "junit-jupiter engine failed to discover its tests") ||
		!strings.Contains(out.Hint, "unaligned versions") {
		t.Errorf("exit %+v, %d tests, outcome %+v; want no tests with JUnit's reason", exit, len(rec.Tests()), out)
	}
}

// TestSelectionDotted: a test named as Surefire's console prints it,
// Class.method, selects Class#method (it ran nothing, no_tests); a
// package's class and a class's own name stay as they are.
func TestSelectionDotted(t *testing.T) {
	for test, want := range map[string]string{
		"LexerTest.testSurroundingSpacesAreDeleted": "-Dtest=LexerTest#testSurroundingSpacesAreDeleted",
		"com.x.FooTest":        "-Dtest=com.x.FooTest",
		"FooTest":              "-Dtest=FooTest",
		"FooTest#bar":          "-Dtest=FooTest#bar",
		"org.apache.LexerTest": "-Dtest=org.apache.LexerTest",
	} {
		if got := selection(adapters.Request{ProjectRoot: t.TempDir(), Test: test}); len(got) == 0 || got[0] != want {
			t.Errorf("selection(%q) = %q, want %s", test, got, want)
		}
	}
}
