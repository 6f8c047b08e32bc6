// Package stuck watches a running test command and tells a deadlock, an
// endless loop or a wait that will never end from slow, honest work, within
// seconds, and captures the stacks that prove it.
//
// The signals, cheap to dear: silence on the output (the runner says when
// the last line came); the CPU time of every thread of the process tree and
// what each waiting thread waits in (/proc: state, syscall and its
// arguments, so a timed wait is told from a wait without end); and, only
// when those look suspicious, stack samples, at least two, compared.
// docs/stuck.md has the decision rules and their thresholds.
package stuck

import (
	"context"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
	"strobe/internal/lazyre"
	"sync"
	"time"
)

// Kind is a verdict.
type Kind string

const (
	Deadlock     Kind = "deadlock"
	EndlessLoop  Kind = "endless loop"
	BlockedIO    Kind = "blocked on I/O"
	BlockedChild Kind = "blocked on a child process"
	// PastTimeout: the test's only waits are timed ones that end after
	// the run's hard timeout (time.sleep(600) under a 90 s timeout).
	PastTimeout Kind = "sleeping past the timeout"
	// Overdue: a test waits, silent and idle, far longer than it took when
	// it last passed, while something may still wake it (a ticker, a
	// poll, an event loop's timer): Config.Overdue.
	Overdue Kind = "waiting far past its usual time"
	// OverdueBusy: a test works, silent and busy, its stacks changing (no
	// endless loop of one place), far longer than it took when it last
	// passed: a loop through real code (a parser that never advances), or
	// work grown far slower: Config.Overdue.
	OverdueBusy Kind = "busy far past its usual time"
	// AfterEnd: the framework reported the end of its run, and its
	// process stays, silent and idle, however its threads wait (an
	// interval a test left running, a thread Python joins at exit that
	// polls): Config.AfterEnd.
	AfterEnd Kind = "lingering"
	// AsyncWait: the test's blocked threads are an async runtime's
	// (tokio's), parked with no timer pending: a future the test awaits
	// never completes (async.go).
	AsyncWait Kind = "async wait without end"
)

// Thresholds: how long the output must be silent before a verdict, by what
// the threads wait for. A lock waited on without a timeout never frees
// itself; a read may wait for a slow peer, so it gets longer.
const (
	DefaultTick      = 250 * time.Millisecond
	DefaultQuietLock = 2 * time.Second
	DefaultQuietLoop = 2200 * time.Millisecond
	DefaultQuietIO   = 5 * time.Second
	// DefaultQuietWork is QuietLoop for a loop whose samples land on many
	// different instructions (workSpread): the shape of honest work in
	// one hot function (a hash, a long arithmetic loop), which a test may
	// do silently for seconds and then pass.
	DefaultQuietWork = 10 * time.Second
	// DefaultOverdue is Config.Overdue under the default timeout.
	DefaultOverdue = 20 * time.Second
	// AfterEndUnreported is how many times Config.AfterEnd a process of
	// a framework that lingers (Config.Lingers) must stay after its
	// tests when the framework did not report its end: another test
	// file's setup may be under way.
	AfterEndUnreported = 3
	// DefaultAfterEnd is Config.AfterEnd under the default timeout: as
	// long as an overdue test's least wait, since a framework may run
	// its teardown after it reported its end (jest's globalTeardown,
	// stopping a database, after onRunComplete).
	DefaultAfterEnd = DefaultOverdue
	// suspectAfter is the silence after which the detector starts to look
	// closer (stack samples) and the run carries a warning.
	suspectAfter = 500 * time.Millisecond
	// sampleEvery spaces stack samples; two samples closer than this say
	// nothing about a loop. Through long silent work the spacing grows to
	// sampleMax (sampleSpacing).
	sampleEvery = 500 * time.Millisecond
	sampleMax   = 5 * time.Second
	// idleCPU is the most CPU (cores) an idle tree may use: tickers and
	// runtime housekeeping wake, briefly.
	idleCPU = 0.05
	// busyThreadCPU is the share of a core that makes a thread busy.
	busyThreadCPU = 0.3
	// loopSamples is how many consecutive identical stack samples, at
	// loopEvery, make a loop: a hot function of honest work is sampled
	// that many times in a row only by chance. Six, from a second of
	// silence on, let a child doing honest work in one hot function be
	// called a loop once in 70 runs under load
	// (BenchmarkStuckFalsePositives); nine, from half a second on, look
	// over a longer window (0 in 70) and still answer within 3 s.
	loopSamples = 9
	loopEvery   = 250 * time.Millisecond
	// loopSamplesUnnamed is loopSamples for a loop whose busy stacks start
	// in code no symbol names: a JIT's (V8's, the JVM's) or a stripped
	// binary's. All such code is one unnamed frame to the comparison, so
	// honest work that spends half its samples in JIT code (node hang.js
	// work: 22 of 40) gives runs of identical samples by chance: nine in a
	// row, in about 1 of 20 runs under load. Sixteen, taken twice as often
	// (every half tick), look over the same two seconds: the verdict comes
	// as soon, and the chance is about 60 times smaller (0.55^16 against
	// 0.55^9).
	loopSamplesUnnamed = 16
	// workSpread is how many different instructions (or source lines,
	// where a capture has no addresses) the innermost frames of a loop's
	// samples must land on to read as work rather than a spin: a wait
	// loop (for !done {}) or a loop that never advances is a few
	// instructions, and nine samples of it land on one to three of them
	// (Go's for {}, an atomic flag, an LCG, a counter), while nine of
	// sha256's block or of a long arithmetic expression landed on eight
	// to eleven. A loop dominated by one slow instruction (a division in
	// a prime test) looks like a spin; the time alone tells it.
	workSpread = 6
)

// RunningTest is a test that started and has not finished.
type RunningTest struct {
	Name  string
	Since time.Time
}

