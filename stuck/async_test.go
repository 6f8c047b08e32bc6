package stuck

import (
	"context"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
	"time"
)

// The recordings come from stuck/testdata/rusttokio's tests, run alone
// from the test binary (cargo test --no-run, debug profile) and read a
// second or two in:
//
//	eu-stack -p PID -s -i > eu-stack-tokio-TEST.txt
func recordedStacks(t *testing.T, file string) []Stack {
	t.Helper()
	b, err := os.ReadFile("testdata/recorded/" + file)
	if err != nil {
		t.Fatal(err)
	}
	return parseEuStack(b)
}

// TestParkedIn: a tokio runtime's threads waiting for work (the test's
// block_on, current_thread's and multi_thread's workers) are parked, and
// so are smol's (async-io's block_on in its reactor, its driver thread
// waiting for the reactor; futures-lite's block_on); libtest's main thread
// and threads blocked on a std Mutex are not. The smol recordings come
// from stuck/testdata/rustsmol, recorded the same way.
func TestParkedIn(t *testing.T) {
	for _, tc := range []struct {
		file          string
		runtime       string
		parked, other int
	}{
		{"eu-stack-tokio-oneshot-never-sent.txt", "tokio", 1, 1},
		{"eu-stack-tokio-notify-never-notified.txt", "tokio", 3, 1},
		{"eu-stack-tokio-blocking-deadlock.txt", "tokio", 3, 3},
		{"eu-stack-smol-channel-never-sent.txt", "async-io (smol, async-std)", 2, 1},
		{"eu-stack-smol-task-never-done.txt", "async-io (smol, async-std)", 2, 1},
		{"eu-stack-smol-pending-forever.txt", "futures-lite", 1, 1},
		{"eu-stack-node-mocha-hook-await-never.txt", "node", 7, 0},
		{"eu-stack-node-threadpool-idle.txt", "node", 11, 0},
		{"eu-stack-node-readsync-fifo.txt", "node", 6, 1},
	} {
		t.Run(tc.file, func(t *testing.T) {
			var parked, other int
			for _, s := range recordedStacks(t, tc.file) {
				switch rt := parkedIn(s); rt {
				case tc.runtime:
					parked++
				case "":
					other++
				default:
					t.Errorf("thread %d parked in %q", s.TID, rt)
				}
			}
			if parked != tc.parked || other != tc.other {
				t.Errorf("%d threads parked, %d others; want %d and %d", parked, other, tc.parked, tc.other)
			}
		})
	}
	for name, frames := range map[string][]Frame{
		"the I/O driver": {{Func: "epoll_wait"}, {Func: "mio::sys::unix::selector::Selector::select"}, {Func: "mio::poll::Poll::poll"},
			{Func: "tokio::runtime::io::driver::Driver::turn"}, {Func: "tokio::runtime::io::driver::Driver::park"}},
		"futures' block_on": {{Func: "syscall"}, {Func: "std::sys::pal::unix::futex::futex_wait"}, {Func: "std::thread::park"},
			{Func: "futures_executor::local_pool::run_executor::{{closure}}"}, {Func: "futures_executor::local_pool::block_on"}},
	} {
		if parkedIn(Stack{Frames: frames}) == "" {
			t.Errorf("%s: not parked", name)
		}
	}
	inTask := []Frame{{Func: "syscall"}, {Func: "std::sys::sync::mutex::futex::Mutex::lock_contended"}, {Func: "std::sync::poison::mutex::Mutex<T>::lock"},
		{Func: "app::transfer"}, {Func: "tokio::runtime::task::core::Core<T,S>::poll"}, {Func: "tokio::runtime::scheduler::multi_thread::worker::Context::run"}}
	if rt := parkedIn(Stack{Frames: inTask}); rt != "" {
		t.Errorf("a task blocked on a std Mutex: parked in %q", rt)
	}
}

