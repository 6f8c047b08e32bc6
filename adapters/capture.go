package adapters

import (
	"context"
	"time"

	"strobe/report"
)

// Proc is one process of a run's tree, as the stuck detector sees it.
type Proc struct {
	PID  int
	Name string // comm, at most 15 bytes
	Exe  string // the executable's path ("" when unreadable)
	Args []string
}

// TestProcesser is implemented by an adapter whose command launches the
// processes that run the tests (cargo runs test binaries, go test runs
// pkg.test): the stuck detector judges and captures those, not the
// launcher at the root of the tree.
type TestProcesser interface {
	IsTestProcess(p Proc) bool
}

// Harnesser is implemented by an adapter whose test harness has threads
// of its own whose waits say nothing about the tests (libtest's main
// thread waits, with a timeout, for the threads that run the tests).
type Harnesser interface {
	IsHarnessThread(p Proc, tid int, name string) bool
}

// TestRunner is implemented by a parser that knows which processes run a
// test now (mocha --parallel's workers say which test they run, jest's
// workers and vitest's forks which file): among
// several test processes whose threads wait, the stuck detector judges
// those running a test. A pool's worker that has finished its files waits
// for more on its pipe, with no timeout, and read beside a test's promise
// that never settles it made the verdict "blocked on I/O"
// (stuck.Config.RunsTest).
type TestRunner interface {
	RunsTest(pid int) bool
}

// StackCapturer is implemented by an adapter that captures a test
// process's stacks itself (a JVM's Java frames come from jstack). It
// answers the threads, their frames naming the project's files relative
// to root (the project's root, as failures name them: a module's file
// with the module's directory), or a reason when it has none; the
// detector then falls back to its own capture.
type StackCapturer interface {
	CaptureStacks(ctx context.Context, p Proc, root string) Stacks
}

// Stacks is an adapter's own capture of a stuck process.
type Stacks struct {
	Threads []report.Thread
	// Tests names the tests the stacks show running (Class#method), for a
	// framework whose output does not say which test runs (Surefire's
	// console names only the class).
	Tests  []string
	Reason string // why there are no threads
}

// SymbolLinker is implemented by an adapter whose test binaries run
// without the symbols the stuck detector needs to read them live (go test
// strips its binaries, and linking every one with DWARF would cost every
// run). LinkSymbols links a copy of p's binary with them into out, with
// the code unchanged, from the run's plan and environment; the detector
// asks only once a test process looks stuck.
type SymbolLinker interface {
	LinkSymbols(ctx context.Context, p Proc, plan *Plan, env []string, out string) error
}

// StuckNamer is implemented by a parser whose output names no test while
// it runs, where the stuck process's stacks do: rustdoc prints a doctest's
// name only once it has ended, and the doctest's program runs in a
// function named after its file and line. When a stuck[] entry names no
// test, the runner gives it, after Finish (the run's processes are gone),
// the frames of the stuck process's stacks, innermost first, each its
// function and, where known, its place ("<module> (tests/test_b.py:5)"); it
// answers the test they show running, ok false when they show none. A
// module Python hangs importing is named so too (kit/python).
type StuckNamer interface {
	NameStuck(ctx context.Context, funcs []string) (StuckName, bool)
}

// StacksOverEvents is implemented by a StuckNamer whose events lag behind
// its tests: node:test's test file processes write theirs
// asynchronously, so one that spins or blocks never sends the start of
// the test it runs, nor the end of the test before it, which stays
// "running", or, when the events it sent before had all ended, reads as
// no test running. The runner asks it to name a stuck test from the
// stacks even when a test was running or none was, and takes the name it
// gives (a process that lingers after its tests shows no project code).
type StacksOverEvents interface {
	StuckNamer
	StacksOverEvents()
}

// RestCommander is implemented by a StacksOverEvents parser, whose
// events may not show the test that hung when Finish is called: the
// runner asks it, once it has named the stuck tests from the stacks
// (NameStuck, after Finish), for the command that runs the rest of a run
// strobe stopped without them ("" for none), and adds it to the adapter's
// hint (kit.WithRest).
type RestCommander interface {
	RestCommand(stoppedBy string) string
}

// Reruner is implemented by a parser that can say the command that runs
// one of its tests alone (suite and name as it recorded them), "" when it
// cannot: a stuck test's answer gives it, as a failure's does, so that the
// hang can be run again (under a debugger, with a trace) without the rest.
type Reruner interface {
	Rerun(suite, name string) string
}

// UnitRunner is implemented by a parser that names no test while it runs,
// only the group running (Surefire's console names a class as it starts,
// its tests once the class has ended). RunningUnit says that group ("" for
// none), the prefix its tests' names share ("ElementIT#"), and since when:
// a slow test in it whose work looks like a spin (a loop in JIT-compiled
// code) is not called an endless loop before the group has run twice what
// its tests took together when they last passed, as a test named running
// is not (stuck.Config.Unit).
type UnitRunner interface {
	RunningUnit() (name, prefix string, since time.Time)
}

// StuckName is the test a stuck process's stacks show running.
type StuckName struct {
	// Name is the test's name as the framework spells it; when only
	// where it is could be learnt, Name says so ("a doctest at
	// src/lib.rs:77, whose name rustdoc did not say").
	Name  string
	Suite string // as the parser records the test's suite, "" for none
	File  string
	Line  int
	Rerun string // the command that runs it alone, "" when none does
}
