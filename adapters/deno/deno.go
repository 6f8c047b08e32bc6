// Package deno runs a project's tests with deno's own runner, deno test.
package deno

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"strobe/adapters"
	"strobe/adapters/kit"
	"strobe/adapters/kit/format"
	"strobe/adapters/kit/node"
	"strobe/internal/lazyre"
	"strobe/internal/shell"
	"strobe/report"
)

// deno runs `deno test` with its JUnit reporter writing to a file of its
// own, and NO_COLOR so that its console reads plainly:
//
//	deno test --junit-path=$TMPDIR/strobe-deno-*/report.xml [PATHS] [--filter '/^NAME$/']
//
// deno type-checks the test modules first ("Check …", the build phase):
// a type error (`TS2322 [ERROR]: …`) or a module that cannot be found
// (`error: Module not found …`) is a build error at the `at file:///…`
// line that follows it. Then, per module, "running N tests from ./x_test.ts"
// and a line per test, "name ... ok (2ms)", steps indented under their
// test, give live progress; a test with steps starts with "name ..." and
// the console's "------- output -------" blocks are its output. deno writes
// the report when the run ends: at Finish it gives each failure's message
// and file:line (the first stack frame in the test's module, else the
// test's declaration).
//
// Tests are named as the report names them, "test > step", in the suite
// of their module. --filter selects top-level tests only, so one step
// runs with its whole test: `--filter '/^test$/'`; a name that begins
// with a module's path ("math_test.ts > multiplies") runs that module
// only. A test its filter left out is in the report as skipped without a
// time: it is not recorded. A parent that failed only through its steps
// is counted, not listed. Levels are directories named unit, integration
// or e2e.
type deno struct{}

// New returns the deno adapter.
func New() adapters.Adapter { return deno{} }

func (deno) Name() string { return "deno" }

// Detect: 95 for a `deno test` command, 90 for deno.json or deno.jsonc,
// 85 for a package.json test script that runs `deno test`.
func (deno) Detect(req adapters.Request) adapters.Detection {
	if len(req.Command) > 0 {
		if isDenoTest(req.Command) {
			return adapters.Detection{Confidence: 95}
		}
		return adapters.Detection{}
	}
	root := req.ProjectRoot
	if kit.FileExists(filepath.Join(root, "deno.json")) || kit.FileExists(filepath.Join(root, "deno.jsonc")) {
		return adapters.Detection{Confidence: 90}
	}
	if pkg, ok := node.Read(root); ok && strings.Contains(pkg.TestScript(), "deno test") {
		return adapters.Detection{Confidence: 85}
	}
	return adapters.Detection{}
}

func isDenoTest(argv []string) bool {
	return len(argv) >= 2 && filepath.Base(argv[0]) == "deno" && argv[1] == "test"
}

func (deno) Plan(ctx context.Context, req adapters.Request, rec *adapters.Recorder) (*adapters.Plan, error) {
	argv, display, err := baseArgv(req)
	if err != nil {
		return nil, err
	}
	sel, err := selection(req)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "strobe-deno-")
	if err != nil {
		return nil, fmt.Errorf("deno: temporary directory for the report: %w", err)
	}
	p := newParser(rec, req, dir, display)
	argv = append(argv, "--junit-path="+p.report)
	argv = append(argv, sel...)
	return &adapters.Plan{Argv: argv, Dir: req.ProjectRoot, Env: []string{"NO_COLOR=1"}, Parser: p}, nil
}

// baseArgv is `deno test` with the user's own arguments, and the words a
// rerun starts with; the user's --junit-path gives way to strobe's.
func baseArgv(req adapters.Request) (argv []string, display string, err error) {
	if len(req.Command) > 0 {
		if !isDenoTest(req.Command) {
			return nil, "", adapters.Usagef("deno: the command must be `deno test …`, not %s: pass --command 'deno test' or leave --framework out", shell.Join(req.Command))
		}
		argv = []string{req.Command[0], "test"}
		for i := 2; i < len(req.Command); i++ {
			a := req.Command[i]
			if a == "--junit-path" {
				i++
				continue
			}
			if !strings.HasPrefix(a, "--junit-path=") {
				argv = append(argv, a)
			}
		}
		return argv, shell.Join(argv), nil
	}
	bin, err := node.Runtime("deno", "https://deno.com", req.ProjectRoot, req.Env)
	if err != nil {
		return nil, "", err
	}
	display = "deno test"
	if rel, ok := kit.Rel(req.ProjectRoot, bin); ok {
		display = "./" + rel + " test"
	}
	return []string{bin, "test"}, display, nil
}

// selection is the arguments that pick a level or one test.
func selection(req adapters.Request) ([]string, error) {
	if req.Test != "" {
		file, name := node.SplitTest(req.ProjectRoot, req.Test)
		var sel []string
		if file != "" {
			sel = append(sel, "./"+file)
		}
		return append(sel, "--filter", filterFor(name)), nil
	}
	return node.LevelArgs("deno", req)
}