// TestThreadsKeepTheTestFrame: a #[tokio::test]'s own function is some
// 30 frames below tokio's park; the report shows it, and the project's
// frames under it, with the runtime's frames between left out.
func TestThreadsKeepTheTestFrame(t *testing.T) {
	root := "testdata/rusttokio"
	for _, tc := range []struct{ file, test string }{
		{"eu-stack-tokio-oneshot-never-sent.txt", "rusttokio::tests::oneshot_never_sent (src/lib.rs:"},
		{"eu-stack-tokio-notify-never-notified.txt", "rusttokio::tests::notify_never_notified (src/lib.rs:"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			var txt []string
			for _, th := range Threads(Capture{Stacks: recordedStacks(t, tc.file)}, root) {
				txt = append(txt, th.Name+"\n  "+strings.Join(th.Stack, "\n  "))
				if len(th.Stack) > maxFrames+2 {
					t.Errorf("%s: %d lines", th.Name, len(th.Stack))
				}
			}
			all := strings.Join(txt, "\n")
			for _, want := range []string{tc.test, "tokio::runtime::park::Inner::park (", "tokio::runtime::runtime::Runtime::block_on ("} {
				if !strings.Contains(all, want) {
					t.Errorf("threads lack %q:\n%s", want, all)
				}
			}
			if strings.Contains(all, "tokio::runtime::context::set_scheduler") {
				t.Errorf("threads keep the runtime's frames between its park and the test:\n%s", all)
			}
		})
	}
}

// TestShownFrames: a deep stack keeps its innermost frames and, within
// the same bound, the project's frames further out.
func TestShownFrames(t *testing.T) {
	var frames []Frame
	for i := range 40 {
		frames = append(frames, Frame{Func: "lib::f" + string(rune('a'+i%26))})
	}
	frames[30].Func, frames[31].Func = "app::test_it", "app::test_it::{{closure}}"
	own := func(f Frame) bool { return strings.HasPrefix(f.Func, "app::") }
	got := shownFrames(frames, own)
	if len(got) != maxFrames || got[len(got)-2] != 30 || got[len(got)-1] != 31 || got[maxFrames-3] != maxFrames-3 {
		t.Errorf("shown %v, want the first %d and 30, 31", got, maxFrames-2)
	}
	if got := shownFrames(frames[:maxFrames], own); len(got) != maxFrames {
		t.Errorf("a stack within the bound: shown %v", got)
	}
}

// tokioParked is a #[tokio::test]'s thread parked by its current_thread
// runtime, as the detector's samples name it (no inlined frames).
var tokioParked = []Frame{{Func: "syscall"}, {Func: "<std::sys::sync::condvar::futex::Condvar>::wait"},
	{Func: "std::sync::poison::condvar::Condvar::wait::ha527da7b3acc8db8"}, {Func: "tokio::runtime::park::Inner::park::haf9e44df5948bdd4"},
	{Func: "tokio::runtime::park::ParkThread::park::he742c623f51d6941"}, {Func: "tokio::runtime::driver::Driver::park::ha9a9bed644a5d88e"},
	{Func: "tokio::runtime::scheduler::current_thread::Context::park::hbc7eee8144efc4fe"},
	{Func: "tokio::runtime::scheduler::current_thread::CoreGuard::block_on::ha5472e01b8668b84"},
	{Func: "tokio::runtime::runtime::Runtime::block_on::h1f843908300a0623"},
	{Func: "rusttokio::tests::oneshot_never_sent::h35565ff1cc0a976d"}, {Func: "start_thread"}}

