package stuck

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"
	"time"
)

// fakeClock is moved by the test; nothing sleeps.
type fakeClock struct{ t time.Time }

func (c *fakeClock) Now() time.Time { return c.t }

// fakeView answers the snapshot the test scripts for the current time.
type fakeView struct {
	clock *fakeClock
	procs func(step int) []ProcSample
	step  int
}

func (v *fakeView) Sample(int) (Snapshot, error) {
	v.step++
	return Snapshot{At: v.clock.t, Procs: v.procs(v.step)}, nil
}

// fakeStacker answers stacks by step; the same stacks unless changing.
type fakeStacker struct {
	calls    int
	changing bool
	frames   []Frame
	// migrating puts the frames on thread 10 or 11 by turns, as a Go
	// goroutine moves between threads, the other one in the scheduler;
	// every third sample catches it on neither.
	migrating bool
	// pcs puts the innermost frame on that many instructions by turns, as
	// eu-stack's addresses move through a loop's body.
	pcs int
	// goSleep answers Go goroutines, one of them in time.Sleep.
	goSleep bool
	// goPoll answers a Go test's goroutine receiving from a channel
	// (a ticker's, or one nothing sends on).
	goPoll bool
	// byTID gives these threads their own frames.
	byTID map[int][]Frame
	// v8Counter catches every third sample in V8's block counter, which
	// a JavaScript loop calls under precise coverage, its own JIT frame
	// unwound past.
	v8Counter bool
	// goStd catches a Go loop, walk, in strings.TrimSpace every other
	// sample, and one sample in three of those without walk, its caller,
	// as eu-stack unwinds a Go function caught before it set up its frame.
	goStd bool
}

func (s *fakeStacker) Stacks(_ context.Context, pid int, exe string, _ Opts) Capture {
	s.calls++
	fr := s.frames
	if s.changing {
		fr = append([]Frame{{Func: "work_phase_" + string(rune('a'+s.calls%7))}}, fr...)
	}
	if s.pcs > 0 {
		fr = slices.Clone(fr)
		fr[0].pc = 0x4a1000 + uint64(s.calls%s.pcs)*4
	}
	if s.goStd {
		walk := []Frame{{Func: "m.walk"}, {Func: "m.TestWalk"}, {Func: "testing.tRunner"}, {Func: "runtime.goexit"}}
		switch s.calls % 4 {
		case 1:
			fr = append([]Frame{{Func: "strings.TrimSpace"}}, walk...)
		case 3:
			fr = append([]Frame{{Func: "strings.TrimSpace"}}, walk[1:]...)
		default:
			fr = walk
		}
		fr[0].pc = 0x4a1000 + uint64(s.calls%3)*4
	}
	if s.v8Counter && s.calls%3 == 0 {
		fr = append([]Frame{{Func: "Builtins_IncBlockCounter"}}, fr[1:]...)
	}
	c := Capture{PID: pid, Tool: "fake"}
	if s.goPoll {
		c.Tool = "go-sigquit"
		c.Stacks = []Stack{{TID: 6, Name: "goroutine 6 [chan receive]", Frames: []Frame{{Func: "runtime.chanrecv1"}, {Func: "m.TestPoll", File: "/p/p_test.go", Line: 14}, {Func: "testing.tRunner"}}}}
		return c
	}
	if s.goSleep {
		c.Tool = "go-sigquit"
		c.Stacks = []Stack{{TID: 6, Name: "goroutine 6 [sleep]", Frames: []Frame{{Func: "time.Sleep"}, {Func: "m.TestSleeps", File: "/p/s_test.go", Line: 10}, {Func: "testing.tRunner"}}}}
		return c
	}
	if s.migrating {
		sched := []Frame{{Func: "runtime.futex"}, {Func: "runtime.mPark"}, {Func: "runtime.schedule"}}
		on := map[int]int{0: 10, 1: 11, 2: 0}[s.calls%3]
		for _, tid := range []int{10, 11} {
			fr := sched
			if tid == on {
				fr = append([]Frame{{Func: "runtime.asyncPreempt"}}, s.frames...)
			}
			c.Stacks = append(c.Stacks, Stack{TID: tid, Name: "t", Frames: fr})
		}
		return c
	}
	for _, tid := range []int{10, 11, 12, 20} {
		if own, ok := s.byTID[tid]; ok {
			c.Stacks = append(c.Stacks, Stack{TID: tid, Name: "t", Frames: own})
			continue
		}
		c.Stacks = append(c.Stacks, Stack{TID: tid, Name: "t", Frames: fr})
	}
	return c
}

var start = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func thread(tid int, state byte, w Wait, runNS, slices uint64) ThreadSample {
	return ThreadSample{TID: tid, Name: "t", State: state, RunNS: runNS, Slices: slices, Wait: w}
}

var (
	lock      = Wait{Kind: Lock, Call: "futex"}
	readWait  = Wait{Kind: IO, Call: "read"}
	childWait = Wait{Kind: Child, Call: "wait4"}
	sleep10s  = Wait{Kind: Timed, Call: "nanosleep", Timeout: 10 * time.Second, Known: true}
	sleep1000 = Wait{Kind: Timed, Call: "nanosleep", Timeout: 1000 * time.Second, Known: true}
	tick100ms = Wait{Kind: Timed, Call: "nanosleep", Timeout: 100 * time.Millisecond, Known: true}
	running   = Wait{Kind: Running}
)

type scenario struct {
	procs     func(step int) []ProcSample
	changing  bool
	migrating bool
	pcs       int
	goSleep   bool
	goPoll    bool
	v8Counter bool
	goStd     bool
	took      time.Duration // TestPrimes runs from the start, and passed in took last time
	overdue   time.Duration // Config.Overdue
	ended     bool          // the framework reported its run's end (Config.Ended)
	after     bool          // no test runs, some finished (Config.AfterTests)
	lingers   bool          // Config.Lingers
	afterEnd  time.Duration // Config.AfterEnd
	// newTestBeside runs TestNew, never seen to pass, beside TestPrimes.
	newTestBeside bool
	slowest       time.Duration                 // Config.Slowest: the project's slowest test in its last runs; 0: no runs known
	frames        []Frame                       // the busy stack; spin_forever (hang.cpp:47) ← main when nil
	stacks        map[int][]Frame               // these threads' own stacks, instead of frames
	output        func(now time.Time) time.Time // time of the last output line
	deadline      time.Duration                 // hard timeout from start; 0: none
	harness       func(p ProcSample, t ThreadSample) bool
	judging       func() bool
	nodeTimer     func(context.Context, ProcSample) (time.Duration, bool, error) // Config.NodeTimer
	duration      time.Duration                                                  // how long to step
	wantKind      Kind                                                           // "" for no verdict
	wantAfter     time.Duration                                                  // the verdict not before this
	wantBy        time.Duration                                                  // and by this
	wantDiag      string
}

