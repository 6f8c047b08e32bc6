package node

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"strobe/adapters"
	"strobe/adapters/kit"
	"strobe/adapters/kit/format"
	"strobe/internal/lazyre"
	"strobe/report"
)

// The reporters strobe ships for the JavaScript frameworks (node:test,
// mocha) write one JSON object a line to a file of their own, which Events
// reads while the tests run. Every reporter speaks the same lines:
//
//	{"e":"begin"}                                            the reporter loaded
//	{"e":"start","file","name","line"}                       a test began
//	{"e":"end","file","name","line","status","ms","fail"}    a test ended: passed|failed|skipped|todo|cancelled
//	{"e":"out","file","name","stream","text"}                what a test printed
//	{"e":"file","file","signal","code","tests","error"}     a test file failed outside its tests
//	{"e":"summary","counts"}, {"e":"done"}                   the framework's totals, the end
//	{"e":"late","file","name","fail"}                        an error after the run's end (mocha's)
//	{"e":"running","file","name","pid"}, {"e":"ran",…}       a test runs, has run, in a mocha --parallel worker
//	{"e":"workerExit","pid","code"}                          that worker exits
//
// mocha's begin also says how many tests the run is to run ("tests":
// runner.total, after --grep), so that a run cut short says how many never
// ran; a failure whose fail.kind is "uncaught" is an error mocha caught
// as uncaught and pinned on the test running when it came, fail.origin the
// test whose function holds its frame, when that is another.
//
// file is absolute; name is the test's full title, its describe blocks
// and parents joined by " › " (as jest prints it).

// Event is one reporter line.
type Event struct {
	E    string `json:"e"`
	File string `json:"file"`
	Name string `json:"name"`
	// Title is the framework's own name for a test whose Name differs
	// (one that shares its name in its file is "NAME #2"): reruns use it.
	Title  string  `json:"title"`
	Line   int     `json:"line"`
	Status string  `json:"status"`
	MS     float64 `json:"ms"`
	Reason string  `json:"reason"`
	// Suite marks a describe block or a parent of subtests: not a test,
	// unless the reporter had already started it (Started). Block says
	// which: a describe block, not a parent test; Test the other way
	// round: a parent test, which node counts (neither: node did not say).
	Suite   bool `json:"suite"`
	Started bool `json:"started"`
	Block   bool `json:"block"`
	Test    bool `json:"test"`
	// Parent is the full title of the block or test a cancelled test
	// (status cancelled: node:test) was cancelled with; "" at the top.
	Parent string `json:"parent"`
	Fail   *Fail  `json:"fail"`
	Stream string `json:"stream"`
	Text   string `json:"text"`
	Signal string `json:"signal"`
	Code   *int   `json:"code"`
	Tests  int    `json:"tests"`
	// PID is the process of a mocha --parallel worker's "running".
	PID int `json:"pid"`
	// Load marks a file that failed to load: it ran no test and printed
	// an error.
	Load bool `json:"load"`
	// Whole marks a test file that ran no test of its own (a script of
	// plain asserts, a helper node runs as a test file): node counts it
	// as one test, named by the file. An end so marked passed; a file
	// event, its top-level assert failed.
	Whole  bool               `json:"whole"`
	Error  *Fail              `json:"error"`
	Stderr string             `json:"stderr"`
	Counts map[string]float64 `json:"counts"`
	// Node is the version of the node that runs the tests (node:test's
	// begin: "v20.20.2").
	Node string `json:"node"`
}

// Fail is why a test, a hook or a file failed, as the reporter read it
// from the error: the message without colour, the frame in the test file.
type Fail struct {
	Kind string `json:"kind"`
	// Hook names the hook that failed (before, after, beforeEach, …).
	Hook     string `json:"hook"`
	Message  string `json:"message"`
	Expected string `json:"expected"`
	Actual   string `json:"actual"`
	File     string `json:"file"`
	Line     int    `json:"line"`
	// Origin is the test whose function holds the error's frame, for an
	// uncaught error (Kind "uncaught") pinned on another test.
	Origin string `json:"origin"`
}

// maxEventLine bounds one reporter line; a longer one (a test printing a
// single line of megabytes) is skipped, the run's raw output keeps it.
const maxEventLine = 4 << 20

// EventsConfig is what an adapter tells Events about its run.
type EventsConfig struct {
	Framework string // "node", "mocha": named in hints
	Root      string // the project root: files are named relative to it
	// Rerun is the pasteable command that runs one test of a file; the
	// test is "" for the whole file.
	Rerun func(file, test string) string
	// Test and Level are what was asked, for the no-tests hint.
	Test    string
	Level   adapters.Level
	NoTests kit.NoTestsHint
	// Note is said in the hint whatever happens (the test selected by
	// its own name, a fallback).
	Note string
	// Exits is the file where node:test's preload (exit.cjs) writes each
	// process.exit a test file's process called; "" for none.
	Exits string
}

// Sep joins a test's describe blocks and parents into its full title, as
// the reporters do and as jest prints it.
const Sep = " › "

// Events reads a reporter's event file as the tests run and records them.
// It is the adapters' Parser: the framework's console output (the
// pipes) only wakes the reader; what a test printed comes in the events.
type Events struct {
	cfg     EventsConfig
	rec     *adapters.Recorder
	dir     string
	tail    *kit.TailFile
	decoded chan struct{}
	stop    sync.Once

	mu    sync.Mutex // guards what follows, between the decoder and Finish
	began bool
	node  string  // the begin's node version, when the reporter says
	files []Event // "file" events: test files that failed outside their tests
	bad   int     // lines that were not events
	// recorded counts the tests started or ended: none is no tests.
	recorded int
	buf      []byte    // the hand decoder's unescaping buffer
	current  [2]string // the suite and name of the test started last and not ended
	// currentTitle is that test's title as the framework knows it, when
	// its name differs (strobe's "NAME #2"), for its rerun.
	currentTitle string
	done         bool // the reporter saw the framework's end
	// bailed holds the summary's counts when --bail stopped the run
	// (mocha's): the tests it was to run and those that did not run.
	bailed map[string]float64
	// cancels are the tests node:test cancelled with their parent, in
	// order; neverSettled those it cancelled with their promise pending.
	cancels      []cancel
	neverSettled []*report.Failure
	// parents are the parent tests (node:test's t.test) by suite: a
	// subtest is reached only through its parent.
	parents map[string][]parentTest
	// total is the tests the run was to run, when the reporter said
	// (mocha's begin); seen the tests that started or ended, so that a
	// run cut short says how many never ran.
	total int
	seen  map[[2]string]bool
	// hookFailed says a hook failed (mocha's): mocha skips the tests of
	// its describe block that it was to run for.
	hookFailed bool
	// inWorker are the tests a mocha --parallel worker said it runs and
	// not that it ran ("running", "ran"), by suite and name; lostFiles
	// the files whose worker ended in a test (workerEnded).
	inWorker  map[[2]string]workerTest
	lostFiles []string
	// exitsTold counts the workers that said they exited in a test
	// (workerExit), whose "terminated unexpectedly" mocha says later.
	exitsTold int
	// late are the errors that came after the run's end (mocha's);
	// uncaught the failures mocha pinned on a test other than the one
	// whose function threw them, or on no known one.
	late     []Event
	uncaught []string
}