// Config is what the detector is told about a run.
type Config struct {
	// Root is the pid of the run's process (the launcher: cargo, go, sh).
	Root int
	// LastOutput is the time of the run's last output line.
	LastOutput func() time.Time
	// Running lists the tests running now (from the adapter's parser).
	Running func() []RunningTest
	// AfterTests says no test runs while some have finished (or the
	// framework reported its run's end): a wait then is the process's
	// own, after its tests, and the diagnosis says so rather than blame
	// a test (async.go's afterTestsTail). Nil means never.
	AfterTests func() bool
	// Ended says the framework reported the end of its run: every test
	// it was to run has finished. Nil means never.
	Ended func() bool
	// Lingers says the framework's process is known to wait, after its
	// tests, for what they left open (node --test for each file's
	// process, which reports no end while one stays): a process that
	// stays after its tests (AfterTests) without the framework's report
	// of its end is then stuck too, after AfterEndUnreported. Elsewhere
	// a silent wait between tests may be the next ones' setup (a Go
	// package's TestMain starting a database).
	Lingers bool
	// AfterEnd is how long a process may stay, silent and idle, once
	// its framework reported the end of its run (Ended), before it is
	// stuck however its threads wait: a timer a test left running keeps
	// an event loop, and a thread that polls keeps Python's exit, alive
	// for ever, and no other rule calls a process that timers wake
	// stuck. 0 turns it off: the runner sets it, as Overdue, only under
	// the default timeout.
	AfterEnd time.Duration
	// Judging says whether a verdict may be reached now (false while the
	// tests are still being built). Nil means always.
	Judging func() bool
	// Deadline is the end of the run's hard timeout (zero: none). A timed
	// wait that ends after it cannot save the run.
	Deadline func() time.Time
	// TestProcess says whether a process runs tests rather than launching
	// them; nil means any process but a known launcher.
	TestProcess func(p ProcSample) bool
	// RunsTest says whether a process runs a test now, for a framework
	// that says so (adapters.TestRunner). When the blocked threads of a
	// silent tree are in several test processes, some of them running a
	// test, only those are judged: the others are workers waiting for
	// work. Nil means every test process may run one.
	RunsTest func(pid int) bool
	// TestsBegin, when set, is called once, the first time a sample finds
	// a test process, for a command that prints nothing as its tests
	// begin: that process is the sign the build is over.
	TestsBegin func()
	// Harness says whether a thread belongs to the test harness, whose
	// waits say nothing about the test (libtest's main thread waits with
	// a timeout for its test threads). Nil means none. A test process's
	// only thread is never asked about: it runs the test.
	Harness func(p ProcSample, t ThreadSample) bool
	// GoSymbols links a copy with DWARF of a Go test process's binary,
	// which go test stripped (same code, same addresses), and answers its
	// path: gdb reads the live goroutines with it. Called once per binary,
	// in the background, when the process first looks blocked. Nil means
	// stripped binaries go without goroutines.
	GoSymbols func(ctx context.Context, p ProcSample) (string, error)
	// Took says how long a test took when it last passed (0: unknown):
	// an endless loop is not called in a test that runs for less than
	// twice that yet. Nil means nothing is known.
	Took func(test string) time.Duration
	// Slowest is the longest any test took, passed or failed, in the runs
	// Took reads (0: no run known). A running test Took does not know (new,
	// or never seen to pass) is overdue once it has run OverdueFactor times
	// that, and NewOverdueFactor times Overdue. Nil means nothing is known.
	Slowest func() time.Duration
	// Unit is the group of tests running when the parser names no test
	// running (adapters.UnitRunner: Surefire's class), since when, and
	// what its tests took together when they last passed (0: unknown):
	// an endless loop is not called in it before it has run twice that,
	// as for a test (Took). Nil, or "" for the name: none.
	Unit func() (name string, since time.Time, took time.Duration)
	// RuntimeDeadlock asks a test process's runtime for the deadlock it
	// found itself (the JVM's, through jstack), "" for none, and the tests
	// in the deadlocked threads' frames; asked while the tree is silent at
	// low CPU (runtime.go). Nil means no runtime has its own view.
	RuntimeDeadlock func(ctx context.Context, p ProcSample) (cycle string, tests []string)
	// Overdue is the least time a silent, idle test must have run before
	// it is called overdue, when it has also run OverdueFactor times what
	// it took when it last passed (Took). A test that waits on a channel
	// beside a ticker, or on a promise beside an interval, looks from
	// outside like one that polls for a condition that will come true; no
	// rule tells them apart, and without this only the hard timeout (ten
	// minutes by default) ends the wait. 0 turns it off: the runner sets
	// it only under the default timeout, since a timeout the user chose
	// says how long a slow test may take.
	Overdue time.Duration
	// NodeTimer says when the soonest JavaScript timer of a node
	// process's main thread fires that may end what a test awaits; ok is
	// false when none is pending (nodetimers.go). Nil, or an error, and
	// the event loop's timed wait counts as any other.
	NodeTimer func(ctx context.Context, p ProcSample) (in time.Duration, ok bool, err error)

	Tick                                     time.Duration
	QuietLock, QuietLoop, QuietIO, QuietWork time.Duration
	View                                     View
	Clock                                    Clock
	Stacker                                  Stacker
}

// Verdict is the detector's finding, with its evidence.
type Verdict struct {
	Kind      Kind
	At        time.Time
	Diagnosis string
	Silence   time.Duration
	Tests     []RunningTest
	// Process is the process that runs the tests; Stacks its last stack
	// sample (all threads).
	Process ProcSample
	Stacks  Capture
	// Threads names the threads found blocked or spinning (their comm).
	Threads []string
}

// Detector judges one run. Step takes one sample and judges it; Run calls
// Step every tick until a verdict or the end of ctx.
type Detector struct {
	cfg Config

	mu      sync.Mutex
	warning string

	threads map[threadKey]*threadHist
	prevAt  time.Time
	// childNS is each process's ProcSample.ChildNS at the last sample.
	childNS map[ProcKey]uint64

	mode        string // "", "idle" or "busy": what the current suspicion is
	since       time.Time
	faults      uint64    // the target's minor faults at since (grown)
	samples     []Capture // stack samples taken during the current suspicion
	lastCapture time.Time
	target      ProcKey // the process sampled
	syms        symbolJobs
	symbolsRead ProcKey // the process last sampled with its copy's symbols
	// runtimeProbed is the process whose runtime was last asked for a
	// deadlock, at runtimeProbeAt.
	runtimeProbed  ProcKey
	runtimeProbeAt time.Time
	testsBegan     bool // TestsBegin was called
	// loopTimers are NodeTimer's answers, by process.
	loopTimers map[ProcKey]loopTimer
	// probed are the processes NodeTimer asked since the last sample:
	// their CPU of the next interval is the probe's.
	probed []ProcKey
	// goTicked is when a Go program's timers were last seen firing
	// (goTicking).
	goTicked time.Time
}

type threadKey struct {
	proc ProcKey
	tid  int
}

type threadHist struct {
	runNS     uint64
	slices    uint64
	wait      Wait
	waitSince time.Time // when this wait was first seen
	waitAfter time.Time // it began after this (the sample before); zero when it was under way when first seen
	ticking   bool      // woke and went back to the same wait
	seen      time.Time
	harness   bool // its stacks showed the harness started it (markHarness)
}

// New returns a detector for cfg, filling in the defaults.
func New(cfg Config) *Detector {
	if cfg.Tick == 0 {
		cfg.Tick = DefaultTick
	}
	if cfg.QuietLock == 0 {
		cfg.QuietLock = DefaultQuietLock
	}
	if cfg.QuietLoop == 0 {
		cfg.QuietLoop = DefaultQuietLoop
	}
	if cfg.QuietIO == 0 {
		cfg.QuietIO = DefaultQuietIO
	}
	if cfg.QuietWork == 0 {
		cfg.QuietWork = DefaultQuietWork
	}
	if cfg.View == nil {
		cfg.View = NewProcView()
	}
	if cfg.Clock == nil {
		cfg.Clock = realClock{}
	}
	if cfg.Stacker == nil {
		cfg.Stacker = NativeStacker()
	}
	if cfg.Running == nil {
		cfg.Running = func() []RunningTest { return nil }
	}
	return &Detector{cfg: cfg, threads: map[threadKey]*threadHist{}, childNS: map[ProcKey]uint64{}, loopTimers: map[ProcKey]loopTimer{}}
}

// Warning is the current suspicion, "" when there is none.
func (d *Detector) Warning() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.warning
}

func (d *Detector) setWarning(w string) {
	d.mu.Lock()
	d.warning = w
	d.mu.Unlock()
}

// Run steps every tick until a verdict, which it returns, or until ctx
// ends (nil).
func (d *Detector) Run(ctx context.Context) *Verdict {
	t := time.NewTimer(d.cfg.Tick)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
			start := time.Now()
			if v := d.Step(ctx); v != nil {
				return v
			}
			// A step's own time (a stack capture) counts in the
			// interval, as a ticker's would.
			t.Reset(max(0, d.Interval()-time.Since(start)))
		}
	}
}

// Interval is how long to wait before the next Step: a tick, or half of
// one while a loop is confirmed from samples of unnamed code
// (loopSamplesUnnamed).
func (d *Detector) Interval() time.Duration {
	if d.loopInUnnamed() {
		return d.cfg.Tick / 2
	}
	return d.cfg.Tick
}

// loopInUnnamed says whether a loop is being confirmed from samples of
// code no symbol names.
func (d *Detector) loopInUnnamed() bool {
	return d.mode == "busy" && len(d.samples) > 0 && unnamedTop(d.samples[len(d.samples)-1].keys)
}

// threadView is one thread of the latest sample, judged.
type threadView struct {
	proc    *ProcSample
	t       ThreadSample
	cpu     float64 // cores, over the last interval
	harness bool
	test    bool // belongs to a test process
	ticking bool
	rescuer bool // a timed wait that will end before the deadline
	late    bool // a timed wait that ends after it: it saves nothing
	limit   time.Time
}

