package maven

import (
	"context"
	"os"
	"path/filepath"
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
// report.
func (mavenAdapter) CaptureStacks(ctx context.Context, p adapters.Proc) adapters.Stacks {
	out, errOut, err := kit.RunTool(ctx, kit.Tool{Timeout: jstackTimeout, MaxOutput: 8 << 20}, jvm.Jstack(p), "-l", strconv.Itoa(p.PID))
	if err != nil {
		return adapters.Stacks{Reason: "jstack: " + kit.Clip(strings.TrimSpace(err.Error()+" "+string(errOut)))}
	}
	cwd, _ := os.Readlink("/proc/" + strconv.Itoa(p.PID) + "/cwd")
	threads := jvm.ParseJstack(string(out), func(class, file string) string { return sourceFile(cwd, class, file) })
	if len(threads) == 0 {
		return adapters.Stacks{Reason: "jstack printed no Java thread"}
	}
	return adapters.Stacks{Threads: threads, Tests: jvm.TestsInDump(string(out))}
}

// sourceFile maps a frame's file to the module's source, relative to the
// forked JVM's directory (the module's): the file as printed when it is
// not the project's.
func sourceFile(dir, class, file string) string {
	if dir == "" {
		return file
	}
	pkg := ""
	if i := strings.LastIndex(class, "."); i >= 0 {
		pkg = strings.ReplaceAll(class[:i], ".", "/") + "/"
	}
	lang := strings.TrimPrefix(filepath.Ext(file), ".")
	for _, src := range []string{"src/test/", "src/main/", "src/it/"} {
		rel := src + lang + "/" + pkg + file
		if kit.FileExists(filepath.Join(dir, rel)) {
			return rel
		}
	}
	return file
}

// maxJavaFrames bounds one thread's stack.
const maxJavaFrames = 40