// filterFor is the --filter regexp of a test, or of the test a step
// belongs to: deno filters top-level tests only.
func filterFor(name string) string {
	top, _, _ := strings.Cut(name, " > ")
	return "/^" + node.QuoteRegexp(top) + "$/"
}

var (
	runningLine = lazyre.New(`^running \d+ tests? from (.+)$`)
	resultLine  = lazyre.New(`^((?:  )*)(.+?) \.\.\. (ok|FAILED|ignored)(?: \(due to [^)]*\))? \(([\d.]+)(ms|µs|s|m)\)$`)
	startLine   = lazyre.New(`^((?:  )*)(.+?) \.\.\.$`)
	tsError     = lazyre.New(`^TS\d+ \[ERROR\]: (.+)$`)
	errorLine   = lazyre.New(`^error: (.+)$`)
	atLine      = lazyre.New(`^\s*at (?:.*\()?((?:file://)?/.+?|\./.+?|[^ ()]+?):(\d+):(\d+)\)?$`)
	summaryLine = lazyre.New(`^(?:ok|FAILED) \| (\d+) passed(?: \(\d+ steps?\))? \| (\d+) failed`)
	// "------- output -------", and "------- post-test output -------"
	// when several modules run
	outputStart = lazyre.New(`^-{3,} (?:[a-z-]+ )?output -{3,}$`)
	outputEnd   = lazyre.New(`^-{3,} (?:[a-z-]+ )?output end -{3,}$`)
	stepsFailed = lazyre.New(`^\d+ test steps? failed\.?$`)
)

type parser struct {
	rec     *adapters.Recorder
	root    string
	dir     string
	report  string
	display string
	test    string
	level   adapters.Level

	began   bool
	module  string   // the module whose tests run, project-relative
	stack   []string // the test and steps started, by depth
	output  bool     // inside an output block
	errMsg  string   // a build error's message, waiting for its location
	builds  []report.BuildError
	noTests bool
	counted bool // the summary line counted some test
}

func newParser(rec *adapters.Recorder, req adapters.Request, dir, display string) *parser {
	return &parser{rec: rec, root: req.ProjectRoot, dir: dir, report: filepath.Join(dir, "report.xml"), display: display, test: req.Test, level: req.Level}
}

func (p *parser) Line(_ adapters.Stream, b []byte, _ bool) {
	line := strings.TrimRight(kit.StripANSI(string(b)), "\r")
	if p.output {
		if outputEnd.MatchString(line) {
			p.output = false
		} else if len(p.stack) > 0 {
			p.rec.Output(p.module, strings.Join(p.stack, " > "), line+"\n")
		}
		return
	}
	switch {
	case outputStart.MatchString(line):
		p.output = true
	case runningLine.MatchString(line):
		p.rec.BeginTesting()
		p.began = true
		p.module = modulePath(p.root, runningLine.FindStringSubmatch(line)[1])
		p.stack = nil
	case p.began && resultLine.MatchString(line):
		p.result(resultLine.FindStringSubmatch(line))
	case p.began && startLine.MatchString(line):
		m := startLine.FindStringSubmatch(line)
		p.push(len(m[1])/2, m[2])
		p.rec.Start(p.module, strings.Join(p.stack, " > "))
	case line == "error: No test modules found":
		p.noTests = true
	case summaryLine.MatchString(line):
		m := summaryLine.FindStringSubmatch(line)
		p.counted = m[1] != "0" || m[2] != "0"
	case !p.began:
		p.buildLine(line)
	}
}

// push sets the test or step at depth.
func (p *parser) push(depth int, name string) {
	if depth > len(p.stack) {
		depth = len(p.stack)
	}
	p.stack = append(p.stack[:depth], name)
}

// result records a test's or step's console line.
func (p *parser) result(m []string) {
	p.push(len(m[1])/2, m[2])
	name := strings.Join(p.stack, " > ")
	p.stack = p.stack[:len(p.stack)-1]
	v, _ := strconv.ParseFloat(m[4], 64)
	d := map[string]time.Duration{"µs": time.Microsecond, "ms": time.Millisecond, "s": time.Second, "m": time.Minute}[m[5]]
	status := map[string]report.TestStatus{"ok": report.TestPassed, "FAILED": report.TestFailed, "ignored": report.TestSkipped}[m[3]]
	var f *report.Failure
	// A test that failed only through its steps is counted, not listed:
	// the steps' failures say why.
	if status == report.TestFailed && !strings.Contains(m[0], "(due to ") {
		f = &report.Failure{Name: name, File: p.module, Rerun: p.rerun(p.module, name)}
	}
	p.rec.End(p.module, name, status, time.Duration(v*float64(d)), f)
}