// TestVerdictsAsync: threads an async runtime parks lock nothing.
func TestVerdictsAsync(t *testing.T) {
	ms := uint64(time.Millisecond)
	epoll := Wait{Kind: IO, Call: "epoll_wait"}
	ioParked := []Frame{{Func: "epoll_wait"}, {Func: "mio::poll::Poll::poll"}, {Func: "tokio::runtime::io::driver::Driver::turn"},
		{Func: "tokio::runtime::scheduler::current_thread::CoreGuard::block_on"}, {Func: "app::tests::waits"}}
	lockAB := []Frame{{Func: "syscall"}, {Func: "std::sys::sync::mutex::futex::Mutex::lock_contended"}, {Func: "rusttokio::lock_a_then_b"}, {Func: "start_thread"}}
	readForever := []Frame{{Func: "read"}, {Func: "std::io::Read::read_exact"}, {Func: "app::read_forever"}}
	for _, tc := range []struct {
		name string
		sc   scenario
	}{
		{"tokio's threads parked, silent, idle: an async wait without end", scenario{
			procs: func(int) []ProcSample {
				return []ProcSample{proc(10, "rusttokio-12aa1", thread(10, 'S', lock, ms, 3), thread(11, 'S', lock, ms, 2), thread(12, 'S', lock, ms, 2))}
			},
			frames:   tokioParked,
			duration: 10 * time.Second, wantKind: AsyncWait, wantAfter: DefaultQuietLock, wantBy: 3 * time.Second,
			wantDiag: "async wait without end: no output for 2s, 0% CPU, the tokio runtime's 3 threads parked in futex with no timeout and no timer pending, identical stacks in"}},
		{"tokio parked in its I/O driver: an async wait, after an I/O wait's silence", scenario{
			procs: func(int) []ProcSample {
				return []ProcSample{proc(10, "app-1234", thread(10, 'S', epoll, ms, 3))}
			},
			frames:   ioParked,
			duration: 10 * time.Second, wantKind: AsyncWait, wantAfter: DefaultQuietIO, wantBy: 6 * time.Second,
			wantDiag: "the tokio runtime's thread parked in epoll_wait with no timeout and no timer pending"}},
		{"two threads on std mutexes beside tokio's parked one: a deadlock", scenario{
			procs: func(int) []ProcSample {
				return []ProcSample{proc(10, "rusttokio-12aa1", thread(10, 'S', lock, ms, 3), thread(11, 'S', lock, ms, 2), thread(12, 'S', lock, ms, 2))}
			},
			frames: tokioParked, stacks: map[int][]Frame{11: lockAB, 12: lockAB},
			duration: 10 * time.Second, wantKind: Deadlock, wantAfter: DefaultQuietLock, wantBy: 3 * time.Second,
			wantDiag: "2 threads blocked in futex with no timeout (lock wait), the tokio runtime's thread parked in futex with no timeout"}},
		{"tokio's thread parked while a thread reads forever: blocked on I/O", scenario{
			procs: func(int) []ProcSample {
				return []ProcSample{proc(10, "rusttokio-12aa1", thread(10, 'S', lock, ms, 3), thread(11, 'S', readWait, ms, 2))}
			},
			frames: tokioParked, stacks: map[int][]Frame{11: readForever},
			duration: 10 * time.Second, wantKind: BlockedIO, wantAfter: DefaultQuietIO, wantBy: 6 * time.Second,
			wantDiag: "1 thread blocked in read with no timeout (I/O wait), the tokio runtime's thread parked"}},
	} {
		t.Run(tc.name, tc.sc.check)
	}
}

// nodeStacks are the frames of a recorded node process: its main thread's,
// a V8 platform worker's and the inspector thread's. The recordings are of
// node 20.20 under mocha 11 (expressjs/body-parser's suite, a before hook
// awaiting a promise never resolved), and of node -e reading a fifo no one
// writes to with fs.readFileSync, read with eu-stack -p PID -s -i.
func nodeStacks(t *testing.T, file string) map[int][]Frame {
	t.Helper()
	st := recordedStacks(t, file)
	var platform, inspector []Frame
	for _, s := range st {
		for _, f := range s.Frames {
			if strings.Contains(f.Func, "PlatformWorkerThread") {
				platform = s.Frames
			}
			if strings.Contains(f.Func, "StartIoThreadMain") {
				inspector = s.Frames
			}
		}
	}
	return map[int][]Frame{10: st[0].Frames, 11: platform, 12: inspector}
}