// Step samples the tree once and judges it; it returns a verdict or nil.
func (d *Detector) Step(ctx context.Context) *Verdict {
	now := d.cfg.Clock.Now()
	if now.Sub(d.cfg.LastOutput()) < suspectAfter-2*d.cfg.Tick {
		// Output is fresh: nothing to judge, and no need for a baseline
		// yet (the next samples give one before the suspicion starts).
		d.reset("")
		d.prevAt = time.Time{}
		clear(d.threads)
		clear(d.childNS)
		return nil
	}
	snap, err := d.cfg.View.Sample(d.cfg.Root)
	if err != nil || len(snap.Procs) == 0 {
		return nil
	}
	if snap.At.IsZero() {
		snap.At = now
	}
	views, treeCPU := d.update(snap)
	if d.cfg.Judging != nil && !d.cfg.Judging() {
		d.reset("")
		return nil
	}
	last := d.cfg.LastOutput()
	silence := now.Sub(last)
	if silence < suspectAfter {
		d.reset("")
		return nil
	}

	var v *Verdict
	switch busy := busyThreads(views); {
	case len(busy) > 0:
		v = d.judgeBusy(ctx, now, silence, treeCPU, busy)
	case treeCPU <= idleCPU:
		v = d.judgeIdle(ctx, now, silence, treeCPU, views)
	case d.mode == "busy":
		// Some CPU, no thread busy: a loop that lost its core for a
		// moment to the machine's other processes, or its goroutine
		// caught between two threads. No evidence either way: the
		// samples so far stand.
		return nil
	default:
		d.reset("")
		return nil
	}
	if v != nil && d.cfg.LastOutput().After(last) {
		// Output came while the tree was judged: the samples predate
		// it, and what the parser read with it (a test's end) may make
		// the rules judge the wrong thing (a spin that was the test,
		// taken for one after the tests). The next step judges anew.
		return nil
	}
	return v
}

// update records the snapshot and returns its threads, judged, and the
// tree's CPU use in cores over the last interval.
func (d *Detector) update(snap Snapshot) ([]threadView, float64) {
	dt := snap.At.Sub(d.prevAt).Seconds()
	first := d.prevAt.IsZero()
	prevAt := d.prevAt
	d.prevAt = snap.At
	var deadline time.Time
	if d.cfg.Deadline != nil {
		deadline = d.cfg.Deadline()
	}
	var views []threadView
	var total float64
	live := map[threadKey]bool{}
	liveProcs := map[ProcKey]bool{}
	for i := range snap.Procs {
		p := &snap.Procs[i]
		// The children that ran and ended since the last sample worked
		// too: a shell script's commands, each too short-lived to be
		// sampled, while the shell waits (bats under load looked idle,
		// at 1% CPU, and was called blocked on I/O).
		if prev, ok := d.childNS[p.ProcKey]; ok && dt > 0 && p.ChildNS > prev {
			total += float64(p.ChildNS-prev) / 1e9 / dt
		}
		d.childNS[p.ProcKey] = p.ChildNS
		liveProcs[p.ProcKey] = true
		test := d.isTestProcess(*p)
		if test && d.cfg.TestsBegin != nil && !d.testsBegan {
			d.testsBegan = true
			d.cfg.TestsBegin()
		}
		goProc := IsGoBinary(p.Exe)
		for _, t := range p.Threads {
			k := threadKey{p.ProcKey, t.TID}
			live[k] = true
			h := d.threads[k]
			if h != nil {
				t.Wait = resumed(t.Wait, h.wait, h.seen, snap.At)
			}
			v := threadView{proc: p, t: t, test: test}
			if d.cfg.Harness != nil && (len(p.Threads) > 1 || !test) {
				// A test process's only thread runs its test, whatever
				// thread the harness would keep for itself (libtest's
				// main): a doctest's program, a custom harness.
				v.harness = d.cfg.Harness(*p, t)
			}
			if h == nil {
				h = &threadHist{runNS: t.RunNS, slices: t.Slices, wait: t.Wait, waitSince: snap.At}
				d.threads[k] = h
				if !first && dt > 0 {
					v.cpu = 0 // new since the last sample: its CPU is counted from now on
					h.waitAfter = prevAt
				}
			} else {
				if dt > 0 && t.RunNS >= h.runNS {
					v.cpu = float64(t.RunNS-h.runNS) / 1e9 / dt
				}
				same := sameWait(h.wait, t.Wait)
				switch {
				case !same:
					h.waitSince, h.waitAfter, h.ticking = snap.At, prevAt, false
				case t.Slices != h.slices:
					// Woke and went back to the same wait: a ticker. The
					// new wait began within the last interval.
					h.ticking = true
					h.waitSince, h.waitAfter = snap.At, prevAt
				}
				h.runNS, h.slices, h.wait = t.RunNS, t.Slices, t.Wait
			}
			h.seen = snap.At
			v.harness = v.harness || h.harness
			v.ticking = h.ticking
			v.rescuer = rescues(p, t, h, goProc)
			if v.rescuer && t.Wait.Known {
				v.limit = h.waitSince.Add(t.Wait.Timeout)
				if t.Wait.Remaining {
					v.limit = snap.At.Add(t.Wait.Timeout)
				}
				// It sleeps past the hard timeout (or into its last
				// seconds): unless it ends within moments anyway.
				if !deadline.IsZero() && v.limit.After(deadline.Add(-deadlineMargin)) && v.limit.Sub(snap.At) > deadlineMargin {
					v.rescuer = false
					v.late = earliestEnd(p, t.Wait, h, snap.At).After(deadline.Add(-deadlineMargin))
				}
			}
			if slices.Contains(d.probed, p.ProcKey) {
				v.cpu = 0
			}
			total += v.cpu
			views = append(views, v)
		}
	}
	d.probed = nil
	if goTicking(views) {
		d.goTicked = snap.At
	}
	for k := range d.threads {
		if !live[k] {
			delete(d.threads, k)
		}
	}
	for k := range d.childNS {
		if !liveProcs[k] {
			delete(d.childNS, k)
		}
	}
	return views, total
}

// earliestEnd is the soonest a timed wait can end: a deadline read from
// memory is exact; a timeout counted from the wait's start ends no sooner
// than its timeout after the sample before the wait was seen to begin, or,
// for a wait under way when first seen, after its process started (zero,
// the distant past, when that is unknown). v.limit counts from when the
// wait was first seen, the latest it can end: enough to refuse a rescue,
// not to stop a run.
func earliestEnd(p *ProcSample, w Wait, h *threadHist, at time.Time) time.Time {
	switch {
	case w.Remaining:
		return at.Add(w.Timeout)
	case !h.waitAfter.IsZero():
		return h.waitAfter.Add(w.Timeout)
	case !p.Started.IsZero():
		return p.Started.Add(w.Timeout)
	}
	return time.Time{}
}

// deadlineMargin: a timed wait that ends this close to the hard timeout
// (go test's own -timeout timer, a harness's watchdog) saves nothing.
const deadlineMargin = 5 * time.Second

// goSleeperPause: after goroutines were seen sleeping, the next reading
// waits this much longer than usual.
const goSleeperPause = 2 * time.Second

// goTickMemory is how long a Go program's timers, once seen firing, are
// taken to fire still (goTicking).
const goTickMemory = 3 * time.Second

// goShortTimer: a Go netpoller wait shorter than this does not save a run.
const goShortTimer = 500 * time.Millisecond

// rescues says whether a thread's wait ends by itself, so that the run
// may go on: a timed wait, in a process that is not a launcher (cargo's
// and go's own timers are their housekeeping). In a Go program the
// timers that matter show as the netpoller's wait until the next timer;
// futex and nanosleep timeouts there are the runtime's housekeeping
// (sysmon), and a netpoller wait that comes back every few milliseconds
// to the same place is a ticker, which by itself changes nothing.
func rescues(p *ProcSample, t ThreadSample, h *threadHist, goProc bool) bool {
	if t.Wait.Kind != Timed || launchers[p.Name] {
		return false
	}
	if goProc {
		switch t.Wait.Call {
		case "epoll_wait", "epoll_pwait", "epoll_pwait2":
			// A timer due within a couple of samples is a ticker's (the
			// netpoller's wait moves between threads, so a ticker does
			// not always show as one thread waking), or it fires before
			// the verdict anyway and its effect shows.
			return !h.ticking && (!t.Wait.Known || t.Wait.Timeout >= goShortTimer)
		}
		return false
	}
	return true
}

// sameWait says whether two samples show the same wait (same syscall,
// same timeout), so the wait may have lasted between them.
func sameWait(a, b Wait) bool {
	return a.Kind == b.Kind && a.Call == b.Call && a.Timeout == b.Timeout && a.Known == b.Known && !a.Remaining && !b.Remaining ||
		a.Kind == b.Kind && a.Call == b.Call && a.Remaining && b.Remaining
}