// parentTest is a test with subtests: its full title as recorded (Name)
// and as node knows it (Title, for the rerun).
type parentTest struct{ name, title string }

// cancel is a test node:test cancelled with its parent: a describe block
// whose before hook failed (node cancels its tests), or a parent test that
// ended without awaiting it. node counts it apart from its failures, and so
// does strobe: skipped, since it did not run to a verdict, the failure
// listed being its parent's. The parent ends after it, and says why.
type cancel struct {
	suite, name string
	parent      string // the full title it waits on, until its parent ends
	file        string
	line        int
	why         string // hook, block, await or unrun once known
	by          string // the block or test whose failure is listed
}

// Cancellation reasons (cancel.why).
const (
	cancelHook  = "hook"  // the before hook of a describe block around it failed
	cancelBlock = "block" // a describe block around it failed otherwise
	cancelAwait = "await" // its parent test ended without awaiting it
	cancelUnrun = "unrun" // never run: a test before it never settled, and its file ended
)

// NewEvents starts reading the event file path, which need not exist yet.
// dir, when not "", is the private directory holding the reporter and the
// file, removed by Close.
func NewEvents(rec *adapters.Recorder, cfg EventsConfig, dir, path string) *Events {
	e := &Events{cfg: cfg, rec: rec, dir: dir, tail: kit.NewTailFile(path), decoded: make(chan struct{})}
	go func() {
		defer close(e.decoded)
		e.Decode(e.tail)
	}()
	return e
}

// Decode reads events from r to its end. NewEvents runs it on the file;
// tests and benchmarks give it recordings.
func (e *Events) Decode(r io.Reader) {
	br := bufio.NewReaderSize(r, 64<<10)
	var long []byte
	for {
		b, err := br.ReadSlice('\n')
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			if len(long) < maxEventLine {
				long = append(long, b...)
			}
			continue
		case len(long) > 0:
			if len(long)+len(b) <= maxEventLine {
				e.handle(append(long, b...))
			} else {
				e.mu.Lock()
				e.bad++
				e.mu.Unlock()
			}
			long = long[:0]
		case len(b) > 0:
			e.handle(b)
		}
		if err != nil {
			return
		}
	}
}

func (e *Events) handle(b []byte) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return
	}
	var ev Event
	if ok := e.decodeFast(b, &ev); ok && ev.E != "" {
		e.Handle(ev)
		return
	}
	ev = Event{}
	if err := json.Unmarshal(b, &ev); err != nil || ev.E == "" {
		e.mu.Lock()
		e.bad++
		e.mu.Unlock()
		return
	}
	e.Handle(ev)
}

// Handle records one event.
func (e *Events) Handle(ev Event) {
	suite := e.suite(ev.File)
	switch ev.E {
	case "begin":
		e.mu.Lock()
		e.began, e.total, e.node = true, ev.Tests, ev.Node
		e.mu.Unlock()
		e.rec.BeginTesting()
		// mocha's and node:test's reporters (the two that say "begin")
		// name every test that runs more than a moment.
		e.rec.StartsLive()
	case "start":
		if ev.Name != "" {
			e.rec.Start(suite, ev.Name)
			e.mu.Lock()
			e.recorded++
			e.current, e.currentTitle = [2]string{suite, ev.Name}, ev.Title
			e.saw(suite, ev.Name)
			e.mu.Unlock()
		}
	case "running":
		// A mocha --parallel worker runs the test: its start and end come
		// with its file's, once the file is done.
		if ev.Name != "" {
			e.rec.Start(suite, ev.Name)
			e.mu.Lock()
			if e.inWorker == nil {
				e.inWorker = map[[2]string]workerTest{}
			}
			e.inWorker[[2]string{suite, ev.Name}] = workerTest{cmp.Or(ev.Title, ev.Name), ev.PID}
			e.mu.Unlock()
		}
	case "workerExit":
		e.workerExit(ev)
	case "ran":
		// It ran: no longer running, its result to come.
		e.mu.Lock()
		delete(e.inWorker, [2]string{suite, ev.Name})
		e.mu.Unlock()
		if t, ok := e.rec.Lookup(suite, ev.Name); ok && t.Status == report.TestRunning {
			e.rec.Forget(suite, ev.Name)
		}
	case "hook":
		// A hook that runs outside any test (mocha's "before all"): named
		// running while it runs, so that a hang in it names it.
		if ev.Name != "" {
			e.rec.Start(suite, ev.Name)
		}
	case "hookEnd":
		// It passed: it was never a test. One that failed ended as its
		// block's failure before, and stays.
		if t, ok := e.rec.Lookup(suite, ev.Name); ok && t.Status != report.TestFailed {
			e.rec.Forget(suite, ev.Name)
		}
	case "end":
		e.end(suite, ev)
	case "out":
		// Output between tests (a file's top level) belongs to no test;
		// the console keeps it in the run's raw output.
		if ev.Name != "" && ev.Text != "" {
			if _, ok := e.rec.Lookup(suite, ev.Name); ok {
				e.rec.Output(suite, ev.Name, ev.Text)
			}
		}
	case "file":
		e.mu.Lock()
		e.files = append(e.files, ev)
		e.mu.Unlock()
	case "late":
		e.mu.Lock()
		if len(e.late) < 20 {
			e.late = append(e.late, ev)
		}
		e.mu.Unlock()
	case "done":
		e.mu.Lock()
		e.done = true
		e.mu.Unlock()
		e.rec.EndRun()
	case "summary":
		// The framework's own totals: the events before them said it
		// all, but for the tests --bail kept from running.
		if ev.Counts["bail"] == 1 && ev.Counts["notRun"] > 0 {
			e.mu.Lock()
			e.bailed = ev.Counts
			e.mu.Unlock()
		}
	}
}

func (e *Events) suite(file string) string {
	if file == "" {
		return ""
	}
	return kit.ProjectPath(e.cfg.Root, file)
}

