// Package adapters knows test frameworks: how sure it is that a project uses
// one, the command that runs a suite, a level or a single test, and a
// streaming parser that turns the command's output into test events, failures
// with file:line and rerun commands, build errors and crash evidence.
//
// The package is the contract between the runner and the adapters: the
// Adapter interface, the Request, Plan, Parser and Outcome, and the Recorder
// that every parser records into. Each framework is a package of its own
// under adapters/ exporting only New; adapters/all lists them.
package adapters

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"strobe/report"
	"strobe/trace"
)

// Level selects a part of a suite. The empty level is the whole suite.
type Level string

const (
	LevelAll         Level = ""
	LevelUnit        Level = "unit"
	LevelIntegration Level = "integration"
	LevelE2E         Level = "e2e"
	// LevelDoc is the documentation examples alone (Rust's doctests); only
	// adapters that implement DocTester accept it.
	LevelDoc Level = "doc"
)

// ParseLevel accepts "", "all", "unit", "integration", "e2e" and "doc".
func ParseLevel(s string) (Level, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "all":
		return LevelAll, nil
	case "unit":
		return LevelUnit, nil
	case "integration":
		return LevelIntegration, nil
	case "e2e":
		return LevelE2E, nil
	case "doc":
		return LevelDoc, nil
	}
	return "", &UsageError{Msg: fmt.Sprintf("unknown level %q: use unit, integration, e2e or doc, or leave it out for the whole suite", s)}
}

// DocTester is implemented by an adapter whose framework has doctests, so
// that it can run LevelDoc.
type DocTester interface {
	DocTests()
}

// CheckLevel refuses a level the adapter cannot run: every adapter runs the
// suite, unit, integration and e2e, but only a DocTester runs doc.
func CheckLevel(a Adapter, l Level) error {
	if _, ok := a.(DocTester); l == LevelDoc && !ok {
		return Usagef("the %s framework has no doctests: level doc runs Rust's documentation examples (cargo); use unit, integration or e2e, or leave the level out", a.Name())
	}
	return nil
}

// Request is what an adapter needs to plan a run. ProjectRoot is absolute and
// exists; Command, when set, is already split into words.
type Request struct {
	ProjectRoot string
	Level       Level
	Test        string
	// TestSuite, when set, is the suite of Test as the Recorder named it
	// (a failure rerun alone: --failed one test at a time, a retry), for
	// an adapter whose Test alone would also select a test of the same
	// name in another suite (mocha's --grep runs in every file).
	TestSuite string
	// Tests, when set, selects several tests to run in one process
	// (rerunning what failed, a partition of the suite): only an adapter
	// that is a MultiSelector gets it, and Test is empty then.
	Tests   []TestRef
	Command []string
	// Env is the environment of the run: the client's with the request's
	// overrides. Whatever an adapter runs itself (a probe, cargo metadata)
	// runs with it, and finds programs on its PATH; nil means this
	// process's own.
	Env []string
	// Fresh says the tests must run, not be answered from a framework's
	// cache of earlier results (go test's): a run of a repeat's hunt, a
	// retry, a rerun of what failed. Without it, go test answers the same
	// command that passed before with that pass, and the test does not
	// run.
	Fresh bool
	// Trace, when set, asks for an instrumented run (tracePatterns,
	// watches): only an adapter that is a Tracer gets it. Its Plan runs
	// the command under the tracer, which reads the spec from the file
	// the runner names in trace.SpecEnv (set in every process's
	// environment) and writes its events under Trace.Out.
	Trace *trace.Spec
}

// Tracer is implemented by an adapter that can run its tests traced
// (Request.Trace). Tracer names the tracer ("gdb", "delve", "python"), for
// the answer and for the error a request gets when the tracer is missing.
type Tracer interface {
	Tracer() string
}

// TraceElsewhere is implemented by an adapter that cannot trace but whose
// tests another adapter can (a CTest test is often a GoogleTest or Catch2
// binary): the refusal of a traced run adds how, one line.
type TraceElsewhere interface {
	TraceElsewhere() string
}

