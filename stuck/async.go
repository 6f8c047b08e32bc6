package stuck

import (
	"fmt"
	"path/filepath"
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
// variables and thread parking, parking_lot's and parking's, mio's and
// polling's poll, rustix's system calls.
var waitPlumbing = lazyre.New(`^(\?\?$|syscall$|__|_?lll_|futex_|pthread_|___pthread|epoll_|poll$|ppoll$|\[kernel\] |\[syscall\] |<?std::sys::|<?std::sync::|<?std::thread::|<?parking_lot(_core)?::|<?parking::|<?mio::|<?polling::|<?rustix::|<?tokio::loom::|uv__?(cond|sem)_(timed)?wait$)`)

// runtimePark names the async runtimes, by the frame their parked threads
// wait under: tokio's park (runtime::park, the schedulers' Parker and
// Context::park, the drivers'), its block_on (CachedParkThread::block_on,
// current_thread's CoreGuard::block_on) and its I/O driver's turn;
// futures' executor (futures::executor::block_on parks the thread in
// local_pool::run_executor); async-io's, which smol and async-std run on
// (its block_on parks the thread or waits in the reactor it holds, its
// driver thread waits for the reactor or in it); futures-lite's block_on
// (smol::future::block_on), which parks the thread. node's: its event
// loop's poll (the main thread's, and the delayed-task scheduler's own
// loop), V8's platform workers, the inspector's I/O thread and libuv's
// threadpool waiting for work (under uv_cond_wait or uv_sem_wait).
var runtimePark = []struct {
	name string
	re   *lazyre.Regexp
}{
	{"tokio", lazyre.New(`^<?tokio::runtime::.*(park|block_on|[Dd]river::)`)},
	{"futures executor", lazyre.New(`^<?futures_executor::local_pool::`)},
	{"async-io (smol, async-std)", lazyre.New(`^<?async_io::(driver::(block_on|main_loop)|reactor::)`)},
	{"futures-lite", lazyre.New(`^<?futures_lite::future::block_on`)},
	{nodeRuntime, lazyre.New(`^(uv__io_poll$|worker$|node::.*(PlatformWorkerThread|StartIoThreadMain|DelayedTaskScheduler))`)},
}

// nodeRuntime names node's event loop among the async runtimes.
const nodeRuntime = "node"

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
// stack in c is among the rest; so is every thread of a goroutine capture.
// A Python capture is asyncioParked's.
func asyncParked(c Capture, blocked []threadView) (runtime string, parked, rest []threadView) {
	if isGoroutines(c) {
		return "", nil, blocked
	}
	if IsPythonCapture(c) {
		return asyncioParked(c, blocked)
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
	if runtime == nodeRuntime && len(rest) == 0 && !nodeLoopIdle(byTID[c.PID]) {
		// node's helper threads wait for work whatever the main thread
		// does: alone, only an idle event loop makes them an async wait
		// (not a main thread sleeping past the timeout). Beside another
		// blocked thread (a synchronous read, an Atomics.wait) they are
		// set aside and that thread decides.
		return "", nil, blocked
	}
	return runtime, parked, rest
}

// nodeLoopIdle says whether a node main thread waits in its event loop's
// poll, with no JavaScript to run: a synchronous read (fs.readSync) or an
// Atomics.wait blocks it elsewhere.
func nodeLoopIdle(s Stack) bool {
	return s.TID != 0 && parkedIn(s) == nodeRuntime && slices.ContainsFunc(s.Frames, func(f Frame) bool { return f.Func == "uv__io_poll" })
}

// asyncioRuntime names Python's event loop among the async runtimes.
const asyncioRuntime = "asyncio"

// asyncioParked is asyncParked for a Python capture: the main thread is
// parked when it waits in the asyncio event loop's select (selectors.py
// under base_events.py's _run_once), the loop having nothing to run; the
// coroutines that await are in the tasks strobe's dump adds. Only the main
// thread's stack is known to be the main thread's (faulthandler names the
// others by pthread id, not by the kernel's).
func asyncioParked(c Capture, blocked []threadView) (string, []threadView, []threadView) {
	idle := false
	for _, s := range c.Stacks {
		if s.TID == c.PID || strings.HasPrefix(s.Name, "Current thread") {
			idle = inEventLoopSelect(s.Frames)
		}
	}
	if !idle {
		return "", nil, blocked
	}
	var parked, rest []threadView
	for _, v := range blocked {
		if v.proc.PID == c.PID && v.t.TID == c.PID {
			parked = append(parked, v)
		} else {
			rest = append(rest, v)
		}
	}
	if len(parked) == 0 {
		return "", nil, blocked
	}
	return asyncioRuntime, parked, rest
}

// inEventLoopSelect says whether a Python stack waits in the asyncio event
// loop's select: selectors.py's select first, base_events.py's _run_once
// just under it.
func inEventLoopSelect(frames []Frame) bool {
	if len(frames) < 2 || filepath.Base(frames[0].File) != "selectors.py" {
		return false
	}
	for _, f := range frames[1:min(len(frames), 3)] {
		if f.Func == "_run_once" && filepath.Base(f.File) == "base_events.py" {
			return true
		}
	}
	return false
}

// asyncTail ends an async wait's diagnosis: what waits, and where to see
// it.
func asyncTail(runtime string) string {
	switch runtime {
	case asyncioRuntime:
		return ": a coroutine the test awaits never completes (its asyncio task's stack shows where it waits)"
	case nodeRuntime:
		return ": a promise the test awaits never settles (a pending promise is on no stack)"
	}
	return ": a future the test awaits never completes (a waiting future is on no stack)"
}

// afterTestsTail ends the diagnosis of a wait with no test running
// (Config.AfterTests), which the runner says is after the tests: what the
// process waits for. c is the last capture; runtime the async runtime
// whose threads are parked ("" for none, "child" for a child process that
// has not exited).
func afterTestsTail(c Capture, runtime string) string {
	switch {
	case pythonExitJoin(c):
		return ": the interpreter waits at its exit (threading._shutdown) for a thread that has not ended"
	case runtime == "child":
		return ": it waits for a child process that has not exited"
	case runtime == nodeRuntime:
		return ": the event loop stays alive for what a test or hook opened and did not close (a server, a socket, a timer)"
	}
	return ""
}

// ExitJoinTail ends the diagnosis of a process that stays after its
// run's end (AfterEnd) whose capture c shows Python joining its threads
// at exit; "" for any other.
func ExitJoinTail(c Capture) string { return afterTestsTail(c, "") }

// pythonExitJoin says whether a Python capture's main thread waits in
// threading._shutdown, where the interpreter joins every non-daemon
// thread before it exits.
func pythonExitJoin(c Capture) bool {
	for _, s := range c.Stacks {
		for _, f := range s.Frames[:min(len(s.Frames), 2)] {
			if f.Func == "_shutdown" && filepath.Base(f.File) == "threading.py" {
				return true
			}
		}
	}
	return false
}

// describeParked says how an async runtime's threads wait: "the tokio
// runtime's 3 threads parked in futex with no timeout", "the asyncio event
// loop waits in epoll_wait with no timeout".
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
	switch runtime {
	case asyncioRuntime:
		return fmt.Sprintf("the asyncio event loop waits in %s with no timeout", strings.Join(calls, " and "))
	case nodeRuntime:
		// Its main thread is among them only when no timer is pending; a
		// timer past the run's end leaves it among the late waits.
		who := "workers"
		if slices.ContainsFunc(parked, func(v threadView) bool { return v.t.TID == v.proc.PID }) {
			who = "event loop and workers"
		}
		return fmt.Sprintf("node's %d idle threads (%s) wait in %s with no timeout", len(parked), who, strings.Join(calls, " and "))
	}
	who := fmt.Sprintf("the %s runtime's thread", runtime)
	if len(parked) > 1 {
		who = fmt.Sprintf("the %s runtime's %d threads", runtime, len(parked))
	}
	return fmt.Sprintf("%s parked in %s with no timeout", who, strings.Join(calls, " and "))
}
