// Package bun runs a project's tests with bun's own runner, bun test.
package bun

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

// bun runs `bun test` with its JUnit reporter writing to a file of its own:
//
//	bun test --reporter=junit --reporter-outfile=$TMPDIR/strobe-bun-*/report.xml [PATHS] [-t PATTERN]
//
// bun writes the report only when the run ends, so live progress comes
// from its console: the "file.test.ts:" header and the "(pass) describe >
// test [0.04ms]" lines it prints on stderr as each test ends. At Finish the
// report gives each failure's message and the test's declaration; the
// failure's file:line is the first stack frame in the test's own file, as
// bun prints it. A file that fails to load (a syntax error, a missing
// import) appears only on the console, as "# Unhandled error between
// tests": that is a build error at the frame it names.
//
// Tests are named as bun prints them, "describe > test", in the suite of
// their file. One test runs by `-t '^describe test$'` (bun matches the
// pattern against the names joined by spaces); a name that begins with a
// test file's path ("math.test.ts > describe > test") runs that file
// only. Levels are directories named unit, integration or e2e.
type bun struct{}

// New returns the bun adapter.
func New() adapters.Adapter { return bun{} }

func (bun) Name() string { return "bun" }

// Detect: 95 for a `bun test` command, 90 for a package.json test script
// that runs `bun test`, 80 for bunfig.toml, 60 for bun's lockfile alone
// (a bun project may well test with jest or vitest, whose adapters claim
// it more surely).
func (bun) Detect(req adapters.Request) adapters.Detection {
	if len(req.Command) > 0 {
		if isBunTest(req.Command) {
			return adapters.Detection{Confidence: 95}
		}
		return adapters.Detection{}
	}
	root := req.ProjectRoot
	if pkg, ok := node.Read(root); ok && strings.Contains(pkg.TestScript(), "bun test") {
		return adapters.Detection{Confidence: 90}
	}
	if kit.FileExists(filepath.Join(root, "bunfig.toml")) {
		return adapters.Detection{Confidence: 80}
	}
	if kit.FileExists(filepath.Join(root, "bun.lock")) || kit.FileExists(filepath.Join(root, "bun.lockb")) {
		return adapters.Detection{Confidence: 60}
	}
	return adapters.Detection{}
}

// isBunTest says whether argv runs bun's test runner.
func isBunTest(argv []string) bool {
	return len(argv) >= 2 && filepath.Base(argv[0]) == "bun" && argv[1] == "test"
}

func (bun) Plan(ctx context.Context, req adapters.Request, rec *adapters.Recorder) (*adapters.Plan, error) {
	argv, display, err := baseArgv(req)
	if err != nil {
		return nil, err
	}
	sel, err := selection(req)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "strobe-bun-")
	if err != nil {
		return nil, fmt.Errorf("bun: temporary directory for the report: %w", err)
	}
	report := filepath.Join(dir, "report.xml")
	argv = append(argv, "--reporter=junit", "--reporter-outfile="+report)
	argv = append(argv, sel...)
	rec.BeginTesting() // bun transpiles as it loads: no build phase to wait for
	p := newParser(rec, req, dir, display)
	return &adapters.Plan{Argv: argv, Dir: req.ProjectRoot, Parser: p}, nil
}

// newParser reads a run of req whose report goes to dir/report.xml.
func newParser(rec *adapters.Recorder, req adapters.Request, dir, display string) *parser {
	return &parser{rec: rec, root: req.ProjectRoot, dir: dir, report: filepath.Join(dir, "report.xml"), display: display,
		filtered: req.Test != "" || hasFilter(req.Command), test: req.Test, level: req.Level, seen: map[string]bool{}}
}

// baseArgv is `bun test` with the user's own arguments, and the words a
// rerun starts with. The user's reporter options give way to strobe's.
func baseArgv(req adapters.Request) (argv []string, display string, err error) {
	if len(req.Command) > 0 {
		if !isBunTest(req.Command) {
			return nil, "", adapters.Usagef("bun: the command must be `bun test …`, not %s: pass --command 'bun test' or leave --framework out", shell.Join(req.Command))
		}
		argv = []string{req.Command[0], "test"}
		for _, a := range req.Command[2:] {
			if strings.HasPrefix(a, "--reporter") || a == "--dots" {
				continue
			}
			argv = append(argv, a)
		}
		return argv, shell.Join(argv), nil
	}
	bin, err := node.Runtime("bun", "https://bun.sh", req.ProjectRoot, req.Env)
	if err != nil {
		return nil, "", err
	}
	display = "bun test"
	if rel, ok := kit.Rel(req.ProjectRoot, bin); ok {
		display = "./" + rel + " test"
	}
	return []string{bin, "test"}, display, nil
}

