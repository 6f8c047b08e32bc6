package runner

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"strobe/adapters"
	"strobe/details"
	"strobe/history"
	"strobe/report"
	"strobe/stuck"
	"strobe/stuck/nodeinspect"
)

// goDumpWait bounds how long a Go test process gets to print its goroutine
// dump after SIGQUIT.
const goDumpWait = 3 * time.Second

// watch is the stuck detector's side of a run.
type watch struct {
	det        *stuck.Detector
	lastOutput atomic.Int64 // unix nanoseconds of the last output line
	deadline   atomic.Int64 // unix nanoseconds of the hard timeout's end, 0 before testing
	verdict    *stuck.Verdict
	final      stuck.Capture // the stacks reported with the verdict
	ownThreads []report.Thread
	ownTests   []string // the tests the adapter's own capture shows running
	ownReason  string
	goDump     bool // the stacks are to be read from a Go SIGQUIT dump in the output
	// running are the tests running when strobe stopped the run: a Go
	// test that prints its dump on SIGQUIT ends before the kill.
	running   []string
	onTimeout []report.StuckTest
	symbols   *symbolLinks // nil when the adapter links no copies with symbols
	// stacker captures stacks: a Python process's Python frames, native
	// stacks for the rest.
	stacker  stuck.Stacker
	finalPID int          // the process whose stacks are reported
	finalExe string       // and its executable
	node     *nodeCapture // the JavaScript stacks, when the run has node processes
	// inspected says strobe opened a node process's inspector: node's
	// lines about it are strobe's doing, not the tests' output.
	inspected atomic.Bool
}

// newWatch sets up the detector beside a run whose process is pid.
func (r *Run) newWatch(pid int) *watch {
	w := &watch{stacker: stuck.UntracedStacker(stuck.PythonStacker(r.stacksDir, r.req.ProjectRoot, stuck.NativeStacker()))}
	w.lastOutput.Store(time.Now().UnixNano())
	cfg := stuck.Config{
		Root: pid,
		// An event the parser read (a test's start or end) is output
		// too: a reporter that writes its events to a file leaves the
		// command's own output silent however fast its tests pass, and
		// vitest's workers, judged idle in a gap between two of 64,000
		// quick tests on a loaded machine, were asked for their timers
		// through node's inspector (a run of 9 s took 46).
		LastOutput: func() time.Time {
			out := time.Unix(0, w.lastOutput.Load())
			if ev := r.rec.LastEvent(); ev.After(out) {
				return ev
			}
			return out
		},
		Running: func() []stuck.RunningTest {
			var out []stuck.RunningTest
			for _, t := range r.rec.Progress().Running {
				out = append(out, stuck.RunningTest{Name: t.Name, Since: t.Since})
			}
			return out
		},
		Judging:    func() bool { return r.rec.Progress().Phase == adapters.PhaseRunning },
		AfterTests: func() bool { return r.rec.Progress().AfterTests() },
		Ended:      func() bool { return r.rec.Progress().Ended },
		Deadline: func() time.Time {
			if ns := w.deadline.Load(); ns != 0 {
				return time.Unix(0, ns)
			}
			return time.Time{}
		},
		Stacker:   w.stacker,
		NodeTimer: w.nodeTimer,
	}
	var tookGroup func(string) time.Duration
	cfg.Took, tookGroup, cfg.Slowest = r.pastDurations()
	if u, ok := r.unitRunner(); ok {
		cfg.Unit = func() (string, time.Time, time.Duration) {
			name, prefix, since := u.RunningUnit()
			if name == "" {
				return "", time.Time{}, 0
			}
			return name, since, tookGroup(prefix)
		}
	}
	if r.req.Timeout == 0 {
		// A timeout the user chose says how long a slow test may wait.
		cfg.Overdue = r.defaultWait(stuck.DefaultOverdue)
		cfg.AfterEnd = r.defaultWait(stuck.DefaultAfterEnd)
		_, cfg.Lingers = r.adapter.(adapters.ExitAdvisor)
	}
	if tp, ok := r.adapter.(adapters.TestProcesser); ok {
		cfg.TestProcess = func(p stuck.ProcSample) bool { return tp.IsTestProcess(procOf(p)) }
		if r.plan != nil && r.plan.TestProcessBeginsTests {
			cfg.TestsBegin = r.rec.BeginTesting
		}
	}
	if r.plan != nil {
		if tr, ok := adapters.ParserAs[adapters.TestRunner](r.plan.Parser); ok {
			cfg.RunsTest = tr.RunsTest
		}
	}
	if h, ok := r.adapter.(adapters.Harnesser); ok {
		cfg.Harness = func(p stuck.ProcSample, t stuck.ThreadSample) bool {
			return h.IsHarnessThread(procOf(p), t.TID, t.Name)
		}
	}
	if l, ok := r.adapter.(adapters.SymbolLinker); ok {
		w.symbols = &symbolLinks{linker: l, run: r}
		cfg.GoSymbols = w.symbols.link
	}
	if dr, ok := r.adapter.(adapters.DeadlockReporter); ok {
		cfg.RuntimeDeadlock = func(ctx context.Context, p stuck.ProcSample) (string, []string) {
			return dr.RuntimeDeadlock(ctx, procOf(p))
		}
	}
	w.det = stuck.New(cfg)
	return w
}