// end records a test's result. A describe block is no test: its own
// failure (a hook that threw) is recorded under its title, the failure of
// its tests only through them.
func (e *Events) end(suite string, ev Event) {
	if e.workerEnded(ev) {
		return
	}
	if ev.Fail != nil && ev.Fail.Kind == "hook" {
		e.mu.Lock()
		e.hookFailed = true
		e.mu.Unlock()
	}
	if ev.Whole {
		ev.Name = suite
	}
	if ev.Name == "" {
		return
	}
	if ev.Status == "cancelled" {
		e.cancelled(suite, ev)
		return
	}
	if unawaited := e.claim(suite, ev); len(unawaited) > 0 && !ev.Block && (ev.Fail == nil || ev.Fail.Kind == "subtestsFailed") {
		// A parent test that ended without awaiting its subtests: node
		// fails it, and that is the bug to fix.
		e.notAwaited(suite, ev, unawaited)
		return
	}
	if ev.Suite && ev.Test {
		// A parent test is a test, as node counts it: failed through its
		// subtests, it is counted and not listed (their failures are).
		e.mu.Lock()
		if e.parents == nil {
			e.parents = map[string][]parentTest{}
		}
		e.parents[suite] = append(e.parents[suite], parentTest{ev.Name, cmp.Or(ev.Title, ev.Name)})
		e.mu.Unlock()
	} else if ev.Suite && !ev.Started && (ev.Status != "failed" || ev.Fail == nil || ev.Fail.Kind == "subtestsFailed") {
		return
	}
	d := time.Duration(ev.MS * float64(time.Millisecond))
	if d <= 0 {
		d = time.Microsecond // the framework measured it: not from Start
	}
	var status report.TestStatus
	var f *report.Failure
	switch ev.Status {
	case "passed":
		status = report.TestPassed
	case "skipped", "todo":
		status = report.TestSkipped
	default:
		status = report.TestFailed
		if ev.Fail != nil && ev.Fail.Kind != "subtestsFailed" && !e.awaitedUnsettled(suite, &ev) {
			f = e.failure(suite, ev)
		}
	}
	if f != nil && ev.Fail.Kind == "hook" && !ev.Suite {
		// An "after each" hook that failed after its test had: the hook's
		// failure follows the test's own, which it would have replaced
		// (the assertion, its diff and line gone, the hook's place given).
		if t, ok := e.rec.Lookup(suite, ev.Name); ok && t.Status == report.TestFailed && t.Failure != nil {
			e.rec.UpdateFailure(suite, ev.Name, func(old *report.Failure) { kit.AddFailure(old, f.File, f.Line, f.Message) })
			return
		}
	}
	e.rec.End(suite, ev.Name, status, d, f)
	e.mu.Lock()
	e.recorded++
	if !ev.Suite {
		e.saw(suite, ev.Name)
	}
	if f != nil && ev.Fail.Kind == "uncaught" {
		e.uncaught = append(e.uncaught, suite+Sep+ev.Name)
	}
	if e.current == [2]string{suite, ev.Name} {
		e.current, e.currentTitle = [2]string{}, ""
	}
	if f != nil && ev.Fail.Kind == "cancelledByParent" && !ev.Suite {
		e.neverSettled = append(e.neverSettled, f)
	}
	e.mu.Unlock()
}

// awaitedUnsettled says a parent test node cancelled only because it
// awaited a subtest that never settled (node ends the file: "Promise
// resolution is still pending but the event loop has already resolved",
// for both): the subtest's failure is listed, the parent counted, as a
// parent failed through its subtests is. It was listed too, with the
// same words and another rerun.
func (e *Events) awaitedUnsettled(suite string, ev *Event) bool {
	if !ev.Suite || !ev.Test || ev.Fail == nil || ev.Fail.Kind != "cancelledByParent" {
		return false
	}
	return slices.ContainsFunc(e.rec.Tests(), func(t report.Test) bool {
		return t.Suite == suite && strings.HasPrefix(t.Name, ev.Name+Sep) && t.Status == report.TestFailed && t.Failure != nil
	})
}

// rerunIn is the rerun of a file's test, or of the file whole when the
// failure is the file's own (named by it).
func (e *Events) rerunIn(suite, name string) string {
	if name == suite {
		name = ""
	}
	return e.Rerun(suite, name)
}

// Rerun (adapters.Reruner): the framework's rerun of a test by its file
// and name, "" when it has none.
func (e *Events) Rerun(suite, name string) string {
	if e.cfg.Rerun == nil {
		return ""
	}
	return e.cfg.Rerun(suite, name)
}

// reachSubtests points the reruns of subtests at their outermost parent
// test. node runs a subtest only inside its parent, which the name pattern
// must match itself (and then all its subtests run): a pattern for the
// subtest alone ran nothing ("tests 3, pass 0, fail 0"), which reads as
// fixed.
func (e *Events) reachSubtests() {
	if len(e.parents) == 0 || e.cfg.Rerun == nil {
		return
	}
	for _, t := range e.rec.Tests() {
		var top *parentTest
		for i, p := range e.parents[t.Suite] {
			if t.Failure != nil && strings.HasPrefix(t.Name, p.name+Sep) && (top == nil || len(p.name) < len(top.name)) {
				top = &e.parents[t.Suite][i]
			}
		}
		if top != nil {
			e.rec.UpdateFailure(t.Suite, t.Name, func(f *report.Failure) { f.Rerun = e.cfg.Rerun(t.Suite, top.title) })
		}
	}
}

// cancelled records a test node:test cancelled with its parent: skipped,
// with why in its failure (the details file, JUnit), once the parent ends.
// A cancelled describe block is no test: the tests waiting on it wait on
// its parent.
func (e *Events) cancelled(suite string, ev Event) {
	title := cmp.Or(ev.Title, ev.Name)
	if ev.Suite && !ev.Started {
		e.mu.Lock()
		for i := range e.cancels {
			if c := &e.cancels[i]; c.suite == suite && c.why == "" && c.parent == title {
				c.parent = ev.Parent
			}
		}
		e.mu.Unlock()
		return
	}
	c := cancel{suite: suite, name: ev.Name, parent: ev.Parent, file: suite, line: ev.Line}
	if ev.Fail != nil && ev.Fail.Kind == cancelUnrun {
		c.why, c.by = cancelUnrun, ev.Parent
	}
	if ev.Fail != nil && ev.Fail.File != "" {
		c.file, c.line = kit.ProjectPath(e.cfg.Root, ev.Fail.File), ev.Fail.Line
	}
	f := &report.Failure{Name: ev.Name, File: c.file, Line: c.line, Message: "cancelled by node: " + cmp.Or(ev.Fail, &Fail{}).Message}
	if e.cfg.Rerun != nil {
		f.Rerun = e.cfg.Rerun(suite, title)
	}
	d := time.Duration(ev.MS * float64(time.Millisecond))
	e.rec.End(suite, ev.Name, report.TestSkipped, max(d, time.Microsecond), f)
	e.mu.Lock()
	e.cancels = append(e.cancels, c)
	e.recorded++
	if e.current == [2]string{suite, ev.Name} {
		e.current, e.currentTitle = [2]string{}, ""
	}
	e.mu.Unlock()
}

