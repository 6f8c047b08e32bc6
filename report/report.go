// Package report owns the shapes strobe reports: the debug_test response,
// the tests, failures, build errors and crashes inside it, and the exit
// status of a run. Every other package speaks in these types; the JSON field
// names are a public contract and only ever gain fields.
package report

// Status is the outcome of a run. An agent reads it first; a crash, a hang
// or a build error is never "passed".
type Status string

const (
	Passed      Status = "passed"
	Failed      Status = "failed"
	Stuck       Status = "stuck"
	Crashed     Status = "crashed"
	Timeout     Status = "timeout"
	Cancelled   Status = "cancelled"
	BuildFailed Status = "build_failed"
	NoTests     Status = "no_tests"
	Error       Status = "error"
	Running     Status = "running"
)

// Response is the debug_test answer and what `strobe test --json` prints.
type Response struct {
	Status    Status    `json:"status"`
	RunID     string    `json:"runId"`
	Framework string    `json:"framework,omitempty"`
	Command   string    `json:"command,omitempty"`
	Summary   *Summary  `json:"summary,omitempty"`
	Failures  []Failure `json:"failures,omitempty"`
	// FailuresOmitted counts failures left out of a long list; the details
	// file has them all.
	FailuresOmitted int          `json:"failures_omitted,omitempty"`
	BuildErrors     []BuildError `json:"build_errors,omitempty"`
	Stuck           []StuckTest  `json:"stuck,omitempty"`
	Crash           *Crash       `json:"crash,omitempty"`
	Truncated       bool         `json:"truncated"`
	// Progress is the live state of a run still going (status running).
	Progress *Progress `json:"progress,omitempty"`
	// Project and Hint explain a no_tests or error answer.
	Project *Project `json:"project,omitempty"`
	Hint    string   `json:"hint,omitempty"`
	// Error is the one-line reason of an error answer.
	Error   string `json:"error,omitempty"`
	Details string `json:"details,omitempty"`
	// Changes compares this run with the previous comparable one (same
	// project, framework and selection); absent when there is none.
	Changes *Changes `json:"changes,omitempty"`
	// JUnit is the path of the run's JUnit XML report, beside Details.
	JUnit string `json:"junit,omitempty"`
	// Partition is the part of the suite this run ran, when it was
	// split across machines; Rerun, when it reran an earlier run's
	// failures.
	Partition *Partition `json:"partition,omitempty"`
	Rerun     *Rerun     `json:"rerun,omitempty"`
	// SessionID names a traced run's events for debug_query; Trace sums
	// them up.
	SessionID string `json:"sessionId,omitempty"`
	Trace     *Trace `json:"trace,omitempty"`
	// Flaky are the tests that failed and then passed when rerun alone
	// (retries): not counted failed, and not a failure to fix in the code
	// under test, but a sign of order, timing or shared-state dependence.
	Flaky []Flaky `json:"flaky,omitempty"`
	// Repeat is what running the selection several times found (repeat).
	Repeat *Repeat `json:"repeat,omitempty"`
	// Shuffle says the framework ran the tests in a random order, or
	// reseeded randomness, with a seed it printed.
	Shuffle *Shuffle `json:"shuffle,omitempty"`
}

// Shuffle is a run in a random order (go test -shuffle, pytest-randomly,
// jest --randomize, vitest --sequence.shuffle, --gtest_shuffle, Catch2's
// --order rand): a failure may depend on the tests that ran before it, or
// on the seed, so a test rerun alone may pass where the run failed.
type Shuffle struct {
	// Seed is the seed the framework printed; Command runs the whole
	// selection again in the same order (and with the same seed), pasted
	// in the project directory. A Go run of several packages has a seed
	// per package: Command runs each failed package with its own, and
	// Seed is empty unless they share one.
	Seed    string `json:"seed,omitempty"`
	Command string `json:"command"`
}

// Flaky is a test that failed, then passed on a rerun of it alone.
type Flaky struct {
	Name string `json:"name"`
	// Attempts counts the runs of the test, the first one included;
	// PassedOn is the attempt it passed on (2 for the first retry).
	Attempts     int          `json:"attempts"`
	PassedOn     int          `json:"passed_on"`
	FirstFailure FirstFailure `json:"first_failure"`
}

// FirstFailure is how a flaky test failed on its first attempt.
type FirstFailure struct {
	Message string `json:"message,omitempty"`
	File    string `json:"file,omitempty"`
	Line    int    `json:"line,omitempty"`
}