// nodeTimer asks a node process's inspector when its soonest JavaScript
// timer fires (stuck.Config.NodeTimer).
func (w *watch) nodeTimer(ctx context.Context, p stuck.ProcSample) (time.Duration, bool, error) {
	if !nodeinspect.IsNode(p.Exe, p.Name) {
		return 0, false, errNotNode
	}
	w.inspected.Store(true)
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	in, ok, err := nodeinspect.NextTimer(ctx, p.PID)
	if errors.Is(err, nodeinspect.ErrYoung) {
		err = fmt.Errorf("%w: %w", stuck.ErrAskLater, err)
	}
	return in, ok, err
}

var errNotNode = errors.New("not a node process")

// unitRunner is the run's parser, when it names the group of tests
// running rather than the tests (adapters.UnitRunner).
func (r *Run) unitRunner() (adapters.UnitRunner, bool) {
	if r.plan == nil {
		return nil, false
	}
	return adapters.ParserAs[adapters.UnitRunner](r.plan.Parser)
}

// pastRuns bounds the earlier runs whose details files pastDurations reads.
const pastRuns = 3

// pastDurations says how long each test took when it last passed, from the
// details files of the project's newest earlier runs of the same framework
// (the history names them; another framework names other tests: ctest
// a Catch2 binary, catch2 its test cases), read once, the first time the detector asks: only a run that
// looks like an endless loop pays for it. A test recorded as 0 ms took
// under a millisecond: it counts as one, a time known (0 is "never seen
// to pass"), or the quickest tests, most of them, would never be late.
// group says what the tests whose names begin with a prefix took
// together (a Maven class's: adapters.UnitRunner); slowest the longest any
// test of those runs took, passed or failed (stuck.Config.Slowest), 0 when
// none of them ran a test.
func (r *Run) pastDurations() (test func(string) time.Duration, group func(prefix string) time.Duration, slowest func() time.Duration) {
	var once sync.Once
	took := map[string]time.Duration{}
	var longest time.Duration // of any test passed or failed in the runs read
	read := func() {
		once.Do(func() {
			if r.opts.HistoryDir == "" {
				return
			}
			runs, err := history.Open(r.opts.HistoryDir).Runs(r.req.ProjectRoot)
			if err != nil {
				return
			}
			dir := r.detailsDir()
			read := 0
			for _, e := range runs { // the newest first
				if read == pastRuns {
					break
				}
				if e.Key.Framework != r.adapter.Name() {
					continue
				}
				past, slow, err := details.PassedDurations(details.Path(dir, e.RunID))
				if err != nil {
					continue
				}
				read++
				if len(past) > 0 || slow > 0 { // a run with tests: a measure
					longest = max(longest, slow, time.Millisecond)
				}
				for name, d := range past {
					if _, ok := took[name]; !ok {
						took[name] = max(d, time.Millisecond)
					}
				}
			}
		})
	}
	test = func(name string) time.Duration {
		read()
		return took[name]
	}
	// The detector asks for the same group at each sample of a loop: the
	// sum over every past test is made once a group.
	var mu sync.Mutex
	sums := map[string]time.Duration{}
	group = func(prefix string) time.Duration {
		read()
		mu.Lock()
		defer mu.Unlock()
		sum, ok := sums[prefix]
		if !ok {
			for name, d := range took {
				if strings.HasPrefix(name, prefix) {
					sum += d
				}
			}
			sums[prefix] = sum
		}
		return sum
	}
	slowest = func() time.Duration {
		read()
		return longest
	}
	return test, group, slowest
}

