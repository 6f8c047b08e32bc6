package unittest

import (
	"fmt"
	"strings"
	"sync"

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

const maxErrLines = 20

// parser reads the runner's events (from the stream's goroutine) and its
// stderr (from Line): a crash's faulthandler dump, or the error of a
// runner that could not start.
type parser struct {
	rec    *adapters.Recorder
	root   string
	test   string
	level  adapters.Level
	wd     *python.Workdir
	stream *python.Stream
	m      *python.Mapper
	prefix []string

	mu       sync.Mutex
	fatal    python.Fatal
	errLines []string
	closed   bool
}

func newParser(rec *adapters.Recorder, req adapters.Request, wd *python.Workdir, prefix []string) *parser {
	p := &parser{rec: rec, root: req.ProjectRoot, test: req.Test, level: req.Level, wd: wd, prefix: prefix}
	p.fatal.Root = req.ProjectRoot
	p.m = &python.Mapper{Rec: rec, Rerun: p.rerun}
	if wd != nil {
		p.stream = python.Follow(wd.Events, p.m)
	}
	return p
}

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
	p.mu.Lock()
	defer p.mu.Unlock()
	p.fatal.Line(b)
	if len(p.errLines) < maxErrLines {
		p.errLines = append(p.errLines, kit.Clip(string(b)))
	}
}

func (p *parser) Finish(exit report.Exit) adapters.Outcome {
	if p.stream != nil {
		p.stream.Stop()
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	st := p.m.State()
	var out adapters.Outcome
	if st.Unreadable > 0 {
		out.Indicators = append(out.Indicators, "unreadable_test_events")
	}
	if exit.StoppedBy != "" {
		return out
	}
	if len(st.CollectErrors) > 0 {
		out.BuildFailed, out.BuildErrors = true, st.CollectErrors
		return out
	}
	if exit.Signaled {
		out.Crash = p.fatal.Crash(exit, p.rec.Running(""))
		return out
	}
	if !st.Hello {
		// The runner never started (an interpreter too old, a broken
		// environment): its stderr says why.
		msg := "strobe's unittest runner did not start"
		if len(p.errLines) > 0 {
			msg += ": " + strings.Join(p.errLines, "\n")
		}
		out.Crash = &report.Crash{Type: report.CrashUnknown, ExitCode: exit.Code, Indicators: []string{"unittest_runner_failed"}, Message: kit.Clip(msg)}
		return out
	}
	if c := python.CutShort(st, exit, p.rec.Running(""), "the unittest runner"); c != nil {
		out.Crash = c
		return out
	}
	if exit.Code == exitNoTests {
		out.NoTests, out.ExitExplained = true, true
		out.Project = &report.Project{Language: "python", BuildSystem: "unittest"}
		if f := testFile(p.root); f != "" {
			out.Project.TestFiles = []string{f}
		}
		out.Hint = kit.NoTestsHint{
			Test: fmt.Sprintf("no test matched %q: name it by its dotted id, package.module.Class.test_method", p.test),
			All:  "unittest found no tests: test files are test*.py in importable directories, with TestCase classes whose methods start with test",
		}.For(p.test, p.level)
	}
	return out
}

// Close stops the events' reader and removes the runner's directory.
func (p *parser) Close() error {
	if p.stream != nil {
		p.stream.Stop()
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed || p.wd == nil {
		return nil
	}
	p.closed = true
	return p.wd.Remove()
}
