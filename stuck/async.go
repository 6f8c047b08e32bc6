package stuck

import (
	"fmt"
	"slices"
	"strings"

	"strobe/internal/lazyre"
)

// An async runtime's threads wait for work in a park without a timeout
// when no timer is pending: tokio's current-thread runtime and the thread
// that calls block_on in a futex (a condition variable) or, with its I/O
// driver, in epoll_wait; its multi-thread workers the same. A test that
// awaits a future that never completes (a oneshot whose sender lives on
// and never sends, a Notify never notified, a lock held across an await)
// leaves every thread there: from /proc it is a lock wait without end,
// but nothing is locked, and the future that waits is on no stack (a
// parked future is data, not a call).

// waitPlumbing are the frames at the top of a parked thread that only
// carry out the wait: libc's, the standard library's locks, condition
// variables and thread parking, parking_lot's, mio's poll.
var waitPlumbing = lazyre.New(`^(\?\?$|syscall$|__|_?lll_|futex_|pthread_|___pthread|epoll_|poll$|ppoll$|\[kernel\] |\[syscall\] |<?std::sys::|<?std::sync::|<?std::thread::|<?parking_lot(_core)?::|<?parking::|<?mio::|<?tokio::loom::)`)

// runtimePark names the async runtimes, by the frame their parked threads
// wait under: tokio's park (runtime::park, the schedulers' Parker and
// Context::park, the drivers'), its block_on (CachedParkThread::block_on,
// current_thread's CoreGuard::block_on) and its I/O driver's turn;
// futures' executor (futures::executor::block_on parks the thread in
// local_pool::run_executor).
var runtimePark = []struct {
	name string
	re   *lazyre.Regexp
}{
	{"tokio", lazyre.New(`^<?tokio::runtime::.*(park|block_on|[Dd]river::)`)},
	{"futures executor", lazyre.New(`^<?futures_executor::local_pool::`)},
}

// parkedIn names the async runtime a thread is parked in ("" when it is
// not): the first frame under the wait's plumbing is the runtime's park
// or block_on. A thread blocked on a lock in the program's code (a
// std::sync::Mutex taken in a task) has the program's frame there.
func parkedIn(s Stack) string {
	for _, f := range s.Frames {
		if waitPlumbing.MatchString(f.Func) {
			continue
		}
		for _, rt := range runtimePark {
			if rt.re.MatchString(f.Func) {
				return rt.name
			}
		}
		return ""
	}
	return ""
}

// asyncParked splits the blocked threads by the capture's stacks: those
// parked in an async runtime (named), and the rest. A thread without a
// stack in c is among the rest; so is every thread of a goroutine or
// Python capture.
func asyncParked(c Capture, blocked []threadView) (runtime string, parked, rest []threadView) {
	if isGoroutines(c) || IsPythonCapture(c) {
		return "", nil, blocked
	}
	byTID := map[int]Stack{}
	for _, s := range c.Stacks {
		if s.TID != 0 {
			byTID[s.TID] = s
		}
	}
	for _, v := range blocked {
		s, ok := byTID[v.t.TID]
		rt := ""
		if ok && v.proc.PID == c.PID {
			rt = parkedIn(s)
		}
		if rt == "" || runtime != "" && rt != runtime {
			rest = append(rest, v)
			continue
		}
		runtime = rt
		parked = append(parked, v)
	}
	return runtime, parked, rest
}

// describeParked says how an async runtime's threads wait: "the tokio
// runtime's 3 threads parked in futex with no timeout".
func describeParked(runtime string, parked []threadView) string {
	var calls []string
	for _, v := range parked {
		call := v.t.Wait.Call
		if call == "" {
			call = "state " + string(v.t.State)
		}
		if !slices.Contains(calls, call) {
			calls = append(calls, call)
		}
	}
	who := fmt.Sprintf("the %s runtime's thread", runtime)
	if len(parked) > 1 {
		who = fmt.Sprintf("the %s runtime's %d threads", runtime, len(parked))
	}
	return fmt.Sprintf("%s parked in %s with no timeout", who, strings.Join(calls, " and "))
}
