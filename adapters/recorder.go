package adapters

import (
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"strobe/internal/tail"
	"strobe/report"
)

// Output budgets: each test keeps the newest perTestOutput bytes of its own
// output, and all tests together keep at most totalOutput, so a suite that
// prints without end cannot grow strobe's memory.
const (
	PerTestOutput = 64 << 10
	totalOutput   = 32 << 20
)

// Phase is where a run is: building the tests or running them.
type Phase string

const (
	PhaseBuilding Phase = "building"
	PhaseRunning  Phase = "running"
)

// Recorder collects the tests of one run as a parser reports them. It is safe
// for concurrent use: the parser writes, the runner and the stuck detector
// read progress while the run goes on.
type Recorder struct {
	mu      sync.Mutex
	now     func() time.Time
	tests   []*recTest
	byKey   map[testKey]*recTest
	live    []*recTest // started and not ended, in the order they started
	phase   Phase
	began   bool          // testing began once: running is closed
	ended   bool          // the framework reported the end of its run
	starts  bool          // the parser reports tests as they start
	running chan struct{} // closed when testing begins
	kept    int           // output bytes kept over all tests
	counts  [3]int        // passed, failed, skipped
	// last is the test get found last: a test that prints a million
	// lines is looked up a million times, and building its key was a
	// third of the allocations of reading go test's output.
	last *recTest
	// event is when the parser last reported a test's start or end, in
	// unix nanoseconds (LastEvent).
	event atomic.Int64
}

type recTest struct {
	report.Test
	started time.Time
	since   time.Time // running since: its start, or when it last went on after a pause
	paused  bool      // it waits for other tests before it goes on (Pause)
	ended   bool
	out     *tail.Buffer
}

// NewRecorder returns an empty Recorder in the building phase.
func NewRecorder() *Recorder {
	return &Recorder{now: time.Now, byKey: map[testKey]*recTest{}, phase: PhaseBuilding, running: make(chan struct{})}
}

// TestingBegan is closed once the tests start running (the build is over).
// The runner's test timeout counts from then.
func (r *Recorder) TestingBegan() <-chan struct{} { return r.running }

// BeginTesting marks the end of the build phase. Starting a test implies it.
func (r *Recorder) BeginTesting() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.beginTesting()
}

func (r *Recorder) beginTesting() {
	r.phase = PhaseRunning
	if !r.began {
		r.began = true
		close(r.running)
	}
}

// BeginBuilding marks a build that comes after tests ran, as cargo builds
// the doctests after the unit and integration tests: the stuck detector
// judges only the running phase, so a long compile with no output is not
// taken for a hung test. The test timeout, once started, goes on counting.
func (r *Recorder) BeginBuilding() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.phase = PhaseBuilding
}

// EndRun marks the framework's report of the end of its run (mocha's run
// end, jest's onRunComplete, pytest's session finish): every test it was
// to run has finished, and a process that goes on is not in a test.
func (r *Recorder) EndRun() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.ended = true
}

// StartsLive says the parser reports each test that runs for more than a
// moment as started (node:test's reporter names a quick test only once it
// ended), as Start does: a run with none running is then between or after
// its tests (Progress.AfterTests).
func (r *Recorder) StartsLive() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.starts = true
}

// StartsUnknown says that from now on the parser learns of a test only
// as it ends (cargo's doctests, in rustdoc's human output, after the unit
// tests' libtest JSON): a run with none running may be in one, the
// undoing of Start's and StartsLive's word.
func (r *Recorder) StartsUnknown() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.starts = false
}

// testKey names a test in byKey. A struct of the two strings: looking
// one up allocates nothing (a joined string did, on every event).
type testKey struct{ suite, name string }

func key(suite, name string) testKey { return testKey{suite, name} }

// LastEvent is when the parser last reported a test's start or end (zero
// before the first): a sign of life, as an output line is, of a framework
// whose events come another way than its output (a reporter's file:
// vitest's prints nothing else while 64,000 tests pass), for the stuck
// detector's silence. Not a test's output: a node:test file's stderr
// comes as events, and with it node's "Debugger attached." for each time
// the detector looked through the inspector, which kept a hung test's
// silence from ever lasting (its verdict came after 26 s, not 13).
func (r *Recorder) LastEvent() time.Time {
	if ns := r.event.Load(); ns != 0 {
		return time.Unix(0, ns)
	}
	return time.Time{}
}

// get finds a test, or records it, for an event about it.
func (r *Recorder) get(suite, name string) *recTest {
	if t := r.last; t != nil && t.Name == name && t.Suite == suite {
		return t
	}
	t := r.lookup(suite, name)
	r.last = t
	return t
}