// ExitAdvisor is implemented by an adapter whose framework's process can
// outlive its tests (mocha and jest wait for what the tests left open,
// Python joins every non-daemon thread): ExitAdvice says how to find and
// end what keeps it, one clause for the hint of a run stuck after its
// tests. Its process staying idle after its tests is then stuck even when
// the framework reports no end (stuck.Config.Lingers).
type ExitAdvisor interface {
	ExitAdvice() string
}

// Detection is an adapter's confidence that it runs a project's tests.
type Detection struct {
	// Confidence runs from 0 (not this framework) to 100 (certain).
	// The generic adapter always answers 1.
	Confidence int
	// Hint explains a low or missing confidence, or what was found.
	Hint string
	// Confirm, when set, is a costly check (running a tool) that
	// Confidence holds only if it agrees. Detection calls it only for the
	// adapter it is about to pick, and takes its answer instead: a Go
	// project with Python fixtures no longer starts Python on every run
	// to ask whether pytest is installed (122 ms).
	Confirm func() Detection
}

// CommandClaimed is the confidence of an adapter that knows the command
// for its own by name ("go test", "cargo test") or by probing its program.
const CommandClaimed = 95

// CommandProber is an adapter whose Detect, given a command, reads the
// command's program to tell whether it is one of its test binaries (and
// then runs it to list its tests): Catch2, GoogleTest. A program that is
// not theirs is read to its end (the 15 MB go, a 100 MB node), so
// detection asks them only when no other adapter claims the command by
// name (CommandClaimed): two frameworks cannot both own one program.
type CommandProber interface {
	Adapter
	ProbesCommand()
}

// Adapter is one test framework.
type Adapter interface {
	// Name is the framework's name as requests spell it ("cargo", "go").
	Name() string
	// Detect looks at the project (and the command, when given) and says
	// how confident the adapter is. It must be cheap: anything it runs
	// (a probe of a test binary) is bounded by a short timeout.
	Detect(req Request) Detection
	// Plan builds the command for req. The parser it returns records
	// into rec. Whatever Plan runs to decide (cargo metadata, xcodebuild
	// -list, a probe) stops when ctx ends: the run was cancelled, or
	// the daemon is going away, while it was being planned.
	Plan(ctx context.Context, req Request, rec *Recorder) (*Plan, error)
}

// Plan is one command to run and the parser for its output.
type Plan struct {
	Argv []string
	// Shown is the command the answer names (report.Response.Command)
	// when Argv carries what only strobe needs (a reporter, a plugin or a
	// report in the run's directory, removed after it; a tracer's
	// plumbing) or runs directly what a tool's proxy would have run: what
	// a person would type to run the same tests. Empty means Argv. The
	// details file keeps Argv, the exact one.
	Shown string
	Dir   string
	// Env is added to the client's environment (KEY=VALUE).
	Env    []string
	Parser Parser
	// Companion, when set, runs beside the command once it has started
	// (a tracer that drives a debugger over its API): the runner calls it
	// in a goroutine, cancels ctx when the command has ended, and waits
	// for it to return before the run's result is made. An error it
	// returns is recorded in the details file's indicators.
	Companion func(ctx context.Context) error
	// TestProcessBeginsTests says that the command prints nothing as its
	// tests begin (go test -v=test2json prints a test's first line as it
	// runs): the stuck detector ends the build phase when it first sees one
	// of the adapter's test processes, so that a test binary that hangs
	// before its first test is judged too.
	TestProcessBeginsTests bool
}

// Stream tells stdout from stderr.
type Stream int

const (
	Stdout Stream = iota
	Stderr
)

func (s Stream) String() string {
	if s == Stderr {
		return "stderr"
	}
	return "stdout"
}

// Parser reads a run's output as it comes. Line is called for every line
// of either stream, never concurrently; the line excludes its newline and
// must be copied if kept. A line longer than the runner's limit arrives cut,
// with cut set. Finish is called once, after the process ended.
type Parser interface {
	Line(s Stream, line []byte, cut bool)
	Finish(exit report.Exit) Outcome
}

// Closer is implemented by a parser that holds what Plan started (a
// goroutine tailing a report file, a temporary directory). The runner
// calls Close once it is done with the parser: after Finish, or instead
// of it when the command never started (a failed spawn, a run cancelled
// while planned). Close must work with or without Finish before it.
type Closer interface {
	Close() error
}

