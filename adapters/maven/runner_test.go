package maven_test

import (
	"context"
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
	t.Logf("%s after %v: %s: %s\n%s", resp.Status, took, s.Name, s.Diagnosis, stacks.String())
	if s.Name != "HangTest#deadlocks" || !strings.HasPrefix(s.Diagnosis, "deadlock") || !strings.Contains(s.Diagnosis, `"main" waits for a java.lang.Object held by "other-locker"`) {
		t.Errorf("stuck %q: %s, want HangTest#deadlocks in a Java-level deadlock", s.Name, s.Diagnosis)
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
func TestHangNamedFromTheDump(t *testing.T) {
	testutil.RequireTool(t, "mvn")
	testutil.RequireTool(t, "jstack")
	root := adapterstest.CopyFixture(t, "hang")
	resp, err := runner.Exec(context.Background(), runner.Request{ProjectRoot: root, Framework: "maven", Test: "WaitTest", Timeout: 120 * time.Second},
		runner.Options{DetailsDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Status != report.Stuck || len(resp.Stuck) == 0 {
		t.Fatalf("status %s, stuck %+v: want stuck", resp.Status, resp.Stuck)
	}
	if s := resp.Stuck[0]; s.Name != "WaitTest#waitsForever" {
		t.Errorf("stuck test %q (%s), want WaitTest#waitsForever", s.Name, s.Diagnosis)
	}
}