func startedAt(t time.Time, p ProcSample) ProcSample {
	p.Started = t
	return p
}

// goProc makes p a Go program's: its executable is this test's binary.
func goProc(p ProcSample) ProcSample {
	exe, err := os.Executable()
	if err != nil {
		panic(err)
	}
	p.Exe = exe
	return p
}

func proc(pid int, name string, threads ...ThreadSample) ProcSample {
	return ProcSample{ProcKey: ProcKey{PID: pid, Start: 1}, Name: name, Exe: "/bin/" + name, Threads: threads}
}

func (sc scenario) run(t *testing.T) (*Verdict, time.Duration) {
	t.Helper()
	clock := &fakeClock{t: start}
	frames := sc.frames
	if frames == nil {
		frames = []Frame{{Func: "spin_forever", File: "/p/hang.cpp", Line: 47}, {Func: "main"}}
	}
	cfg := Config{Root: 1, View: &fakeView{clock: clock, procs: sc.procs}, Clock: clock,
		Stacker: &fakeStacker{changing: sc.changing, migrating: sc.migrating, pcs: sc.pcs, goSleep: sc.goSleep, goPoll: sc.goPoll, frames: frames, byTID: sc.stacks, v8Counter: sc.v8Counter, goStd: sc.goStd},
		LastOutput: func() time.Time {
			if sc.output != nil {
				return sc.output(clock.t)
			}
			return start
		},
		Judging: sc.judging, Harness: sc.harness, Overdue: sc.overdue, NodeTimer: sc.nodeTimer,
		Ended: func() bool { return sc.ended }, AfterEnd: sc.afterEnd, Lingers: sc.lingers,
		AfterTests: func() bool { return sc.after },
	}
	if sc.deadline > 0 {
		cfg.Deadline = func() time.Time { return start.Add(sc.deadline) }
	}
	if sc.slowest > 0 {
		cfg.Slowest = func() time.Duration { return sc.slowest }
	}
	if sc.took > 0 {
		cfg.Running = func() []RunningTest {
			if sc.newTestBeside {
				return []RunningTest{{Name: "TestPrimes", Since: start}, {Name: "TestNew", Since: start}}
			}
			return []RunningTest{{Name: "TestPrimes", Since: start}}
		}
		cfg.Took = func(test string) time.Duration {
			if test == "TestPrimes" {
				return sc.took
			}
			return 0
		}
	}
	d := New(cfg)
	for clock.t.Sub(start) <= sc.duration {
		if v := d.Step(context.Background()); v != nil {
			return v, clock.t.Sub(start)
		}
		clock.t = clock.t.Add(d.Interval())
	}
	return nil, 0
}