// hasFilter says whether a command selects tests by name itself.
func hasFilter(argv []string) bool {
	for _, a := range argv {
		if a == "-t" || strings.HasPrefix(a, "--test-name-pattern") {
			return true
		}
	}
	return false
}

// selection is the arguments that pick a level or one test.
func selection(req adapters.Request) ([]string, error) {
	if req.Test != "" {
		file, name := node.SplitTest(req.ProjectRoot, req.Test)
		var sel []string
		if file != "" {
			sel = append(sel, "./"+file)
		}
		return append(sel, "-t", namePattern(name)), nil
	}
	return node.LevelArgs("bun", req)
}

// namePattern is the -t regexp that matches exactly the test named
// "describe > test": bun matches its names joined by spaces.
func namePattern(name string) string {
	return "^" + node.SpacedPattern(name, " > ") + "$"
}

var (
	fileHeader = lazyre.New(`^(\S.*\.(?:[cm]?[jt]sx?)):$`)
	resultLine = lazyre.New(`^\((pass|fail|skip|todo)\) (.+?)(?: \[([\d.]+)(ms|s)\])?$`)
	errorLine  = lazyre.New(`^error: (.*)$`)
	atLine     = lazyre.New(`^\s*at (?:.*\()?(.+?):(\d+):(\d+)\)?$`)
	noMatch    = lazyre.New(`^error: regex .* matched 0 tests`)
	// banner is the line bun test starts with, on stdout; the results
	// come on stderr, read apart, so it may arrive after a file's first
	// lines: it is no test's output.
	banner = lazyre.New(`^bun test v\d+\.\d+\.\d+\S* \(\w+\)$`)
)

// maxPending bounds the console lines kept for the test that prints them
// before its result line (bun prints a failure's code frame first).
const maxPending = 200

type parser struct {
	rec      *adapters.Recorder
	root     string
	dir      string // the temporary directory of the report
	report   string
	display  string // the rerun's first words
	filtered bool   // a name pattern selects tests: bun skips the others in its report
	test     string
	level    adapters.Level

	file     string          // the file whose tests bun is running
	pending  []string        // lines since the last result line
	seen     map[string]bool // tests the console reported
	between  bool            // inside "# Unhandled error between tests"
	ranFile  bool            // a test of the current file has ended
	errMsg   string
	builds   []report.BuildError
	unhandle []string // unhandled errors after a file's tests began
	noTests  bool
}

func (p *parser) Line(_ adapters.Stream, b []byte, _ bool) {
	line := strings.TrimRight(kit.StripANSI(string(b)), "\r")
	switch {
	case p.between:
		p.unhandled(line)
	case line == "# Unhandled error between tests":
		p.between, p.errMsg = true, ""
	case fileHeader.MatchString(line):
		p.file, p.ranFile, p.pending = fileHeader.FindStringSubmatch(line)[1], false, nil
	case resultLine.MatchString(line):
		p.result(resultLine.FindStringSubmatch(line))
	case noMatch.MatchString(line), line == "No tests found!":
		p.noTests = true
	case banner.MatchString(line):
	default:
		if len(p.pending) < maxPending {
			p.pending = append(p.pending, line)
		}
	}
}

// result records a test's end from its console line.
func (p *parser) result(m []string) {
	name := m[2]
	var d time.Duration
	if v, err := strconv.ParseFloat(m[3], 64); err == nil {
		d = time.Duration(v * float64(time.Millisecond))
		if m[4] == "s" {
			d = kit.DurationOf(v)
		}
	}
	status := report.TestPassed
	switch m[1] {
	case "fail":
		status = report.TestFailed
	case "skip", "todo":
		status = report.TestSkipped
	}
	if out := strings.TrimSpace(strings.Join(p.pending, "\n")); out != "" {
		p.rec.Output(p.file, name, out+"\n")
	}
	p.pending, p.ranFile = nil, true
	p.seen[p.file+"\x00"+name] = true
	var f *report.Failure
	if status == report.TestFailed {
		f = &report.Failure{Name: name, File: p.file, Rerun: p.rerun(p.file, name)}
	}
	p.rec.End(p.file, name, status, d, f)
}

