package pytest

import (
	"slices"
	"strings"

	"strobe/adapters"
	"strobe/adapters/kit"
)

// IsTestProcess for pytest: under pytest-xdist its workers run the tests,
// and pytest's own process only waits for them, in queue.get with a
// timeout, a wait that would rescue every hang; without workers it runs
// them itself. A worker that runs no test (strobe's plugin names it
// idleWorker) waits for xdist's next item or for the run's end: no
// test's wait, whose stacks would stand for the hung test's on the
// other worker. A process a test starts is the test's. Launchers are not.
func (pytestAdapter) IsTestProcess(p adapters.Proc) bool {
	if isXdistWorker(p.Args) {
		return p.Name != idleWorker
	}
	if slices.Contains(launchers, p.Name) {
		return false
	}
	return !kit.HasChild(p.PID, isXdistWorker)
}

// launchers start pytest, after building an environment for some.
var launchers = []string{"sh", "bash", "dash", "env", "timeout", "make", "uv", "poetry", "pipenv", "pdm", "hatch", "tox", "nox"}

// IsHarnessThread for pytest: every thread of pytest's own process while
// it has xdist workers. It waits for their reports in queue.get with a
// timeout, and that timed wait, which ends only to wait again, must not
// hold off the verdict on a worker's hung test.
func (pytestAdapter) IsHarnessThread(p adapters.Proc, _ int, _ string) bool {
	return !isXdistWorker(p.Args) && kit.HasChild(p.PID, isXdistWorker)
}

// idleWorker is the name strobe's plugin gives an xdist worker's thread
// that runs the tests while it runs none (strobe_pytest.IDLE_WORKER).
const idleWorker = "[xdist idle]"

// isXdistWorker recognises an xdist worker: the Python execnet starts
// with `-c "import sys;exec(eval(sys.stdin.readline()))"` and feeds its
// code through stdin.
func isXdistWorker(args []string) bool {
	return slices.ContainsFunc(args, func(a string) bool { return strings.Contains(a, "exec(eval(sys.stdin.readline()))") })
}