// launchers start the processes that run tests; their own threads only wait.
var launchers = map[string]bool{"sh": true, "bash": true, "dash": true, "zsh": true, "env": true, "cargo": true,
	"go": true, "make": true, "timeout": true, "nice": true, "xargs": true, "strace": true, "ltrace": true,
	"rustc": true, "compile": true, "link": true, "vet": true, "cc": true, "ld": true}

func (d *Detector) isTestProcess(p ProcSample) bool {
	if d.cfg.TestProcess != nil {
		return d.cfg.TestProcess(p)
	}
	return !launchers[p.Name]
}

// sampleSpacing spaces stack samples by how long the output has been
// silent: close while a verdict is due within seconds, wider through long
// silent work, so that the detector's own cost stays small.
func sampleSpacing(silence time.Duration) time.Duration {
	switch {
	case silence < 10*time.Second:
		return sampleEvery
	case silence < 30*time.Second:
		return 2 * sampleEvery
	}
	return sampleMax
}

// blockedTIDs are the blocked threads of the sampled process: the ones
// compared (a timed or ticking thread moves; it says nothing).
func blockedTIDs(blocked []threadView, k ProcKey) []int {
	var tids []int
	for _, v := range blocked {
		if v.proc.ProcKey == k {
			tids = append(tids, v.t.TID)
		}
	}
	return tids
}

func (d *Detector) reset(warning string) {
	d.mode, d.samples = "", nil
	d.setWarning(warning)
}

// judgeIdle: no thread uses CPU. A deadlock (or a wait without end) when
// nothing can wake up by itself: no timed wait ends before the deadline,
// and a thread of a test process waits without a timeout.
func (d *Detector) judgeIdle(ctx context.Context, now time.Time, silence time.Duration, cpu float64, views []threadView) *Verdict {
	if v := d.runtimeDeadlock(ctx, now, silence, cpu, views); v != nil {
		return v
	}
	if v := d.afterEnd(now, silence, cpu, views); v != nil {
		return v
	}
	var blocked, rescuers, late []threadView
	debuggers := tracers(views)
	for _, v := range views {
		if v.harness || debuggers[v.proc.PID] {
			continue
		}
		if v.rescuer {
			rescuers = append(rescuers, v)
		}
		if v.test && v.t.Wait.Kind.Blocked() {
			blocked = append(blocked, v)
		}
		if v.test && v.late {
			late = append(late, v)
		}
	}
	if debuggerHolds(views) {
		d.reset("")
		return nil
	}
	rescuers, own := d.nodeOwnWaits(ctx, now, silence, rescuers)
	if len(rescuers) > 0 {
		if v := d.overdue(now, silence, cpu, views); v != nil {
			return v
		}
		d.reset("")
		return nil
	}
	blocked = d.runningTests(blocked)
	// A test that only sleeps, every sleep ending after the hard timeout,
	// cannot finish in time: waiting for the timeout tells nothing more.
	sleeping := len(blocked) == 0 && len(late) > 0
	if sleeping {
		blocked = late
	}
	if len(blocked) == 0 {
		d.reset("")
		return nil
	}
	if r := runnableThreads(views, debuggers); len(r) > 0 {
		// Starved, not blocked: the samples start over once it sleeps.
		d.reset(starvedWarning(r))
		return nil
	}
	kind, quiet := d.blockedKind(blocked)
	if sleeping {
		kind = PastTimeout
	}
	target := d.testProcess(blocked)
	if d.mode != "idle" || d.target != target.ProcKey {
		d.mode, d.since, d.samples, d.target = "idle", now, nil, target.ProcKey
	}
	evidence := describeWaits(blocked)
	if len(late) > 0 && !sleeping {
		evidence += ", " + describeWaits(late)
	}
	evidence += describeOwn(own)
	d.setWarning(fmt.Sprintf("possible %s: no output for %s, %s CPU, %s; confirming", kind, round(silence), pct(cpu), evidence))
	// While a stripped Go binary's copy with symbols links, the threads
	// are sampled; the goroutines are read as soon as it is there.
	sym, linking, symErr := d.goSymbols(ctx, target)
	first := sym != "" && d.symbolsRead != target.ProcKey
	if first || now.Sub(d.lastCapture) >= sampleSpacing(silence)-d.cfg.Tick/2 {
		c := d.cfg.Stacker.Stacks(ctx, target.PID, target.Exe, Opts{Goroutines: true, Symbols: sym})
		if symErr != nil {
			c.Reason = strings.TrimPrefix(c.Reason+"; linking the Go test binary with symbols: "+symErr.Error(), "; ")
		}
		c.at = now
		d.lastCapture = now
		if sym != "" {
			d.symbolsRead = target.ProcKey
		}
		c.busy = blockedTIDs(blocked, target.ProcKey)
		d.markHarness(c, target.ProcKey)
		// The first goroutines after threads compare with nothing: the
		// threads' samples before say nothing moved.
		if len(d.samples) > 0 && !sameStacks(d.samples[len(d.samples)-1], c) && !(first && isGoroutines(c)) {
			d.samples = nil // still changing: start over
			d.since = now
		}
		d.samples = append(d.samples, c)
	}
	if len(d.samples) == 0 {
		return nil // sampled the moment before, for another suspicion
	}
	if linking {
		// The goroutines tell a ticker's poll from a deadlock: no
		// verdict on the threads alone while they can still be read.
		return nil
	}
	if gk, ok := goroutineKind(d.samples[len(d.samples)-1], now.Sub(d.goTicked) <= goTickMemory); ok {
		switch gk {
		case Running:
			if len(late) > 0 {
				// A goroutine sleeps, but the netpoller's next timer
				// fires after the hard timeout: it wakes too late.
				kind, quiet = PastTimeout, d.cfg.QuietIO
				break
			}
			// A goroutine sleeps (time.Sleep): it wakes by itself. Reading
			// goroutines costs gdb a tenth of a second, so a program that
			// polls with short sleeps is not read again for a while.
			if v := d.overdue(now, silence, cpu, views); v != nil {
				return v
			}
			d.reset("")
			d.lastCapture = now.Add(goSleeperPause)
			return nil
		case IO:
			kind, quiet = BlockedIO, d.cfg.QuietIO
		case Child:
			kind, quiet = BlockedChild, d.cfg.QuietLock
		default:
			kind, quiet = Deadlock, d.cfg.QuietLock
		}
	}
	tail, runtime := "", ""
	if kind == Deadlock || kind == BlockedIO {
		// Threads parked by an async runtime lock nothing: the test awaits
		// a future that never completes. The other blocked threads, if
		// any, say what it waits for.
		if rt, parked, rest := asyncParked(d.samples[len(d.samples)-1], blocked); rt != "" {
			kind, quiet, evidence = d.withoutParked(rest, late, sleeping)
			evidence += describeOwn(own)
			if len(rest) == 0 {
				kind, quiet = AsyncWait, d.cfg.QuietLock
				if slices.ContainsFunc(parked, func(v threadView) bool { return v.t.Wait.Kind != Lock }) {
					quiet = d.cfg.QuietIO // its I/O driver: a socket may wait for a slow peer
				}
				evidence = describeParked(rt, parked)
				switch {
				case len(late) > 0 && !sleeping:
					evidence += ", " + describeWaits(late)
				case len(own) == 0:
					evidence += " and no timer pending"
				}
				evidence += describeOwn(own)
				tail, runtime = asyncTail(rt), rt
				if child := d.testsChild(views); child != nil && rt == nodeRuntime {
					kind = BlockedChild
					evidence += ", its child " + describeChild(child) + " started by the test and not exited"
					tail, runtime = ": the test awaits a child process that does not exit", "child"
				}
			} else {
				evidence += ", " + describeParked(rt, parked)
			}
			d.setWarning(fmt.Sprintf("possible %s: no output for %s, %s CPU, %s; confirming", kind, round(silence), pct(cpu), evidence))
		}
	}
	if silence < quiet || len(d.samples) < 2 {
		return nil
	}
	if d.cfg.AfterTests != nil && d.cfg.AfterTests() {
		tail = afterTestsTail(d.samples[len(d.samples)-1], runtime)
	}
	span := d.samples[len(d.samples)-1].At().Sub(d.samples[0].At())
	diag := fmt.Sprintf("%s: no output for %s, %s CPU, %s, %s%s", kind, round(silence), pct(cpu), evidence, stackEvidence(d.samples, span), tail)
	return d.verdict(kind, now, silence, diag, target, blocked)
}