// claim says why the cancelled tests waiting on a block or test that
// ended were cancelled, and returns those a parent test did not await.
// Only a block or a parent (Suite) has tests waiting on it.
func (e *Events) claim(suite string, ev Event) []cancel {
	if !ev.Suite {
		return nil
	}
	title := cmp.Or(ev.Title, ev.Name)
	own := ev.Status == "failed" && ev.Fail != nil && ev.Fail.Kind != "subtestsFailed"
	e.mu.Lock()
	defer e.mu.Unlock()
	var unawaited []cancel
	for i := range e.cancels {
		c := &e.cancels[i]
		if c.suite != suite || c.why != "" || c.parent != title {
			continue
		}
		switch {
		case !ev.Block:
			c.why, c.by = cancelAwait, ev.Name
			unawaited = append(unawaited, *c)
		case own && ev.Fail.Kind == "hookFailed" && ev.Fail.Hook == "before":
			c.why, c.by = cancelHook, ev.Name
		case own:
			c.why, c.by = cancelBlock, ev.Name
		}
	}
	return unawaited
}

// notAwaited records a parent test that ended before the subtests it did
// not await: failed, at the first one's line (the t.test call to await).
func (e *Events) notAwaited(suite string, ev Event, subs []cancel) {
	var names []string
	for _, c := range subs {
		names = append(names, fmt.Sprintf("`%s` (%s:%d)", leaf(c.name), c.file, c.line))
	}
	what := "its subtest " + names[0] + ", which node cancelled"
	if len(names) > 1 {
		what = "its subtests " + strings.Join(names, ", ") + ", which node cancelled"
	}
	f := &report.Failure{Name: ev.Name, File: subs[0].file, Line: subs[0].line,
		Message: fmt.Sprintf("the test ended without awaiting %s: await t.test(…) (or return its promise)", what)}
	if e.cfg.Rerun != nil {
		f.Rerun = e.cfg.Rerun(suite, cmp.Or(ev.Title, ev.Name))
	}
	d := time.Duration(ev.MS * float64(time.Millisecond))
	e.rec.End(suite, ev.Name, report.TestFailed, max(d, time.Microsecond), f)
	e.mu.Lock()
	e.recorded++
	e.mu.Unlock()
}

// firstFew lists names, the first n of them and how many more.
func firstFew(names []string, n int) string {
	if len(names) > n {
		return fmt.Sprintf("%s and %d more", strings.Join(names[:n], ", "), len(names)-n)
	}
	return kit.JoinAnd(names)
}

// leaf is a test's own name, the last of its full title.
func leaf(name string) string {
	if i := strings.LastIndex(name, Sep); i >= 0 {
		return name[i+len(Sep):]
	}
	return name
}

// settleCancels gives each cancelled test its reason, and says in the hint
// what node cancelled and how strobe counts it. A test whose parent never
// said why (its file's process died first) fails with node's message: it
// is the only trace of the failure.
func (e *Events) settleCancels() string {
	if len(e.cancels) == 0 && len(e.neverSettled) == 0 {
		return ""
	}
	type group struct {
		why, by string
		tests   []cancel
	}
	var groups []*group
	for _, c := range e.cancels {
		var g *group
		for _, h := range groups {
			if h.why == c.why && h.by == c.by {
				g = h
			}
		}
		if g == nil {
			g = &group{why: c.why, by: c.by}
			groups = append(groups, g)
		}
		g.tests = append(g.tests, c)
		var msg string
		switch c.why {
		case cancelHook:
			msg = fmt.Sprintf("cancelled by node: the before hook of its describe block `%s` failed", c.by)
		case cancelBlock:
			msg = fmt.Sprintf("cancelled by node: its describe block `%s` failed", c.by)
		case cancelAwait:
			msg = fmt.Sprintf("cancelled by node: its parent test `%s` ended without awaiting it", c.by)
		case cancelUnrun:
			msg = fmt.Sprintf("cancelled by node before it ran: the test `%s` before it never settled, and node ended the file", c.by)
		default:
			f := e.rec.Failure(c.suite, c.name)
			if f != nil {
				f.Message = strings.TrimPrefix(f.Message, "cancelled by node: ")
			}
			e.rec.End(c.suite, c.name, report.TestFailed, 0, f)
			continue
		}
		e.rec.UpdateFailure(c.suite, c.name, func(f *report.Failure) { f.Message = msg })
	}
	n := len(e.cancels) + len(e.neverSettled)
	var parts []string
	for _, g := range groups {
		var names []string
		for _, c := range g.tests {
			names = append(names, "`"+c.name+"`")
		}
		list := firstFew(names, 3)
		them, their := "them", "their"
		if len(g.tests) == 1 {
			them, their = "it", "its"
		}
		switch g.why {
		case cancelHook:
			parts = append(parts, fmt.Sprintf("%s, as the before hook of %s describe block `%s` failed (that failure is listed): counted skipped", list, their, g.by))
		case cancelBlock:
			parts = append(parts, fmt.Sprintf("%s, as %s describe block `%s` failed (that failure is listed): counted skipped", list, their, g.by))
		case cancelAwait:
			parts = append(parts, fmt.Sprintf("%s (%s:%d), as %s parent test `%s` ended without awaiting %s, a bug in the test (listed as `%s`: await t.test(…)): counted skipped",
				list, g.tests[0].file, g.tests[0].line, their, g.by, them, g.by))
		case cancelUnrun:
			parts = append(parts, fmt.Sprintf("%s, which never ran: the test `%s` before %s never settled (that failure is listed): counted skipped", list, g.by, them))
		default:
			parts = append(parts, fmt.Sprintf("%s, with no word from %s parent of why: counted failed", list, their))
		}
	}
	if len(e.neverSettled) > 0 {
		var names []string
		for _, f := range e.neverSettled {
			names = append(names, fmt.Sprintf("`%s` (%s:%d)", f.Name, f.File, f.Line))
		}
		parts = append(parts, fmt.Sprintf("%s, as its promise never settled: counted failed", firstFew(names, 3)))
	}
	tests := "tests"
	if n == 1 {
		tests = "test"
	}
	return fmt.Sprintf("node cancelled %d %s, which its summary counts apart from its failures: %s", n, tests, strings.Join(parts, "; "))
}

// saw counts a test that started or ended once; e.mu is held.
func (e *Events) saw(suite, name string) {
	if e.seen == nil {
		e.seen = map[[2]string]bool{}
	}
	e.seen[[2]string{suite, name}] = true
}

func (e *Events) failure(suite string, ev Event) *report.Failure {
	fl := ev.Fail
	f := &report.Failure{Name: ev.Name, File: suite, Line: ev.Line, Message: Message(fl)}
	if fl.File != "" {
		f.File, f.Line = kit.ProjectPath(e.cfg.Root, fl.File), fl.Line
	}
	uncaught := fl.Kind == "uncaught" && !ev.Suite
	if uncaught {
		f.Message = kit.Clip(f.Message + "\n\n" + e.uncaughtNote(ev.Name, fl, f))
		// --failed and retries: the file whole, as the rerun below,
		// which the file's name selects.
		f.Select = suite
	}
	if e.cfg.Rerun != nil {
		test := cmp.Or(ev.Title, ev.Name)
		if ev.Suite || uncaught {
			// A describe block's hook: its file, since node matches
			// tests' own names. An uncaught error pinned on this test
			// came from another's leftovers: the file runs that one
			// first, as the run did.
			test = ""
		}
		f.Rerun = e.cfg.Rerun(suite, test)
	}
	return f
}