// Attempt is one run of a test that was retried: the first, then each
// rerun alone. Status is a test status, or the rerun's status when it
// ended without the test finishing (stuck, crashed, timeout, cancelled).
type Attempt struct {
	Status     string `json:"status"`
	DurationMS int64  `json:"duration_ms"`
	Message    string `json:"message,omitempty"`
	File       string `json:"file,omitempty"`
	Line       int    `json:"line,omitempty"`
	// RunID is the rerun's own run id, the STROBE_RUN_ID of its
	// processes; empty for the first attempt. A rerun has no details file
	// of its own: the run's holds its attempts.
	RunID string `json:"run_id,omitempty"`
}

// Repeat is the outcome of running a selection several times to hunt
// flaky tests: per test pass/fail counts, for the tests that failed at
// least once.
type Repeat struct {
	// Runs is how many runs were done; Requested how many were asked for.
	Runs      int `json:"runs"`
	Requested int `json:"requested"`
	// TestCount counts the distinct tests seen; Intermittent those that
	// both passed and failed; AlwaysFailed those that failed every run
	// they ran in.
	TestCount    int          `json:"test_count"`
	Intermittent int          `json:"intermittent"`
	AlwaysFailed int          `json:"always_failed"`
	Tests        []RepeatTest `json:"tests,omitempty"`
	// TestsOmitted counts tests left out of a long list.
	TestsOmitted int `json:"tests_omitted,omitempty"`
	// Stopped says why the runs ended before Requested (a cancel, a run
	// that was stuck, crashed or did not build).
	Stopped string `json:"stopped,omitempty"`
}

// RepeatTest is one test's counts over a repeat's runs.
type RepeatTest struct {
	Name   string `json:"name"`
	Passed int    `json:"passed"`
	Failed int    `json:"failed"`
}

// Changes is what a run changed since the previous comparable run: tests by
// name (a test's suite is added when two suites share the name).
type Changes struct {
	// Since is the run id compared with.
	Since        string `json:"since"`
	NewFailures  Names  `json:"new_failures"`
	StillFailing Names  `json:"still_failing"`
	Fixed        Names  `json:"fixed"`
	NewTests     Names  `json:"new_tests"`
	RemovedTests Names  `json:"removed_tests"`
	// Partial says this run ended before every test ran (stuck, timeout,
	// crash, cancel, build failure): it compares only the tests it ran,
	// and removed_tests stays empty.
	Partial bool `json:"partial,omitempty"`
	// CutOff are the tests a crash or strobe's stop cut off: running
	// when strobe stopped the run (its timeout, a cancel, the stuck
	// detector's verdict on another test), or when their process died
	// while it ran several tests, none of them named as the cause. They
	// neither failed nor passed on their own, so they are in no other
	// list: not new failures now, not fixed when they pass next. Absent
	// when there are none.
	CutOff *Names `json:"cut_off,omitempty"`
}

// Names is a list of tests with its length; a response lists the first few
// names only, the details file all of them.
type Names struct {
	Count int      `json:"count"`
	Names []string `json:"names,omitempty"`
}

// Progress is a running run's live state: how far it got, what runs now,
// and what looks wrong so far.
type Progress struct {
	Phase     string        `json:"phase"` // building or running
	Passed    int           `json:"passed"`
	Failed    int           `json:"failed"`
	Skipped   int           `json:"skipped"`
	ElapsedMS int64         `json:"elapsed_ms"`
	Running   []RunningTest `json:"running,omitempty"`
	// Warning is a stuck suspicion not confirmed yet.
	Warning string `json:"warning,omitempty"`
}

// RunningTest is a test that started and has not finished.
type RunningTest struct {
	Name      string `json:"name"`
	ElapsedMS int64  `json:"elapsed_ms"`
}

// Summary counts the tests of a run.
type Summary struct {
	Passed     int   `json:"passed"`
	Failed     int   `json:"failed"`
	Skipped    int   `json:"skipped"`
	Stuck      int   `json:"stuck"`
	DurationMS int64 `json:"duration_ms"`
	// Flaky counts the tests that passed only on a retry; they are
	// counted in Passed too, not in Failed.
	Flaky int `json:"flaky,omitempty"`
}