func procOf(p stuck.ProcSample) adapters.Proc {
	return adapters.Proc{PID: p.PID, Name: p.Name, Exe: p.Exe, Args: p.Args}
}

// capture takes the stacks to report for the process that runs the tests:
// the adapter's own capture when it has one; the JavaScript stacks of the
// run's node processes through their inspector; for a Go binary without
// symbols, the runtime's SIGQUIT dump (which ends it; read from the output
// later); otherwise the detector's stack tools (a Python process's Python
// frames, native stacks for the rest).
func (r *Run) capture(w *watch, p stuck.ProcSample, last stuck.Capture) {
	w.finalPID, w.finalExe = p.PID, p.Exe
	if sc, ok := r.adapter.(adapters.StackCapturer); ok {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		s := sc.CaptureStacks(ctx, procOf(p), r.req.ProjectRoot)
		cancel()
		if len(s.Threads) > 0 {
			w.ownThreads, w.ownTests = s.Threads, s.Tests
			return
		}
		w.ownReason = s.Reason
	}
	if nc, ok := r.captureNode(p); ok {
		if len(nc.threads) > 0 {
			w.node, w.ownThreads = &nc, nc.threads
			w.final = nc.final
			w.ownReason = nc.reason
			return
		}
		// No JavaScript view: the native stacks still show where.
		w.ownReason = strings.TrimSpace(w.ownReason + " JavaScript stacks unavailable: " + nc.reason)
	}
	// A Go binary under Delve: SIGQUIT would stop it in the debugger, not
	// dump its goroutines.
	if stuck.IsGoBinary(p.Exe) && last.Tool != "gdb+runtime-gdb.py" && stuck.TracerPID(p.PID) == 0 {
		if syscall.Kill(p.PID, syscall.SIGQUIT) == nil {
			w.goDump = true
			w.final = last
			waitGone(p.PID, goDumpWait)
			return
		}
	}
	if last.Tool == "gdb+runtime-gdb.py" && last.PID == p.PID {
		w.final = last // goroutines, with their lines
		return
	}
	full := stuck.Opts{Goroutines: true, Lines: true}
	w.final = w.stacker.Stacks(context.Background(), p.PID, p.Exe, full)
	if last.PID == p.PID && named(w.final) < named(last) && located(w.final) == 0 {
		// A capture under load can lose frames (seen once: every frame of
		// the test binary unnamed); try again, then keep the sample.
		if again := w.stacker.Stacks(context.Background(), p.PID, p.Exe, full); named(again) >= named(last) {
			w.final = again
		} else {
			reason := w.final.Reason
			w.final = last
			w.final.Reason = strings.TrimSpace(reason + "; source lines unavailable: the stacks are the detector's last sample")
		}
	}
}

// located counts a capture's frames that have a source file.
func located(c stuck.Capture) int {
	n := 0
	for _, s := range c.Stacks {
		for _, f := range s.Frames {
			if f.File != "" {
				n++
			}
		}
	}
	return n
}

// named counts a capture's frames that have a function name.
func named(c stuck.Capture) int {
	n := 0
	for _, s := range c.Stacks {
		for _, f := range s.Frames {
			if f.Func != "" && f.Func != "??" && !strings.HasPrefix(f.Func, "0x") {
				n++
			}
		}
	}
	return n
}