func (r *Recorder) lookup(suite, name string) *recTest {
	k := key(suite, name)
	t := r.byKey[k]
	if t == nil {
		t = &recTest{Test: report.Test{Name: name, Suite: suite, Status: report.TestRunning}}
		r.byKey[k] = t
		r.tests = append(r.tests, t)
	}
	return t
}

// Start records that a test began.
func (r *Recorder) Start(suite, name string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.beginTesting()
	r.starts = true
	now := r.now()
	r.event.Store(now.UnixNano())
	t := r.get(suite, name)
	if t.started.IsZero() {
		t.started = now
		t.since, t.paused = t.started, false
		if !t.ended {
			r.live = append(r.live, t)
		}
	}
}

// Pause records that a running test waits for other tests before it goes
// on, running none of its own code: a Go test that called t.Parallel,
// until the tests that run one at a time are done (and a slot is free).
// Progress lists it as waiting, not running, until Resume: a test that
// hangs is not joined by the tests paused behind it, as go test's own
// timeout names only the one running.
func (r *Recorder) Pause(suite, name string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if t := r.byKey[key(suite, name)]; t != nil && !t.ended && !t.started.IsZero() {
		t.paused = true
	}
}

// Resume records that a paused test goes on: it runs since now.
func (r *Recorder) Resume(suite, name string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if t := r.byKey[key(suite, name)]; t != nil && t.paused {
		t.paused, t.since = false, r.now()
	}
}

// Again records that a test which ended runs again, as go test -count=N
// runs each test N times in one binary: it is running until its next End,
// for the stuck detector and Abandon, and leaves the counts until then.
// Its failure stays: that End replaces the status (keeping the worse news
// is then the parser's) and keeps the failure when it passes none. A test
// that has not ended is only started.
func (r *Recorder) Again(suite, name string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.beginTesting()
	t := r.get(suite, name)
	if t.ended {
		r.counts[countIndex(t.Status)]--
		t.ended, t.Status = false, report.TestRunning
		t.started = time.Time{}
	}
	if t.started.IsZero() {
		t.started = r.now()
		t.since, t.paused = t.started, false
		r.live = append(r.live, t)
	}
}

// Output appends text (with its newlines) to a test's own output.
func (r *Recorder) Output(suite, name, text string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	t := r.get(suite, name)
	if t.out == nil {
		t.out = tail.New(PerTestOutput)
	}
	before := t.out.Len()
	if r.kept >= totalOutput {
		t.OutputTruncated = true
		return
	}
	t.out.WriteString(text)
	r.kept += t.out.Len() - before
	if t.out.Truncated() {
		t.OutputTruncated = true
	}
}

// End records a test's result. A zero duration is measured from Start when
// the framework does not report one. f may be nil: a failed test without
// one failed only through others (a Go parent test whose subtests failed)
// and is counted but not listed. A Failure's Name is filled in when empty.
func (r *Recorder) End(suite, name string, status report.TestStatus, d time.Duration, f *report.Failure) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.beginTesting()
	r.event.Store(r.now().UnixNano())
	t := r.get(suite, name)
	if t.ended { // a framework that reports twice: keep the worse news
		if status != report.TestFailed {
			return
		}
		r.counts[countIndex(t.Status)]--
	}
	t.ended, t.paused = true, false
	if i := slices.Index(r.live, t); i >= 0 {
		r.live = slices.Delete(r.live, i, i+1)
	}
	t.Status = status
	if d == 0 && !t.started.IsZero() {
		d = r.now().Sub(t.started)
	}
	t.DurationMS = d.Milliseconds()
	if f != nil {
		if f.Name == "" {
			f.Name = name
		}
		t.Failure = f
	}
	r.counts[countIndex(status)]++
}

// Forget drops a recorded test: what a parser took for a test turned out
// not to be one (a test that runs tests itself, testing.RunTests in a Go
// test framework's own suite, prints their results as its subtests').
func (r *Recorder) Forget(suite, name string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	k := key(suite, name)
	t := r.byKey[k]
	if t == nil {
		return
	}
	delete(r.byKey, k)
	if r.last == t {
		r.last = nil
	}
	if t.ended {
		r.counts[countIndex(t.Status)]--
	}
	if t.out != nil {
		r.kept -= t.out.Len()
	}
	r.tests = slices.DeleteFunc(r.tests, func(x *recTest) bool { return x == t })
	r.live = slices.DeleteFunc(r.live, func(x *recTest) bool { return x == t })
}