// uncaughtNote says where an error the framework caught as uncaught came
// from, when not from the test it failed: mocha fails the test running
// when the error comes (a timer or a callback that an earlier test left
// behind throws), which alone passes.
func (e *Events) uncaughtNote(name string, fl *Fail, f *report.Failure) string {
	at := ""
	if fl.File != "" {
		at = fmt.Sprintf(" (%s:%d)", f.File, f.Line)
	}
	if fl.Origin != "" {
		return fmt.Sprintf("%s caught this error as uncaught while `%s` ran, and failed it; but the error was thrown in the test `%s`%s, which had ended: a timer, callback or promise that test left behind. Rerun the file, which runs that test before this one as the run did: this test alone passes",
			e.cfg.Framework, name, fl.Origin, at)
	}
	return fmt.Sprintf("%s caught this error as uncaught while `%s` ran, and failed it; but it was not thrown from this test's own function%s: it may come from a timer, callback or promise that an earlier test or hook left behind. Rerun the file, which runs what ran before this test, as the run did",
		e.cfg.Framework, name, at)
}

// Message is a failure's text: the framework's message (which holds the
// diff for the assertions that print one), then expected and received
// when the message does not already show them, clipped.
func Message(f *Fail) string {
	msg := strings.TrimRight(f.Message, "\n")
	if f.Expected != "" && f.Actual != "" && !strings.Contains(msg, "+ actual - expected") && !strings.Contains(msg, "+ expected - actual") {
		msg += "\n\nexpected: " + kit.ClipTo(f.Expected, 512, "…") + "\nreceived: " + kit.ClipTo(f.Actual, 512, "…")
	}
	return kit.Clip(msg)
}

// Line wakes the reader: the framework printed, so the event file has
// likely grown. What a test printed comes in the events; the pipes' text
// is left to the run's raw output.
func (e *Events) Line(adapters.Stream, []byte, bool) { e.tail.Kick() }

// stopTail says the framework is gone and waits (5 s at most) for the
// decoder to read what is left.
func (e *Events) stopTail() {
	e.stop.Do(func() {
		e.tail.Stop()
		select {
		case <-e.decoded:
		case <-time.After(5 * time.Second):
		}
		e.tail.CloseFile()
	})
}

// Close stops the reader and removes the reporter's directory: after
// Finish, or in its place when the command never started.
func (e *Events) Close() error {
	e.stopTail()
	if e.dir == "" {
		return nil
	}
	return os.RemoveAll(e.dir)
}

// Began says whether the reporter loaded: its first line was read.
func (e *Events) Began() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.began
}

// NodeVersion is the version of node its reporter said it runs in
// ("v20.20.2", node:test's), "" when it did not say.
func (e *Events) NodeVersion() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.node
}

// Finish reads the rest of the events and says what they add up to: test
// files that failed to load are build errors, one that died of a signal is
// a crash, none at all is no tests.
func (e *Events) Finish(exit report.Exit) adapters.Outcome {
	e.stopTail()
	e.mu.Lock()
	defer e.mu.Unlock()
	var out adapters.Outcome
	var hints []string
	if e.cfg.Note != "" {
		hints = append(hints, e.cfg.Note)
	}
	stopped := exit.StoppedBy != ""
	exits := e.readExits()
	for _, f := range e.files {
		e.fileFailed(&out, f, stopped, exit, exits)
	}
	if h := e.exitedEarly(exits, stopped); h != "" {
		hints = append(hints, h)
		out.Indicators = append(out.Indicators, report.IndicatorNotReached)
	}
	if out.Crash == nil && !stopped && exit.Signaled {
		e.died(&out, exit)
	}
	if out.Crash == nil && !stopped && exit.Exited && !e.done {
		e.exited(exit) // exit code 0 too: process.exit(0) is no pass
	}
	if h := e.workersGone(stopped); h != "" {
		hints = append(hints, h)
		out.Indicators = append(out.Indicators, report.IndicatorNotReached)
	}
	if out.Crash == nil && !stopped && exit.Exited && exit.Code != 0 && !e.began {
		hints = append(hints, fmt.Sprintf("strobe's %s reporter did not start (the run's output says why); run the project's own test command to see the framework's report", e.cfg.Framework))
	}
	if h := e.unrun(exit); h != "" {
		hints = append(hints, h)
		// The changes of a run that ended before some of its tests are
		// partial: those are neither removed nor, next time, new.
		out.Indicators = append(out.Indicators, report.IndicatorNotReached)
	}
	if h := e.lateErrors(exit); h != "" {
		hints = append(hints, h)
	}
	if len(e.uncaught) > 0 {
		hints = append(hints, fmt.Sprintf("%s caught %s as uncaught and failed the test running when it came, though it was thrown elsewhere (its failure says where): %s; rerun the file to reproduce it, as each failure's rerun does (the test alone passes)",
			e.cfg.Framework, kit.Plural(len(e.uncaught), "error", "errors"), firstFew(e.uncaught, 3)))
	}
	if c := e.bailed; c != nil && !stopped && out.Crash == nil {
		out.Indicators = append(out.Indicators, e.cfg.Framework+"_stopped_early")
		hints = append(hints, fmt.Sprintf("%s stopped early (--bail: it ends the run at the first failure): %d of the %d tests did not run; they are not counted: fix the failure, or run without --bail, to run them",
			e.cfg.Framework, int(c["notRun"]), int(c["total"])))
	}
	e.reachSubtests()
	if h := e.settleCancels(); h != "" {
		hints = append(hints, h)
	}
	if e.bad > 0 {
		out.Indicators = append(out.Indicators, "unreadable_test_events")
		hints = append(hints, fmt.Sprintf("%d lines of strobe's %s reporter could not be read", e.bad, e.cfg.Framework))
	}
	if !out.BuildFailed && out.Crash == nil && !stopped && e.recorded == 0 {
		out.NoTests = true
		hints = append(hints, e.cfg.NoTests.For(e.cfg.Test, e.cfg.Level))
	}
	out.Hint = strings.Join(hints, "; ")
	return out
}

