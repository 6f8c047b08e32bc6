package maven

import (
	"context"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"strobe/adapters"
	"strobe/adapters/kit"
	"strobe/adapters/kit/jvm"
)

// IsTestProcess for Maven: the JVM Surefire (or Failsafe) forks to run the
// tests, `java -jar …/surefirebooter-*.jar` (or the ForkedBooter class on a
// plain class path). Maven's own JVM only waits for it, and the `sh -c`
// Surefire starts it through names the booter too but only waits. With
// forkCount=0 the tests run inside Maven's JVM, and nothing is judged.
func (mavenAdapter) IsTestProcess(p adapters.Proc) bool {
	if p.Name != "java" && filepath.Base(p.Exe) != "java" {
		return false
	}
	for _, a := range p.Args {
		if strings.HasPrefix(filepath.Base(a), "surefirebooter") || a == "org.apache.maven.surefire.booter.ForkedBooter" {
			return true
		}
	}
	return false
}

// IsHarnessThread: every thread of Maven's own JVM, which only waits for
// the fork (its timers, Surefire's ping among them, would pass for a test
// about to wake); in the fork, the JVM's own threads and the launcher's
// first thread (tid = pid), which only joins the thread that runs main.
func (a mavenAdapter) IsHarnessThread(p adapters.Proc, tid int, name string) bool {
	if !a.IsTestProcess(p) || tid == p.PID {
		return true
	}
	return jvm.IsRuntimeThread(name)
}

// jstackTimeout bounds jstack: it attaches to the JVM, which answers from
// a safepoint; a JVM that cannot reach one leaves jstack waiting.
const jstackTimeout = 8 * time.Second

// CaptureStacks reads the JVM's Java threads with jstack (the JDK's own
// tool, beside the java that runs the tests): their Java frames with file
// and line, the locks they hold and wait for, and the JVM's own deadlock
// report. A frame of the project's names its file relative to root, in
// its module (sourceModules).
func (mavenAdapter) CaptureStacks(ctx context.Context, p adapters.Proc, root string) adapters.Stacks {
	out, errOut, err := kit.RunTool(ctx, kit.Tool{Timeout: jstackTimeout, MaxOutput: 8 << 20}, jvm.Jstack(p), "-l", strconv.Itoa(p.PID))
	if err != nil {
		return adapters.Stacks{Reason: "jstack: " + kit.Clip(strings.TrimSpace(err.Error()+" "+string(errOut)))}
	}
	threads := jvm.ParseJstack(string(out), jvm.SourceFiles(root, sourceModules(root, p.PID), sourceSets))
	if len(threads) == 0 {
		return adapters.Stacks{Reason: "jstack printed no Java thread"}
	}
	return adapters.Stacks{Threads: threads, Tests: jvm.TestsInDump(string(out))}
}

// sourceModules are the modules, relative to root, where a frame's class
// is looked for: the fork's own first (Surefire runs it in its module's
// directory, unless told another workingDirectory), then the project's
// others, for a class of a module the tests depend on, as failures do.
func sourceModules(root string, pid int) []string {
	mods := modules(root)
	if dir, ok := jvm.WorkDir(root, pid); ok {
		mods = append([]string{dir}, slices.DeleteFunc(mods, func(m string) bool { return m == dir })...)
	}
	return mods
}
