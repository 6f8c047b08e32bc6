package gradle

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"strobe/adapters"
	"strobe/internal/testutil"
)

// TestWorkerHooks: a real JVM started as Gradle starts its test worker
// (testdata/worker: Gradle's worker main class's name, a deadlocking
// test on "Test worker") is the test process; jstack reads its stacks
// into the test's own frames, and the JVM's deadlock report is the
// verdict's cycle, naming the test. The frames name the test's file
// relative to the project's root: the worker's directory as the root, or
// as a module of a multi-project build rooted above it.
func TestWorkerHooks(t *testing.T) {
	javac := testutil.RequireTool(t, "javac")
	java := testutil.RequireTool(t, "java")
	testutil.RequireTool(t, "jstack")
	root, err := filepath.Abs(filepath.Join("testdata", "worker"))
	if err != nil {
		t.Fatal(err)
	}
	classes := t.TempDir()
	build := exec.Command(javac, "-d", classes, filepath.Join(root, "launcher", "GradleWorkerMain.java"),
		filepath.Join(root, "src", "test", "java", "com", "example", "HangTest.java"))
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("javac: %v\n%s", err, out)
	}
	cmd := exec.Command(java, "-cp", classes, workerMain, "Gradle Test Executor 1", "com.example.HangTest", "deadlocks")
	cmd.Dir = root // the worker runs in its module's directory
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })

	// The java launcher may exec itself again as it starts: its command
	// line reads empty in between (seen once in CI, under load).
	p := procOf(t, cmd.Process.Pid)
	for deadline := time.Now().Add(5 * time.Second); len(p.Args) < 2 && time.Now().Before(deadline); p = procOf(t, cmd.Process.Pid) {
		time.Sleep(20 * time.Millisecond)
	}
	a := gradleAdapter{}
	if !a.IsTestProcess(p) {
		t.Fatalf("the worker %+v is not the test process", p)
	}
	ctx := context.Background()
	var cycle string
	var tests []string
	for deadline := time.Now().Add(20 * time.Second); cycle == "" && time.Now().Before(deadline); {
		time.Sleep(300 * time.Millisecond)
		cycle, tests = a.RuntimeDeadlock(ctx, p)
	}
	for _, want := range []string{`"Test worker" waits for a java.lang.Object held by "other-locker"`, `"other-locker" waits for a java.lang.Object held by "Test worker"`} {
		if !strings.Contains(cycle, want) {
			t.Errorf("cycle %q lacks %q", cycle, want)
		}
	}
	if len(tests) != 1 || tests[0] != "HangTest#deadlocks" {
		t.Errorf("tests in the dump %q, want HangTest#deadlocks", tests)
	}
	for projectRoot, file := range map[string]string{
		root:               "src/test/java/com/example/HangTest.java",
		filepath.Dir(root): "worker/src/test/java/com/example/HangTest.java",
	} {
		s := a.CaptureStacks(ctx, p, projectRoot)
		if !slices.Contains(s.Tests, "HangTest#deadlocks") {
			t.Errorf("tests the capture shows running %q, want HangTest#deadlocks", s.Tests)
		}
		var stacks []string
		for _, th := range s.Threads {
			stacks = append(stacks, th.Name+": "+strings.Join(th.Stack, " | "))
		}
		all := strings.Join(stacks, "\n")
		if want := "com.example.HangTest.deadlocks (" + file + ":20)"; s.Reason != "" || !strings.Contains(all, want) {
			t.Errorf("project root %s: stacks (%s):\n%s\nwant %s", projectRoot, s.Reason, all, want)
		}
	}
}

// procOf reads a process as the stuck detector sees it.
func procOf(t *testing.T, pid int) adapters.Proc {
	t.Helper()
	dir := "/proc/" + strconv.Itoa(pid)
	comm, _ := os.ReadFile(dir + "/comm")
	exe, _ := os.Readlink(dir + "/exe")
	cmdline, err := os.ReadFile(dir + "/cmdline")
	if err != nil {
		t.Fatal(err)
	}
	return adapters.Proc{PID: pid, Name: strings.TrimSpace(string(comm)), Exe: exe,
		Args: strings.Split(strings.TrimRight(string(cmdline), "\x00"), "\x00")}
}
