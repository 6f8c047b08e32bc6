package maven

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"strobe/adapters"
	"strobe/adapters/kit"
	"strobe/report"
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

// jvmThreads are the JVM's own threads, by the names Linux shows (15
// bytes): the collector, the compilers, the VM's periodic task and the
// JDK's housekeeping wait with timeouts all the time, which would pass for
// a test about to wake up and hide every deadlock; and Surefire's threads
// in the fork wait for Maven's commands and ping it.
var jvmThreads = []string{
	"GC Thread#", "G1 ", "VM Thread", "VM Periodic Tas", "Reference Handl", "Finalizer",
	"Signal Dispatch", "Service Thread", "Monitor Deflati", "C1 CompilerThre", "C2 CompilerThre",
	"Sweeper thread", "Notification Th", "Common-Cleaner", "Attach Listener", "surefire-forked",
	"VM Operation", "Thread-JVMCI", "ZGC ", "ZDirector", "ZStat", "ZUnmapper", "Shenandoah",
	"SurvRateGroup", "StrDedup", "process reaper", "JFR ",
}

// IsHarnessThread: every thread of Maven's own JVM, which only waits for
// the fork (its timers, Surefire's ping among them, would pass for a test
// about to wake); in the fork, the JVM's own threads and the launcher's
// first thread (tid = pid), which only joins the thread that runs main.
func (a mavenAdapter) IsHarnessThread(p adapters.Proc, tid int, name string) bool {
	if !a.IsTestProcess(p) || tid == p.PID {
		return true
	}
	for _, j := range jvmThreads {
		if strings.HasPrefix(name, j) {
			return true
		}
	}
	return false
}

// jstackTimeout bounds jstack: it attaches to the JVM, which answers from
// a safepoint; a JVM that cannot reach one leaves jstack waiting.
const jstackTimeout = 8 * time.Second

// CaptureStacks reads the JVM's Java threads with jstack (the JDK's own
// tool, beside the java that runs the tests): their Java frames with file
// and line, the locks they hold and wait for, and the JVM's own deadlock
// report.
func (mavenAdapter) CaptureStacks(ctx context.Context, p adapters.Proc) ([]report.Thread, string) {
	out, errOut, err := kit.RunTool(ctx, kit.Tool{Timeout: jstackTimeout, MaxOutput: 8 << 20}, jstackFor(p), "-l", strconv.Itoa(p.PID))
	if err != nil {
		return nil, "jstack: " + kit.Clip(strings.TrimSpace(err.Error()+" "+string(errOut)))
	}
	cwd, _ := os.Readlink("/proc/" + strconv.Itoa(p.PID) + "/cwd")
	threads := ParseJstack(string(out), func(class, file string) string { return sourceFile(cwd, class, file) })
	if len(threads) == 0 {
		return nil, "jstack printed no Java thread"
	}
	return threads, ""
}