func TestVerdicts(t *testing.T) {
	type testCase struct {
		name string
		sc   scenario
	}
	ms := uint64(time.Millisecond)
	// cpu makes a thread burn a share of a core at every step.
	cpu := func(step int, share float64) uint64 { return uint64(float64(step) * share * float64(DefaultTick)) }
	for _, tc := range []testCase{
		{"two threads on locks, silent, idle: deadlock", scenario{
			procs: func(int) []ProcSample {
				return []ProcSample{proc(10, "hang", thread(10, 'S', lock, 5*ms, 3), thread(11, 'S', lock, ms, 2), thread(12, 'S', lock, ms, 2))}
			},
			duration: 10 * time.Second, wantKind: Deadlock, wantAfter: DefaultQuietLock, wantBy: 3 * time.Second,
			wantDiag: "3 threads blocked in futex with no timeout"}},
		{"a silent 10 s sleep while main joins: no verdict", scenario{
			procs: func(int) []ProcSample {
				return []ProcSample{proc(10, "hang", thread(10, 'S', lock, 5*ms, 3), thread(11, 'S', sleep10s, ms, 2))}
			},
			deadline: 30 * time.Second, duration: 9500 * time.Millisecond}},
		{"a sleep past the hard timeout saves nothing", scenario{
			procs: func(int) []ProcSample {
				return []ProcSample{proc(10, "hang", thread(10, 'S', childWait, 5*ms, 3)), proc(20, "sleep", thread(20, 'S', sleep1000, ms, 1))}
			},
			deadline: 30 * time.Second, duration: 10 * time.Second, wantKind: BlockedChild, wantAfter: DefaultQuietLock, wantBy: 3 * time.Second}},
		{"a test that only sleeps past the hard timeout: sleeping past the timeout", scenario{
			procs: func(int) []ProcSample {
				return []ProcSample{startedAt(start, proc(10, "python3", thread(10, 'S', sleep1000, ms, 1)))}
			},
			deadline: 60 * time.Second, duration: 10 * time.Second, wantKind: PastTimeout, wantAfter: DefaultQuietIO, wantBy: 6 * time.Second,
			wantDiag: "1 thread in nanosleep whose timeout ends after the run's"}},
		{"a sleep to a deadline read from memory, past the hard timeout", scenario{
			procs: func(int) []ProcSample {
				w := Wait{Kind: Timed, Call: "clock_nanosleep", Timeout: 900 * time.Second, Known: true, Remaining: true}
				return []ProcSample{proc(10, "python3", thread(10, 'S', w, ms, 1))}
			},
			deadline: 60 * time.Second, duration: 10 * time.Second, wantKind: PastTimeout, wantAfter: DefaultQuietIO, wantBy: 6 * time.Second}},
		{"a sleep past the hard timeout, resumed after a stack capture stopped it: sleeping past the timeout", scenario{
			// A capture attaches to the process: the kernel resumes the
			// interrupted sleep as restart_syscall, which names neither the
			// call nor its timeout, and the thread was scheduled once more.
			// (A Rust test's thread::sleep waited out the whole timeout.)
			procs: func(step int) []ProcSample {
				w, slices := sleep1000, uint64(1)
				if step > 2 {
					w, slices = Wait{Kind: Timed, Call: "restart_syscall"}, 2
				}
				return []ProcSample{startedAt(start, proc(10, "rsleep-7458b0d9", thread(10, 'S', w, ms, slices)))}
			},
			deadline: 60 * time.Second, duration: 10 * time.Second, wantKind: PastTimeout, wantAfter: DefaultQuietIO, wantBy: 6 * time.Second,
			wantDiag: "1 thread in nanosleep whose timeout ends after the run's"}},
		{"a resumed wait first seen resumed: its end is unknown, no verdict", scenario{
			procs: func(int) []ProcSample {
				return []ProcSample{startedAt(start, proc(10, "rsleep-7458b0d9", thread(10, 'S', Wait{Kind: Timed, Call: "restart_syscall"}, ms, 1)))}
			},
			deadline: 60 * time.Second, duration: 10 * time.Second}},
		{"the same sleep without a hard timeout: no verdict", scenario{
			procs: func(int) []ProcSample {
				return []ProcSample{startedAt(start, proc(10, "python3", thread(10, 'S', sleep1000, ms, 1)))}
			},
			duration: 10 * time.Second}},
		{"a sleep under way when first seen, in a process of unknown age: no verdict", scenario{
			// It may have begun long ago and end in a moment.
			procs: func(int) []ProcSample {
				return []ProcSample{proc(10, "python3", thread(10, 'S', sleep1000, ms, 1))}
			},
			deadline: 60 * time.Second, duration: 10 * time.Second}},
		{"a sleep under way in a process that started 995 s ago: no verdict", scenario{
			procs: func(int) []ProcSample {
				return []ProcSample{startedAt(start.Add(-995*time.Second), proc(10, "python3", thread(10, 'S', sleep1000, ms, 1)))}
			},
			deadline: 60 * time.Second, duration: 10 * time.Second}},
		{"a sleep seen to begin, past the hard timeout", scenario{
			// A long-lived process (its start says nothing) goes from a
			// read into the sleep while the detector watches.
			procs: func(step int) []ProcSample {
				w := readWait
				if step > 2 {
					w = sleep1000
				}
				return []ProcSample{startedAt(start.Add(-2000*time.Second), proc(10, "python3", thread(10, 'S', w, ms, 1)))}
			},
			deadline: 60 * time.Second, duration: 10 * time.Second, wantKind: PastTimeout, wantAfter: DefaultQuietIO, wantBy: 6 * time.Second}},
		{"a launcher's own timer saves nothing", scenario{
			procs: func(int) []ProcSample {
				return []ProcSample{proc(5, "go", thread(5, 'S', sleep10s, ms, 1), thread(6, 'S', childWait, ms, 1)), proc(10, "pkg.test", thread(10, 'S', lock, ms, 3))}
			},
			deadline: 30 * time.Second, duration: 10 * time.Second, wantKind: Deadlock, wantBy: 3 * time.Second}},
		{"a read without timeout waits longer", scenario{
			procs: func(int) []ProcSample {
				return []ProcSample{proc(10, "hang", thread(10, 'S', readWait, ms, 1))}
			},
			duration: 10 * time.Second, wantKind: BlockedIO, wantAfter: DefaultQuietIO, wantBy: 6 * time.Second}},
		{"a shell whose short-lived commands work while a reader waits: no verdict", scenario{
			// bats under load: each command ends between two samples, so
			// only the shell's waited-for children's CPU tells the work.
			procs: func(step int) []ProcSample {
				sh := proc(10, "bash", thread(10, 'S', childWait, ms, 1))
				sh.ChildNS = cpu(step, 0.3)
				return []ProcSample{sh, proc(11, "cat", thread(11, 'S', readWait, ms, 1))}
			},
			duration: 10 * time.Second}},
		{"a join of a worker that reads a slow socket waits as long as the read", scenario{
			procs: func(int) []ProcSample {
				recv := Wait{Kind: IO, Call: "recvfrom"}
				return []ProcSample{proc(10, "python3", thread(10, 'S', lock, ms, 1), thread(11, 'S', recv, ms, 1))}
			},
			duration: 10 * time.Second, wantKind: BlockedIO, wantAfter: DefaultQuietIO, wantBy: 6 * time.Second,
			wantDiag: "1 thread blocked in futex with no timeout (lock wait), 1 thread blocked in recvfrom with no timeout (I/O wait)"}},
		{"a read in another process frees no lock: deadlock", scenario{
			procs: func(int) []ProcSample {
				return []ProcSample{proc(10, "python3", thread(10, 'S', lock, ms, 1)), proc(11, "reader", thread(11, 'S', readWait, ms, 1))}
			},
			duration: 10 * time.Second, wantKind: Deadlock, wantAfter: DefaultQuietLock, wantBy: 3 * time.Second}},
		{"a poll beside a ticker, far past the test's last time: overdue", scenario{
			procs: func(step int) []ProcSample {
				return []ProcSample{proc(10, "python3", thread(10, 'S', lock, ms, 1), thread(11, 'S', tick100ms, ms, uint64(step)))}
			},
			took: 50 * time.Millisecond, overdue: DefaultOverdue, deadline: 600 * time.Second,
			duration: 40 * time.Second, wantKind: Overdue, wantAfter: DefaultOverdue, wantBy: DefaultOverdue + time.Second,
			wantDiag: "TestPrimes took 50ms when it last passed and has run 20s"}},
		{"a poll beside a ticker after the run's end: lingering", scenario{
			// A thread a test started that polls, which Python joins at
			// exit, once pytest reported its session's end.
			procs: func(step int) []ProcSample {
				return []ProcSample{proc(10, "python3", thread(10, 'S', lock, ms, 1), thread(11, 'S', tick100ms, ms, uint64(step)))}
			},
			ended: true, afterEnd: DefaultAfterEnd, deadline: 600 * time.Second,
			duration: 40 * time.Second, wantKind: AfterEnd, wantAfter: DefaultAfterEnd, wantBy: DefaultAfterEnd + time.Second,
			wantDiag: "lingering: no output for 20s, 0% CPU"}},
		{"the same poll after the run's end without AfterEnd (a timeout of the user's): no verdict", scenario{
			procs: func(step int) []ProcSample {
				return []ProcSample{proc(10, "python3", thread(10, 'S', lock, ms, 1), thread(11, 'S', tick100ms, ms, uint64(step)))}
			},
			ended: true, deadline: 600 * time.Second, duration: 40 * time.Second}},
		{"the same poll, the run's end not reported: no verdict", scenario{
			procs: func(step int) []ProcSample {
				return []ProcSample{proc(10, "python3", thread(10, 'S', lock, ms, 1), thread(11, 'S', tick100ms, ms, uint64(step)))}
			},
			afterEnd: DefaultAfterEnd, deadline: 600 * time.Second, duration: 40 * time.Second}},
		{"the same poll after the tests, no end reported, of a framework that lingers: lingering, later", scenario{
			// node --test, whose file process a test's interval keeps:
			// it reports no end while one stays.
			procs: func(step int) []ProcSample {
				return []ProcSample{proc(10, "node", thread(10, 'S', lock, ms, 1), thread(11, 'S', tick100ms, ms, uint64(step)))}
			},
			after: true, lingers: true, afterEnd: DefaultAfterEnd, deadline: 600 * time.Second,
			duration: 80 * time.Second, wantKind: AfterEnd, wantAfter: AfterEndUnreported * DefaultAfterEnd, wantBy: AfterEndUnreported*DefaultAfterEnd + time.Second}},
		{"the same poll after the tests, no end reported, elsewhere: no verdict", scenario{
			// A Go package's TestMain may start a database between tests.
			procs: func(step int) []ProcSample {
				return []ProcSample{proc(10, "p.test", thread(10, 'S', lock, ms, 1), thread(11, 'S', tick100ms, ms, uint64(step)))}
			},
			after: true, afterEnd: DefaultAfterEnd, deadline: 600 * time.Second, duration: 80 * time.Second}},
		{"work after the run's end (a coverage report), its stacks changing: no verdict", scenario{
			procs: func(step int) []ProcSample {
				return []ProcSample{proc(10, "node", thread(10, 'R', running, uint64(cpu(step, 0.9)), uint64(step)))}
			},
			changing: true, ended: true, afterEnd: DefaultAfterEnd, deadline: 600 * time.Second, duration: 40 * time.Second}},
		{"the same poll without Overdue (a timeout of the user's): no verdict", scenario{
			procs: func(step int) []ProcSample {
				return []ProcSample{proc(10, "python3", thread(10, 'S', lock, ms, 1), thread(11, 'S', tick100ms, ms, uint64(step)))}
			},
			took: 50 * time.Millisecond, deadline: 600 * time.Second, duration: 40 * time.Second}},
		{"the same poll in a test that took 5 s: not before 50 s", scenario{
			procs: func(step int) []ProcSample {
				return []ProcSample{proc(10, "python3", thread(10, 'S', lock, ms, 1), thread(11, 'S', tick100ms, ms, uint64(step)))}
			},
			took: 5 * time.Second, overdue: DefaultOverdue, deadline: 600 * time.Second,
			duration: 60 * time.Second, wantKind: Overdue, wantAfter: 50 * time.Second, wantBy: 51 * time.Second}},
		{"the same poll beside a test never seen to pass: no verdict", scenario{
			procs: func(step int) []ProcSample {
				return []ProcSample{proc(10, "python3", thread(10, 'S', lock, ms, 1), thread(11, 'S', tick100ms, ms, uint64(step)))}
			},
			took: 50 * time.Millisecond, newTestBeside: true, overdue: DefaultOverdue, deadline: 600 * time.Second, duration: 40 * time.Second}},
		{"the same poll in a test never seen to pass: no verdict", scenario{
			procs: func(step int) []ProcSample {
				return []ProcSample{proc(10, "python3", thread(10, 'S', lock, ms, 1), thread(11, 'S', tick100ms, ms, uint64(step)))}
			},
			overdue: DefaultOverdue, deadline: 600 * time.Second, duration: 40 * time.Second}},
		{"output keeps coming: no verdict", scenario{
			procs: func(int) []ProcSample {
				return []ProcSample{proc(10, "hang", thread(10, 'S', lock, ms, 1))}
			},
			output: func(now time.Time) time.Time { return now.Add(-300 * time.Millisecond) }, duration: 20 * time.Second}},
		{"still building: no verdict", scenario{
			procs: func(int) []ProcSample {
				return []ProcSample{proc(10, "hang", thread(10, 'S', lock, ms, 1))}
			},
			judging: func() bool { return false }, duration: 20 * time.Second}},
		{"spinning with the same stacks: endless loop", scenario{
			procs: func(step int) []ProcSample {
				return []ProcSample{proc(10, "hang", thread(10, 'S', lock, ms, 1), thread(11, 'R', running, cpu(step, 1), uint64(step)))}
			},
			duration: 10 * time.Second, wantKind: EndlessLoop, wantAfter: DefaultQuietLoop, wantBy: 3 * time.Second,
			wantDiag: "100% CPU"}},
		{"spinning over two instructions: endless loop", scenario{
			procs: func(step int) []ProcSample {
				return []ProcSample{proc(10, "pkg.test", thread(11, 'R', running, cpu(step, 1), uint64(step)))}
			},
			pcs: 2, duration: 10 * time.Second, wantKind: EndlessLoop, wantAfter: DefaultQuietLoop, wantBy: 3 * time.Second}},
		{"a spin in a test that passed in 5 s last time: no verdict before twice that", scenario{
			procs: func(step int) []ProcSample {
				return []ProcSample{proc(10, "pkg.test", thread(11, 'R', running, cpu(step, 1), uint64(step)))}
			},
			pcs: 2, took: 5 * time.Second, duration: 20 * time.Second, wantKind: EndlessLoop,
			wantAfter: 10*time.Second + DefaultQuietLoop, wantBy: 13 * time.Second}},
		{"the same stack over many instructions (sha256's block): work until QuietWork, then an endless loop", scenario{
			procs: func(step int) []ProcSample {
				return []ProcSample{proc(10, "pkg.test", thread(11, 'R', running, cpu(step, 1), uint64(step)))}
			},
			pcs: 9, duration: 15 * time.Second, wantKind: EndlessLoop, wantAfter: DefaultQuietWork, wantBy: 11 * time.Second,
			wantDiag: "different instructions"}},
		{"spinning in code no symbol names (a JIT's): endless loop, from twice the samples in the same time", scenario{
			procs: func(step int) []ProcSample {
				return []ProcSample{proc(10, "node", thread(10, 'R', running, cpu(step, 1), uint64(step)))}
			},
			// node's JIT code under the interpreter's trampolines, as
			// eu-stack reads it (stuck/testdata/node/hang.js busy).
			frames:   []Frame{{Func: "??"}, {Func: "Builtins_InterpreterEntryTrampoline"}, {Func: "Builtins_JSEntryTrampoline"}, {Func: "Builtins_JSEntry"}, {Func: "node::Start"}},
			duration: 10 * time.Second, wantKind: EndlessLoop, wantAfter: DefaultQuietLoop, wantBy: 3 * time.Second,
			wantDiag: "identical stacks in 16 samples"}},
		{"a JIT loop under V8's precise coverage, some samples in its block counter: endless loop", scenario{
			procs: func(step int) []ProcSample {
				return []ProcSample{proc(10, "node", thread(10, 'R', running, cpu(step, 1), uint64(step)))}
			},
			// vitest --coverage on unjs/pathe: before, the samples in the
			// counter started the count over, and no verdict came.
			frames:    []Frame{{Func: "??"}, {Func: "Builtins_InterpreterEntryTrampoline"}, {Func: "Builtins_JSEntryTrampoline"}, {Func: "Builtins_JSEntry"}, {Func: "node::Start"}},
			v8Counter: true, duration: 10 * time.Second, wantKind: EndlessLoop, wantAfter: DefaultQuietLoop, wantBy: 3 * time.Second,
			wantDiag: "identical stacks in 16 samples"}},
		{"a goroutine spinning from thread to thread: endless loop", scenario{
			procs: func(step int) []ProcSample {
				return []ProcSample{proc(10, "pkg.test", thread(10, 'R', running, cpu(step, 0.5), uint64(step)), thread(11, 'R', running, cpu(step, 0.5), uint64(step)))}
			},
			migrating: true, duration: 15 * time.Second, wantKind: EndlessLoop, wantAfter: DefaultQuietLoop, wantBy: 8 * time.Second}},
		{"a goroutine spinning on a shared CPU, no thread busy alone: endless loop", scenario{
			procs: func(step int) []ProcSample {
				return []ProcSample{proc(10, "pkg.test", thread(10, 'R', running, cpu(step, 0.2), uint64(step)), thread(11, 'R', running, cpu(step, 0.2), uint64(step)), thread(12, 'S', lock, ms, 1))}
			},
			migrating: true, duration: 15 * time.Second, wantKind: EndlessLoop, wantAfter: DefaultQuietLoop, wantBy: 8 * time.Second}},
		{"a Go loop caught now and then in the standard library it calls: endless loop", scenario{
			// go-chi/chi's walkXFF broken on purpose: its samples were in
			// walk or in strings.TrimSpace, sometimes without walk, and no
			// two in a row alike; no verdict came in 3 min.
			procs: func(step int) []ProcSample {
				return []ProcSample{goProc(proc(10, "pkg.test", thread(10, 'R', running, cpu(step, 1), uint64(step))))}
			},
			// Its samples land on many instructions: QuietWork.
			goStd: true, duration: 15 * time.Second, wantKind: EndlessLoop, wantAfter: DefaultQuietWork, wantBy: 11 * time.Second}},
		{"the same loop outside a Go program: its samples differ, working", scenario{
			procs: func(step int) []ProcSample {
				return []ProcSample{proc(10, "pkg.test", thread(10, 'R', running, cpu(step, 1), uint64(step)))}
			},
			goStd: true, duration: 15 * time.Second}},
		{"a spin that gets a fifth of a core on a crowded machine: endless loop", scenario{
			// Eight other processes wanted the two cores: the loop's
			// thread, always runnable (R), had 20 to 30 % of one, under
			// busyThreadCPU, and was never judged.
			procs: func(step int) []ProcSample {
				return []ProcSample{proc(10, "hang", thread(10, 'R', running, cpu(step, 0.2), uint64(step)))}
			},
			duration: 10 * time.Second, wantKind: EndlessLoop, wantAfter: DefaultQuietLoop, wantBy: 3 * time.Second}},
		{"a spin whose thread is off the CPU now and then: endless loop", scenario{
			// A step where the loop's thread sleeps (its goroutine
			// between threads) and used a little CPU: not busy, not idle;
			// before, it started the samples over.
			procs: func(step int) []ProcSample {
				var used uint64
				state := byte('R')
				for i := 1; i <= step; i++ {
					share := 1.0
					if i%3 == 0 {
						share = 0.1
					}
					used += uint64(share * float64(DefaultTick))
				}
				w := running
				if step%3 == 0 {
					state, w = 'S', lock
				}
				return []ProcSample{proc(10, "hang", thread(10, state, w, used, uint64(step)))}
			},
			duration: 10 * time.Second, wantKind: EndlessLoop, wantAfter: DefaultQuietLoop, wantBy: 4 * time.Second}},
		{"spinning through changing functions: working", scenario{
			procs: func(step int) []ProcSample {
				return []ProcSample{proc(10, "hang", thread(11, 'R', running, cpu(step, 1), uint64(step)))}
			},
			changing: true, duration: 15 * time.Second}},
		{"spinning through changing functions far past the test's last time: busy far past its usual time", scenario{
			// A loop through real code (CLI11's split in a loop that never
			// advances): the stacks change, as work's do; the test's past
			// says it has gone on too long.
			procs: func(step int) []ProcSample {
				return []ProcSample{proc(10, "hang", thread(11, 'R', running, cpu(step, 1), uint64(step)))}
			},
			changing: true, took: 50 * time.Millisecond, overdue: DefaultOverdue, deadline: 600 * time.Second,
			duration: 40 * time.Second, wantKind: OverdueBusy, wantAfter: DefaultOverdue, wantBy: DefaultOverdue + time.Second,
			wantDiag: "its stacks changing (work, or a loop through real code): TestPrimes took 50ms when it last passed and has run 20s"}},
		{"the same spin in a test that took 5 s: not before 50 s", scenario{
			procs: func(step int) []ProcSample {
				return []ProcSample{proc(10, "hang", thread(11, 'R', running, cpu(step, 1), uint64(step)))}
			},
			changing: true, took: 5 * time.Second, overdue: DefaultOverdue, deadline: 600 * time.Second,
			duration: 60 * time.Second, wantKind: OverdueBusy, wantAfter: 50 * time.Second, wantBy: 51 * time.Second}},
		{"the same spin under a timeout of the user's (no Overdue): working", scenario{
			procs: func(step int) []ProcSample {
				return []ProcSample{proc(10, "hang", thread(11, 'R', running, cpu(step, 1), uint64(step)))}
			},
			changing: true, took: 50 * time.Millisecond, deadline: 600 * time.Second, duration: 40 * time.Second}},
		{"the same spin beside a test never seen to pass: working", scenario{
			procs: func(step int) []ProcSample {
				return []ProcSample{proc(10, "hang", thread(11, 'R', running, cpu(step, 1), uint64(step)))}
			},
			changing: true, took: 50 * time.Millisecond, newTestBeside: true, overdue: DefaultOverdue, deadline: 600 * time.Second, duration: 40 * time.Second}},
		{"the same spin beside a test new to a project whose slowest test took 50 ms: busy far past, after a minute", scenario{
			// An agent's new test looping through real code: only the
			// ten-minute timeout ended it.
			procs: func(step int) []ProcSample {
				return []ProcSample{proc(10, "hang", thread(11, 'R', running, cpu(step, 1), uint64(step)))}
			},
			changing: true, took: 50 * time.Millisecond, newTestBeside: true, slowest: 50 * time.Millisecond, overdue: DefaultOverdue, deadline: 600 * time.Second,
			duration: 70 * time.Second, wantKind: OverdueBusy, wantAfter: NewOverdueFactor * DefaultOverdue, wantBy: NewOverdueFactor*DefaultOverdue + time.Second,
			wantDiag: "TestNew has not passed in the project's last runs, whose slowest test took 50ms, and has run 1m0s"}},
		{"the same poll beside a new test, the project's slowest 10 s: not before 100 s", scenario{
			procs: func(step int) []ProcSample {
				return []ProcSample{proc(10, "python3", thread(10, 'S', lock, ms, 1), thread(11, 'S', tick100ms, ms, uint64(step)))}
			},
			took: 50 * time.Millisecond, newTestBeside: true, slowest: 10 * time.Second, overdue: DefaultOverdue, deadline: 600 * time.Second,
			duration: 110 * time.Second, wantKind: Overdue, wantAfter: 100 * time.Second, wantBy: 101 * time.Second}},
		{"the same spin printing now and then: working", scenario{
			procs: func(step int) []ProcSample {
				return []ProcSample{proc(10, "hang", thread(11, 'R', running, cpu(step, 1), uint64(step)))}
			},
			output:   func(now time.Time) time.Time { return now.Add(-now.Sub(start) % (8 * time.Second)) },
			changing: true, took: 50 * time.Millisecond, overdue: DefaultOverdue, deadline: 600 * time.Second, duration: 40 * time.Second}},
		{"a harness thread's timed wait does not hide a deadlock", scenario{
			procs: func(int) []ProcSample {
				return []ProcSample{proc(10, "tests-3f2a", thread(10, 'S', Wait{Kind: Timed, Call: "futex", Timeout: 50 * time.Second, Known: true, Remaining: true}, ms, 1), thread(11, 'S', lock, ms, 1))}
			},
			harness:  func(p ProcSample, t ThreadSample) bool { return t.TID == p.PID },
			duration: 10 * time.Second, wantKind: Deadlock, wantBy: 3 * time.Second}},
		{"a process's only thread is its test's, whatever the harness rule: a doctest's main, a custom harness's", scenario{
			procs: func(int) []ProcSample {
				return []ProcSample{proc(10, "rust_out", thread(10, 'S', lock, ms, 1))}
			},
			harness:  func(p ProcSample, t ThreadSample) bool { return t.TID == p.PID },
			duration: 10 * time.Second, wantKind: Deadlock, wantBy: 3 * time.Second}},
		{"without the harness rule the same timed wait saves it", scenario{
			procs: func(int) []ProcSample {
				return []ProcSample{proc(10, "tests-3f2a", thread(10, 'S', Wait{Kind: Timed, Call: "futex", Timeout: 50 * time.Second, Known: true, Remaining: true}, ms, 1), thread(11, 'S', lock, ms, 1))}
			},
			duration: 10 * time.Second}},
		{"an unknown timeout counts as one that ends", scenario{
			procs: func(int) []ProcSample {
				return []ProcSample{proc(10, "hang", thread(10, 'S', lock, ms, 1), thread(11, 'S', Wait{Kind: Timed, Call: "futex"}, ms, 1))}
			},
			deadline: 30 * time.Second, duration: 10 * time.Second}},
		{"a lock holder runnable but starved of CPU: no verdict", scenario{
			// Heavy load: the holder is in R for seconds and gets no CPU,
			// the others wait for it in futex; once it runs it frees them.
			procs: func(int) []ProcSample {
				return []ProcSample{proc(10, "hang", thread(10, 'S', lock, 5*ms, 3), thread(11, 'S', lock, ms, 2), thread(12, 'R', running, ms, 2))}
			},
			duration: 10 * time.Second}},
		{"starved until 3 s, then all asleep: deadlock from the samples after", scenario{
			procs: func(step int) []ProcSample {
				holder := thread(12, 'R', running, ms, 2)
				if step > 12 {
					holder = thread(12, 'S', lock, ms, 2)
				}
				return []ProcSample{proc(10, "hang", thread(10, 'S', lock, 5*ms, 3), thread(11, 'S', lock, ms, 2), holder)}
			},
			duration: 10 * time.Second, wantKind: Deadlock, wantAfter: 3500 * time.Millisecond, wantBy: 4500 * time.Millisecond}},
		{"runnable in one sample between the stack samples: the samples start over", scenario{
			procs: func(step int) []ProcSample {
				state, w := byte('S'), lock
				if step == 8 { // 1.75 s, after the first stack samples
					state, w = 'R', running
				}
				return []ProcSample{proc(10, "hang", thread(10, 'S', lock, 5*ms, 3), thread(11, state, w, ms, 2))}
			},
			duration: 10 * time.Second, wantKind: Deadlock, wantAfter: 2500 * time.Millisecond, wantBy: 3500 * time.Millisecond}},
		{"a harness thread in R does not hold back a deadlock", scenario{
			procs: func(int) []ProcSample {
				return []ProcSample{proc(10, "tests-3f2a", thread(10, 'R', running, ms, 1), thread(11, 'S', lock, ms, 1))}
			},
			harness:  func(p ProcSample, t ThreadSample) bool { return t.TID == p.PID },
			duration: 10 * time.Second, wantKind: Deadlock, wantBy: 3 * time.Second}},
		{"a launcher's runnable thread does not hold back a deadlock", scenario{
			procs: func(int) []ProcSample {
				return []ProcSample{proc(5, "go", thread(5, 'R', running, ms, 1)), proc(10, "pkg.test", thread(10, 'S', lock, ms, 3))}
			},
			duration: 10 * time.Second, wantKind: Deadlock, wantBy: 3 * time.Second}},
		{"a pid reused by a busy process is a new process", scenario{
			procs: func(step int) []ProcSample {
				if step <= 4 { // a busy process, then another one with its pid
					p := proc(10, "hang", thread(10, 'R', running, uint64(step)*1000*ms, uint64(step)))
					return []ProcSample{p}
				}
				p := proc(10, "hang", thread(10, 'S', lock, ms, 1))
				p.Start = 2 // its CPU is its own, not a delta from the old one's
				return []ProcSample{p}
			},
			duration: 10 * time.Second, wantKind: Deadlock, wantBy: 4 * time.Second}},
	} {
		t.Run(tc.name, tc.sc.check)
	}
}