// markHarness remembers the threads of process k that a capture shows
// the test harness started (pyHarnessThreads: pytest-rerunfailures'
// socket server in accept, execnet's reader in an xdist worker): from
// the next sample on their waits are the harness's, as Config.Harness
// says of others, neither blocking the test nor waking it.
func (d *Detector) markHarness(c Capture, k ProcKey) {
	for _, tid := range pyHarnessThreads(c) {
		if h := d.threads[threadKey{k, tid}]; h != nil {
			h.harness = true
		}
	}
}

// runningTests keeps, of the blocked threads, those of the processes that
// run a test (Config.RunsTest), when some do and some do not: a pool's
// idle workers wait on their pipes without a timeout, and beside a test
// awaiting a promise that never settles they read as I/O. When none is
// known to run a test (a hook before a file's first test, a file hanging
// as it loads), every blocked thread stays: the verdict never depends on
// what the parser has yet to say.
func (d *Detector) runningTests(blocked []threadView) []threadView {
	if d.cfg.RunsTest == nil || len(blocked) == 0 {
		return blocked
	}
	runs := map[int]bool{}
	for _, v := range blocked {
		if _, ok := runs[v.proc.PID]; !ok {
			runs[v.proc.PID] = d.cfg.RunsTest(v.proc.PID)
		}
	}
	var kept []threadView
	for _, v := range blocked {
		if runs[v.proc.PID] {
			kept = append(kept, v)
		}
	}
	if len(kept) == 0 {
		return blocked
	}
	return kept
}

// withoutParked judges the blocked threads left once an async runtime's
// parked ones are set aside: the verdict, its silence and its evidence.
func (d *Detector) withoutParked(rest, late []threadView, sleeping bool) (Kind, time.Duration, string) {
	evidence := describeWaits(rest)
	if len(late) > 0 && !sleeping {
		evidence += ", " + describeWaits(late)
	}
	kind, quiet := d.blockedKind(rest)
	return kind, quiet, evidence
}

// blockedKind is what the blocked threads' waits make of a silent run, and
// the silence it takes to say so. A lock waited on without a timeout is a
// deadlock when nothing can free it. A thread of the same process blocked
// in a read, a poll or an accept can: the test joins the worker that reads
// from a slow peer, or waits on its future. There the lock waits as long as
// the read does, the I/O wait's silence. A Go program's threads say
// nothing of that (its netpoller waits in epoll beside every parked
// thread); its goroutines decide.
func (d *Detector) blockedKind(blocked []threadView) (Kind, time.Duration) {
	reading := map[ProcKey]bool{}
	for _, v := range blocked {
		if v.t.Wait.Kind == IO && !IsGoBinary(v.proc.Exe) {
			reading[v.proc.ProcKey] = true
		}
	}
	child := false
	for _, v := range blocked {
		switch {
		case v.t.Wait.Kind == Lock && !reading[v.proc.ProcKey]:
			return Deadlock, d.cfg.QuietLock
		case v.t.Wait.Kind == Child:
			child = true
		}
	}
	if child {
		return BlockedChild, d.cfg.QuietLock
	}
	return BlockedIO, d.cfg.QuietIO
}

// busyThreads are the threads that burn CPU: each at busyThreadCPU of a
// core, or, in a process whose threads together reach it, each above
// idleCPU. A Go goroutine moves between threads, so when other processes
// compete for the cores, its loop is spread over threads none of which
// reaches the share alone. A thread above idleCPU that is on a CPU or
// waits for one (state R) is busy too, whatever its share: a loop on a
// machine whose cores eight other processes want gets a quarter of one
// (a Go loop among other engineers' test runs had 20 to 30 % and was
// never judged, its samples started over at each step below the share).
func busyThreads(views []threadView) []threadView {
	perProc := map[ProcKey]float64{}
	for _, v := range views {
		perProc[v.proc.ProcKey] += v.cpu
	}
	var busy []threadView
	for _, v := range views {
		if v.cpu >= busyThreadCPU || v.cpu > idleCPU && (perProc[v.proc.ProcKey] >= busyThreadCPU || v.t.State == 'R') {
			busy = append(busy, v)
		}
	}
	return busy
}

// judgeBusy: some threads burn CPU with no output. An endless loop when
// their stacks stay the same across samples; changing stacks are work.
func (d *Detector) judgeBusy(ctx context.Context, now time.Time, silence time.Duration, cpu float64, busy []threadView) *Verdict {
	// The busiest first, and of those a thread on a CPU now: a goroutine
	// that moved to another thread leaves the old one busy in the last
	// interval but idle now.
	sort.Slice(busy, func(i, j int) bool {
		if ri, rj := busy[i].t.State == 'R', busy[j].t.State == 'R'; ri != rj {
			return ri
		}
		return busy[i].cpu > busy[j].cpu
	})
	target := *busy[0].proc
	var tids []int
	for _, v := range busy {
		if v.proc.ProcKey == target.ProcKey {
			tids = append(tids, v.t.TID)
		}
	}
	sort.Ints(tids)
	if d.mode != "busy" || d.target != target.ProcKey {
		d.mode, d.since, d.samples, d.target = "busy", now, nil, target.ProcKey
		d.faults = target.MinFlt
	}
	spacing := sampleSpacing(silence)
	if spacing == sampleEvery {
		spacing = loopEvery // plain eu-stack costs 2 ms: sample closely while a verdict is due
	}
	if d.loopInUnnamed() {
		spacing /= 2 // loopSamplesUnnamed over the same time
	}
	if now.Sub(d.lastCapture) >= spacing-d.Interval()/2 { // ticks jitter
		c := d.cfg.Stacker.Stacks(ctx, target.PID, target.Exe, Opts{Native: true})
		c.at = now
		d.lastCapture = now
		// Every busy thread: a goroutine moves between threads (more so
		// when other processes compete for the CPU), so the busiest one of
		// the last interval may be back in the scheduler by now.
		c.busy = tids
		golang := IsGoBinary(target.Exe)
		c.keys = busyStacks(c, golang) // once: the next sample compares with them
		switch {
		case len(c.keys) == 0:
			// Only scheduler frames: the sample caught the loop between
			// threads. No evidence either way; the next one will tell.
		case golang && len(d.samples) > 0 && lostCaller(d.samples[len(d.samples)-1].keys, c.keys):
			// A frame lost under the standard library's: the same.
		case len(d.samples) > 0 && !slices.Equal(d.samples[len(d.samples)-1].keys, c.keys):
			d.samples = []Capture{c}
			d.since, d.faults = now, target.MinFlt
		default:
			d.samples = append(d.samples, c)
		}
	}
	if v := d.overdueBusy(now, silence, cpu, target, busy); v != nil {
		return v
	}
	who := threadNames(busy)
	if len(d.samples) > 0 && IsPythonProcess(target.PID, target.Exe) && !IsPythonCapture(d.samples[len(d.samples)-1]) {
		// CPython's own frames are the same for a loop and for honest
		// work (3.11 runs Python calls inside one _PyEval_EvalFrameDefault):
		// only the Python frames tell. Without them the hard timeout decides.
		d.setWarning(fmt.Sprintf("possible endless loop: no output for %s, %s CPU in %s; no verdict without Python frames (%s)", round(silence), pct(cpu), who, d.samples[len(d.samples)-1].Reason))
		return nil
	}
	d.setWarning(fmt.Sprintf("possible endless loop: no output for %s, %s CPU in %s, %d identical stack samples so far; confirming", round(silence), pct(cpu), who, len(d.samples)))
	need := loopSamples
	if d.loopInUnnamed() {
		need = loopSamplesUnnamed
	}
	if silence < d.cfg.QuietLoop || len(d.samples) < need {
		return nil
	}
	if test, took, until := d.knownSlow(now); test != "" {
		d.setWarning(fmt.Sprintf("possible endless loop: no output for %s, %s CPU in %s, the same stacks in %d samples; %s passed in %s last time: no verdict for %s more",
			round(silence), pct(cpu), who, len(d.samples), test, round(took), round(until.Sub(now))))
		return nil
	}
	span := d.samples[len(d.samples)-1].At().Sub(d.samples[0].At())
	evidence := stackEvidence(d.samples, span)
	if grew := d.grown(target); grew >= growingBytes {
		// The same stacks, and fresh memory filled all along: a long
		// copy or encode of a big buffer (one JIT-compiled Java method
		// looks the same in every sample), not a spin.
		if quiet := growingQuiet * d.cfg.QuietWork; silence < quiet {
			d.setWarning(fmt.Sprintf("possible endless loop, or long work filling memory: no output for %s, %s CPU in %s, the same stacks in %d samples while its memory grew by %d MiB; no verdict before %s of silence",
				round(silence), pct(cpu), who, len(d.samples), grew>>20, round(quiet)))
			return nil
		}
		evidence += fmt.Sprintf(" (its memory grew by %d MiB meanwhile: work that fills memory looks the same, until it ends)", grew>>20)
	}
	if spread := loopSpread(d.samples); spread >= workSpread {
		if silence < d.cfg.QuietWork {
			d.setWarning(fmt.Sprintf("possible endless loop, or long work in one function: no output for %s, %s CPU in %s, the same stacks in %d samples over %d different instructions; no verdict before %s of silence",
				round(silence), pct(cpu), who, len(d.samples), spread, round(d.cfg.QuietWork)))
			return nil
		}
		evidence += fmt.Sprintf(" (over %d different instructions: honest work in one function looks the same, until it ends)", spread)
	}
	diag := fmt.Sprintf("endless loop: no output for %s, %s CPU in %s, %s", round(silence), pct(cpu), who, evidence)
	return d.verdict(EndlessLoop, now, silence, diag, target, busy)
}