// jstackFor is the jstack beside the java that runs p (the same JDK, which
// it must be to attach), else the one on PATH.
func jstackFor(p adapters.Proc) string {
	if p.Exe != "" {
		if j := filepath.Join(filepath.Dir(p.Exe), "jstack"); kit.FileExists(j) {
			return j
		}
	}
	return "jstack"
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

// The lines of a jstack dump.
var (
	jsThread = regexp.MustCompile(`^"(.*)" (?:#\d+ )?.*?(?:nid=0x[0-9a-f]+ )?`)
	jsFrame  = regexp.MustCompile(`^\s+at (?:[\w.]+(?:@[\w.-]+)?/)?([\w.$<>/-]+)\.([\w$<>-]+)\((.*)\)$`)
	jsLock   = regexp.MustCompile(`^\s+- (.*)$`)
	jsState  = regexp.MustCompile(`^\s+java\.lang\.Thread\.State: (.*)$`)
)

// harnessFrame: frames from here outwards are JUnit's and Surefire's
// machinery around the test, cut from a stack.
var harnessFrame = regexp.MustCompile(`^(org\.junit\.platform\.|org\.apache\.maven\.surefire\.|jdk\.internal\.reflect\.|java\.lang\.reflect\.Method\.invoke)`)

// maxJavaFrames bounds one thread's stack.
const maxJavaFrames = 40

// ParseJstack reads a jstack dump into the threads that have Java frames,
// the JDK's and Surefire's housekeeping threads left out, each stack cut
// where JUnit's machinery begins. The JVM's own deadlock report, when it
// found one, leads as a thread of its own. file maps a frame's class and
// file to the path to show.
func ParseJstack(dump string, file func(class, file string) string) []report.Thread {
	var threads []report.Thread
	var cur *report.Thread
	var deadlock *report.Thread
	inHarness := false
	flush := func() {
		if cur != nil && len(cur.Stack) > 0 && !housekeeping(cur.Name) {
			threads = append(threads, *cur)
		}
		cur = nil
	}
	sc := bufio.NewScanner(strings.NewReader(dump))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "Found one Java-level deadlock"):
			flush()
			deadlock = &report.Thread{Name: "Java-level deadlock (jstack)"}
		case strings.HasPrefix(line, "Java stack information for the threads listed above"):
			deadlock, cur = finish(deadlock, &threads), nil
		case deadlock != nil:
			if t := strings.TrimSpace(line); t != "" && !strings.HasPrefix(t, "===") {
				deadlock.Stack = append(deadlock.Stack, t)
			}
		case strings.HasPrefix(line, `"`):
			flush()
			if m := jsThread.FindStringSubmatch(line); m != nil {
				cur, inHarness = &report.Thread{Name: m[1]}, false
			}
		case cur == nil:
		case jsState.MatchString(line):
			cur.Name += " (" + jsState.FindStringSubmatch(line)[1] + ")"
		case jsFrame.MatchString(line):
			m := jsFrame.FindStringSubmatch(line)
			fn := m[1] + "." + m[2]
			if harnessFrame.MatchString(fn) && len(cur.Stack) > 0 {
				inHarness = true
			}
			if inHarness || len(cur.Stack) >= maxJavaFrames {
				continue
			}
			cur.Stack = append(cur.Stack, fn+" ("+frameFile(m[1], m[3], file)+")")
		case jsLock.MatchString(line) && !inHarness && len(cur.Stack) > 0:
			cur.Stack = append(cur.Stack, "- "+jsLock.FindStringSubmatch(line)[1])
		}
	}
	flush()
	finish(deadlock, &threads)
	return threads
}

// finish puts the deadlock report first, once it is read.
func finish(d *report.Thread, threads *[]report.Thread) *report.Thread {
	if d != nil && len(d.Stack) > 0 {
		*threads = append([]report.Thread{*d}, *threads...)
	}
	return nil
}

// frameFile is a frame's "File.java:12", the file mapped to the project's
// source; "Native Method" and "Unknown Source" as printed.
func frameFile(class, loc string, file func(class, file string) string) string {
	loc = loc[strings.LastIndexByte(loc, '/')+1:] // java.base@17/Thread.java:840
	name, line, ok := strings.Cut(loc, ":")
	if !ok || file == nil {
		return loc
	}
	if i := strings.IndexByte(class, '$'); i > 0 {
		class = class[:i] // a nested class or lambda lives in its outer class's file
	}
	return file(class, name) + ":" + line
}

// housekeeping names the JDK's and Surefire's threads whose stacks say
// nothing about a test.
func housekeeping(name string) bool {
	for _, h := range []string{"Reference Handler", "Finalizer", "Signal Dispatcher", "Common-Cleaner",
		"Attach Listener", "surefire-forkedjvm-", "Notification Thread", "process reaper"} {
		if strings.HasPrefix(name, h) {
			return true
		}
	}
	return false
}
