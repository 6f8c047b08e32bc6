// Package adapters knows test frameworks: how sure it is that a project uses
// one, the command that runs a suite, a level or a single test, and a
// streaming parser that turns the command's output into test events, failures
// with file:line and rerun commands, build errors and crash evidence.
//
// The package exports the Adapter interface, the registry (Lookup, Names,
// Detect) and the Recorder that every parser records into; the adapters
// themselves stay unexported, one file per framework.
package adapters

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strings"
	"time"

	"strobe/internal/shell"
	"strobe/report"
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
		return usagef("the %s framework has no doctests: level doc runs Rust's documentation examples (cargo); use unit, integration or e2e, or leave the level out", a.Name())
	}
	return nil
}

// Request is what an adapter needs to plan a run. ProjectRoot is absolute and
// exists; Command, when set, is already split into words.
type Request struct {
	ProjectRoot string
	Level       Level
	Test        string
	Command     []string
	// Env is the environment of the run: the client's with the request's
	// overrides. Whatever an adapter runs itself (a probe, cargo metadata)
	// runs with it, and finds programs on its PATH; nil means this
	// process's own.
	Env []string
}

// Detection is an adapter's confidence that it runs a project's tests.
type Detection struct {
	// Confidence runs from 0 (not this framework) to 100 (certain).
	// The generic adapter always answers 1.
	Confidence int
	// Hint explains a low or missing confidence, or what was found.
	Hint string
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
	// into rec.
	Plan(req Request, rec *Recorder) (*Plan, error)
}

// Plan is one command to run and the parser for its output.
type Plan struct {
	Argv []string
	Dir  string
	// Env is added to the client's environment (KEY=VALUE).
	Env    []string
	Parser Parser
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

func usagef(format string, args ...any) error {
	return &UsageError{Msg: fmt.Sprintf(format, args...)}
}

var registry = map[string]Adapter{}

func register(a Adapter) { registry[a.Name()] = a }

// Names lists the known frameworks, sorted.
func Names() []string {
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Lookup returns the adapter called name, or a usage error listing the known ones.
func Lookup(name string) (Adapter, error) {
	a, ok := registry[strings.ToLower(name)]
	if !ok {
		return nil, usagef("unknown framework %q: use one of %s", name, strings.Join(Names(), ", "))
	}
	return a, nil
}

// Detect picks the adapter for req: the most confident one wins, ties going
// to the name that sorts first so the choice is stable. Generic (confidence
// 1) only wins when a command was given; without one, a project nothing
// recognises is a usage error with the hints the adapters gave.
func Detect(req Request) (Adapter, Detection, error) {
	var best Adapter
	var bestD Detection
	var hints []string
	for _, name := range Names() {
		a := registry[name]
		d := a.Detect(req)
		if d.Confidence > bestD.Confidence {
			best, bestD = a, d
		}
		if d.Hint != "" && d.Confidence == 0 {
			hints = append(hints, d.Hint)
		}
	}
	if best == nil || (bestD.Confidence <= 1 && len(req.Command) == 0) {
		msg := fmt.Sprintf("no test framework found in %s: pass --framework (one of %s) or --command with the test command", req.ProjectRoot, strings.Join(Names(), ", "))
		if len(hints) > 0 {
			msg += " (" + strings.Join(hints, "; ") + ")"
		}
		return nil, Detection{}, &UsageError{Msg: msg}
	}
	return best, bestD, nil
}

// toolCommand is exec.CommandContext for a program an adapter runs itself
// (a probe, cargo metadata): found on env's PATH and run with env, the
// client's, not the daemon's. A nil env means this process's.
func toolCommand(ctx context.Context, env []string, argv ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	if env != nil {
		if p, err := shell.LookPath(argv[0], env); err == nil {
			cmd.Path, cmd.Err = p, nil
		}
		cmd.Env = env
	}
	return cmd
}

// envValue is the last value of key in env, or this process's when env is nil.
func envValue(env []string, key string) string {
	if env == nil {
		return os.Getenv(key)
	}
	val := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, key+"="); ok {
			val = v
		}
	}
	return val
}

// durationOf converts fractional seconds, as test frameworks print them.
func durationOf(sec float64) time.Duration { return time.Duration(sec * float64(time.Second)) }