// growingBytes is what a busy process's memory must grow by while its
// stacks stay the same for the loop to be taken for work that fills
// memory; growingQuiet times QuietWork is the silence before such work is
// called an endless loop all the same.
const (
	growingBytes = 32 << 20
	growingQuiet = 3
)

// grown is how many bytes the target touched for the first time since the
// current samples began (its minor faults, as pages).
func (d *Detector) grown(target ProcSample) uint64 {
	if target.MinFlt <= d.faults {
		return 0
	}
	return (target.MinFlt - d.faults) * uint64(os.Getpagesize())
}

// knownSlow names a running test that passed before in a time it has not
// yet run twice over (plus QuietLoop): honest work in one tight loop (a
// prime count) looks like a spin, and only the time it took before tells.
// A group running whose tests the parser names only once it ends (Unit)
// is held so too.
// It gives the test, what it took, and when a verdict may come.
func (d *Detector) knownSlow(now time.Time) (string, time.Duration, time.Time) {
	for _, t := range d.cfg.Running() {
		if d.cfg.Took == nil {
			break
		}
		if took := d.cfg.Took(t.Name); took > 0 {
			if until := t.Since.Add(2*took + d.cfg.QuietLoop); now.Before(until) {
				return t.Name, took, until
			}
		}
	}
	if d.cfg.Unit != nil {
		if name, since, took := d.cfg.Unit(); name != "" && took > 0 {
			if until := since.Add(2*took + d.cfg.QuietLoop); now.Before(until) {
				return name, took, until
			}
		}
	}
	return "", 0, time.Time{}
}

func (d *Detector) verdict(kind Kind, now time.Time, silence time.Duration, diag string, target ProcSample, threads []threadView) *Verdict {
	v := &Verdict{Kind: kind, At: now, Diagnosis: diag, Silence: silence, Tests: d.cfg.Running(),
		Process: target, Stacks: d.samples[len(d.samples)-1]}
	for _, t := range threads {
		if !slices.Contains(v.Threads, t.t.Name) {
			v.Threads = append(v.Threads, t.t.Name)
		}
	}
	d.setWarning("")
	return v
}

// OverdueFactor: an idle test is overdue once it has run this many times
// what it took when it last passed (and Config.Overdue).
const OverdueFactor = 10

// NewOverdueFactor: a test not seen to pass in the project's last runs is
// overdue once it has run this many times Config.Overdue (a minute under
// the default timeout), and OverdueFactor times the slowest test of those
// runs (Config.Slowest).
const NewOverdueFactor = 3

// overdue judges an idle, silent tree that something may still wake: when
// every running test passed before in a known time (Took) and has now run
// OverdueFactor times that, and at least Config.Overdue, they are stuck
// waiting for something that does not come. Nil otherwise.
func (d *Detector) overdue(now time.Time, silence time.Duration, cpu float64, views []threadView) *Verdict {
	late, evidence := d.lateTests(now, silence)
	var target *ProcSample
	for _, v := range views {
		if v.test && !v.harness {
			target = v.proc
			break
		}
	}
	if len(late) == 0 || target == nil {
		return nil
	}
	diag := fmt.Sprintf("%s: no output for %s, %s CPU, only timers wake it (a ticker, a poll, an event loop's timer): %s",
		Overdue, round(silence), pct(cpu), strings.Join(evidence, "; "))
	v := &Verdict{Kind: Overdue, At: now, Diagnosis: diag, Silence: silence, Tests: late, Process: *target}
	if len(d.samples) > 0 {
		v.Stacks = d.samples[len(d.samples)-1]
	}
	d.setWarning("")
	return v
}

// afterEnd is the verdict on a process that stays, silent and idle, for
// Config.AfterEnd after its framework reported the end of its run, or
// AfterEndUnreported times that after its tests when the framework
// lingers and reports no end; nil before. The runner captures its
// stacks.
func (d *Detector) afterEnd(now time.Time, silence time.Duration, cpu float64, views []threadView) *Verdict {
	if d.cfg.AfterEnd == 0 || silence < d.cfg.AfterEnd || len(views) == 0 {
		return nil
	}
	switch {
	case d.cfg.Ended != nil && d.cfg.Ended():
	case d.cfg.Lingers && d.cfg.AfterTests != nil && d.cfg.AfterTests():
		if silence < AfterEndUnreported*d.cfg.AfterEnd {
			return nil
		}
	default:
		return nil
	}
	target := views[0].proc
	for _, v := range views {
		if v.test && !v.harness {
			target = v.proc
			break
		}
	}
	diag := fmt.Sprintf("%s: no output for %s, %s CPU, only timers or what it waits for keep it (an interval, a poll, a server, a thread)",
		AfterEnd, round(silence), pct(cpu))
	v := &Verdict{Kind: AfterEnd, At: now, Diagnosis: diag, Silence: silence, Process: *target}
	if len(d.samples) > 0 && d.samples[len(d.samples)-1].PID == target.PID {
		v.Stacks = d.samples[len(d.samples)-1]
	}
	d.setWarning("")
	return v
}

// lateTests returns the running tests when every one of them passed before
// in a known time (Took) and has now run OverdueFactor times that, and at
// least Config.Overdue, with the output silent for half of Config.Overdue;
// nil otherwise, and always under a timeout of the user's (Overdue unset).
// A test not seen to pass in the project's last runs (an agent's new test,
// one that failed) is measured against the slowest test of those runs
// (Slowest), and waits longer: NewOverdueFactor times Overdue. Before, only
// the hard timeout, ten minutes by default, ended a new test's loop
// through real code. Every running test must be late: one not yet late
// may be the one that waits or works, slowly and rightly (a Go test
// paused for t.Parallel "runs" while a serial one works), and with no
// earlier run known there is no measure.
func (d *Detector) lateTests(now time.Time, silence time.Duration) ([]RunningTest, []string) {
	if d.cfg.Overdue <= 0 || d.cfg.Took == nil || silence < d.cfg.Overdue/2 {
		return nil, nil
	}
	var late []RunningTest
	var evidence []string
	slowest := time.Duration(-1) // not asked yet
	for _, t := range d.cfg.Running() {
		took := d.cfg.Took(t.Name)
		ran := now.Sub(t.Since)
		if took > 0 {
			if ran < max(d.cfg.Overdue, OverdueFactor*took) {
				return nil, nil
			}
			late = append(late, t)
			evidence = append(evidence, fmt.Sprintf("%s took %s when it last passed and has run %s", t.Name, shortDuration(took), round(ran)))
			continue
		}
		if slowest < 0 {
			slowest = 0
			if d.cfg.Slowest != nil {
				slowest = d.cfg.Slowest()
			}
		}
		if slowest <= 0 || ran < max(NewOverdueFactor*d.cfg.Overdue, OverdueFactor*slowest) {
			return nil, nil
		}
		late = append(late, t)
		evidence = append(evidence, fmt.Sprintf("%s has not passed in the project's last runs, whose slowest test took %s, and has run %s", t.Name, shortDuration(slowest), round(ran)))
	}
	return late, evidence
}