// unhandled reads an "Unhandled error between tests" block: a dashed line,
// the code frame, "error: …", its stack, a dashed line.
func (p *parser) unhandled(line string) {
	switch {
	case strings.HasPrefix(line, "---"):
		if p.errMsg != "" {
			p.between = false
			if p.ranFile {
				p.unhandle = append(p.unhandle, p.file+": "+p.errMsg)
			} else if len(p.builds) == 0 || p.builds[len(p.builds)-1].Message != p.errMsg {
				p.builds = append(p.builds, report.BuildError{File: p.file, Message: kit.Clip(p.errMsg)})
			}
		}
	case errorLine.MatchString(line) && p.errMsg == "":
		p.errMsg = errorLine.FindStringSubmatch(line)[1]
	case atLine.MatchString(line) && p.errMsg != "" && !p.ranFile:
		m := atLine.FindStringSubmatch(line)
		if len(p.builds) > 0 && p.builds[len(p.builds)-1].Message == p.errMsg {
			return
		}
		n, _ := strconv.Atoi(m[2])
		col, _ := strconv.Atoi(m[3])
		file := kit.ProjectPath(p.root, m[1])
		p.builds = append(p.builds, report.BuildError{File: file, Line: n, Column: col, Message: kit.Clip(p.errMsg)})
	}
}

// rerun runs one test of file.
func (p *parser) rerun(file, name string) string {
	return p.display + " " + shell.Quote("./"+file) + " -t " + shell.Quote(namePattern(name))
}

func (p *parser) Finish(exit report.Exit) adapters.Outcome {
	read := p.readReport()
	// A test file that does not load is a build error even when the
	// others ran: its tests never did.
	out := adapters.Outcome{BuildErrors: p.builds, BuildFailed: len(p.builds) > 0}
	if out.BuildFailed && len(p.rec.Tests()) > 0 {
		out.Hint = fmt.Sprintf("%d test file(s) failed to load (%s); the other files' tests ran", len(p.builds), describe(p.builds))
	}
	if len(p.unhandle) > 0 {
		out.Hint = joinHint(out.Hint, "unhandled errors outside any test: "+kit.Clip(strings.Join(p.unhandle, "; ")))
	}
	if !read && len(p.rec.Tests()) > 0 && exit.StoppedBy == "" {
		out.Hint = joinHint(out.Hint, "bun wrote no JUnit report: failures come from its console, without their messages")
	}
	if len(p.rec.Tests()) == 0 && !out.BuildFailed && exit.StoppedBy == "" && (p.noTests || exit.Exited) {
		out.NoTests = true
		out.Hint = joinHint(out.Hint, kit.NoTestsHint{
			Test:  fmt.Sprintf("no test matched %q: bun names tests \"describe > test\"; pass the name as a failure's rerun shows it", p.test),
			Level: fmt.Sprintf("no %s tests ran: bun's levels are the test files under directories named %s", p.level, p.level),
			All:   `bun found no test files: they need ".test", "_test_", ".spec" or "_spec_" in their names`,
		}.For(p.test, p.level))
	}
	return out
}

// describe names the files of build errors.
func describe(errs []report.BuildError) string {
	var s []string
	for _, e := range errs {
		s = append(s, e.File)
	}
	return strings.Join(s, ", ")
}

func joinHint(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// readReport records the report's tests: the failures' messages and
// locations, and what the console did not show. False when there was no
// report to read.
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
	file := c.File
	if file == "" && len(c.Suites) > 0 {
		file = c.Suites[0]
	}
	file = kit.ProjectPath(p.root, file)
	name := c.FullName(" > ")
	seen := p.seen[file+"\x00"+name]
	d := kit.DurationOf(c.Time)
	switch c.Status {
	case format.JUnitPassed:
		p.rec.End(file, name, report.TestPassed, d, nil)
	case format.JUnitSkipped:
		// Under a name pattern bun lists every other test as skipped.
		if seen || !p.filtered {
			p.rec.End(file, name, report.TestSkipped, d, nil)
		}
	default:
		line := c.Line
		if n, ok := frameIn(c.Text, file); ok {
			line = n
		}
		msg := node.ErrorText(c.Text)
		if msg == "" {
			msg = c.Message
		}
		p.rec.End(file, name, report.TestFailed, d, &report.Failure{Name: name, File: file, Line: line, Message: msg, Rerun: p.rerun(file, name)})
	}
}

// frameIn finds the line of the first stack frame in file.
func frameIn(text, file string) (int, bool) {
	for _, l := range strings.Split(text, "\n") {
		m := atLine.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		if f := strings.TrimPrefix(m[1], "./"); f == file || strings.HasSuffix(f, "/"+file) {
			n, err := strconv.Atoi(m[2])
			return n, err == nil
		}
	}
	return 0, false
}

// Close removes the report's directory.
func (p *parser) Close() error { return os.RemoveAll(p.dir) }