// Failure is one failed test: where, why, and how to rerun just it.
type Failure struct {
	Name            string   `json:"name"`
	File            string   `json:"file,omitempty"`
	Line            int      `json:"line,omitempty"`
	Message         string   `json:"message,omitempty"`
	Rerun           string   `json:"rerun,omitempty"`
	SuggestedTraces []string `json:"suggested_traces,omitempty"`
	// Repeated counts the runs in a row, this one included, in which this
	// test failed with this same failure (message numbers, addresses, temp
	// paths and durations aside); set from 2 on.
	Repeated int `json:"repeated,omitempty"`
	// Attempts counts the runs of a test retried and failed every time,
	// the first one included; 0 when it was not retried.
	Attempts int `json:"attempts,omitempty"`
	// Later are the test's failures after the first, in order, when its
	// framework lets a test fail several times before it ends (several
	// t.Errorf, EXPECT_*, CHECK, expect.soft): File, Line and Message stay
	// the first's, and Message ends naming the first few of these. The
	// details file keeps the list (its first 100; LaterOmitted counts the
	// rest); the answer leaves it out, its message says enough.
	Later        []LaterFailure `json:"later_failures,omitempty"`
	LaterOmitted int            `json:"later_failures_omitted,omitempty"`
	// Select, when set, is the name that selects this failure again in
	// place of the test's own, for retries and --failed (onlyFailed): a
	// late error, which the framework pinned on the test running when it
	// came (a timer an earlier test left behind throws) and which that
	// test alone does not reproduce, is selected by its test file's
	// name, which runs the file whole.
	Select string `json:"select,omitempty"`
}

// LaterFailure is a failure of a test after its first: another failed
// assertion that did not stop the test.
type LaterFailure struct {
	File    string `json:"file,omitempty"`
	Line    int    `json:"line,omitempty"`
	Message string `json:"message"`
}

// BuildError is one compiler error that kept the tests from running.
type BuildError struct {
	File    string `json:"file,omitempty"`
	Line    int    `json:"line,omitempty"`
	Column  int    `json:"column,omitempty"`
	Message string `json:"message"`
}

// StuckTest is a test the stuck detector judged hung, with the evidence.
type StuckTest struct {
	Name string `json:"name"`
	// Suite is the test's suite when the adapter named the test from its
	// stacks (a doctest's crate), for the history to know it.
	Suite           string   `json:"suite,omitempty"`
	ElapsedMS       int64    `json:"elapsed_ms"`
	Diagnosis       string   `json:"diagnosis"`
	Threads         []Thread `json:"threads,omitempty"`
	SuggestedTraces []string `json:"suggested_traces,omitempty"`
	// File and Line are set when the stuck test was learnt from its
	// stacks rather than from the framework's output (a doctest, which
	// rustdoc names only once it ends): where it is. Rerun is the command
	// that runs it alone, when its adapter can say it.
	File  string `json:"file,omitempty"`
	Line  int    `json:"line,omitempty"`
	Rerun string `json:"rerun,omitempty"`
	// AfterTests says no test was running: the tests had finished and the
	// process did not exit (a server a test left open, a thread Python
	// joins at exit). Name is then the command; summary.stuck counts it
	// not, as it is no test.
	AfterTests bool `json:"after_tests,omitempty"`
}

// Thread is one thread's (or goroutine's) stack, frames as "function (file:line)".
type Thread struct {
	Name  string   `json:"name"`
	Stack []string `json:"stack"`
}

// CrashType says how a run ended when it did not end with a clean pass.
type CrashType string

const (
	CrashNone               CrashType = "none"
	CrashSegmentationFault  CrashType = "segmentation_fault"
	CrashAbort              CrashType = "abort"
	CrashKilled             CrashType = "killed"
	CrashInterrupted        CrashType = "interrupted"
	CrashTerminated         CrashType = "terminated"
	CrashTimeout            CrashType = "timeout"
	CrashBusError           CrashType = "bus_error"
	CrashIllegalInstruction CrashType = "illegal_instruction"
	CrashFloatingPoint      CrashType = "floating_point"
	// CrashSanitizer is a process a sanitizer (AddressSanitizer,
	// UndefinedBehaviorSanitizer, ThreadSanitizer...) stopped on an error
	// it reports, with no signal behind it (a heap-use-after-free); the
	// crash's indicator names the sanitizer. One that caught a signal is
	// that signal's type.
	CrashSanitizer    CrashType = "sanitizer"
	CrashBuildFailure CrashType = "build_failure"
	CrashTestFailure  CrashType = "test_failure"
	CrashUnknown      CrashType = "unknown"
	// CrashStopped is a run strobe itself stopped: the stuck detector's
	// verdict, the test timeout or a cancel (Crash.StoppedBy says which).
	// Nothing crashed; whatever signal the process died of was strobe's.
	CrashStopped CrashType = "stopped"
)

// IndicatorInfrastructure is the crash indicator of a test runner that
// failed itself (an Xcode runner that timed out registering, failed to
// launch): not a failure of the code under test. The runner branches on
// it: the adapter's hint, which quotes the error, says all there is.
const IndicatorInfrastructure = "test_runner_infrastructure_error"

// IndicatorBinaryDied is the adapter's indicator of a test binary that
// died before its last test (a Go panic ends the package's binary): the
// tests it had not started never ran and are in no count. The runner
// branches on it: no retry of one test makes such a run pass.
const IndicatorBinaryDied = "test_binary_died"

