package gradle

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
	"strobe/report"
)

// This machine has no Gradle (its distributions come from Gradle's own
// servers, which it cannot reach), so the adapter runs, unchanged, against
// a stand-in (testdata/standin/gradle) that replays real captured Gradle
// runs: their console, their exit status and the JUnit XML reports they
// wrote (testdata/corpus, sources in testdata/SOURCES.md).

var standinVars = []string{"STANDIN_LOG", "STANDIN_STDERR", "STANDIN_EXIT", "STANDIN_HANG", "STANDIN_ARGS", "STANDIN_TREE"}

// standin puts the stand-in first on PATH and sets its STANDIN_* variables.
func standin(t *testing.T, env map[string]string) {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("testdata", "standin"))
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	for _, k := range standinVars {
		t.Setenv(k, env[k])
	}
}

func corpus(name string) string {
	p, _ := filepath.Abs(filepath.Join("testdata", "corpus", name))
	return p
}

// project makes a Gradle project: a build script and the given files.
func project(t *testing.T, files ...string) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "p")
	m := map[string]string{"build.gradle.kts": "plugins { java }\n"}
	for _, f := range files {
		m[f] = "\n"
	}
	adapterstest.WriteFiles(t, root, m)
	return root
}

// placed is a recording with its project root (/PROJECT) made root, as the
// run would have printed it there.
func placed(t *testing.T, root, name string) string {
	t.Helper()
	if name == "" {
		return ""
	}
	b, err := os.ReadFile(corpus(name))
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), filepath.Base(name))
	if err := os.WriteFile(out, []byte(strings.ReplaceAll(string(b), "/PROJECT", root)), 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

func normalise(root string, rec *adapters.Recorder, out adapters.Outcome) adapterstest.Result {
	return adapterstest.Normalise(rec, out, func(s string) string { return strings.ReplaceAll(s, root, "/PROJECT") })
}

type check func(t *testing.T, rec *adapters.Recorder, out adapters.Outcome)

// TestReplays runs the adapter's real Plan on every recording, replayed by
// the stand-in with the exit status Gradle gave it: 1 for failed tests
// and for a failed build.
func TestReplays(t *testing.T) {
	for _, tc := range []struct {
		name, log, stderr, tree string
		test                    string
		files                   []string
		exit                    int
		check                   check
	}{
		{name: "testplan-junit5", log: "testplan-junit5/stdout.txt", stderr: "testplan-junit5/stderr.txt", tree: "testplan-junit5/tree",
			files: []string{"src/test/java/com/gradle/example/application/MessageServiceTest.java"}, exit: 1,
			check: func(t *testing.T, rec *adapters.Recorder, out adapters.Outcome) {
				wantProgress(t, rec, 1, 1, 0)
				wantFailure(t, rec, "MessageServiceTest#testGet()", "src/test/java/com/gradle/example/application/MessageServiceTest.java", 11,
					"expected: <Hello JUnit 5> but was: <abcde>",
					"gradle test --console=plain --continue --tests com.gradle.example.application.MessageServiceTest.testGet")
			}},
		{name: "kotlin-junit4", tree: "kotlin-junit4/tree", exit: 1,
			files: []string{"src/test/kotlin/org/test/sample/SampleTestSuite.kt"},
			check: func(t *testing.T, rec *adapters.Recorder, out adapters.Outcome) {
				wantProgress(t, rec, 5, 2, 1)
				wantFailure(t, rec, "SampleTestSuite#a test that fails", "src/test/kotlin/org/test/sample/SampleTestSuite.kt", 16,
					"this test has failed", "gradle test --console=plain --continue --tests 'org.test.sample.SampleTestSuite.a test that fails'")
				// Gradle writes an exception as a <failure> too: its type
				// stays in the message, which tells an error from a failure.
				wantFailure(t, rec, "SampleTestSuite#a test that throws an exception", "src/test/kotlin/org/test/sample/SampleTestSuite.kt", 21,
					"java.io.IOException: has been an I/O error", "")
				// A parameterised case reruns its class: no filter names it.
				wantFailure(t, rec, "AnotherTestSuite#aTest[0]", "", 0, "", "")
			}},
		{name: "spring-hamcrest", tree: "spring-hamcrest/tree", exit: 1,
			check: func(t *testing.T, rec *adapters.Recorder, out adapters.Outcome) {
				wantProgress(t, rec, 2, 1, 0)
				wantFailure(t, rec, "PowerDroidControllerTest#failsToDemonstrateJUnitAnnotations()",
					"src/test/java/com/victor/paymentreporting/app/PowerDroidControllerTest.java", 37,
					"Response content\nExpected: a string containing \"NOT_GONK\"", "")
			}},
		{name: "kotlin-junit5-params", tree: "kotlin-junit5-params/tree",
			check: func(t *testing.T, rec *adapters.Recorder, out adapters.Outcome) {
				wantProgress(t, rec, 25, 0, 0)
				foo, _ := adapterstest.TestByName(rec.Tests(), "FooTest#it is true()")
				if !strings.Contains(foo.Output, "Hi beforeAll") {
					t.Errorf("FooTest's output %q lacks its class's system-out", foo.Output)
				}
			}},
		{name: "wrapper-download-refused", log: "wrapper-download-refused/stdout.txt", stderr: "wrapper-download-refused/stderr.txt", exit: 1,
			check: func(t *testing.T, rec *adapters.Recorder, out adapters.Outcome) {
				if !out.BuildFailed || len(rec.Tests()) != 0 || !strings.Contains(out.Hint, "could not download Gradle from http://127.0.0.1:9/gradle-8.14.2-bin.zip") ||
					!strings.Contains(out.Hint, "java.net.ConnectException: Connection refused") {
					t.Errorf("outcome %+v, want build_failed with a hint naming the distribution and the error", out)
				}
			}},
		{name: "gradleside-13-no-tests-filter", log: "gradleside-13-no-tests-filter.txt", test: "com.eul98.AppTest.test1", exit: 1,
			check: wantNoTests("no test matched --tests")},
		{name: "tebex-137-no-tests-discovered", stderr: "tebex-137-no-tests-discovered.txt", exit: 1,
			check: wantNoTests("the test task found no test")},
		{name: "virtuslab-2154-kotlin-test", log: "virtuslab-2154-kotlin-test.txt", exit: 1,
			files: []string{"buildSrc/src/test/kotlin/IntellijVersionsTest.kt"},
			check: func(t *testing.T, rec *adapters.Recorder, out adapters.Outcome) {
				// No report: the failure comes from the console alone.
				wantFailure(t, rec, "IntellijVersionsTest#shouldResolveIntelliJVersions()", "buildSrc/src/test/kotlin/IntellijVersionsTest.kt", 23,
					"org.opentest4j.AssertionFailedError", "gradle :buildSrc:test --console=plain --continue --tests IntellijVersionsTest.shouldResolveIntelliJVersions")
			}},
		{name: "hamcrest-119-junit4", log: "hamcrest-119-junit4.txt", exit: 1,
			check: func(t *testing.T, rec *adapters.Recorder, out adapters.Outcome) {
				wantFailure(t, rec, "AllOfTest#failingTest", "src/test/java/org/hamcrest/core/AllOfTest.java", 72, "java.lang.AssertionError",
					"gradle test --console=plain --continue --tests org.hamcrest.core.AllOfTest.failingTest")
			}},
		{name: "athkalia-55-two-failures", log: "athkalia-55-two-failures.txt", exit: 1,
			check: func(t *testing.T, rec *adapters.Recorder, out adapters.Outcome) {
				wantProgress(t, rec, 0, 2, 0)
			}},
		{name: "file-saver-83-kotlinc", log: "file-saver-83-kotlinc.txt", exit: 1,
			check: wantBuildError("C:/Users/..../AppData/Local/Pub/Cache/hosted/pub.dev/file_saver-0.2.9/android/src/main/kotlin/com/incrediblezayed/file_saver/Dialog.kt", 79, 33, "Unresolved reference: FileUtils")},
		{name: "suwayomi-61-kotlinc-old", log: "suwayomi-61-kotlinc-old.txt", exit: 1,
			check: wantBuildError("presentation/src/commonMain/kotlin/ca/gosyer/jui/ui/sources/home/SourceHomeScreenViewModel.kt", 44, 32, "Unresolved reference: other")},
		{name: "simplify-83-javac", log: "simplify-83-javac.txt", exit: 1,
			check: wantBuildError("simplify/src/main/java/org/cf/simplify/ConstantBuilder.java", 43, 0, "cannot find symbol; symbol: class AGetOp; location: class ConstantBuilder")},
		{name: "minimal-todo-107-javac", log: "minimal-todo-107-javac.txt", exit: 1,
			check: wantBuildError("Minimal-Todo/app/src/androidTest/java/com/example/avjindersinghsekhon/minimaltodo/TestStoreRetrieveData.java", 171, 0,
				"cannot find symbol; symbol: variable FILENAME; location: class MainActivity")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := project(t, tc.files...)
			env := map[string]string{"STANDIN_LOG": placed(t, root, tc.log), "STANDIN_STDERR": placed(t, root, tc.stderr), "STANDIN_EXIT": strconv.Itoa(tc.exit)}
			if tc.tree != "" {
				env["STANDIN_TREE"] = corpus(tc.tree)
			}
			standin(t, env)
			rec, out, exit := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root, Test: tc.test})
			if exit.Code != tc.exit {
				t.Errorf("exit %+v, want %d", exit, tc.exit)
			}
			tc.check(t, rec, out)
			adapterstest.Golden(t, tc.name, normalise(root, rec, out))
		})
	}
}