// Unwrapper is implemented by a parser that wraps another (gdb's tracer
// wraps the adapter's, to close its own files too). The runner finds the
// optional interfaces of a parser (CutLiner, Displayer, StuckNamer,
// StacksOverEvents, Reruner) on the parsers it wraps as well (ParserAs):
// a wrapper need not forward each. Closer is the wrapper's own.
type Unwrapper interface {
	Unwrap() Parser
}

// ParserAs finds the optional interface T on p, or on the parser p wraps
// (Unwrapper), and so on.
func ParserAs[T any](p Parser) (T, bool) {
	for p != nil {
		if t, ok := p.(T); ok {
			return t, true
		}
		u, ok := p.(Unwrapper)
		if !ok {
			break
		}
		p = u.Unwrap()
	}
	var zero T
	return zero, false
}

// CutLiner is implemented by a parser that can use the end of a line too
// long to keep whole (a failed test's 200 MB of captured output in one JSON
// line, with the panic message at its very end). The runner then calls
// CutLine instead of Line for such a line: head is the line's first bytes,
// end its last ones.
type CutLiner interface {
	CutLine(s Stream, head, end []byte)
}

// Outcome is what a parser found beyond the tests it recorded.
type Outcome struct {
	// BuildFailed says the tests could not be built; BuildErrors says where.
	BuildFailed bool
	BuildErrors []report.BuildError
	// Crash is crash evidence read from the output (a test binary that died
	// of a signal under a launcher, a runtime's fatal error), nil if none.
	Crash *report.Crash
	// NoTests says the suite ran and found no test; Project and Hint
	// explain it.
	NoTests bool
	Project *report.Project
	Hint    string
	// Summary holds counts read from a summary line, for frameworks that
	// count their tests without naming them; nil when tests were recorded,
	// unless Unread says the framework's totals count tests whose lines
	// could not be read: then the totals win over the recorded counts.
	Summary *report.Summary
	Unread  int `json:",omitempty"` // omitted: golden files stay as they were
	// Indicators name what the parser noticed about the output itself
	// (unreadable_test_events), for the details file.
	Indicators []string `json:",omitempty"`
	// Shuffle is set when the framework ran the tests in a random order,
	// or reseeded randomness, with a seed it printed (report.Shuffle).
	Shuffle *report.Shuffle `json:",omitempty"`
	// Flaky names the tests that failed and then passed on a retry the
	// framework made itself (nextest's retries): recorded as passed.
	Flaky []FlakyTest `json:",omitempty"`
	// Refused is the framework's one-line reason for refusing its command
	// before any test ran (pytest's usage error, exit 4: a -k expression
	// it cannot parse, an unknown option, a path that does not exist):
	// the answer has status error with it, Hint saying what to do. A
	// refusal is the command's, never a crash of the code under test.
	Refused string `json:",omitempty"`
	// ExitExplained says the parser read a non-zero exit code as the
	// framework's own word for the outcome above (pytest exits 5 when it
	// collected no test): the runner takes the outcome instead of calling
	// the exit a failure.
	ExitExplained bool `json:",omitempty"`
}

// UsageError is a request strobe cannot run as asked. Its text says what to
// do instead; the CLI exits 2 on it and the response has status error.
type UsageError struct {
	Msg string
	// Framework and Hint are set when the framework is known but the
	// project lacks what it needs to run (Catch2 tests never built): the
	// answer names the framework, and Hint says what to do, such as the
	// build command to run.
	Framework string
	Hint      string
}

func (e *UsageError) Error() string {
	if e.Hint == "" {
		return e.Msg
	}
	return e.Msg + ": " + e.Hint
}

// IsUsage reports whether err is (or wraps) a UsageError.
func IsUsage(err error) bool {
	var u *UsageError
	return errors.As(err, &u)
}

// Usagef is a *UsageError with a formatted message: how the runner and
// the adapters refuse a request, saying what to do instead.
func Usagef(format string, args ...any) error {
	return &UsageError{Msg: fmt.Sprintf(format, args...)}
}
