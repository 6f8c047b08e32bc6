package python

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"strobe/adapters"
	"strobe/adapters/kit"
	"strobe/internal/shell"
	"strobe/report"
)

// Mapper records events into a run's Recorder. Tests are named by their
// id (pytest's node id, unittest's dotted id), in the suite "".
type Mapper struct {
	Rec *adapters.Recorder
	// Rerun makes the command that runs one test again.
	Rerun func(id string) string

	mu        sync.Mutex
	hello     bool
	done      bool
	exit      int
	stopped   string
	collected int
	errors    []report.BuildError
	crashed   []string             // tests whose xdist worker died under them
	defs      map[string]location  // where each running test is defined
	flaky     []adapters.FlakyTest // tests that passed on a pytest-rerunfailures rerun
	timedOut  []string             // tests pytest-timeout stopped
	shuffle   []string             // what every rerun adds to keep the run's seed
	notRun    []NotRun             // tests a failed class or module set-up kept from running
	bad       int                  // lines that were not events
}

type location struct {
	file string
	line int
}

// State is what the events said beyond the tests themselves.
type State struct {
	// Hello says the channel worked: strobe's code loaded.
	Hello bool
	// Done says the session ended in order, with Exit its exit code.
	Done bool
	Exit int
	// Collected counts the tests collected (0 when not said).
	Collected int
	// CollectErrors are the modules that could not be imported.
	CollectErrors []report.BuildError
	// Unreadable counts lines that were not events.
	Unreadable int
	// Stopped is why the session stopped before its last test, when it
	// did (pytest -x, --maxfail: "stopping after 1 failures").
	Stopped string
	// Crashed are the tests whose pytest-xdist worker died while it ran
	// them: xdist replaced the worker and went on.
	Crashed []string
	// Flaky are the tests that failed and then passed when
	// pytest-rerunfailures ran them again (--reruns, @flaky).
	Flaky []adapters.FlakyTest
	// TimedOut are the tests pytest-timeout stopped (its signal method:
	// each failed, and the session went on).
	TimedOut []string
	// Shuffle is what every rerun adds to keep the seed of a run in a
	// random order (pytest-randomly's -p randomly --randomly-seed=N),
	// nil when the order was not random.
	Shuffle []string
	// NotRun are the tests a class's or module's set-up that failed kept
	// from running (unittest's setUpClass, setUpModule), in no count.
	NotRun []NotRun
}

// NotRun counts the tests of a class or module that did not run because
// its set-up failed.
type NotRun struct {
	// Owner is the class or module ("tests.test_x.TestY", "tests.test_x").
	Owner string
	// Fixture is the set-up that failed: setUpClass or setUpModule. The
	// failure recorded for it is named "Fixture (Owner)".
	Fixture string
	// N counts the tests that did not run.
	N int
}

// State returns what the events said so far.
func (m *Mapper) State() State {
	m.mu.Lock()
	defer m.mu.Unlock()
	return State{Hello: m.hello, Done: m.done, Exit: m.exit, Collected: m.collected,
		CollectErrors: append([]report.BuildError(nil), m.errors...), Unreadable: m.bad,
		Crashed: append([]string(nil), m.crashed...), Stopped: m.stopped, Flaky: append([]adapters.FlakyTest(nil), m.flaky...),
		TimedOut: append([]string(nil), m.timedOut...), Shuffle: m.shuffle, NotRun: append([]NotRun(nil), m.notRun...)}
}

// definedAt is where a running test is defined, from its start.
func (m *Mapper) definedAt(id string) (string, int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	def := m.defs[id]
	return def.file, def.line
}

// DefinedAt is where a running test is defined, from its start.
func (m *Mapper) DefinedAt(id string) (string, int) { return m.definedAt(id) }

// Line decodes one line of the channel and records it.
func (m *Mapper) Line(line []byte, e *Event) {
	if len(line) == 0 {
		return
	}
	if err := Decode(line, e); err != nil {
		m.mu.Lock()
		m.bad++
		m.mu.Unlock()
		return
	}
	m.Handle(e)
}

// Handle records one event.
func (m *Mapper) Handle(e *Event) {
	switch e.Ev {
	case "start":
		m.mu.Lock()
		if m.defs == nil {
			m.defs = map[string]location{}
		}
		m.defs[e.ID] = location{e.File, e.Line}
		m.mu.Unlock()
		m.Rec.Start("", e.ID)
	case "end":
		m.end(e)
	case "hello":
		m.mu.Lock()
		m.hello = true
		m.mu.Unlock()
	case "shuffled":
		m.mu.Lock()
		m.shuffle = e.Args
		m.mu.Unlock()
	case "collected":
		m.mu.Lock()
		m.collected = e.N
		m.mu.Unlock()
	case "collect_error":
		m.mu.Lock()
		// A module that does not import fails every test module that
		// imports it with the same error: said once.
		if be := (report.BuildError{File: e.File, Line: max(e.Line, 0), Message: kit.Clip(e.Msg)}); !slices.Contains(m.errors, be) {
			m.errors = append(m.errors, be)
		}
		m.mu.Unlock()
	case "not_run":
		m.mu.Lock()
		m.notRun = append(m.notRun, NotRun{Owner: e.ID, Fixture: e.Reason, N: e.N})
		m.mu.Unlock()
	case "done":
		m.mu.Lock()
		m.done, m.exit, m.stopped = true, e.Exit, e.Reason
		m.mu.Unlock()
		m.Rec.EndRun()
	}
}