func wantProgress(t *testing.T, rec *adapters.Recorder, passed, failed, skipped int) {
	t.Helper()
	if p := rec.Progress(); p.Passed != passed || p.Failed != failed || p.Skipped != skipped {
		t.Errorf("progress %+v, want %d passed, %d failed, %d skipped", p, passed, failed, skipped)
	}
}

// wantFailure checks a failed test; "" and 0 are not checked.
func wantFailure(t *testing.T, rec *adapters.Recorder, name, file string, line int, msg, rerun string) {
	t.Helper()
	got, ok := adapterstest.TestByName(rec.Tests(), name)
	if !ok || got.Status != report.TestFailed && got.Status != report.TestPassed || got.Failure == nil && msg != "" {
		t.Fatalf("%s: %+v, want a failure", name, got)
	}
	f := got.Failure
	if f == nil {
		return
	}
	if file != "" && (f.File != file || f.Line != line) {
		t.Errorf("%s at %s:%d, want %s:%d", name, f.File, f.Line, file, line)
	}
	if msg != "" && !strings.HasPrefix(f.Message, msg) {
		t.Errorf("%s message %q, want %q", name, f.Message, msg)
	}
	if rerun != "" && f.Rerun != rerun {
		t.Errorf("%s rerun %q, want %q", name, f.Rerun, rerun)
	}
}