// unrun says how many of the tests the framework was to run never ran,
// for a run that did not reach its end (a test's process.exit, a signal,
// strobe's stop): the counts are of those that ran. "" when the reporter
// gave no total (node:test), or every test ran. e.mu is held.
func (e *Events) unrun(exit report.Exit) string {
	n := e.total - len(e.seen)
	if e.total == 0 || n <= 0 || !(exit.Exited || exit.Signaled || exit.StoppedBy != "") {
		return ""
	}
	said := fmt.Sprintf("%d of the %d tests %s was to run did not run and %s in no count", n, e.total, e.cfg.Framework, map[bool]string{true: "is", false: "are"}[n == 1])
	switch {
	case !e.done:
		return said + " (the run ended before them)"
	case e.hookFailed:
		// mocha went to its end without them.
		return said + ": a hook failed, and mocha skips the tests of its describe block that the hook was to run for"
	default:
		return said + ": `.only` (it.only, describe.only) runs only what it marks; remove it to run them all"
	}
}

// lateErrors fails what an error after the run's end came from (mocha
// throws it, node exits 7: the tests had passed): the test whose function
// threw it, else its file, and says what happened. e.mu is held.
func (e *Events) lateErrors(exit report.Exit) string {
	if len(e.late) == 0 || exit.StoppedBy != "" {
		return ""
	}
	code := ""
	if exit.Exited {
		code = fmt.Sprintf(" (exit code %d)", exit.Code)
	}
	var said []string
	for _, ev := range e.late {
		fl := ev.Fail
		if fl == nil {
			fl = &Fail{Message: "an uncaught error"}
		}
		suite := e.suite(ev.File)
		f := &report.Failure{File: suite, Line: fl.Line}
		if fl.File != "" {
			f.File = kit.ProjectPath(e.cfg.Root, fl.File)
		}
		name, where := ev.Name, ""
		if f.File != "" && f.Line > 0 {
			where = fmt.Sprintf(" at %s:%d", f.File, f.Line)
		}
		test, after := name, ", after the test had passed"
		if _, ok := e.rec.Lookup(suite, name); name == "" || !ok {
			// No test of the run holds it: the file's failure, or the
			// run's when no file says where.
			name, test, after = cmp.Or(suite, "(after the run)"), "", ""
		}
		msg := kit.ClipTo(Message(fl), 2000, "…")
		f.Name = name
		f.Message = kit.Clip(fmt.Sprintf("%s\n\nthrown after the run had ended: %s's process failed on it%s%s", msg, e.cfg.Framework, code, after))
		if e.cfg.Rerun != nil {
			f.Rerun = e.cfg.Rerun(suite, test)
		}
		e.rec.End(suite, name, report.TestFailed, 0, f)
		e.recorded++
		said = append(said, fmt.Sprintf("`%s`%s, from `%s`", strings.SplitN(msg, "\n", 2)[0], where, name))
	}
	return fmt.Sprintf("%s's process failed after its run had ended%s: an uncaught error came once the tests had ended, which %s does not count: %s; listed as a failure of what threw it",
		e.cfg.Framework, code, e.cfg.Framework, strings.Join(said, "; "))
}

// fileFailed reads a test file whose process failed outside any test:
// one that did not load (no test ran, an error printed) is a build error; one
// that died of a signal a crash, failing the test it was running; one
// that exited early (process.exit, an error after its tests) fails the
// test running, else the file.
func (e *Events) fileFailed(out *adapters.Outcome, f Event, stopped bool, exit report.Exit, exits map[string]*exitCall) {
	suite := e.suite(f.File)
	if stopped {
		return // strobe's own SIGTERM: the tests running stay running
	}
	fl := f.Error
	if fl == nil {
		fl = &Fail{Message: "the test file failed"}
	}
	if c := exits[suite]; c != nil && f.Signal == "" && !f.Load {
		// A test's process.exit: that test fails, named from the call's
		// stack (exitedEarly says what else the file lost).
		c.failed = true
		e.exitFailure(suite, c)
		return
	}
	file, line := suite, fl.Line
	if fl.File != "" {
		file = kit.ProjectPath(e.cfg.Root, fl.File)
	}
	running := e.rec.Running(suite)
	if f.Load {
		out.BuildFailed = true
		out.BuildErrors = append(out.BuildErrors, report.BuildError{File: file, Line: line, Message: kit.Clip(fl.Message)})
		return
	}
	name := suite
	if len(running) > 0 {
		name = running[len(running)-1]
	}
	if name == "" {
		// The reporter named no file (a cut line): the failure still
		// counts, under a name that says so.
		name = "(a test file the reporter did not name)"
	}
	msg := fl.Message
	if f.Whole {
		// The failed assert is the file's test's failure, said as any
		// test's: its process exited 1 for it.
		f.Code, f.Stderr = nil, ""
	}
	if f.Signal != "" {
		msg = fmt.Sprintf("the test process died of %s", f.Signal)
		if fl.Line > 0 {
			msg += fmt.Sprintf(" at %s:%d", file, line)
		}
		sig := kit.SignalNumber(f.Signal)
		code := exit.Code
		c := &report.Crash{Type: kit.CrashType(f.Signal), Signal: sig, SignalName: f.Signal, ExitCode: code,
			Indicators: []string{"test_process_signaled"}, RunningTests: running,
			Message: fmt.Sprintf("%s: %s", suite, msg)}
		if out.Crash == nil {
			out.Crash = c
		}
	} else if f.Code != nil {
		msg = fmt.Sprintf("the test file's process exited with code %d: %s", *f.Code, fl.Message)
		if line == 0 {
			line = 1 // the file, as node names it
		}
	}
	if tail := strings.TrimSpace(f.Stderr); tail != "" {
		msg += "\n" + kit.ClipTail(tail)
	}
	fail := &report.Failure{Name: name, File: file, Line: line, Message: kit.Clip(msg)}
	fail.Rerun = e.rerunIn(suite, name)
	e.rec.End(suite, name, report.TestFailed, 0, fail)
	e.recorded++
}

// exitCall is a test file's process.exit, as node:test's preload
// (exit.cjs) wrote it: the file its process ran, the code, the stack.
type exitCall struct {
	File  string `json:"file"`
	Code  int    `json:"code"`
	Stack string `json:"stack"`
	// failed says a test has been failed for it (exitFailure).
	failed bool
}

// readExits reads the process.exit calls of the test files' processes
// (EventsConfig.Exits), the first of each file, by suite. Only a call
// from the file's own code counts: the stack holds a frame in it.
func (e *Events) readExits() map[string]*exitCall {
	if e.cfg.Exits == "" {
		return nil
	}
	b, err := os.ReadFile(e.cfg.Exits)
	if err != nil {
		return nil
	}
	exits := map[string]*exitCall{}
	for _, line := range bytes.Split(b, []byte("\n")) {
		c := &exitCall{}
		if json.Unmarshal(line, c) != nil || c.File == "" || len(c.frames()) == 0 {
			continue
		}
		if s := e.suite(c.File); exits[s] == nil {
			exits[s] = c
		}
	}
	return exits
}

// frames are the lines of the call's stack in its file, innermost first.
func (c *exitCall) frames() []int {
	var lines []int
	for _, l := range strings.Split(c.Stack, "\n") {
		if file, n, ok := FramePlace(l); ok && file == c.File {
			lines = append(lines, n)
		}
	}
	return lines
}