// check runs the scenario and checks its verdict: none when wantKind is
// empty, else that kind, between wantAfter and wantBy (when set), with
// wantDiag in its diagnosis.
func (sc scenario) check(t *testing.T) {
	t.Helper()
	v, at := sc.run(t)
	if sc.wantKind == "" {
		if v != nil {
			t.Fatalf("verdict %s at %v: %s", v.Kind, at, v.Diagnosis)
		}
		return
	}
	if v == nil {
		t.Fatalf("no verdict in %v, want %s", sc.duration, sc.wantKind)
	}
	if v.Kind != sc.wantKind {
		t.Errorf("verdict %s (%s), want %s", v.Kind, v.Diagnosis, sc.wantKind)
	}
	if at < sc.wantAfter || (sc.wantBy > 0 && at > sc.wantBy) {
		t.Errorf("verdict at %v, want between %v and %v", at, sc.wantAfter, sc.wantBy)
	}
	if !strings.Contains(v.Diagnosis, sc.wantDiag) {
		t.Errorf("diagnosis %q lacks %q", v.Diagnosis, sc.wantDiag)
	}
}

func TestGoTimers(t *testing.T) {
	ms := uint64(time.Millisecond)
	goProc := func(epoll Wait, slices func(step int) uint64) func(int) []ProcSample {
		return func(step int) []ProcSample {
			p := proc(10, "pkg.test", thread(10, 'S', lock, ms, 1), thread(11, 'S', epoll, ms, slices(step)),
				thread(12, 'S', Wait{Kind: Timed, Call: "futex", Timeout: time.Minute, Known: true}, ms, 1))
			p.Exe, p.Started = "go-binary", start
			return []ProcSample{p}
		}
	}
	binaries.Store("go-binary", binaryInfo{isGo: true})
	// A goroutine sleeping 9 s: the netpoller waits once until its timer.
	sleeping := scenario{procs: goProc(Wait{Kind: Timed, Call: "epoll_pwait", Timeout: 9 * time.Second, Known: true}, func(int) uint64 { return 5 }),
		deadline: 30 * time.Second, duration: 8 * time.Second}
	if v, at := sleeping.run(t); v != nil {
		t.Errorf("a sleeping goroutine: verdict %s at %v: %s", v.Kind, at, v.Diagnosis)
	}
	// The same read from its goroutines: time.Sleep wakes by itself.
	sleeping.goSleep = true
	if v, at := sleeping.run(t); v != nil {
		t.Errorf("a goroutine in time.Sleep: verdict %s at %v: %s", v.Kind, at, v.Diagnosis)
	}
	// A goroutine in time.Sleep whose timer fires after the hard timeout:
	// the netpoller waits past it, and nothing else can wake the test.
	late := scenario{procs: goProc(Wait{Kind: Timed, Call: "epoll_pwait", Timeout: 10 * time.Minute, Known: true}, func(int) uint64 { return 5 }),
		goSleep: true, deadline: 30 * time.Second, duration: 8 * time.Second}
	if v, at := late.run(t); v == nil || v.Kind != PastTimeout || at < DefaultQuietIO || !strings.Contains(v.Diagnosis, "1 thread in epoll_pwait whose timeout ends after the run's") {
		t.Errorf("a goroutine sleeping past the hard timeout: verdict %+v at %v, want %s after %v", v, at, PastTimeout, DefaultQuietIO)
	}
	// A ticker: the netpoller comes back to the same 20 ms wait every time.
	ticking := scenario{procs: goProc(Wait{Kind: Timed, Call: "epoll_pwait", Timeout: 20 * time.Millisecond, Known: true}, func(s int) uint64 { return uint64(s) * 12 }),
		deadline: 30 * time.Second, duration: 8 * time.Second}
	if v, _ := ticking.run(t); v == nil || v.Kind != Deadlock {
		t.Errorf("goroutines deadlocked beside a ticker: verdict %+v, want deadlock", v)
	}
	// The same ticker when the netpoller's wait moves between threads: no
	// thread is seen waking, but a 20 ms timer saves nothing.
	moving := scenario{procs: goProc(Wait{Kind: Timed, Call: "epoll_pwait", Timeout: 20 * time.Millisecond, Known: true}, func(int) uint64 { return 5 }),
		deadline: 30 * time.Second, duration: 8 * time.Second}
	if v, _ := moving.run(t); v == nil || v.Kind != Deadlock {
		t.Errorf("a ticker whose wait moves between threads: verdict %+v, want deadlock", v)
	}
	// A test polling a 10 ms ticker (testify's Eventually) wakes by
	// itself, though some samples catch every thread in futex: the woken
	// thread parks while another takes the netpoller over, or waits for a
	// CPU. Under load in CI it was called a deadlock on two such samples
	// 500 ms apart.
	epoll10ms := Wait{Kind: Timed, Call: "epoll_pwait", Timeout: 10 * time.Millisecond, Known: true}
	polling := scenario{procs: func(step int) []ProcSample {
		w := epoll10ms
		if step%16 >= 10 { // 1.5 s of every 4
			w = lock
		}
		return goProc(w, func(s int) uint64 { return uint64(s) * 40 })(step)
	}, goPoll: true, deadline: 30 * time.Second, duration: 8 * time.Second}
	if v, at := polling.run(t); v != nil {
		t.Errorf("a test polling a ticker, some samples all in futex: verdict %s at %v: %s", v.Kind, at, v.Diagnosis)
	}
	// A test receiving from a channel nothing sends on, with no timer
	// ever firing: a deadlock.
	waiting := scenario{procs: goProc(lock, func(int) uint64 { return 5 }), goPoll: true, deadline: 30 * time.Second, duration: 8 * time.Second}
	if v, _ := waiting.run(t); v == nil || v.Kind != Deadlock {
		t.Errorf("a test receiving from a silent channel: verdict %+v, want deadlock", v)
	}
}