func wantNoTests(hint string) check {
	return func(t *testing.T, rec *adapters.Recorder, out adapters.Outcome) {
		t.Helper()
		if !out.NoTests || out.BuildFailed || len(rec.Tests()) != 0 || !strings.Contains(out.Hint, hint) {
			t.Errorf("outcome %+v, want no_tests with a hint %q", out, hint)
		}
	}
}

func wantBuildError(file string, line, col int, msg string) check {
	return func(t *testing.T, rec *adapters.Recorder, out adapters.Outcome) {
		t.Helper()
		if !out.BuildFailed || len(out.BuildErrors) == 0 || len(rec.Tests()) != 0 {
			t.Fatalf("outcome %+v with %d tests, want build_failed", out, len(rec.Tests()))
		}
		e := out.BuildErrors[0]
		if e.File != file || e.Line != line || e.Column != col || e.Message != msg {
			t.Errorf("build error %+v, want %s:%d:%d %q", e, file, line, col, msg)
		}
	}
}

// TestStaleReports: a test task that never ran (the build failed before
// it) leaves an earlier run's reports, which are not this run's.
func TestStaleReports(t *testing.T) {
	root := project(t)
	if err := os.CopyFS(root, os.DirFS(corpus("kotlin-junit4/tree"))); err != nil {
		t.Fatal(err)
	}
	standin(t, map[string]string{"STANDIN_LOG": placed(t, root, "suwayomi-61-kotlinc-old.txt"), "STANDIN_EXIT": "1"})
	rec, out, _ := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: root})
	if n := len(rec.Tests()); n != 0 || !out.BuildFailed {
		t.Errorf("%d tests from stale reports, outcome %+v; want none and build_failed", n, out)
	}
}