// TestVerdictsNode: a node test awaiting a promise that never settles
// leaves its event loop in epoll_pwait with no timer and its helper
// threads waiting for work on condition variables. That is an async wait
// without end, not a deadlock (mocha's before hook, timeout 0, was called
// "deadlock: … 5 threads blocked in futex with no timeout (lock wait)").
// A main thread blocked in a synchronous read is blocked on I/O.
func TestVerdictsNode(t *testing.T) {
	ms := uint64(time.Millisecond)
	epoll := Wait{Kind: IO, Call: "epoll_pwait"}
	// mocha's and jest's timer of a test whose timeout is off: 2^31-1 ms.
	past := Wait{Kind: Timed, Call: "epoll_pwait", Timeout: 2147483647 * time.Millisecond, Known: true}
	// V8's memory reducer's delayed task, 8 s ahead: node's own timer.
	reducer := Wait{Kind: Timed, Call: "epoll_pwait", Timeout: 8100 * time.Millisecond, Known: true}
	asked := 0
	timers := func(in time.Duration, pending bool, err error, asked *int) func(context.Context, ProcSample) (time.Duration, bool, error) {
		return func(context.Context, ProcSample) (time.Duration, bool, error) {
			*asked++
			return in, pending, err
		}
	}
	for _, tc := range []struct {
		name string
		sc   scenario
	}{
		{"an idle event loop: an async wait without end", scenario{
			procs: func(int) []ProcSample {
				return []ProcSample{proc(10, "node", thread(10, 'S', epoll, ms, 3), thread(11, 'S', lock, ms, 2), thread(12, 'S', lock, ms, 2))}
			},
			stacks:   nodeStacks(t, "eu-stack-node-mocha-hook-await-never.txt"),
			duration: 10 * time.Second, wantKind: AsyncWait, wantAfter: DefaultQuietIO, wantBy: 6 * time.Second,
			wantDiag: "node's 3 idle threads (event loop and workers) wait in epoll_pwait and futex with no timeout and no timer pending"}},
		{"an idle event loop under a timer past the run's end: an async wait", scenario{
			procs: func(int) []ProcSample {
				return []ProcSample{startedAt(start, proc(10, "node", thread(10, 'S', past, ms, 3), thread(11, 'S', lock, ms, 2), thread(12, 'S', lock, ms, 2)))}
			},
			stacks: nodeStacks(t, "eu-stack-node-mocha-hook-await-never.txt"), deadline: 40 * time.Second,
			duration: 10 * time.Second, wantKind: AsyncWait, wantAfter: DefaultQuietLock, wantBy: 3 * time.Second,
			wantDiag: "node's 2 idle threads (workers) wait in futex with no timeout, 1 thread in epoll_pwait whose timeout ends after the run's"}},
		{"an idle event loop woken only by node's own timer: an async wait", scenario{
			procs: func(int) []ProcSample {
				return []ProcSample{proc(10, "node", thread(10, 'S', reducer, ms, 3), thread(11, 'S', lock, ms, 2), thread(12, 'S', lock, ms, 2))}
			},
			stacks: nodeStacks(t, "eu-stack-node-mocha-hook-await-never.txt"), deadline: 40 * time.Second,
			nodeTimer: timers(0, false, nil, &asked),
			duration:  10 * time.Second, wantKind: AsyncWait, wantAfter: DefaultQuietLock, wantBy: 3 * time.Second,
			wantDiag: "node's 2 idle threads (workers) wait in futex with no timeout, its event loop in epoll_pwait until a timer of node's own (no JavaScript timer due before the run's end)"}},
		{"an idle event loop whose JavaScript timer fires after the run: an async wait", scenario{
			procs: func(int) []ProcSample {
				return []ProcSample{proc(10, "node", thread(10, 'S', reducer, ms, 3), thread(11, 'S', lock, ms, 2), thread(12, 'S', lock, ms, 2))}
			},
			stacks: nodeStacks(t, "eu-stack-node-mocha-hook-await-never.txt"), deadline: 40 * time.Second,
			nodeTimer: timers(time.Hour, true, nil, &asked),
			duration:  10 * time.Second, wantKind: AsyncWait, wantAfter: DefaultQuietLock, wantBy: 3 * time.Second}},
		{"an event loop waiting for the test's own 9 s timer: no verdict", scenario{
			procs: func(int) []ProcSample {
				return []ProcSample{proc(10, "node", thread(10, 'S', reducer, ms, 3), thread(11, 'S', lock, ms, 2), thread(12, 'S', lock, ms, 2))}
			},
			stacks: nodeStacks(t, "eu-stack-node-mocha-hook-await-never.txt"), deadline: 40 * time.Second,
			nodeTimer: timers(9*time.Second, true, nil, &asked), duration: 8 * time.Second}},
		{"an event loop whose timers cannot be read: no verdict", scenario{
			procs: func(int) []ProcSample {
				return []ProcSample{proc(10, "node", thread(10, 'S', reducer, ms, 3), thread(11, 'S', lock, ms, 2), thread(12, 'S', lock, ms, 2))}
			},
			stacks: nodeStacks(t, "eu-stack-node-mocha-hook-await-never.txt"), deadline: 40 * time.Second,
			nodeTimer: timers(0, false, errors.New("no inspector"), &asked), duration: 7 * time.Second}},
		{"a main thread in fs.readFileSync: blocked on I/O", scenario{
			procs: func(int) []ProcSample {
				return []ProcSample{proc(10, "node", thread(10, 'S', readWait, ms, 3), thread(11, 'S', lock, ms, 2), thread(12, 'S', lock, ms, 2))}
			},
			stacks:   nodeStacks(t, "eu-stack-node-readsync-fifo.txt"),
			duration: 10 * time.Second, wantKind: BlockedIO, wantAfter: DefaultQuietIO, wantBy: 6 * time.Second,
			wantDiag: "1 thread blocked in read with no timeout (I/O wait), node's 2 idle threads"}},
	} {
		asked = 0
		t.Run(tc.name, tc.sc.check)
		if tc.sc.nodeTimer != nil && (asked < 1 || asked > 3) {
			t.Errorf("%s: the timers were asked %d times, want 1 to 3", tc.name, asked)
		}
	}
}

