package gradle

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
	"strobe/report"
)

// TestLiveProgress: a test task's results are recorded when the console
// says it is over (`> Task :test FAILED`), before the run ends.
func TestLiveProgress(t *testing.T) {
	root := project(t)
	if err := os.CopyFS(root, os.DirFS(corpus("testplan-junit5/tree"))); err != nil {
		t.Fatal(err)
	}
	rec := adapters.NewRecorder()
	p := newParser(rec, root, []string{"./gradlew", "test"}, "test")
	for _, l := range adapterstest.ReadLines(t, corpus("testplan-junit5/stdout.txt"), adapters.Stdout) {
		p.Line(l.Stream, []byte(l.Text), false)
		if got := rec.Progress(); l.Text == "> Task :test" && got.Phase != adapters.PhaseRunning {
			t.Errorf("phase %v at the test task's header, want running", got.Phase)
		}
		if l.Text == "> Task :test FAILED" {
			break
		}
	}
	if got := rec.Progress(); got.Passed != 1 || got.Failed != 1 {
		t.Errorf("progress after the test task ended: %+v, want 1 passed and 1 failed", got)
	}
}

// TestMultiModule: each module's test task's reports, under its own
// directory, with reruns of that module's task. (A class of the same name
// in two modules would be one test: tests are named by class, as the
// Maven adapter names them.)
func TestMultiModule(t *testing.T) {
	root := project(t)
	for mod, tree := range map[string]string{"app": "testplan-junit5/tree", "lib": "kotlin-junit4/tree"} {
		if err := os.CopyFS(filepath.Join(root, mod), os.DirFS(corpus(tree))); err != nil {
			t.Fatal(err)
		}
	}
	rec := adapters.NewRecorder()
	p := newParser(rec, root, []string{"./gradlew", "test", "--console=plain", "--continue"}, "test")
	for _, l := range []string{"> Task :app:test FAILED", "> Task :lib:compileJava", "> Task :lib:test FAILED"} {
		p.Line(adapters.Stdout, []byte(l), false)
	}
	adapterstest.Replay(p, nil, report.Exit{Exited: true, Code: 1})
	tests := rec.Tests()
	if len(tests) != 2+8 {
		t.Fatalf("%d tests, want app's 2 and lib's 8", len(tests))
	}
	var reruns []string
	for _, tt := range tests {
		if tt.Failure != nil {
			reruns = append(reruns, tt.Failure.Rerun)
			if !strings.HasPrefix(tt.Failure.File, "app/") && !strings.HasPrefix(tt.Failure.File, "lib/") {
				t.Errorf("failure file %q not in its module", tt.Failure.File)
			}
		}
	}
	want := "./gradlew :app:test --console=plain --continue --tests com.gradle.example.application.MessageServiceTest.testGet"
	if len(reruns) != 3 || reruns[0] != want {
		t.Errorf("reruns %q, want the first %q", reruns, want)
	}
}

func TestSplitTask(t *testing.T) {
	for path, want := range map[string][2]string{
		":test": {".", "test"}, ":app:test": {"app", "test"}, ":a:b:integrationTest": {"a/b", "integrationTest"}, "": {".", ""},
	} {
		if mod, name := splitTask(path); mod != want[0] || name != want[1] {
			t.Errorf("splitTask(%q) = %q, %q, want %q", path, mod, name, want)
		}
	}
}

func TestIsTestTask(t *testing.T) {
	p := newParser(adapters.NewRecorder(), t.TempDir(), nil, "test")
	for path, want := range map[string]bool{
		":test": true, ":app:test": true, ":app:testDebugUnitTest": true, ":app:compileTestJava": false,
		":integrationTest": false, ":cleanTest": false, ":app:testClasses": false,
	} {
		if got := p.isTestTask(path); got != want {
			t.Errorf("isTestTask(%s) = %v, want %v", path, got, want)
		}
	}
}

// TestClassFailureRerun: Gradle names a class's own failure (JUnit 5's
// @BeforeAll or @AfterAll that threw, JUnit 4's @BeforeClass) as a test
// of the class: classMethod, initializationError (before any test ran)
// or executionError (after). No method has that name, so --tests
// FooTest.initializationError matches nothing ("No tests found for given
// includes"): the rerun and the selection are the class.
func TestClassFailureRerun(t *testing.T) {
	p := newParser(adapters.NewRecorder(), project(t), []string{"./gradlew", "test", "--console=plain", "--continue"}, "test")
	for _, name := range []string{"classMethod", "initializationError", "executionError"} {
		want := "./gradlew test --console=plain --continue --tests com.x.FooTest"
		if got := p.rerun(":test", "com.x.FooTest", name); got != want {
			t.Errorf("%s: rerun %q, want %q", name, got, want)
		}
		if got := filter("FooTest#" + name); got != "FooTest" {
			t.Errorf("%s: filter %q, want the class", name, got)
		}
	}
}