// TestPlan: the wrapper over gradle on PATH, the flags, the selection.
func TestPlan(t *testing.T) {
	for _, tc := range []struct {
		name    string
		wrapper bool
		req     adapters.Request
		files   map[string]string
		argv    []string
	}{
		{"path", false, adapters.Request{}, nil, []string{"gradle", "test", "--console=plain", "--continue"}},
		{"wrapper first", true, adapters.Request{}, nil, []string{"./gradlew", "test", "--console=plain", "--continue"}},
		{"single test", true, adapters.Request{Test: "com.x.FooTest.bar"}, nil,
			[]string{"./gradlew", "test", "--console=plain", "--continue", "--tests", "com.x.FooTest.bar"}},
		{"a failure's name, for retries", false, adapters.Request{Test: "MessageServiceTest#testGet()"}, nil,
			[]string{"gradle", "test", "--console=plain", "--continue", "--tests", "MessageServiceTest.testGet"}},
		{"a parameterised case's name", false, adapters.Request{Test: "CalculatorTest#[1] 1, 2, 3"}, nil,
			[]string{"gradle", "test", "--console=plain", "--continue", "--tests", "CalculatorTest"}},
		{"integration", false, adapters.Request{Level: adapters.LevelIntegration},
			map[string]string{"app/build.gradle.kts": "testing { suites { register<JvmTestSuite>(\"integrationTest\") } }\n"},
			[]string{"gradle", "integrationTest", "--console=plain", "--continue"}},
		{"command as given", false, adapters.Request{Command: []string{"gradle", ":core:check", "--tests", "A"}}, nil,
			[]string{"gradle", ":core:check", "--tests", "A"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := project(t)
			adapterstest.WriteFiles(t, root, tc.files)
			argsFile := filepath.Join(t.TempDir(), "args")
			standin(t, map[string]string{"STANDIN_ARGS": argsFile})
			if tc.wrapper {
				b, _ := os.ReadFile(filepath.Join("testdata", "standin", "gradle"))
				if err := os.WriteFile(filepath.Join(root, "gradlew"), b, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			req := tc.req
			req.ProjectRoot = root
			plan, err := New().Plan(context.Background(), req, adapters.NewRecorder())
			if err != nil {
				t.Fatal(err)
			}
			argv := slices.Clone(plan.Argv)
			argv[0] = strings.Replace(argv[0], root, ".", 1)
			if filepath.Base(argv[0]) == "gradle" {
				argv[0] = "gradle"
			}
			if !slices.Equal(argv, tc.argv) {
				t.Errorf("argv %q, want %q", argv, tc.argv)
			}
			// And the plan runs: the stand-in saw these arguments.
			adapterstest.RunReal(t, New(), req)
			got, _ := os.ReadFile(argsFile)
			if want := strings.Join(tc.argv[1:], " "); !strings.Contains(string(got), want) {
				t.Errorf("gradle ran with %q, want %q", got, want)
			}
		})
	}
}

// TestRefused: what the adapter will not guess.
func TestRefused(t *testing.T) {
	t.Setenv("PATH", t.TempDir()) // no gradle
	for _, tc := range []struct {
		name string
		req  adapters.Request
		want string
	}{
		{"no gradle, no wrapper", adapters.Request{}, "gradle is not on the PATH"},
		{"e2e", adapters.Request{Level: adapters.LevelE2E}, "no e2e level"},
		{"command with a test", adapters.Request{Command: []string{"gradle", "test"}, Test: "A"}, "selects its own tests"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.req.ProjectRoot = project(t)
			_, err := New().Plan(context.Background(), tc.req, adapters.NewRecorder())
			if err == nil || !strings.Contains(err.Error(), tc.want) || !adapters.IsUsage(err) {
				t.Fatalf("err %v, want a usage error with %q", err, tc.want)
			}
			var ue *adapters.UsageError
			if errors.As(err, &ue) && ue.Framework != "" && (ue.Framework != "gradle" || ue.Hint == "") {
				t.Errorf("usage error %+v, want framework gradle with a hint", ue)
			}
		})
	}
	t.Run("integration without the task", func(t *testing.T) {
		standin(t, nil)
		_, err := New().Plan(context.Background(), adapters.Request{ProjectRoot: project(t), Level: adapters.LevelIntegration}, adapters.NewRecorder())
		var ue *adapters.UsageError
		if !errors.As(err, &ue) || ue.Framework != "gradle" || !strings.Contains(ue.Hint, "integrationTest") {
			t.Errorf("err %v, want a usage error naming the integrationTest convention", err)
		}
	})
}

func TestDetect(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files []string
		cmd   []string
		want  int
	}{
		{"kotlin script", []string{"build.gradle.kts"}, nil, confBuild},
		{"groovy script", []string{"build.gradle"}, nil, confBuild},
		{"settings only", []string{"settings.gradle.kts"}, nil, confBuild},
		{"wrapper only", []string{"gradlew"}, nil, confBuild},
		{"command", nil, []string{"./gradlew", "test"}, confCommand},
		{"other command", []string{"build.gradle"}, []string{"mvn", "test"}, 0},
		{"nothing", []string{"pom.xml"}, nil, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			m := map[string]string{}
			for _, f := range tc.files {
				m[f] = "\n"
			}
			adapterstest.WriteFiles(t, root, m)
			if got := New().Detect(adapters.Request{ProjectRoot: root, Command: tc.cmd}); got.Confidence != tc.want {
				t.Errorf("confidence %d (%s), want %d", got.Confidence, got.Hint, tc.want)
			}
		})
	}
}

