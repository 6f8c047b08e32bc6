package gradle

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"strobe/adapters"
	"strobe/adapters/kit"
	"strobe/adapters/kit/jvm"
)

// The JVM side is the Maven adapter's (jstack, its dump reader and the
// JVM's own threads): only which process runs the tests differs.

// workerMain is the main class of every JVM Gradle forks for work;
// testExecutor is the name it gives the one that runs a Test task's tests
// (its last argument, `Gradle Test Executor 3`). The daemon and the
// wrapper only wait for it, as do Gradle's other workers (`Gradle Worker
// Daemon 1`, which compile).
const (
	workerMain   = "worker.org.gradle.process.internal.worker.GradleWorkerMain"
	testExecutor = "Gradle Test Executor"
)

// IsTestProcess for Gradle: the test worker JVM.
func (gradleAdapter) IsTestProcess(p adapters.Proc) bool {
	if p.Name != "java" && filepath.Base(p.Exe) != "java" {
		return false
	}
	worker, executor := false, false
	for _, a := range p.Args {
		worker = worker || a == workerMain
		executor = executor || strings.HasPrefix(a, testExecutor)
	}
	return worker && executor
}

// IsHarnessThread: every thread outside the test worker; in it, the JVM's
// own threads, the launcher's first thread (tid = pid), which only joins
// the one that runs main, and Gradle's messaging threads back to the
// daemon, named by their connection (`/127.0.0.1:4152 to /127.0.0.1:…`,
// cut by Linux to 15 bytes), which wait with timeouts all the time. The
// tests run in `Test worker`.
func (a gradleAdapter) IsHarnessThread(p adapters.Proc, tid int, name string) bool {
	if !a.IsTestProcess(p) || tid == p.PID {
		return true
	}
	return strings.HasPrefix(name, "/") || jvm.IsRuntimeThread(name)
}

// jstackTimeout bounds jstack: the JVM answers from a safepoint; one that
// cannot reach it leaves jstack waiting.
const jstackTimeout = 8 * time.Second

// CaptureStacks reads the test worker's Java threads with jstack, the
// JDK's own tool beside the java that runs the tests. A frame of the
// project's names its file relative to root, in the worker's module.
func (gradleAdapter) CaptureStacks(ctx context.Context, p adapters.Proc, root string) adapters.Stacks {
	out, errOut, err := kit.RunTool(ctx, kit.Tool{Timeout: jstackTimeout, MaxOutput: 8 << 20}, jvm.Jstack(p), "-l", strconv.Itoa(p.PID))
	if err != nil {
		return adapters.Stacks{Reason: "jstack: " + kit.Clip(strings.TrimSpace(err.Error()+" "+string(errOut)))}
	}
	// The worker runs in its module's directory (the Test task's
	// workingDir, by default the module's project directory).
	var mods []string
	if dir, ok := jvm.WorkDir(root, p.PID); ok {
		mods = []string{dir}
	}
	threads := jvm.ParseJstack(string(out), jvm.SourceFiles(root, mods, sourceSets))
	if len(threads) == 0 {
		return adapters.Stacks{Reason: "jstack printed no Java thread"}
	}
	return adapters.Stacks{Threads: threads, Tests: jvm.TestsInDump(string(out))}
}

// RuntimeDeadlock asks the test worker for the deadlock HotSpot found
// itself, as the Maven adapter asks Surefire's fork.
func (gradleAdapter) RuntimeDeadlock(ctx context.Context, p adapters.Proc) (string, []string) {
	out, _, err := kit.RunTool(ctx, kit.Tool{Timeout: 5 * time.Second, MaxOutput: 8 << 20}, jvm.Jstack(p), "-l", strconv.Itoa(p.PID))
	if err != nil {
		return "", nil
	}
	cycle := jvm.DeadlockCycle(string(out))
	if cycle == "" {
		return "", nil
	}
	return cycle, jvm.TestsInDump(string(out))
}