// IndicatorNotReached is the adapter's indicator of a run that left part
// of its selection unstarted for want of a test binary dying: a build
// tool that skipped the modules after one that failed (Maven's reactor
// summary: `app ..... SKIPPED`). Their tests are in no count; the runner
// branches on it as on IndicatorBinaryDied: no retry of one test makes
// the run pass, and the history does not call the unstarted tests removed.
const IndicatorNotReached = "tests_not_reached"

// Stop reasons: why strobe stopped a run it started.
const (
	StoppedStuck     = "stuck"
	StoppedTimeout   = "timeout"
	StoppedCancelled = "cancelled"
)

// Crash classifies an unclean end of a run. It is present whenever the run
// did not pass; Type test_failure or build_failure means an ordinary,
// orderly failure, anything else a crash.
type Crash struct {
	Type       CrashType `json:"type"`
	Signal     int       `json:"signal,omitempty"`
	SignalName string    `json:"signal_name,omitempty"`
	CoreDump   bool      `json:"core_dump"`
	ExitCode   int       `json:"exit_code"`
	// Indicators name the evidence that was read from the output
	// (for instance "runtime_panic_sigsegv" or "test_binary_signaled").
	Indicators    []string `json:"indicators,omitempty"`
	SilentFailure bool     `json:"silent_failure"`
	// RunningTests are the tests that had started and not finished when
	// the process died: the suspects.
	RunningTests []string `json:"running_tests,omitempty"`
	// Died, when the adapter knows it, says that each of RunningTests
	// crashed in a process of its own (CTest and nextest run every test
	// in one), and what ended it: Died[i] ("died of SIGSEGV") is
	// RunningTests[i]'s. The runner's hint then says that each crashed,
	// not that one of them did it. Not in the answer: Message says it.
	Died    []string `json:"-"`
	Message string   `json:"message,omitempty"`
	// StoppedBy says why strobe stopped the run (stuck, timeout,
	// cancelled) when Type is stopped; empty otherwise.
	StoppedBy string `json:"stopped_by,omitempty"`
}

// Project describes what strobe saw in a project that gave it no tests.
type Project struct {
	Language    string   `json:"language,omitempty"`
	BuildSystem string   `json:"build_system,omitempty"`
	TestFiles   []string `json:"test_files,omitempty"`
}

// TestStatus is the outcome of one test.
type TestStatus string

const (
	TestPassed  TestStatus = "passed"
	TestFailed  TestStatus = "failed"
	TestSkipped TestStatus = "skipped"
	// TestRunning marks a test that started and never finished: the run
	// crashed, timed out or was cancelled around it.
	TestRunning TestStatus = "running"
	// TestStuck marks a test the stuck detector found stuck: strobe
	// stopped the run around it (Response.Stuck has its diagnosis).
	TestStuck TestStatus = "stuck"
)

// DidNotFinish begins the failure message of a test that was running when
// its process ended (a signal, exit() in a test, a test binary that died):
// it did not fail on its own, the process's end cut it off. Beside
// Crash.RunningTests it tells the history a crash's suspects from the
// test a crash names (a stack overflow's thread), whose message says so.
const DidNotFinish = "did not finish: "

// Test is one test as the details file records it.
type Test struct {
	Name       string     `json:"name"`
	Suite      string     `json:"suite,omitempty"`
	Status     TestStatus `json:"status"`
	DurationMS int64      `json:"duration_ms"`
	Output     string     `json:"output,omitempty"`
	// OutputTruncated says Output holds only the newest bytes.
	OutputTruncated bool     `json:"output_truncated,omitempty"`
	Failure         *Failure `json:"failure,omitempty"`
	// Flaky marks a test that failed and passed on a retry: its Status is
	// passed and Failure is its first failure.
	Flaky bool `json:"flaky,omitempty"`
	// Attempts are every run of a retried test, the first one included.
	Attempts []Attempt `json:"attempts,omitempty"`
}

// Exit is how the test command's process ended, read from its wait status.
type Exit struct {
	Exited     bool   `json:"exited"`
	Code       int    `json:"code"`
	Signaled   bool   `json:"signaled"`
	Signal     int    `json:"signal,omitempty"`
	SignalName string `json:"signal_name,omitempty"`
	CoreDump   bool   `json:"core_dump"`
	// StoppedBy is set when strobe itself ended the process (stuck,
	// timeout, cancelled): its signal is then strobe's, not the test's.
	// Parsers read it in Finish instead of guessing from SIGTERM.
	StoppedBy string `json:"stopped_by,omitempty"`
}