// TestTestProcess: of the JVMs a Gradle run starts, the test executor is
// the test process, by the command line Gradle's --info log prints for it.
func TestTestProcess(t *testing.T) {
	worker := strings.Fields("-Djava.security.manager=worker.org.gradle.process.internal.worker.child.BootstrapSecurityManager -Dorg.gradle.native=false -Xmx512m -Dfile.encoding=UTF-8 -ea -cp /home/u/.gradle/caches/6.3/workerMain/gradle-worker.jar worker.org.gradle.process.internal.worker.GradleWorkerMain")
	for _, tc := range []struct {
		name string
		args []string
		want bool
	}{
		{"test executor", append(slices.Clone(worker), "Gradle Test Executor 76"), true},
		{"compiler worker", append(slices.Clone(worker), "Gradle Worker Daemon 1"), false},
		{"daemon", []string{"-Xmx2g", "-cp", "gradle-launcher.jar", "org.gradle.launcher.daemon.bootstrap.GradleDaemon", "8.5"}, false},
		{"wrapper", []string{"-classpath", "gradle/wrapper/gradle-wrapper.jar", "org.gradle.wrapper.GradleWrapperMain", "test"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := adapters.Proc{PID: 10, Name: "java", Exe: "/usr/lib/jvm/bin/java", Args: append([]string{"java"}, tc.args...)}
			a := gradleAdapter{}
			if got := a.IsTestProcess(p); got != tc.want {
				t.Errorf("IsTestProcess = %v, want %v", got, tc.want)
			}
			if tc.want {
				for name, harness := range map[string]bool{"Test worker": false, "/127.0.0.1:4152": true, "C2 CompilerThre": true, "pool-1-thread-1": false} {
					if got := a.IsHarnessThread(p, 11, name); got != harness {
						t.Errorf("IsHarnessThread(%q) = %v, want %v", name, got, harness)
					}
				}
			}
		})
	}
}