func countIndex(s report.TestStatus) int {
	switch s {
	case report.TestFailed:
		return 1
	case report.TestSkipped:
		return 2
	}
	return 0
}

// Lookup returns a copy of a recorded test and whether it exists.
func (r *Recorder) Lookup(suite, name string) (report.Test, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	t, ok := r.byKey[key(suite, name)]
	if !ok {
		return report.Test{}, false
	}
	return r.snapshot(t), true
}

// Failure returns a copy of the recorded failure of a test, nil if none.
// A parser that adds to it uses UpdateFailure.
func (r *Recorder) Failure(suite, name string) *report.Failure {
	r.mu.Lock()
	defer r.mu.Unlock()
	if t, ok := r.byKey[key(suite, name)]; ok && t.Failure != nil {
		f := *t.Failure
		return &f
	}
	return nil
}

// UpdateFailure calls fn with the recorded failure of a test, under the
// Recorder's lock: the runner and the stuck detector read the tests while
// the parser writes, and a failure changed outside the lock would be read
// half written. It reports whether the test has a failure to update.
func (r *Recorder) UpdateFailure(suite, name string, fn func(f *report.Failure)) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	t, ok := r.byKey[key(suite, name)]
	if !ok || t.Failure == nil {
		return false
	}
	fn(t.Failure)
	return true
}

// Running names the tests of suite that started and have not ended, in
// the order they started, so that a parser need not keep its own list.
// It costs what is running, not what was recorded: a parser may ask on
// every line.
func (r *Recorder) Running(suite string) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var names []string
	for _, t := range r.live {
		if t.Suite == suite {
			names = append(names, t.Name)
		}
	}
	return names
}

// snapshot copies a test, its failure too: what it returns is the
// caller's, and later updates do not reach it.
func (r *Recorder) snapshot(t *recTest) report.Test {
	out := t.Test
	if t.out != nil {
		out.Output = t.out.String()
	}
	if t.Failure != nil {
		f := *t.Failure
		out.Failure = &f
	}
	return out
}

// Tests returns every recorded test in the order it first appeared.
func (r *Recorder) Tests() []report.Test {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]report.Test, len(r.tests))
	for i, t := range r.tests {
		out[i] = r.snapshot(t)
	}
	return out
}

// RunningTest is a test that started and has not finished.
type RunningTest struct {
	Name  string
	Suite string
	Since time.Time
}

// Progress is a run's live state.
type Progress struct {
	Phase   Phase
	Passed  int
	Failed  int
	Skipped int
	Running []RunningTest // oldest first; Since is when each last went on
	// Waiting are the tests paused until others are done (Pause): started,
	// not ended, and not running.
	Waiting []RunningTest
	// Ended says the framework reported the end of its run (EndRun).
	Ended bool
	// Live says the parser reports tests as they start, so Running is
	// every test running; a framework that names a test only once it
	// ended (Surefire's console) leaves it false.
	Live bool
}

// AfterTests says the framework reported its run's end, or no test runs
// now while some have finished (of a parser that reports starts): whatever
// the process waits for is not a test's (a server a test left open, a
// thread Python joins at exit).
func (p Progress) AfterTests() bool {
	return len(p.Running) == 0 && len(p.Waiting) == 0 && (p.Ended || p.Live && p.Passed+p.Failed+p.Skipped > 0)
}

// Progress returns the live counts and the tests running now.
func (r *Recorder) Progress() Progress {
	r.mu.Lock()
	defer r.mu.Unlock()
	p := Progress{Phase: r.phase, Passed: r.counts[0], Failed: r.counts[1], Skipped: r.counts[2], Ended: r.ended, Live: r.starts}
	for _, t := range r.live { // started and not ended: not every test recorded
		if t.paused {
			p.Waiting = append(p.Waiting, RunningTest{Name: t.Name, Suite: t.Suite, Since: t.started})
		} else {
			p.Running = append(p.Running, RunningTest{Name: t.Name, Suite: t.Suite, Since: t.since})
		}
	}
	sort.SliceStable(p.Running, func(i, j int) bool { return p.Running[i].Since.Before(p.Running[j].Since) })
	return p
}

// Abandon marks every test that started and did not end as running at the
// end of the run (crashed, timed out or cancelled around it) and returns
// the names of those that were running, not paused.
func (r *Recorder) Abandon() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var names []string
	for _, t := range r.tests {
		if !t.ended && !t.started.IsZero() {
			t.Status = report.TestRunning
			t.DurationMS = r.now().Sub(t.started).Milliseconds()
			if !t.paused {
				names = append(names, t.Name)
			}
		}
	}
	return names
}
