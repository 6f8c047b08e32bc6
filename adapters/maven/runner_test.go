package maven_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"strobe/adapters/adapterstest"
	"strobe/internal/testutil"
	"strobe/report"
	"strobe/runner"
)

// TestDeadlockThroughRunner runs the hang fixture's monitor deadlock
// through the runner: status stuck within seconds, the test named from
// the JVM's frames (Surefire names only the class), the JVM's cycle in
// the diagnosis and both threads' Java frames in the stacks.
func TestDeadlockThroughRunner(t *testing.T) {
	testutil.RequireTool(t, "mvn")
	testutil.RequireTool(t, "jstack")
	root := adapterstest.CopyFixture(t, "hang")
	start := time.Now()
	resp, err := runner.Exec(context.Background(), runner.Request{ProjectRoot: root, Framework: "maven", Test: "HangTest#deadlocks", Timeout: 120 * time.Second},
		runner.Options{DetailsDir: t.TempDir()})
	took := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Status != report.Stuck || len(resp.Stuck) == 0 {
		t.Fatalf("status %s, stuck %+v: want stuck", resp.Status, resp.Stuck)
	}
	s := resp.Stuck[0]
	var stacks strings.Builder
	for _, th := range s.Threads {
		stacks.WriteString(th.Name + "\n  " + strings.Join(th.Stack, "\n  ") + "\n")
	}
	t.Logf("%s after %v (%d ms, its own): %s: %s\n%s", resp.Status, took, s.ElapsedMS, s.Name, s.Diagnosis, stacks.String())
	if s.Name != "HangTest#deadlocks" || !strings.HasPrefix(s.Diagnosis, "deadlock") || !strings.Contains(s.Diagnosis, `"main" waits for a java.lang.Object held by "other-locker"`) {
		t.Errorf("stuck %q: %s, want HangTest#deadlocks in a Java-level deadlock", s.Name, s.Diagnosis)
	}
	// Its time is its class's, which Surefire named as it started, not
	// the run's, Maven's start and the build included (the test deadlocks
	// at once and is called within seconds).
	if took := time.Since(start).Milliseconds(); s.ElapsedMS <= 0 || s.ElapsedMS > took-1000 {
		t.Errorf("stuck after %d ms, in a run of %d ms: want the class's time, not the run's", s.ElapsedMS, took)
	}
	for _, want := range []string{"com.example.HangTest.deadlocks (src/test/java/com/example/HangTest.java:25)", "com.example.HangTest.lambda$deadlocks$0 (src/test/java/com/example/HangTest.java:17)"} {
		if !strings.Contains(stacks.String(), want) {
			t.Errorf("stacks lack %s", want)
		}
	}
}

// TestHangNamedFromTheDump: a class selected whole, whose test waits for
// ever. Surefire's console names the class, never the method; the stuck
// test is named from jstack's dump, not after the command.
//
// Its time is its class's, as for a test the JVM's deadlock report names:
// it counted from the run's start, Maven's start and the build included
// (commons-dbutils, a ResultSetIterator waiting for ever: "stuck after
// 15.169s" in a run of 15.7 s, its class begun 2.6 s before).
func TestHangNamedFromTheDump(t *testing.T) {
	start := time.Now()
	s, _ := stuckWaitTest(t, "hang")
	if s.Name != "WaitTest#waitsForever" || !strings.Contains(s.Rerun, "-Dtest=WaitTest#waitsForever") {
		t.Errorf("stuck test %q (%s), rerun %q; want WaitTest#waitsForever, run alone", s.Name, s.Diagnosis, s.Rerun)
	}
	if took := time.Since(start).Milliseconds(); s.ElapsedMS <= 0 || s.ElapsedMS > took-1000 {
		t.Errorf("stuck after %d ms, in a run of %d ms: want the class's time, not the run's", s.ElapsedMS, took)
	}
}