func (m *Mapper) end(e *Event) {
	m.mu.Lock()
	def, ok := m.defs[e.ID]
	delete(m.defs, e.ID)
	m.mu.Unlock()
	if e.Out != "" {
		m.Rec.Output("", e.ID, e.Out)
	}
	d := kit.DurationOf(e.Dur)
	if e.Attempts > 1 && (e.Status == "passed" || e.Status == "xpassed") {
		m.flakyTest(e, def)
	}
	switch e.Status {
	case "passed":
		m.Rec.End("", e.ID, report.TestPassed, d, nil)
	case "xpassed":
		m.Rec.Output("", e.ID, note("XPASS", e.Reason))
		m.Rec.End("", e.ID, report.TestPassed, d, nil)
	case "skipped":
		m.Rec.Output("", e.ID, note("skipped", e.Reason))
		m.Rec.End("", e.ID, report.TestSkipped, d, nil)
	case "xfailed":
		m.Rec.Output("", e.ID, note("xfail", e.Reason))
		m.Rec.End("", e.ID, report.TestSkipped, d, nil)
	default: // failed, error, crashed, and anything newer: never a pass
		f := &report.Failure{File: e.File, Line: max(e.Line, 0), Message: Message(e), SuggestedTraces: e.Traces}
		if e.Status == "crashed" {
			m.mu.Lock()
			m.crashed = append(m.crashed, e.ID)
			m.mu.Unlock()
		}
		if e.Timeout > 0 {
			m.mu.Lock()
			m.timedOut = append(m.timedOut, e.ID)
			m.mu.Unlock()
		}
		if f.File == "" && ok {
			f.File, f.Line = def.file, def.line
		}
		if m.Rerun != nil {
			sel := e.ID
			if e.Sel != "" {
				// Its id does not select it (a doctest, a TestCase's own
				// id()): its module does, for the rerun, retries and
				// --failed.
				sel, f.Select = e.Sel, e.Sel
			}
			f.Rerun = m.Rerun(sel)
			m.mu.Lock()
			if len(m.shuffle) > 0 {
				// The run's seed: a test that fails with it, alone, fails
				// again (one that fails by the order needs the whole run).
				f.Rerun += " " + shell.Join(m.shuffle)
			}
			m.mu.Unlock()
			if len(e.Args) > 0 {
				// hypothesis' seed of a failure its database cannot
				// replay: the rerun reproduces it.
				f.Rerun += " " + shell.Join(e.Args)
			}
		}
		if e.Attempts > 1 {
			f.Attempts = e.Attempts
			kit.AppendMessage(f, "\n", fmt.Sprintf("(failed on all %d tries: pytest-rerunfailures' reruns)", e.Attempts))
		}
		for i := range e.Later {
			l := &e.Later[i]
			kit.AddFailure(f, l.File, max(l.Line, 0), l.Sub+Message(l))
		}
		kit.OmitFailures(f, e.LaterOmitted)
		m.Rec.End("", e.ID, report.TestFailed, d, f)
	}
}

// flakyTest records a test that passed on a rerun pytest-rerunfailures
// made, with its first failure, at its definition when that said no place.
func (m *Mapper) flakyTest(e *Event, def location) {
	ft := adapters.FlakyTest{Name: e.ID, Attempts: e.Attempts, File: def.file, Line: def.line}
	if e.First != nil {
		ft.Message = Message(e.First)
		if e.First.File != "" {
			ft.File, ft.Line = e.First.File, max(e.First.Line, 0)
		}
	}
	m.mu.Lock()
	m.flaky = append(m.flaky, ft)
	m.mu.Unlock()
}

func note(what, reason string) string {
	if reason == "" {
		return what + "\n"
	}
	return what + ": " + reason + "\n"
}

// TimedOut is the message of a test a timeout stopped: what stopped it,
// then its stack, innermost first.
func TimedOut(what string, stack []string) string {
	msg := "timed out: " + what
	for _, f := range stack {
		msg += "\n  " + f
	}
	return msg
}

// Seconds says a timeout in seconds as Python wrote it: "2s", "0.5s".
func Seconds(s float64) string {
	return strconv.FormatFloat(s, 'f', -1, 64) + "s"
}

// workerDied is what ended a test whose pytest-xdist worker died under
// it; WorkersDied adds the signal when the worker's dump names one.
const workerDied = "its pytest-xdist worker died"

// Message is a failure's text: the assertion as the framework wrote it
// (pytest's rewritten `assert 9 == 10` and its `where` lines), any other
// exception, or an assertion without a message, as `Type: message`; the
// test's line that called the helper or code it was raised in; an error
// outside the test's own body (a fixture, setUp, tearDown) said as such,
// then any later error.
func Message(e *Event) string {
	// A project's --color=yes (addopts) colours pytest's assertion diffs.
	msg := kit.StripANSI(strings.TrimRight(e.Msg, "\n"))
	if e.Timeout > 0 {
		// pytest-timeout's "Failed: Timeout (>2.0s) from pytest-timeout."
		// said as what it is, with where the test was.
		msg = TimedOut("pytest-timeout stopped the test after "+Seconds(e.Timeout), e.Stack)
	} else if e.Type != "" && (e.Type != "AssertionError" || msg == "") {
		if msg == "" {
			msg = e.Type
		} else {
			msg = e.Type + ": " + msg
		}
	}
	if e.Call != "" && e.Timeout == 0 { // a timeout's stack says it
		// Raised in a helper or the code under test: the test's own line
		// that led there (a helper called twice in a test fails one call).
		msg += "\ncalled from " + e.Call
	}
	if e.Status == "crashed" {
		msg = kit.DidNotFinish(workerDied, 0) + "\n" + msg
	}
	if e.Status == "error" {
		when := e.When
		if when == "" {
			when = "the test's fixtures"
		}
		msg = "error in " + when + ": " + msg
	}
	if e.Also != "" {
		msg += "\n" + e.Also
	}
	return kit.Clip(msg)
}