// buildLine reads the type check's and module loader's errors.
func (p *parser) buildLine(line string) {
	if m := tsError.FindStringSubmatch(line); m != nil {
		p.errMsg = m[1]
		return
	}
	if m := errorLine.FindStringSubmatch(line); m != nil {
		p.errMsg = m[1]
		if strings.HasPrefix(m[1], "Type checking failed") || strings.HasPrefix(m[1], "Test failed") {
			p.errMsg = ""
		}
		return
	}
	if m := atLine.FindStringSubmatch(line); m != nil && p.errMsg != "" {
		n, _ := strconv.Atoi(m[2])
		col, _ := strconv.Atoi(m[3])
		p.builds = append(p.builds, report.BuildError{File: modulePath(p.root, m[1]), Line: n, Column: col, Message: kit.Clip(p.errMsg)})
		p.errMsg = ""
	}
}

// modulePath names a module project-relative: deno prints "./x_test.ts"
// and "file:///abs/x_test.ts".
func modulePath(root, s string) string {
	s = strings.TrimPrefix(s, "file://")
	if filepath.IsAbs(s) {
		return kit.ProjectPath(root, s)
	}
	return strings.TrimPrefix(filepath.ToSlash(filepath.Clean(s)), "./")
}

// rerun runs one test (a step's whole test) of module.
func (p *parser) rerun(module, name string) string {
	return p.display + " " + shell.Quote("./"+module) + " --filter " + shell.Quote(filterFor(name))
}

func (p *parser) Finish(exit report.Exit) adapters.Outcome {
	if p.errMsg != "" && !p.began && exit.StoppedBy == "" {
		// A loader error with no location ("error: Module not found" without at).
		p.builds = append(p.builds, report.BuildError{Message: kit.Clip(p.errMsg)})
	}
	read := p.readReport()
	out := adapters.Outcome{BuildErrors: p.builds, BuildFailed: len(p.builds) > 0}
	if !read && len(p.rec.Tests()) > 0 && exit.StoppedBy == "" {
		out.Hint = "deno wrote no JUnit report: failures come from its console, without their messages"
	}
	if len(p.rec.Tests()) == 0 && !out.BuildFailed && exit.StoppedBy == "" && (p.noTests || exit.Exited && !p.counted) {
		out.NoTests = true
		out.Hint = kit.NoTestsHint{
			Test:  fmt.Sprintf("no test matched %q: deno names tests \"test > step\"; pass the name as a failure's rerun shows it", p.test),
			Level: fmt.Sprintf("no %s tests ran: deno's levels are the test modules under directories named %s", p.level, p.level),
			All:   "deno found no test modules: they are named *_test.ts, *.test.ts (or .js, .tsx…), or listed under \"test\" in deno.json",
		}.For(p.test, p.level)
	}
	return out
}

// readReport records the report's tests; false when there was none.
func (p *parser) readReport() bool {
	f, err := os.Open(p.report)
	if err != nil {
		return false
	}
	defer f.Close()
	r := format.NewJUnitReader(f)
	for {
		c, err := r.Next()
		if err != nil {
			return true
		}
		p.junitCase(c)
	}
}

// junitCase records one test case of the report.
func (p *parser) junitCase(c format.JUnitCase) {
	module := c.Classname
	if module == "" && len(c.Suites) > 0 {
		module = c.Suites[0]
	}
	module = modulePath(p.root, module)
	d := kit.DurationOf(c.Time)
	switch c.Status {
	case format.JUnitPassed:
		p.rec.End(module, c.Name, report.TestPassed, d, nil)
	case format.JUnitSkipped:
		if c.HasTime { // ignored; without a time, filtered out
			p.rec.End(module, c.Name, report.TestSkipped, d, nil)
		}
	default:
		if stepsFailed.MatchString(strings.TrimSpace(c.Text)) {
			p.rec.End(module, c.Name, report.TestFailed, d, nil)
			return
		}
		line := c.Line
		if n, ok := p.frameIn(c.Text, module); ok {
			line = n
		}
		msg := node.ErrorText(c.Text)
		if msg == "" {
			msg = strings.TrimPrefix(c.Message, "Uncaught ")
		}
		p.rec.End(module, c.Name, report.TestFailed, d, &report.Failure{Name: c.Name, File: module, Line: line, Message: msg, Rerun: p.rerun(module, c.Name)})
	}
}

// frameIn finds the line of the first stack frame in module.
func (p *parser) frameIn(text, module string) (int, bool) {
	for _, l := range strings.Split(text, "\n") {
		if m := atLine.FindStringSubmatch(l); m != nil && modulePath(p.root, m[1]) == module {
			n, err := strconv.Atoi(m[2])
			return n, err == nil
		}
	}
	return 0, false
}

// Close removes the report's directory.
func (p *parser) Close() error { return os.RemoveAll(p.dir) }