// waitGone waits until pid has exited (or is a zombie), at most d.
func waitGone(pid int, d time.Duration) {
	end := time.Now().Add(d)
	for time.Now().Before(end) {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil || strings.Contains(string(b), ") Z ") {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// onVerdict captures the stacks of a verdict, before the run is stopped.
func (r *Run) onVerdict(w *watch, v *stuck.Verdict) {
	w.verdict = v
	w.running = r.runningNames()
	r.capture(w, v.Process, v.Stacks)
}

// onHardTimeout captures the stacks of the test process before the
// timeout kill, so a hang the detector could not prove still shows where.
func (r *Run) onHardTimeout(w *watch) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	w.running = r.runningNames()
	p, c, ok := w.det.CaptureNow(ctx)
	if !ok {
		return
	}
	w.verdict = nil
	r.capture(w, p, c)
	diag := fmt.Sprintf("no verdict before the %v timeout", r.timeout)
	if w.node != nil && w.node.idle {
		diag = idleDiagnosis(r.timeout, w.node.handles, r.req.ProjectRoot, r.rec.Progress().AfterTests())
	}
	if warn := w.det.Warning(); warn != "" {
		diag += "; last suspicion: " + warn
	}
	w.onTimeout = r.stuckTests(w, diag, time.Now(), nil)
}

// afterTestsLead opens the diagnosis of a process stuck after its tests;
// it ends with one of afterTestsEnds.
func afterTestsLead(p adapters.Progress) string {
	counts := finishedCounts(p)
	if p.Ended {
		return "the framework reported the end of its run (" + counts + ")" + afterTestsEnds[0]
	}
	// The next test file or binary may have been about to start (a
	// GoogleTest suite's SetUpTestSuite, a Go package's TestMain).
	return fmt.Sprintf("no test was running, %d had finished (%s), and the process did not go on", p.Passed+p.Failed+p.Skipped, counts) + afterTestsEnds[1]
}

// afterTestsEnds are the endings of afterTestsLead, after which the
// detector's own diagnosis follows.
var afterTestsEnds = [...]string{" and the process did not exit: ", " (after its tests, or between two of them): "}

// finishedCounts says "2 passed, 1 failed": the counts that are not 0.
func finishedCounts(p adapters.Progress) string {
	var parts []string
	for _, c := range []struct {
		n    int
		word string
	}{{p.Passed, "passed"}, {p.Failed, "failed"}, {p.Skipped, "skipped"}} {
		if c.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", c.n, c.word))
		}
	}
	if len(parts) == 0 {
		return "none ran"
	}
	return strings.Join(parts, ", ")
}

func (r *Run) runningNames() []string {
	var names []string
	for _, t := range r.rec.Progress().Running {
		names = append(names, t.Name)
	}
	return names
}

// stuckTests builds the stuck[] entries: each running test (those whose
// threads are the stuck ones, when the thread names tell), with the
// diagnosis, the stacks and the suggested traces.
func (r *Run) stuckTests(w *watch, diag string, at time.Time, tests []stuck.RunningTest) []report.StuckTest {
	if tests == nil {
		for _, t := range r.rec.Progress().Running {
			tests = append(tests, stuck.RunningTest{Name: t.Name, Since: t.Since})
		}
	}
	// After its tests the framework may still name the last one it ran
	// (jest's state): the adapter knows none runs.
	after := len(tests) == 0 && r.rec.Progress().AfterTests()
	if len(tests) == 0 && !after && w.node != nil && w.node.test != "" {
		// The adapter knows no test (generic), the framework does.
		tests = []stuck.RunningTest{{Name: w.node.test, Since: r.started}}
	}
	if len(tests) == 0 && !after {
		// The output named no running test (Surefire's console names only
		// classes); the adapter's capture may. Its start is unknown: its
		// group's bounds it, as for a test the runtime's stacks named.
		for _, name := range w.ownTests {
			tests = append(tests, stuck.RunningTest{Name: name})
		}
	}
	threads := w.ownThreads
	final := w.final
	if w.goDump {
		if gs := stuck.ParseGoroutines(r.outputText(tests)); len(gs) > 0 {
			final = stuck.Capture{PID: final.PID, Tool: "go-sigquit", Stacks: gs}
		} else {
			final.Reason = strings.TrimSpace(final.Reason + "; the Go runtime printed no goroutine dump")
		}
	}
	if threads == nil {
		threads = stuck.Threads(final, r.req.ProjectRoot)
	}
	var names []string
	for _, t := range tests {
		names = append(names, t.Name)
	}
	threads = testThreadsFirst(threads, names)
	traces := stuck.SuggestedTraces(final, r.req.ProjectRoot, names)
	if w.node != nil {
		traces = jsTraces(final, names)
	}
	reason := final.Reason
	if w.ownReason != "" {
		reason = strings.TrimSpace(w.ownReason + "; " + reason)
	}
	switch {
	case len(threads) == 0 && reason != "" && !strings.Contains(diag, reason):
		// The detector's samples may have said it already (a process
		// held by a debugger).
		diag += " (no stacks: " + reason + ")"
	case w.ownThreads == nil && stuck.IsPythonProcess(w.finalPID, w.finalExe) && !stuck.IsPythonCapture(final):
		diag += " (no Python frames, the interpreter's own: " + reason + ")"
	}
	if w.verdict != nil && w.verdict.Kind == stuck.AfterEnd {
		diag += stuck.ExitJoinTail(final)
	}
	if w.verdict != nil && (w.verdict.Kind == stuck.Overdue || w.verdict.Kind == stuck.AfterEnd) && w.node != nil && w.node.idle {
		diag += "; event loop idle" + keptAlive(w.node.handles, r.req.ProjectRoot, w.verdict.Kind == stuck.AfterEnd)
	}
	if len(tests) == 0 {
		st := report.StuckTest{Name: r.Command(), ElapsedMS: at.Sub(r.started).Milliseconds(),
			Diagnosis: diag, Threads: threads, SuggestedTraces: traces}
		if after {
			st.AfterTests = true
			st.Diagnosis = afterTestsLead(r.rec.Progress()) + diag
		}
		return []report.StuckTest{st}
	}
	// A test the runtime's stacks named (the JVM's deadlock report) has
	// no start of its own: its group's bounds it (a Maven class,
	// adapters.UnitRunner), else the run's.
	unit, prefix, unitSince := "", "", time.Time{}
	if u, ok := r.unitRunner(); ok {
		unit, prefix, unitSince = u.RunningUnit()
	}
	var out []report.StuckTest
	for i, t := range stacksOwnerFirst(subtestsFirst(tests), threads) {
		since := t.Since
		if since.IsZero() {
			since = r.started
			if unit != "" && strings.HasPrefix(t.Name, prefix) {
				since = unitSince
			}
		}
		st := report.StuckTest{Name: t.Name, ElapsedMS: at.Sub(since).Milliseconds(), Diagnosis: diag}
		if i == 0 { // the stacks are the process's, once
			st.Threads, st.SuggestedTraces = threads, traces
		}
		out = append(out, st)
	}
	return out
}

// stacksOwnerFirst puts first the running test whose function the stacks
// show (a frame `pkg.TestMap.func1`, `tests.rs::test_map`), when one
// does: the stacks are one process's, and go with the first entry. With
// several processes stuck at once (go test's packages side by side,
// sourcegraph/conc broken on purpose), the first test listed may be
// another process's, and the stacks read as its own.
func stacksOwnerFirst(tests []stuck.RunningTest, threads []report.Thread) []stuck.RunningTest {
	shown := func(t stuck.RunningTest) bool {
		top, _, _ := strings.Cut(t.Name, "/")
		return top != "" && !strings.ContainsAny(top, " ()") && slices.ContainsFunc(threads, func(th report.Thread) bool {
			return slices.ContainsFunc(th.Stack, func(f string) bool { return framesFunction(f, top) })
		})
	}
	if len(tests) < 2 || shown(tests[0]) {
		return tests
	}
	for i, t := range tests[1:] {
		if shown(t) {
			return append(append([]stuck.RunningTest{t}, tests[:i+1]...), tests[i+2:]...)
		}
	}
	return tests
}

// framesFunction says whether a stack frame ("pkg.TestMap.func1
// (map_test.go:12)") is in function name or a closure of it: the name
// whole, after a `.` or `::`, followed by `.`, a space or the end.
func framesFunction(frame, name string) bool {
	fn, _, _ := strings.Cut(frame, " ")
	for rest := fn; ; {
		i := strings.Index(rest, name)
		if i < 0 {
			return false
		}
		before, after := rest[:i], rest[i+len(name):]
		if (strings.HasSuffix(before, ".") || strings.HasSuffix(before, "::")) && (after == "" || after[0] == '.' || strings.HasPrefix(after, "::")) {
			return true
		}
		rest = after
	}
}

// testThreadsFirst puts first the threads named after a running test
// (libtest names each test's thread after it, which Linux cuts to 15
// bytes: "tests::busy_loo"): the answer shows a few stacks, and libtest's
// main thread, waiting for the results, came first.
func testThreadsFirst(threads []report.Thread, tests []string) []report.Thread {
	ofTest := func(th report.Thread) bool {
		name, _, _ := strings.Cut(th.Name, " (")
		return slices.ContainsFunc(tests, func(t string) bool { return name == t || len(name) == 15 && strings.HasPrefix(t, name) })
	}
	if len(tests) == 0 || !slices.ContainsFunc(threads, ofTest) {
		return threads
	}
	out := make([]report.Thread, 0, len(threads))
	for _, th := range threads {
		if ofTest(th) {
			out = append(out, th)
		}
	}
	for _, th := range threads {
		if !ofTest(th) {
			out = append(out, th)
		}
	}
	return out
}

// nameStuck names a stuck[] entry that names no test (it has the
// command's name) after the test its stacks show running, when the parser
// can tell (adapters.StuckNamer: a doctest, which rustdoc names only once
// it ends; a module Python hangs importing; a Go package's init). It runs
// after the parser's Finish, the run's processes gone: what the parser
// runs to learn the name (cargo's list of the doctests) waits for no lock
// the run held.
func (r *Run) nameStuck(w *watch, entries []report.StuckTest) {
	namer, ok := adapters.ParserAs[adapters.StuckNamer](r.plan.Parser)
	if !ok || w == nil || len(entries) != 1 {
		return
	}
	// Events that lag may say every test had ended while a test file's
	// process blocks in a test whose start it never sent: the code it
	// runs tells, and there is none when what lingers is no test's.
	_, lags := adapters.ParserAs[adapters.StacksOverEvents](r.plan.Parser)
	if !lags && entries[0].Name != r.Command() {
		return
	}
	var funcs []string
	for _, s := range w.final.Stacks {
		for _, f := range s.Frames {
			funcs = append(funcs, f.String())
		}
	}
	for _, th := range w.ownThreads { // the adapter's own capture (py-spy's Python frames)
		if lags && entries[0].AfterTests {
			break // node's idle threads: where what keeps them alive was made, which runs nothing
		}
		funcs = append(funcs, th.Stack...)
	}
	ctx, cancel := context.WithTimeout(context.Background(), stuckNameWait)
	defer cancel()
	if n, ok := namer.NameStuck(ctx, funcs); ok {
		e := &entries[0]
		e.Name, e.Suite, e.File, e.Line, e.Rerun = n.Name, n.Suite, n.File, n.Line, n.Rerun
		if e.Rerun != "" && len(r.req.Env) > 0 {
			// As rerunStuck's and envReruns': a test that hangs only with
			// the run's overrides must hang again when pasted (luxon's
			// TZ and LANG were missing from its hung test's rerun).
			e.Rerun = withAssignments(e.Rerun, assignments(r.req.Env))
		}
		if e.AfterTests {
			// No test was running, but one was about to (a Go package's
			// init): not a hang after the tests.
			e.AfterTests = false
			for _, end := range afterTestsEnds {
				if _, d, ok := strings.Cut(e.Diagnosis, end); ok {
					e.Diagnosis = d
					break
				}
			}
		}
	}
}

// stuckNameWait bounds how long a parser may take to name a stuck test
// from its stacks (cargo lists a crate's doctests): the stuck answer waits
// for it, and is sent unnamed past it.
const stuckNameWait = 15 * time.Second

// subtestsFirst puts each running test after its running subtests (Go's
// "TestA/row"): a parent only waits in t.Run for them, so the stacks, given
// to the first entry, and the answer's headline belong to the subtest.
func subtestsFirst(tests []stuck.RunningTest) []stuck.RunningTest {
	var leaves, parents []stuck.RunningTest
	for _, t := range tests {
		if hasSubtest(tests, t.Name, func(u stuck.RunningTest) string { return u.Name }) {
			parents = append(parents, t)
		} else {
			leaves = append(leaves, t)
		}
	}
	return append(leaves, parents...)
}

// hasSubtest says whether one of tests is a subtest of the test named name.
func hasSubtest[T any](tests []T, name string, nameOf func(T) string) bool {
	return slices.ContainsFunc(tests, func(u T) bool { return strings.HasPrefix(nameOf(u), name+"/") })
}

// listLeaves leaves out of the stuck list the parents that only wait in
// t.Run for a stuck subtest: their entry said nothing the subtest's does
// not (the same diagnosis, no stacks of their own, a rerun that runs the
// subtest again). They stay stuck in the tests and in summary.stuck, as a
// parent whose subtest failed stays counted among the failed but is not
// listed; waiting says how many were left out.
func listLeaves(entries []report.StuckTest) (leaves []report.StuckTest, waiting int) {
	for _, e := range entries {
		if !e.AfterTests && hasSubtest(entries, e.Name, func(u report.StuckTest) string { return u.Name }) {
			waiting++
			continue
		}
		leaves = append(leaves, e)
	}
	return leaves, waiting
}

// outputText is where a Go goroutine dump lands: the stuck tests' own
// output, then stderr, then stdout (test2json's Output fields decoded).
func (r *Run) outputText(tests []stuck.RunningTest) string {
	var b strings.Builder
	for _, t := range r.rec.Tests() {
		for _, s := range tests {
			if t.Name == s.Name && strings.Contains(t.Output, "goroutine ") {
				b.WriteString(t.Output)
				b.WriteByte('\n')
			}
		}
	}
	if b.Len() > 0 {
		return b.String()
	}
	if r.proc != nil {
		b.WriteString(r.proc.tails[1].String())
		b.WriteByte('\n')
		sc := bufio.NewScanner(strings.NewReader(r.proc.tails[0].String()))
		sc.Buffer(make([]byte, 1<<16), 8<<20)
		for sc.Scan() {
			line := sc.Bytes()
			var ev struct{ Output *string }
			if len(line) > 0 && line[0] == '{' && json.Unmarshal(line, &ev) == nil && ev.Output != nil {
				b.WriteString(*ev.Output)
				continue
			}
			b.Write(line)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// verdictTests narrows the running tests to those whose threads are the
// stuck ones when thread names tell (libtest names each test's thread
// after it; the kernel keeps 15 bytes of it).
func verdictTests(v *stuck.Verdict) []stuck.RunningTest {
	if len(v.Tests) < 2 {
		return v.Tests
	}
	var out []stuck.RunningTest
	for _, t := range v.Tests {
		for _, name := range v.Threads {
			if len(name) >= 4 && strings.HasPrefix(t.Name, name) {
				out = append(out, t)
				break
			}
		}
	}
	if len(out) == 0 {
		return v.Tests
	}
	return out
}

// defaultWait is def, one of the detector's waits under the default
// timeout, unless Options.Overdue replaces it (the hints quote what the
// detector waited).
func (r *Run) defaultWait(def time.Duration) time.Duration {
	if r.opts.Overdue > 0 {
		return r.opts.Overdue
	}
	return def
}