// TestSuggestedTracesLeaveOutTestClosures: the closures in a test function
// (the bodies a tokio test spawns on the blocking pool) are the test's
// own, not traces.
func TestSuggestedTracesLeaveOutTestClosures(t *testing.T) {
	c := Capture{Stacks: recordedStacks(t, "eu-stack-tokio-blocking-deadlock.txt")}
	tr := SuggestedTraces(c, "testdata/rusttokio", []string{"tests::blocking_deadlock"})
	if strings.Join(tr, ",") != "rusttokio::lock_a_then_b,rusttokio::lock_b_then_a" && strings.Join(tr, ",") != "rusttokio::lock_b_then_a,rusttokio::lock_a_then_b" {
		t.Errorf("traces %v, want lock_a_then_b and lock_b_then_a", tr)
	}
}

// TestAsyncioParked: a Python main thread waiting in the asyncio event
// loop's select is parked (the coroutine that awaits is in its task's
// stack); one blocked elsewhere, and any other thread, are not.
func TestAsyncioParked(t *testing.T) {
	loop := []Frame{{Func: "select", File: "/usr/lib/python3.11/selectors.py", Line: 468}, {Func: "_run_once", File: "/usr/lib/python3.11/asyncio/base_events.py", Line: 1884},
		{Func: "run_forever", File: "/usr/lib/python3.11/asyncio/base_events.py", Line: 607}}
	task := Stack{Name: "asyncio task Task-1", Frames: []Frame{{Func: "wait", File: "/usr/lib/python3.11/asyncio/locks.py", Line: 213}, {Func: "wait_for_reply", File: "/p/test_a.py", Line: 4}}}
	p := &ProcSample{ProcKey: ProcKey{PID: 10, Start: 1}, Name: "python3"}
	mainThread := threadView{proc: p, t: ThreadSample{TID: 10, State: 'S', Wait: Wait{Kind: IO, Call: "epoll_wait"}}}
	server := threadView{proc: p, t: ThreadSample{TID: 11, State: 'S', Wait: Wait{Kind: IO, Call: "accept4"}}}
	c := Capture{PID: 10, Tool: ToolFaulthandler, Stacks: []Stack{{Name: "Current thread 0x01", Frames: loop}, task}}
	rt, parked, rest := asyncParked(c, []threadView{mainThread, server})
	if rt != "asyncio" || len(parked) != 1 || parked[0].t.TID != 10 || len(rest) != 1 || rest[0].t.TID != 11 {
		t.Errorf("asyncParked = %q, %d parked, %d others; want asyncio, the main thread, the server's", rt, len(parked), len(rest))
	}
	if got := describeParked(rt, parked); got != "the asyncio event loop waits in epoll_wait with no timeout" {
		t.Errorf("describeParked = %q", got)
	}
	c.Stacks[0].Frames = []Frame{{Func: "accept", File: "/usr/lib/python3.11/socket.py", Line: 294}, {Func: "serve", File: "/p/srv.py", Line: 9}}
	if rt, _, _ := asyncParked(c, []threadView{mainThread}); rt != "" {
		t.Errorf("a main thread in accept is parked in %q, want not parked", rt)
	}
}