func TestGoroutineKind(t *testing.T) {
	dump := `goroutine 18 [sync.WaitGroup.Wait]:
sync.runtime_SemacquireWaitGroup(0xc000012345?, 0x0?)
	/usr/local/go/src/runtime/sema.go:114 +0x2e
sync.(*WaitGroup).Wait(0xc000012340)
	/usr/local/go/src/sync/waitgroup.go:206 +0x85
godeadlock.TestDeadlock(0xc0000a2000?)
	/p/deadlock_test.go:45 +0x9c
testing.tRunner(0xc0000a2000, 0x5a8f30)
	/usr/local/go/src/testing/testing.go:2036 +0xea
created by testing.(*T).Run in goroutine 1
	/usr/local/go/src/testing/testing.go:2101 +0x4c5

goroutine 7 [sleep]:
time.Sleep(0x218711a00)
	/usr/local/go/src/runtime/time.go:363 +0x165
godeadlock.TestSleepThenPass(0xc0000a2000?)
	/p/deadlock_test.go:65 +0x1e
`
	gs := ParseGoroutines(dump)
	if len(gs) != 2 || gs[0].Name != "goroutine 18 [sync.WaitGroup.Wait]" || gs[0].Frames[2].Func != "godeadlock.TestDeadlock" ||
		gs[0].Frames[2].File != "/p/deadlock_test.go" || gs[0].Frames[2].Line != 45 {
		t.Fatalf("parsed %+v", gs)
	}
	if k, ok := goroutineKind(Capture{Tool: "go-sigquit", Stacks: gs}, false); !ok || k != Running {
		t.Errorf("a sleeping goroutine: kind %v, want running (it wakes)", k)
	}
	if k, _ := goroutineKind(Capture{Tool: "go-sigquit", Stacks: gs[:1]}, true); k != Lock {
		t.Errorf("a goroutine waiting on a WaitGroup beside a ticker: kind %v, want lock", k)
	}
	polling := ParseGoroutines(`goroutine 7 [select]:
runtime.selectgo(0xc000057f18, 0xc000057ef0, 0x0?, 0x0, 0x0?, 0x1)
	/usr/local/go/src/runtime/select.go:351 +0x8e5
m.TestEventually(0xc000003500)
	/p/e_test.go:20 +0x9c
testing.tRunner(0xc000003500, 0x5a8f30)
	/usr/local/go/src/testing/testing.go:2036 +0xea
`)
	if k, _ := goroutineKind(Capture{Tool: "go-sigquit", Stacks: polling}, true); k != Running {
		t.Errorf("a test polling a ticker: kind %v, want running (it wakes)", k)
	}
	if k, _ := goroutineKind(Capture{Tool: "go-sigquit", Stacks: polling}, false); k != Lock {
		t.Errorf("a test in a select with no timer firing: kind %v, want lock", k)
	}
}

