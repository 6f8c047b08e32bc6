package maven

import (
	"context"
	"strconv"
	"time"

	"strobe/adapters"
	"strobe/adapters/kit"
	"strobe/adapters/kit/jvm"
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
	out, _, err := kit.RunTool(ctx, kit.Tool{Timeout: deadlockProbeTimeout, MaxOutput: 8 << 20}, jvm.Jstack(p), "-l", strconv.Itoa(p.PID))
	if err != nil {
		return "", nil
	}
	cycle := jvm.DeadlockCycle(string(out))
	if cycle == "" {
		return "", nil
	}
	return cycle, jvm.TestsInDump(string(out))
}