// TestAfterTestsTail: with no test running, a wait's diagnosis ends with
// what the process waits for, never a test's await: the interpreter's
// join at exit (its main thread in threading._shutdown, innermost or under
// the lock's acquire), a node event loop kept alive, a child.
func TestAfterTestsTail(t *testing.T) {
	join := Capture{Stacks: []Stack{
		{Name: "Thread 0x7f01", Frames: []Frame{{Func: "<lambda>", File: "test_a.py", Line: 4}}},
		{Name: "Current thread 0x7f00", Frames: []Frame{{Func: "_shutdown", File: "/usr/lib/python3.11/threading.py", Line: 1590}}},
	}}
	lockJoin := Capture{Stacks: []Stack{{Name: "Current thread 0x7f00", Frames: []Frame{
		{Func: "_wait_for_tstate_lock", File: "/usr/lib/python3.11/threading.py", Line: 1119},
		{Func: "_shutdown", File: "/usr/lib/python3.11/threading.py", Line: 1590},
	}}}}
	other := Capture{Stacks: []Stack{{Name: "Current thread", Frames: []Frame{{Func: "_shutdown", File: "app/threading_utils.py", Line: 3}}}}}
	for _, tc := range []struct {
		name    string
		c       Capture
		runtime string
		want    string
	}{
		{"python join", join, "", ": the interpreter waits at its exit (threading._shutdown) for a thread that has not ended"},
		{"python join under acquire", lockJoin, "", ": the interpreter waits at its exit (threading._shutdown) for a thread that has not ended"},
		{"node", Capture{}, nodeRuntime, ": the event loop stays alive for what a test or hook opened and did not close (a server, a socket, a timer)"},
		{"child", Capture{}, "child", ": it waits for a child process that has not exited"},
		{"another _shutdown", other, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := afterTestsTail(tc.c, tc.runtime); got != tc.want {
				t.Errorf("afterTestsTail = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestRunningTests: among blocked threads of several test processes, those
// of the processes running a test are judged (a mocha --parallel worker
// done with its files waits on its pipe), and when none is known to run
// one (a hook before a file's first test), all stay.
func TestRunningTests(t *testing.T) {
	busy := &ProcSample{ProcKey: ProcKey{PID: 10}}
	idle := &ProcSample{ProcKey: ProcKey{PID: 20}}
	blocked := []threadView{
		{proc: busy, t: ThreadSample{TID: 10, Wait: Wait{Kind: IO, Call: "epoll_pwait"}}},
		{proc: idle, t: ThreadSample{TID: 20, Wait: Wait{Kind: IO, Call: "epoll_pwait"}}},
		{proc: idle, t: ThreadSample{TID: 21, Wait: Wait{Kind: Lock, Call: "futex"}}},
	}
	pids := func(vs []threadView) (out []int) {
		for _, v := range vs {
			out = append(out, v.t.TID)
		}
		return out
	}
	for _, tc := range []struct {
		name string
		runs func(int) bool
		want []int
	}{
		{"unknown", nil, []int{10, 20, 21}},
		{"one runs a test", func(pid int) bool { return pid == 10 }, []int{10}},
		{"none runs one", func(int) bool { return false }, []int{10, 20, 21}},
	} {
		d := New(Config{RunsTest: tc.runs})
		if got := pids(d.runningTests(blocked)); !slices.Equal(got, tc.want) {
			t.Errorf("%s: kept %v, want %v", tc.name, got, tc.want)
		}
	}
}