// TestFailedAfterAStuckRun: the stuck test is named from the JVM's stacks,
// not from Surefire's report. The history held no failing test of a run
// that was stuck: --failed after it said "every test of the previous run
// passed" and ran nothing (commons-text broken on purpose), then ran the
// whole selection; after failures of an earlier run, it reran those and
// not the hung test, and said stuck 0 (commons-csv). The stuck test is in
// the history as failing: --failed runs it, alone, and it hangs again.
func TestFailedAfterAStuckRun(t *testing.T) {
	testutil.RequireTool(t, "mvn")
	testutil.RequireTool(t, "jstack")
	root := adapterstest.CopyFixture(t, "hang")
	opts := runner.Options{DetailsDir: t.TempDir(), HistoryDir: t.TempDir()}
	for _, onlyFailed := range []bool{false, true} {
		resp, err := runner.Exec(context.Background(), runner.Request{ProjectRoot: root, Framework: "maven", Test: "WaitTest",
			OnlyFailed: onlyFailed, Timeout: 120 * time.Second}, opts)
		if err != nil {
			t.Fatal(err)
		}
		if resp.Status != report.Stuck {
			t.Fatalf("--failed %v: status %s, hint %q; want stuck", onlyFailed, resp.Status, resp.Hint)
		}
		if onlyFailed && (resp.Rerun == nil || resp.Rerun.Tests != 1 || len(resp.Stuck) == 0 || resp.Stuck[0].Name != "WaitTest#waitsForever") {
			t.Errorf("--failed: rerun %+v, stuck %+v, hint %q; want WaitTest#waitsForever rerun alone, stuck again", resp.Rerun, resp.Stuck, resp.Hint)
		}
	}
}

// stuckWaitTest runs a copy of fixture's WaitTest through the runner and
// answers its stuck test, and the copy's root.
func stuckWaitTest(t *testing.T, fixture string) (report.StuckTest, string) {
	t.Helper()
	resp, root := stuckRun(t, fixture, "WaitTest")
	return resp.Stuck[0], root
}

// stuckRun runs a copy of fixture through the runner, its tests test (""
// for all), and answers the stuck run's answer, and the copy's root.
func stuckRun(t *testing.T, fixture, test string) (*report.Response, string) {
	t.Helper()
	testutil.RequireTool(t, "mvn")
	testutil.RequireTool(t, "jstack")
	root := adapterstest.CopyFixture(t, fixture)
	resp, err := runner.Exec(context.Background(), runner.Request{ProjectRoot: root, Framework: "maven", Test: test, Timeout: 120 * time.Second},
		runner.Options{DetailsDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Status != report.Stuck || len(resp.Stuck) == 0 {
		t.Fatalf("status %s, stuck %+v: want stuck", resp.Status, resp.Stuck)
	}
	return resp, root
}

// TestHangMultiModuleFrames: in a multi-module project, app's test waits
// for ever in a class of core. The stuck frames name the project's files
// relative to the project root, as failures do (the fork runs in app's
// directory), each one a file that exists; core's class is found in its
// own module. The test is named from the dump, as in one module. The run
// is the whole suite: the answer counts the class of the module after
// app's that never ran, and its command for the rest runs it.
func TestHangMultiModuleFrames(t *testing.T) {
	resp, root := stuckRun(t, "hangmulti", "")
	s := resp.Stuck[0]
	if s.Name != "WaitTest#waitsForever" {
		t.Errorf("stuck test %q (%s), want WaitTest#waitsForever", s.Name, s.Diagnosis)
	}
	var frames []string
	for _, th := range s.Threads {
		frames = append(frames, th.Stack...)
	}
	stacks := strings.Join(frames, "\n")
	for _, want := range []string{
		"com.example.core.Gate.pass (core/src/main/java/com/example/core/Gate.java:10)",
		"com.example.app.WaitTest.waitsForever (app/src/test/java/com/example/app/WaitTest.java:10)",
	} {
		if !strings.Contains(stacks, want) {
			t.Errorf("stacks lack %s:\n%s", want, stacks)
		}
	}
	for _, f := range frames {
		if file, ok := projectFile(f); ok {
			if _, err := os.Stat(filepath.Join(root, file)); err != nil {
				t.Errorf("frame %q names %s, not a file under the project root", f, file)
			}
		}
	}
	if !strings.Contains(resp.Hint, "the tests of WaitTest that had not run yet, and 1 test class not yet started, did not run") {
		t.Fatalf("hint %q: want LateTest, never started, counted", resp.Hint)
	}
	rest, out, err := adapterstest.RunRest(t, resp.Hint, root)
	if err != nil || !strings.Contains(string(out), "in com.example.late.LateTest") || strings.Contains(string(out), "Running com.example.app.WaitTest") {
		t.Errorf("the rest's command %q: %v, want LateTest run and WaitTest not:\n%s", rest, err, out)
	}
}

// projectFile is the file of a frame "function (file:line)" in the
// project's package, com.example.
func projectFile(frame string) (string, bool) {
	if !strings.HasPrefix(frame, "com.example.") {
		return "", false
	}
	_, loc, _ := strings.Cut(frame, " (")
	file, _, _ := strings.Cut(loc, ":")
	return file, true
}