// TestOutputWhileJudging: output read while the detector judges (the
// parser took a test's end from it, and the rules then see no test
// running) makes the step's verdict stale: it is dropped, and the tree is
// judged anew from that output on. In CI, a Go test that spun for 3.5 s
// and passed was called "an endless loop after the tests": the samples
// were of the test, the end was read during the step.
func TestOutputWhileJudging(t *testing.T) {
	ms := uint64(time.Millisecond)
	clock := &fakeClock{t: start}
	out := start
	var readAt time.Time // when the line came, during the first verdict's making
	cfg := Config{Root: 1, Clock: clock, Stacker: &fakeStacker{frames: []Frame{{Func: "lock_a_then_b", File: "/p/hang.cpp", Line: 9}}},
		View: &fakeView{clock: clock, procs: func(int) []ProcSample {
			return []ProcSample{proc(10, "hang", thread(10, 'S', lock, 5*ms, 3), thread(11, 'S', lock, ms, 2), thread(12, 'S', lock, ms, 2))}
		}},
		LastOutput: func() time.Time { return out },
		Running: func() []RunningTest {
			if readAt.IsZero() {
				readAt, out = clock.t, clock.t
			}
			return nil
		},
	}
	d := New(cfg)
	for clock.t.Sub(start) <= 10*time.Second {
		if v := d.Step(context.Background()); v != nil {
			if readAt.IsZero() || !clock.t.After(readAt) {
				t.Fatalf("verdict %s at %v, in the step that read output at %v", v.Kind, clock.t.Sub(start), readAt.Sub(start))
			}
			if clock.t.Sub(readAt) < DefaultQuietLock {
				t.Errorf("verdict %v after the output, want the quiet time (%v) judged anew", clock.t.Sub(readAt), DefaultQuietLock)
			}
			return
		}
		clock.t = clock.t.Add(d.Interval())
	}
	t.Fatal("no verdict once the output stopped again")
}
