package maven

import (
	"bufio"
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"strobe/adapters"
	"strobe/adapters/kit"
)

// deadlockProbeTimeout bounds the jstack the stuck detector asks for while
// a test is silent: the JVM answers at a safepoint, in well under a
// second; one that cannot reach it says nothing either way.
const deadlockProbeTimeout = 5 * time.Second

// RuntimeDeadlock asks the forked JVM for the deadlock it found itself:
// `jstack -l` runs HotSpot's cycle detection over the threads blocked on
// monitors (synchronized) and on ownable synchronizers (ReentrantLock,
// ReentrantReadWriteLock), and prints "Found one Java-level deadlock"
// with the cycle. /proc cannot tell these apart from a wait that ends:
// HotSpot parks a thread blocked on a monitor with a timed park. The
// answer is the cycle in one line, "" when the JVM found none, and the
// tests in the dump's frames (Surefire's console names only the class
// running).
func (mavenAdapter) RuntimeDeadlock(ctx context.Context, p adapters.Proc) (string, []string) {
	out, _, err := kit.RunTool(ctx, kit.Tool{Timeout: deadlockProbeTimeout, MaxOutput: 8 << 20}, jstackFor(p), "-l", strconv.Itoa(p.PID))
	if err != nil {
		return "", nil
	}
	cycle := DeadlockCycle(string(out))
	if cycle == "" {
		return "", nil
	}
	return cycle, TestsInDump(string(out))
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
			name := simpleName(class) + "#" + method
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
var jdkFrame = regexp.MustCompile(`^(java\.|javax\.|jdk\.|sun\.|org\.junit\.|junit\.)`)

var (
	cycleThread = regexp.MustCompile(`^"(.*)":$`)
	cycleWait   = regexp.MustCompile(`^\s+waiting (?:to lock|for) .*\ba ([\w.$]+)\)`)
	cycleHolder = regexp.MustCompile(`^\s+which is held by "(.*)"`)
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