// exitFailure fails the test that called process.exit: the deepest test
// declared around a frame of its file (read from the source: a subtest
// called from its parent's body is the one whose body made the call),
// else the file's test running last, else the file. Its rerun runs its
// outermost parent test, which node must run for a subtest to run. The
// file's tests left running lost their ends with the process: they are
// in no count (exitedEarly says so).
func (e *Events) exitFailure(suite string, c *exitCall) {
	name, top, line := "", "", 0
	if src, err := os.ReadFile(c.File); err == nil {
		frames := c.frames()
		var best []Declared
		for i := len(frames) - 1; i >= 0; i-- { // outermost first: the innermost frame of the deepest test wins
			if path, ok := DeclaredPath(string(src), frames[i]); ok && len(path) >= len(best) {
				best, line = path, frames[i]
			}
		}
		titles := make([]string, len(best))
		for i, d := range best {
			titles[i] = d.Title
			if d.Test && top == "" {
				top = strings.Join(titles[:i+1], Sep)
			}
		}
		name = strings.Join(titles, Sep)
		if line == 0 {
			line = frames[0]
		}
	}
	running := e.rec.Running(suite)
	if name == "" && len(running) > 0 {
		name = running[len(running)-1]
	}
	if name == "" {
		name = suite
	}
	for _, r := range running {
		if r != name {
			e.rec.Forget(suite, r)
		}
	}
	if t, ok := e.rec.Lookup(suite, suite); ok && t.Status == report.TestPassed {
		e.rec.Forget(suite, suite) // the file whole, which node counted passed
	}
	msg := fmt.Sprintf("the test called process.exit(%d): its file's process ended before the test did", c.Code)
	if c.Code == 0 {
		msg += ", and node counted the file as passed"
	}
	fail := &report.Failure{Name: name, File: suite, Line: line, Message: msg}
	fail.Rerun = e.rerunIn(suite, cmp.Or(top, name))
	e.rec.End(suite, name, report.TestFailed, 0, fail)
	e.recorded++
}

// exitedEarly fails the tests that called process.exit(0), which node
// took for a file that passed, and says which files' processes exited
// early: node reports the results that reached it, and those of the tests
// that ran before the call, or were to run after it, are lost.
func (e *Events) exitedEarly(exits map[string]*exitCall, stopped bool) string {
	if stopped || len(exits) == 0 {
		return ""
	}
	var files []string
	for _, suite := range slices.Sorted(maps.Keys(exits)) {
		if c := exits[suite]; !c.failed {
			e.exitFailure(suite, c)
		}
		files = append(files, suite)
	}
	return fmt.Sprintf("a test called process.exit in %s: node loses the results of the file's tests with its process, so the tests that had run before the call and those after it are in no count; remove the call (a test fails by throwing) and rerun the file", kit.JoinAnd(files))
}

// died reads a framework that died of a signal in its own process (mocha
// runs the tests there): the test running fails, and it is the crash.
func (e *Events) died(out *adapters.Outcome, exit report.Exit) {
	sig := kit.ExitSignal(exit)
	if sig == "" {
		return
	}
	var running []string
	for _, r := range e.rec.Progress().Running {
		running = append(running, r.Name)
	}
	out.Crash = &report.Crash{Type: kit.CrashType(sig), Signal: exit.Signal, SignalName: sig, CoreDump: exit.CoreDump, ExitCode: exit.Code,
		Indicators: []string{"test_process_signaled"}, RunningTests: running, Message: "the test process died of " + sig}
	if e.current[1] == "" {
		return
	}
	suite, name := e.current[0], e.current[1]
	f := &report.Failure{Name: name, File: suite, Message: kit.DidNotFinish("the test process died of "+sig, 0)}
	if e.cfg.Rerun != nil {
		f.Rerun = e.cfg.Rerun(suite, cmp.Or(e.currentTitle, name))
	}
	e.rec.End(suite, name, report.TestFailed, 0, f)
}

// workerTest is a test a mocha --parallel worker runs: its title, as
// mocha knows it, and the worker's process.
type workerTest struct {
	title string
	pid   int
}

// RunsTest says whether the mocha --parallel worker pid runs a test now
// (adapters.TestRunner): a worker done with its files waits for more, and
// its wait is no test's.
func (e *Events) RunsTest(pid int) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return len(e.stillInWorker(func(w workerTest) bool { return w.pid == pid })) > 0
}

// workerExit reads a mocha --parallel worker's word that it exits: the
// test it was running (process.exit in it, 0 included) took its result
// with it, and fails.
func (e *Events) workerExit(ev Event) {
	e.mu.Lock()
	defer e.mu.Unlock()
	gone := e.stillInWorker(func(w workerTest) bool { return w.pid == ev.PID })
	if len(gone) == 0 {
		return // its work done: mocha ends its workers at the run's end
	}
	what := "its mocha --parallel worker ended"
	if ev.Code != nil {
		what = fmt.Sprintf("its mocha --parallel worker exited with code %d", *ev.Code)
	}
	e.failInWorker(gone, what)
	e.exitsTold++
}

// workerEnded reads mocha's word that a --parallel worker ended: an
// "Uncaught error outside test suite: Workerpool Worker terminated
// Unexpectedly", failed with no test of its own and rerun by the whole
// run, at the run's end. A worker that said it exited in a test
// (workerExit) made that test fail: the pseudo-test is left out. A worker
// that died without a word (a signal) is the one whose process is gone:
// the test it ran fails with the signal. false when neither (the worker
// ended outside a test: the pseudo-test stays).
func (e *Events) workerEnded(ev Event) bool {
	if ev.Status != "failed" || ev.Fail == nil {
		return false
	}
	how, ok := workerEnd(Message(ev.Fail))
	if !ok {
		return false
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.exitsTold > 0 {
		e.exitsTold--
		return true
	}
	gone := e.stillInWorker(func(w workerTest) bool { return w.pid > 0 && !kit.Alive(w.pid) })
	if len(gone) == 0 {
		return false
	}
	what := "its mocha --parallel worker " + cmp.Or(how, "ended")
	if len(gone) > 1 {
		what = "its mocha --parallel worker ended" // one of those gone: which, mocha does not say
	}
	e.failInWorker(gone, what)
	return true
}

// workersGone fails the tests a mocha --parallel worker was still running
// at the run's end, strobe not having stopped it (a worker that ended
// without mocha's word), and says whose files lost results. e.mu is held.
func (e *Events) workersGone(stopped bool) string {
	if !stopped {
		e.failInWorker(e.stillInWorker(func(workerTest) bool { return true }), "its mocha --parallel worker ended")
	}
	if len(e.lostFiles) == 0 {
		return ""
	}
	return fmt.Sprintf("a mocha --parallel worker ended in the middle of %s: the results of the file's other tests, run or yet to run, went with it and are in no count; rerun the file once the failing test no longer ends its process",
		kit.JoinAnd(e.lostFiles))
}

// stillInWorker are the tests a worker said it runs, and that have not
// ended since, whose worker match takes. e.mu is held.
func (e *Events) stillInWorker(match func(workerTest) bool) [][2]string {
	var out [][2]string
	for k, w := range e.inWorker {
		if t, ok := e.rec.Lookup(k[0], k[1]); ok && t.Status == report.TestRunning && match(w) {
			out = append(out, k)
		}
	}
	return out
}

// failInWorker fails tests whose worker ended while they ran. e.mu is held.
func (e *Events) failInWorker(tests [][2]string, what string) {
	slices.SortFunc(tests, func(a, b [2]string) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) })
	for _, k := range tests {
		f := &report.Failure{Name: k[1], File: k[0], Message: kit.DidNotFinish(what, 0)}
		if e.cfg.Rerun != nil {
			f.Rerun = e.cfg.Rerun(k[0], e.inWorker[k].title)
		}
		e.rec.End(k[0], k[1], report.TestFailed, 0, f)
		e.recorded++
		e.saw(k[0], k[1])
		delete(e.inWorker, k)
		if !slices.Contains(e.lostFiles, k[0]) {
			e.lostFiles = append(e.lostFiles, k[0])
		}
	}
}

