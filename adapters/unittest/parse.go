package unittest

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"strobe/adapters"
	"strobe/adapters/kit"
	"strobe/adapters/kit/python"
	"strobe/internal/shell"
	"strobe/report"
)

// The runner's exit codes (strobe_unittest.py).
const (
	exitNoTests = 5
)

// parser reads the runner's events (from the stream's goroutine) and its
// stderr (from Line): a crash's faulthandler dump, or the error of a
// runner that could not start.
type parser struct {
	python.Run
	rec    *adapters.Recorder
	root   string
	test   string
	level  adapters.Level
	prefix []string
	// rest is strobe's runner with --rest and the run's selection, which
	// restTool runs: nil for a run of one test (see restNames).
	rest     []string
	restTool kit.Tool
}

func newParser(rec *adapters.Recorder, req adapters.Request, wd *python.Workdir, prefix []string) *parser {
	p := &parser{rec: rec, root: req.ProjectRoot, test: req.Test, level: req.Level, prefix: prefix}
	p.Init(rec, req.ProjectRoot, wd, p.rerun)
	return p
}

// Rerun (adapters.Reruner): a test's name is its dotted id.
func (p *parser) Rerun(_, name string) string { return p.rerun(name) }

// rerun runs one test with unittest itself: no strobe needed to paste it.
func (p *parser) rerun(id string) string {
	if strings.Contains(id, " ") { // setUpClass (tests.test_x.TestY): rerun the class
		if i, j := strings.IndexByte(id, '('), strings.LastIndexByte(id, ')'); i >= 0 && j > i {
			id = id[i+1 : j]
		}
	}
	return shell.Join(append(append([]string{}, p.prefix...), id))
}

func (p *parser) Line(s adapters.Stream, b []byte, _ bool) {
	if s != adapters.Stderr {
		return
	}
	p.Mu.Lock()
	defer p.Mu.Unlock()
	p.Stderr(b)
}

func (p *parser) Finish(exit report.Exit) adapters.Outcome {
	p.StopEvents()
	p.Mu.Lock()
	defer p.Mu.Unlock()
	st, out := p.Outcome()
	p.finish(st, exit, &out)
	if len(st.NotRun) > 0 {
		// Neither removed from the project nor, once they run, new: the
		// run's changes are partial.
		out.Indicators = append(out.Indicators, report.IndicatorNotReached)
		out.Hint = kit.JoinNotes(out.Hint, notRunHint(st.NotRun))
	}
	return out
}

func (p *parser) finish(st python.State, exit report.Exit, out *adapters.Outcome) {
	if p.Ended(st, exit, p.rec, out) {
		switch {
		case exit.StoppedBy != "":
			out.Hint = kit.JoinNotes(out.Hint, p.restHint(p.unrunHint(st), exit.StoppedBy))
		case exit.Signaled:
			out.Hint = kit.JoinNotes(out.Hint, p.unrunHint(st))
		}
		return
	}
	if !st.Hello {
		// The runner never started (an interpreter too old, a broken
		// environment): its stderr says why.
		msg := "strobe's unittest runner did not start"
		if len(p.ErrLines) > 0 {
			msg += ": " + strings.Join(p.ErrLines, "\n")
		}
		out.Crash = &report.Crash{Type: report.CrashUnknown, ExitCode: exit.Code, Indicators: []string{"unittest_runner_failed"}, Message: kit.Clip(msg)}
		return
	}
	if p.CutShort(st, exit, p.rec, "the unittest runner", out) {
		out.Hint = kit.JoinNotes(out.Hint, p.unrunHint(st))
		return
	}
	if exit.Code == exitNoTests {
		out.NoTests, out.ExitExplained = true, true
		out.Project = &report.Project{Language: "python", BuildSystem: "unittest"}
		if f, _ := testFile(p.root); f != "" {
			out.Project.TestFiles = []string{f}
		}
		out.Hint = kit.NoTestsHint{
			Test: fmt.Sprintf("no test matched %q: name it by its dotted id, package.module.Class.test_method", p.test),
			All:  "unittest found no tests: test files are test*.py in importable directories, with TestCase classes whose methods start with test",
		}.For(p.test, p.level)
	}
}

// unrunHint says how many of the tests the runner collected
// (suite.countTestCases(), sent before the first test) did not run, for
// a run that ended before its last test, as pytest's answer says it. The
// placeholder of a setUpClass or setUpModule error ("setUpClass
// (tests.test_x.TestY)") is no collected test: its class's tests did not
// run.
func (p *parser) unrunHint(st python.State) string {
	ran := 0
	for _, t := range p.rec.Tests() {
		if !strings.Contains(t.Name, " ") {
			ran++
		}
	}
	return python.UnrunHint(st, ran, "unittest")
}

// restTimeout bounds the loading of the selection that restNames asks
// of strobe's runner, as Catch2's listing of a stopped run is bounded.
const restTimeout = 5 * time.Second

// maxRestNames is the most names a rest's command gives: more is no
// command to paste.
const maxRestNames = 100

// restHint adds to said, for a run strobe stopped while tests ran, the
// command that runs the rest of its selection without them: unittest
// has no option that leaves a test out, so the command names what to run
// (restNames).
func (p *parser) restHint(said, by string) string {
	names, err := p.restNames()
	if len(names) > maxRestNames {
		return kit.JoinNotes(said, fmt.Sprintf("unittest has no option that leaves a test out, and the rest of the run without %s takes %d names, too many for one command line", kit.StoppedWhat(by), len(names)))
	}
	if err != nil || len(names) == 0 {
		return said
	}
	return kit.WithRest(said, "unittest", by, shell.Join(append(slices.Clone(p.prefix), names...)))
}

// restNames are the names that, given to python -m unittest, run the
// run's selection without the tests running when strobe stopped it,
// coarsest first: a module whose tests the selection holds all of and
// none of those, else such a class, else each test by its dotted id.
// strobe's runner loads the selection again to tell (--rest, bounded by
// restTimeout). None for a run of one test, or when no test was running
// (a class's or module's set-up that hung).
func (p *parser) restNames() ([]string, error) {
	running := p.rec.Progress().Running
	if p.rest == nil || len(running) == 0 {
		return nil, nil
	}
	argv := slices.Clone(p.rest[:4])
	for _, r := range running {
		argv = append(argv, r.Name)
	}
	argv = append(append(argv, "--"), p.rest[4:]...)
	out, _, err := kit.RunTool(context.Background(), p.restTool, argv...)
	if err != nil {
		return nil, err
	}
	return strings.Fields(string(out)), nil
}

// notRunHint says, per class or module whose set-up failed, how many of
// its tests unittest did not run: it skips them without a word, and they
// are in no count.
func notRunHint(notRun []python.NotRun) string {
	var said []string
	total := 0
	for _, n := range notRun {
		total += n.N
		if len(said) < 3 {
			what := "class"
			if n.Fixture == "setUpModule" {
				what = "module"
			}
			tests := fmt.Sprintf("its %d tests", n.N)
			if n.N == 1 {
				tests = "its test"
			}
			said = append(said, fmt.Sprintf("the %s of %s failed, so unittest did not run %s (the failure %s (%s) says why; its rerun runs the %s)",
				n.Fixture, n.Owner, tests, n.Fixture, n.Owner, what))
		}
	}
	if len(notRun) > len(said) {
		said = append(said, fmt.Sprintf("and %d more classes or modules", len(notRun)-len(said)))
	}
	return strings.Join(said, "; ") + fmt.Sprintf(": %s in no count", map[bool]string{true: "it is", false: "they are"}[total == 1])
}