// overdueBusy judges a silent tree whose busy threads' stacks keep
// changing, which reads as work: when every running test is far past its
// usual time (lateTests), the work has gone on too long, a loop through
// real code or work grown far slower, and either way the run is stopped
// with the stacks that show where it was. Nil otherwise.
func (d *Detector) overdueBusy(now time.Time, silence time.Duration, cpu float64, target ProcSample, busy []threadView) *Verdict {
	late, evidence := d.lateTests(now, silence)
	if len(late) == 0 || len(d.samples) == 0 {
		return nil
	}
	// It comes first when the stacks change; with the same stacks, only
	// when no endless loop could be confirmed in 20 s (no Python frames).
	stacks := "its stacks changing (work, or a loop through real code)"
	if n := len(d.samples); n > 1 {
		stacks = fmt.Sprintf("the same stacks in %d samples", n)
	}
	diag := fmt.Sprintf("%s: no output for %s, %s CPU in %s, %s: %s",
		OverdueBusy, round(silence), pct(cpu), threadNames(busy), stacks, strings.Join(evidence, "; "))
	return d.verdict(OverdueBusy, now, silence, diag, target, busy)
}

// shortDuration rounds d to what a reader needs: milliseconds under a
// second, tenths of a second above.
func shortDuration(d time.Duration) time.Duration {
	if d < time.Second {
		return d.Round(time.Millisecond)
	}
	return round(d)
}

// CaptureNow samples the tree and captures the stacks of its test process
// (the first found), for a run stopped without a verdict (hard timeout).
func (d *Detector) CaptureNow(ctx context.Context) (ProcSample, Capture, bool) {
	snap, err := d.cfg.View.Sample(d.cfg.Root)
	if err != nil || len(snap.Procs) == 0 {
		// No process view (not Linux): the root is all there is to capture.
		p := ProcSample{ProcKey: ProcKey{PID: d.cfg.Root}}
		c := d.cfg.Stacker.Stacks(ctx, d.cfg.Root, "", Opts{Lines: true})
		return p, c, len(c.Stacks) > 0
	}
	pick := snap.Procs[0]
	for _, p := range snap.Procs {
		if d.isTestProcess(p) {
			pick = p
			break
		}
	}
	opt := Opts{Goroutines: true, Lines: true, Symbols: d.readySymbols(pick)}
	return pick, d.cfg.Stacker.Stacks(ctx, pick.PID, pick.Exe, opt), true
}

// testProcess picks the process to sample among the blocked threads'.
func (d *Detector) testProcess(blocked []threadView) ProcSample {
	for _, v := range blocked {
		if v.t.Wait.Kind == Lock {
			return *v.proc
		}
	}
	return *blocked[0].proc
}

// goroutineKind reads a goroutine capture: what the program's own
// goroutines wait for. Running means one sleeps (time.Sleep) and will wake;
// ok is false when the capture holds no goroutines.
//
// With ticking timers in the program, a test goroutine waiting in a select
// or a channel receive may be polling a ticker (testify's Eventually):
// it counts as one that wakes. Goroutines of a test deadlocked among
// themselves beside a ticker still count (their test waits on a lock or a
// WaitGroup); a test blocked on a bare channel beside a ticker is left to
// the hard timeout.
func goroutineKind(c Capture, ticking bool) (WaitKind, bool) {
	if c.Tool != "gdb+runtime-gdb.py" && c.Tool != "go-sigquit" {
		return 0, false
	}
	kind := Lock
	for _, s := range c.Stacks {
		// (A goroutine in testing.(*T).Run waits for its subtest, or is
		// the main one waiting for a test: the harness.)
		if ticking && hasFrame(s, "testing.tRunner") && !hasFrame(s, "testing.(*T).Run") && (hasFrame(s, "runtime.selectgo") || hasFrame(s, "runtime.chanrecv") ||
			hasFrame(s, "runtime.chanrecv1") || hasFrame(s, "runtime.chanrecv2")) {
			return Running, true
		}
		user := false
		for _, f := range s.Frames {
			if !strings.HasPrefix(f.Func, "runtime.") && !strings.HasPrefix(f.Func, "internal/") &&
				!strings.HasPrefix(f.Func, "testing.") && !strings.HasPrefix(f.Func, "sync.") {
				user = true
			}
		}
		if !user {
			continue
		}
		for _, f := range s.Frames {
			switch {
			case f.Func == "time.Sleep" || f.Func == "runtime.timeSleep":
				return Running, true
			case strings.HasPrefix(f.Func, "internal/poll.") || strings.HasPrefix(f.Func, "net."):
				kind = IO
			case strings.HasPrefix(f.Func, "os.(*Process).Wait") || strings.HasPrefix(f.Func, "os/exec.(*Cmd).Wait"):
				if kind != IO {
					kind = Child
				}
			}
		}
	}
	return kind, true
}

func hasFrame(s Stack, fn string) bool {
	for _, f := range s.Frames {
		if f.Func == fn {
			return true
		}
	}
	return false
}

// goTicking says whether a Go program's timers keep firing: its
// netpoller comes back to short timed waits.
//
// One sample may miss it: the thread the timer woke is running the
// goroutine, or parks in futex while another takes the netpoller over,
// and every thread shows a wait without timeout (a test polling a 10 ms
// ticker, under load, was called a deadlock). A ticker seen within
// goTickMemory still ticks.
func goTicking(views []threadView) bool {
	for _, v := range views {
		w := v.t.Wait
		if IsGoBinary(v.proc.Exe) && !launchers[v.proc.Name] && w.Kind == Timed && strings.HasPrefix(w.Call, "epoll") &&
			(v.ticking || w.Known && w.Timeout < goShortTimer) {
			return true
		}
	}
	return false
}

// NodeInspectorTool names captures of JavaScript frames read through a
// node process's inspector.
const NodeInspectorTool = "node-inspector"

// isGoroutines says whether a capture holds goroutines, not threads.
func isGoroutines(c Capture) bool { return c.Tool == "gdb+runtime-gdb.py" || c.Tool == "go-sigquit" }

// At is when the capture was taken (by the detector's clock).
func (c Capture) At() time.Time { return c.at }

// sameStacks compares two samples by function names: the stacks of the
// threads each sample marks (the blocked ones, or the busiest), as a set,
// or every stack when none are marked. A goroutine capture compares the
// goroutines that wait. Lines move inside a loop; functions do not.
func sameStacks(a, b Capture) bool {
	if len(a.Stacks) == 0 || len(b.Stacks) == 0 {
		return len(a.Stacks) == len(b.Stacks)
	}
	ka, kb := stackSet(a), stackSet(b)
	return len(ka) > 0 && slices.Equal(ka, kb)
}

// busyStacks is stackSet without the stacks that are only the Go
// runtime's (a thread parked in the scheduler): what busy threads run of
// the program itself. Any other stack stays, even one that trims to
// nothing, so that a native thread's poor sample still breaks a run of
// identical ones.
//
// In a Go program (golang), the standard library's frames at the top are
// left out too: a loop's calls into it (strings.TrimSpace, bytes.IndexByte)
// come and go there, as core's and std's do in Rust, and the loop is the
// program's frame that makes them. Only the comparison leaves them out:
// loopSpread still counts the instructions they were caught in. Two
// threads caught in the same stack (a goroutine that moved between them
// while the sample was taken) are one.
func busyStacks(c Capture, golang bool) []string {
	scheduler := func(s Stack) bool {
		return len(s.Frames) > 0 && !slices.ContainsFunc(s.Frames, func(f Frame) bool { return !strings.HasPrefix(f.Func, "runtime.") })
	}
	kept := c
	kept.Stacks = slices.DeleteFunc(slices.Clone(c.Stacks), scheduler)
	if len(kept.Stacks) == 0 {
		return nil
	}
	set := stackSet(kept)
	if !golang {
		return set
	}
	for i, k := range set {
		fs := strings.Split(k, "\n")
		for len(fs) > 1 && goStdFunc(fs[0]) {
			fs = fs[1:]
		}
		set[i] = strings.Join(fs, "\n")
	}
	sort.Strings(set)
	return slices.Compact(set)
}