// workerEnd reads workerpool's error for a worker that ended, "Workerpool
// Worker terminated Unexpectedly" with "exitCode: `3`" or "signalCode:
// `SIGSEGV`": how it ended, "" when it does not say.
func workerEnd(msg string) (string, bool) {
	if !strings.Contains(msg, "Worker terminated Unexpectedly") {
		return "", false
	}
	if m := workerSignal.FindStringSubmatch(msg); m != nil {
		return "died of " + m[1], true
	}
	if m := workerExit.FindStringSubmatch(msg); m != nil {
		return "exited with code " + m[1], true
	}
	return "", true
}

var (
	workerExit   = lazyre.New("exitCode: `(\\d+)`")
	workerSignal = lazyre.New("signalCode: `(SIG[A-Z0-9]+)`")
)

// exited reads a framework that exited before its end while a test ran
// in its own process (process.exit in a mocha test): that test fails with
// the exit code. A test file's own process that exited early (node:test)
// came as a "file" event, which has ended its test already.
func (e *Events) exited(exit report.Exit) {
	suite, name := e.current[0], e.current[1]
	test := cmp.Or(e.currentTitle, name)
	if name == "" {
		// A hook that ran outside any test ("before all"), named running
		// while it ran: mocha's exit 0 there is no pass either. Its rerun
		// is its file's, which runs it.
		if r := e.rec.Progress().Running; len(r) > 0 {
			suite, name = r[len(r)-1].Suite, r[len(r)-1].Name
		}
	}
	if name == "" {
		return
	}
	if t, ok := e.rec.Lookup(suite, name); !ok || t.Status != report.TestRunning {
		return
	}
	f := &report.Failure{Name: name, File: suite,
		Message: kit.DidNotFinish(fmt.Sprintf("%s's process exited with code %d", e.cfg.Framework, exit.Code), 0)}
	if e.cfg.Rerun != nil {
		f.Rerun = e.cfg.Rerun(suite, test)
	}
	e.rec.End(suite, name, report.TestFailed, 0, f)
}

// decodeFast reads the events that come by the thousand (start, end, out)
// by hand: flat objects of strings, numbers and booleans. It declines
// anything else (a failure's nested object, null, an array, a field it
// does not read, a key in another case), which encoding/json then reads:
// ok is false.
func (e *Events) decodeFast(b []byte, ev *Event) bool {
	return format.JSONWhole(b, &e.buf, func(k []byte, i int) (int, bool) {
		key := string(k) // before the value reuses the buffer
		want, read := fastKind(key)
		if !read && format.FoldsToKey(k, eventKeys) {
			return 0, false // a field left to encoding/json, or a key it matches whatever the case
		}
		switch c := b[i]; {
		case c == '"' && (!read || want == '"'):
			v, next, ok := format.JSONString(b, i, &e.buf)
			if !ok {
				return 0, false
			}
			setString(ev, key, v)
			return next, true
		case (c == '-' || c >= '0' && c <= '9') && (!read || want == '0'):
			end := format.JSONNumber(b, i)
			if end == i {
				return 0, false
			}
			f, err := strconv.ParseFloat(string(b[i:end]), 64)
			if err != nil || f > 1e9 || f < -1e9 {
				return 0, false // encoding/json says what it makes of it
			}
			switch key {
			case "line", "tests", "pid":
				if bytes.ContainsAny(b[i:end], ".eE") {
					return 0, false // encoding/json reads only an integer's digits into an int
				}
				switch key {
				case "line":
					ev.Line = int(f)
				case "tests":
					ev.Tests = int(f)
				default:
					ev.PID = int(f)
				}
			case "ms":
				ev.MS = f
			}
			return end, true
		case (bytes.HasPrefix(b[i:], []byte("true")) || bytes.HasPrefix(b[i:], []byte("false"))) && (!read || want == 't'):
			v := c == 't'
			switch key {
			case "suite":
				ev.Suite = v
			case "started":
				ev.Started = v
			case "load":
				ev.Load = v
			case "block":
				ev.Block = v
			case "test":
				ev.Test = v
			case "whole":
				ev.Whole = v
			}
			if v {
				return i + 4, true
			}
			return i + 5, true
		}
		return 0, false
	})
}

// fastKind is the JSON type of a key decodeFast reads: '"' a string, '0'
// a number, 't' a boolean; read is false for the others.
func fastKind(key string) (kind byte, read bool) {
	switch key {
	case "e", "file", "name", "title", "status", "reason", "stream", "text", "signal", "stderr", "parent", "node":
		return '"', true
	case "line", "ms", "tests", "pid":
		return '0', true
	case "suite", "started", "load", "block", "test", "whole":
		return 't', true
	}
	return 0, false
}

// eventKeys are Event's keys: encoding/json matches a key to them
// whatever its case.
var eventKeys = []string{"e", "file", "name", "title", "line", "status", "ms", "reason", "suite", "started",
	"fail", "stream", "text", "signal", "code", "tests", "load", "error", "stderr", "counts", "block", "parent", "whole", "pid", "node"}

func setString(ev *Event, key string, v []byte) {
	switch key {
	case "e":
		ev.E = string(v)
	case "file":
		ev.File = string(v)
	case "name":
		ev.Name = string(v)
	case "title":
		ev.Title = string(v)
	case "status":
		ev.Status = string(v)
	case "reason":
		ev.Reason = string(v)
	case "stream":
		ev.Stream = string(v)
	case "text":
		ev.Text = string(v)
	case "signal":
		ev.Signal = string(v)
	case "stderr":
		ev.Stderr = string(v)
	case "parent":
		ev.Parent = string(v)
	case "node":
		ev.Node = string(v)
	}
}
