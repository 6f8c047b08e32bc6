// Package jvm reads a running JVM for the stuck detector: which threads
// are the JVM's own, the jstack beside the java that runs the tests, its
// thread dump as stacks with Java frames, and the deadlock HotSpot found
// itself. The Maven and Gradle adapters share it.
package jvm

import (
	"bufio"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"strobe/adapters"
	"strobe/adapters/kit"
	"strobe/internal/lazyre"
	"strobe/report"
)

// jvmThreads are the JVM's own threads, by the names Linux shows (15
// bytes): the collector, the compilers, the VM's periodic task and the
// JDK's housekeeping wait with timeouts all the time, which would pass for
// a test about to wake up and hide every deadlock; and Surefire's threads
// in the fork wait for Maven's commands and ping it.
// maxJavaFrames bounds one thread's stack.
const maxJavaFrames = 40

var jvmThreads = []string{
	"GC Thread#", "G1 ", "VM Thread", "VM Periodic Tas", "Reference Handl", "Finalizer",
	"Signal Dispatch", "Service Thread", "Monitor Deflati", "C1 CompilerThre", "C2 CompilerThre",
	"Sweeper thread", "Notification Th", "Common-Cleaner", "Attach Listener", "surefire-forked",
	"VM Operation", "Thread-JVMCI", "ZGC ", "ZDirector", "ZStat", "ZUnmapper", "Shenandoah",
	"SurvRateGroup", "StrDedup", "process reaper", "JFR ",
}

// IsRuntimeThread says whether a thread, by the name Linux shows, is the
// JVM's own or a test runner's housekeeping (jvmThreads), in Surefire's
// fork or Gradle's test worker.
func IsRuntimeThread(name string) bool {
	for _, j := range jvmThreads {
		if strings.HasPrefix(name, j) {
			return true
		}
	}
	return false
}

// Jstack is the jstack beside the java that runs p (the same JDK, which
// it must be to attach), else the one on PATH.
func Jstack(p adapters.Proc) string {
	if p.Exe != "" {
		if j := filepath.Join(filepath.Dir(p.Exe), "jstack"); kit.FileExists(j) {
			return j
		}
	}
	return "jstack"
}

// The lines of a jstack dump.
var (
	jsThread = lazyre.New(`^"(.*)" (?:#\d+ )?.*?(?:nid=0x[0-9a-f]+ )?`)
	jsFrame  = lazyre.New(`^\s+at (?:[\w.]+(?:@[\w.-]+)?/)?([\w.$<>/-]+)\.([\w$<>-]+)\((.*)\)$`)
	jsLock   = lazyre.New(`^\s+- (.*)$`)
	jsState  = lazyre.New(`^\s+java\.lang\.Thread\.State: (.*)$`)
)

// harnessFrame: frames from here outwards are JUnit's and Surefire's
// machinery around the test, cut from a stack.
var harnessFrame = lazyre.New(`^(org\.junit\.platform\.|org\.apache\.maven\.surefire\.|jdk\.internal\.reflect\.|java\.lang\.reflect\.Method\.invoke)`)

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
		case jsLock.MatchString(line) && !inHarness && len(cur.Stack) > 0 && strings.TrimSpace(line) != "- None":
			// "- None" under `jstack -l`'s "Locked ownable
			// synchronizers:" says the thread holds none.
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

// TestsInDump names the tests a jstack dump shows running: a frame of the
// project's called by reflection or by JUnit is a test method, named as
// the adapter names tests (Class#method).
func TestsInDump(dump string) []string {
	var tests []string
	prev := ""
	for _, line := range strings.Split(dump, "\n") {
		m := jsFrame.FindStringSubmatch(line)
		if m == nil {
			if strings.HasPrefix(line, `"`) {
				prev = ""
			}
			continue
		}
		fn := m[1] + "." + m[2]
		if harnessFrame.MatchString(fn) && prev != "" {
			class, method, _ := strings.Cut(prev, "#")
			name := kit.SimpleClassName(class) + "#" + method
			if !slices.Contains(tests, name) {
				tests = append(tests, name)
			}
		}
		prev = ""
		if !jdkFrame.MatchString(fn) && !harnessFrame.MatchString(fn) && !strings.Contains(m[2], "lambda$") {
			prev = m[1] + "#" + m[2]
		}
	}
	return tests
}

// jdkFrame: the JDK's and JUnit's own classes, never a test.
var jdkFrame = lazyre.New(`^(java\.|javax\.|jdk\.|sun\.|org\.junit\.|junit\.)`)

var (
	cycleThread = lazyre.New(`^"(.*)":$`)
	cycleWait   = lazyre.New(`^\s+waiting (?:to lock|for) .*\ba ([\w.$]+)\)`)
	cycleHolder = lazyre.New(`^\s+which is held by "(.*)"`)
)

// DeadlockCycle reads the JVM's deadlock report out of a jstack dump, in
// one line: `"main" waits for a java.lang.Object held by "other-locker";
// …`, "" when the dump has none.
func DeadlockCycle(dump string) string {
	var parts []string
	thread, what := "", ""
	in := false
	sc := bufio.NewScanner(strings.NewReader(dump))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "Found one Java-level deadlock"):
			in = true
		case !in:
		case strings.HasPrefix(line, "Java stack information for the threads listed above"):
			in = false
		case cycleThread.MatchString(line):
			thread, what = cycleThread.FindStringSubmatch(line)[1], ""
		case cycleWait.MatchString(line):
			what = cycleWait.FindStringSubmatch(line)[1]
		case cycleHolder.MatchString(line) && thread != "":
			if what == "" {
				what = "a lock"
			} else {
				what = "a " + what
			}
			parts = append(parts, fmt.Sprintf("%q waits for %s held by %q", thread, what, cycleHolder.FindStringSubmatch(line)[1]))
			thread = ""
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "Java-level deadlock (jstack): " + strings.Join(parts, "; ")
}