// lostCaller says whether a Go sample's busy stacks are the previous
// one's, less the frames just below the standard library's that the
// sample was caught in: an unwinder that stops a Go program in a function
// that has not yet set up its frame skips its caller (walk's loop caught
// in strings.TrimSpace read TrimSpace, then the test, without walk). Such
// a sample tells nothing either way.
func lostCaller(prev, cur []string) bool {
	if len(prev) != len(cur) {
		return false
	}
	for i := range cur {
		if !strings.HasSuffix(prev[i], "\n"+cur[i]) {
			return false
		}
	}
	return true
}

// unnamedTop says whether some of a sample's busy stacks (busyStacks'
// keys) starts in a frame no symbol names: the samples of such a run are
// the same whatever that code is.
func unnamedTop(keys []string) bool {
	return slices.ContainsFunc(keys, func(k string) bool { return k == "??" || strings.HasPrefix(k, "??\n") })
}

var libraryLeaf = lazyre.New(`^(<?(core|std|alloc)::|__|mem(cpy|move|set|cmp)|str(len|cmp)|runtime\.|internal/)`)

func stackSet(c Capture) []string {
	python := IsPythonCapture(c)
	var set []string
	for _, s := range c.Stacks {
		frames, ok := compared(c, s, python)
		if !ok {
			continue
		}
		var fs []string
		for _, f := range frames {
			if strings.HasPrefix(f.Func, "runtime.") {
				continue // preemption and scheduler frames come and go
			}
			fs = append(fs, f.Func)
		}
		set = append(set, strings.Join(fs, "\n"))
	}
	if python && len(c.native) > 0 {
		// The interpreter's own frames, beside the Python ones: see
		// Opts.Native.
		set = append(set, stackSet(Capture{Tool: "eu-stack", Stacks: c.native, busy: c.busy})...)
	}
	sort.Strings(set)
	return set
}

// goStdRoots are the first elements of the Go standard library's package
// paths.
var goStdRoots = map[string]bool{
	"archive": true, "bufio": true, "bytes": true, "cmp": true, "compress": true, "container": true,
	"context": true, "crypto": true, "database": true, "debug": true, "embed": true, "encoding": true,
	"errors": true, "expvar": true, "flag": true, "fmt": true, "go": true, "hash": true, "html": true,
	"image": true, "index": true, "internal": true, "io": true, "iter": true, "log": true, "maps": true,
	"math": true, "mime": true, "net": true, "os": true, "path": true, "reflect": true, "regexp": true,
	"runtime": true, "slices": true, "sort": true, "strconv": true, "strings": true, "sync": true,
	"syscall": true, "text": true, "time": true, "unicode": true, "unique": true, "unsafe": true,
	"vendor": true, "weak": true,
}

// goStdFunc says whether fn, a Go program's function, is the standard
// library's: its package path starts with one of goStdRoots (a module's
// path starts with a domain, or is the project's own name).
func goStdFunc(fn string) bool {
	if i := strings.LastIndexByte(fn, '/'); i >= 0 {
		fn = fn[:i] // the path's first elements
	} else if i := strings.IndexByte(fn, '.'); i >= 0 {
		fn = fn[:i] // the package's name
	}
	if i := strings.IndexByte(fn, '/'); i >= 0 {
		fn = fn[:i]
	}
	return goStdRoots[fn]
}

// compared is a stack of c as the loop comparison reads it, and whether it
// is one of the busy ones compared: a goroutine not on a thread now, or a
// thread that was not busy, is not. Its harness frames are trimmed, and
// the library helpers a loop calls (black_box in a debug build, a memcpy),
// which come and go at the top: it starts at the first frame of the
// program's own.
func compared(c Capture, s Stack, python bool) ([]Frame, bool) {
	if c.Tool == "gdb+runtime-gdb.py" || c.Tool == "go-sigquit" {
		if strings.Contains(s.Name, "[running]") || strings.Contains(s.Name, "[runnable]") {
			return nil, false
		}
	} else if c.busy != nil && !slices.Contains(c.busy, s.TID) && !(python && s.TID == 0) {
		// (faulthandler names threads by their pthread id, not their
		// tid: its stacks are all compared.)
		return nil, false
	}
	frames := trim(s.Frames)
	for len(frames) > 1 && libraryLeaf.MatchString(frames[0].Func) {
		frames = frames[1:]
	}
	if len(frames) > 0 && frames[0].Func == v8BlockCounter {
		// The JIT code whose counter it is, which the unwinder skips:
		// the same place as a sample in that code.
		frames = slices.Clone(frames)
		frames[0] = Frame{Func: "??"}
	}
	return frames, true
}

// v8BlockCounter is V8's builtin that counts a block's runs for precise
// coverage (vitest --coverage, jest's coverageProvider "v8", c8): under
// coverage a JavaScript loop calls it on every turn, and a sample caught in
// it has the loop's own frame, JIT code no symbol names, unwound past. It
// is that frame: an endless loop read as changing stacks and was never
// called (found on unjs/pathe, whose test script runs vitest --coverage).
const v8BlockCounter = "Builtins_IncBlockCounter"

// loopSpread counts the different places the samples' busy stacks are
// in: the innermost frame compared (as stackSet trims them), by its
// address, else its file and line. Frames with neither count for nothing,
// so a capture without them reads as a spin, as before there was a rule,
// and so does code no symbol names.
func loopSpread(samples []Capture) int {
	places := map[string]bool{}
	for _, c := range samples {
		python := IsPythonCapture(c)
		for _, s := range c.Stacks { // a Python capture's: its lines, not the interpreter's
			frames, ok := compared(c, s, python)
			if !ok {
				continue
			}
			for _, f := range frames {
				if strings.HasPrefix(f.Func, "runtime.") {
					continue
				}
				switch {
				case f.Func == "??":
					// JIT code (V8's, the JVM's) moves whatever it runs.
				case f.pc != 0:
					places[fmt.Sprintf("%s %#x", f.Func, f.pc)] = true
				case f.Line > 0:
					places[fmt.Sprintf("%s %s:%d", f.Func, f.File, f.Line)] = true
				}
				break
			}
		}
	}
	return len(places)
}

func describeWaits(blocked []threadView) string {
	type key struct{ call, kind string }
	count := map[key]int{}
	var order []key
	for _, v := range blocked {
		k := key{v.t.Wait.Call, v.t.Wait.Kind.String()}
		if k.call == "" {
			k.call = "state " + string(v.t.State)
		}
		if count[k] == 0 {
			order = append(order, k)
		}
		count[k]++
	}
	var parts []string
	for _, k := range order {
		noun := "thread"
		if count[k] > 1 {
			noun = "threads"
		}
		if k.kind == Timed.String() {
			parts = append(parts, fmt.Sprintf("%d %s in %s whose timeout ends after the run's", count[k], noun, k.call))
			continue
		}
		parts = append(parts, fmt.Sprintf("%d %s blocked in %s with no timeout (%s)", count[k], noun, k.call, k.kind))
	}
	return strings.Join(parts, ", ")
}

func threadNames(vs []threadView) string {
	var names []string
	for i, v := range vs {
		if i == 3 {
			names = append(names, fmt.Sprintf("%d more", len(vs)-3))
			break
		}
		names = append(names, fmt.Sprintf("thread %s (%d)", v.t.Name, v.t.TID))
	}
	return strings.Join(names, ", ")
}

func stackEvidence(samples []Capture, span time.Duration) string {
	if len(samples[len(samples)-1].Stacks) == 0 {
		return fmt.Sprintf("%d samples over %s (no stacks: %s)", len(samples), round(span), samples[len(samples)-1].Reason)
	}
	return fmt.Sprintf("identical stacks in %d samples over %s", len(samples), round(span))
}

func round(d time.Duration) time.Duration { return d.Round(100 * time.Millisecond) }

func pct(cores float64) string { return fmt.Sprintf("%.0f%%", cores*100) }
