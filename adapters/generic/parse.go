package generic

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"strobe/adapters"
	"strobe/adapters/kit"
	"strobe/adapters/kit/format"
	"strobe/internal/lazyre"
	"strobe/internal/shell"
	"strobe/report"
)

// genericParser reads what a command strobe knows nothing of prints:
// TAP (plain, nested subtests, YAML diagnostics, under prove with its
// file verdicts and summary report, Test::More's diagnostics), automake's
// harness lines (with each failed test's .log), compiler errors before
// any test ran, the result lines of a few frameworks run through a
// script (libtest, go test, GoogleTest, pytest), and summary lines.
type genericParser struct {
	rec  *adapters.Recorder
	root string
	argv []string
	test string // the test asked for, which the command cannot be told
	// filtered is the test asked for that the command was told (bats's
	// --filter).
	filtered string
	// members are the packages with tests of the workspaces root whose
	// test script runs (npm test -ws): their frameworks' results reach
	// strobe only when it is run on each.
	members []string
	dirs    []string // the directories make said it entered, innermost last

	tests int // tests recorded

	// TAP.
	n           int      // TAP tests seen, to name unnamed ones
	open        *tapTest // the last test line, until its YAML block (if any) ends
	yaml        *tapYAML // the YAML block being read
	pending     []*tapTest
	unittestRan int    // the tests unittest's "Ran N tests" counted
	planned     int    // tests the top-level plans announced (outside prove)
	ran         int    // top-level tests seen (outside prove)
	lastTAP     string // the last top-level test line (outside prove)
	bailed      string // a "Bail out!"'s line
	// unlocated are failed TAP tests with no file:line yet: a
	// Test::More diagnostic on the other stream may come after.
	unlocated []tapRef
	names     map[tapRef]bool // the TAP tests recorded, by suite and name
	diags     []*perlDiag
	diag      *perlDiag // the diagnostic whose lines go on
	// comments is the failed TAP test whose "# " lines on stdout go on
	// (bats's diagnostics), until a line that is not one.
	comments *tapComments

	// prove.
	prove      *proveFile // the file prove runs now
	proveFiles []*proveFile
	report     *proveFile // the file the summary report is about
	inReport   bool
	dies       map[string]perlDie // a test file's last "… at FILE line N." on stderr

	automake  []amTest
	buildErrs []report.BuildError
	lastErr   string // the last non-blank line of stderr
	summary   *report.Summary
}

// maxBuildErrors bounds the compiler errors kept: a flood of them must
// not grow the daemon (the answer shows 20).
const maxBuildErrors = 100

// tapPlanOf matches a TAP plan line; most lines do not start with "1.."
// and skip the regexp.
func tapPlanOf(line string) []string {
	if !strings.HasPrefix(line, "1..") {
		return nil
	}
	return tapPlan.FindStringSubmatch(line)
}

func newParser(rec *adapters.Recorder, root string, argv []string) *genericParser {
	return &genericParser{rec: rec, root: root, argv: argv, dies: map[string]perlDie{}}
}

// tapTest is a TAP test line and what its YAML block and the diagnostics
// add.
type tapTest struct {
	indent    int
	name      string // with its parents' names, "parent/child", once they are known
	leaf      string // its own name
	status    report.TestStatus
	line      string
	file      string
	lineNo    int
	msg       string
	subFailed bool // a subtest failed
	number    int
}

type tapRef struct{ suite, name, leaf string }

// tapComments are the "# " lines after a failed TAP test that had no
// YAML block: bats's "(in test file test/x.bats, line 7)", the command
// that failed and the test's output.
type tapComments struct {
	ref   tapRef
	bare  string // the failure's message until a comment says more: its TAP line
	lines int
}

// tapYAML is a YAML diagnostics block ("  ---" … "  ...").
type tapYAML struct {
	indent int // the "---" line's, which "..." ends the block at
	// keys is the indentation of the block's keys: the "---" line's
	// (node:test's) or deeper (tape's two spaces); -1 until the first.
	keys     int
	t        *tapTest
	key      string // the block scalar being read ("error: |-"), "" for none
	stack    bool   // the first frame of its stack is taken
	expected string
	actual   string
}

// perlDiag is Test::More's "#   Failed test 'name'" / "#   at t/x.t line 5."
type perlDiag struct {
	name string
	file string
	line int
	msg  []string
	used bool
	// to is the failure it was given to, suite and name, while its
	// lines may go on: Test::More writes them to stderr, and "got:",
	// "expected:" may come after its "at" line placed the failure.
	to *[2]string
	// stream is the one it is written on: the other's lines (prove's TAP
	// on stdout, between two of its lines) neither end it nor go on it.
	stream adapters.Stream
}

type perlDie struct {
	msg  string
	line int
}

// proveFile is one test file prove ran.
type proveFile struct {
	name     string
	verdict  report.TestStatus // "" until prove says
	reason   string            // a skipped file's
	notes    []string          // prove's lines about it: "Dubious, test returned 1", the summary report's
	planned  int
	ran      int
	tap      bool // its TAP lines were seen (prove -v)
	failures int  // its failed TAP tests
	signal   string
	problems bool // the summary report names a problem (not "TODO passed")
}

type amTest struct{ dir, name string }

var (
	automakeLine = lazyre.New(`^(PASS|FAIL|SKIP|XFAIL|XPASS|ERROR): (.+)$`)
	summaryLine  = lazyre.New(`^(?:\w+:\s*)?(\d+) passed, (\d+) failed(?:, (\d+) skipped)?\s*$`)
	// unittest's closing lines: "Ran 774 tests in 1.234s", then "OK",
	// "OK (skipped=3)" or "FAILED (failures=1, errors=2)".
	unittestRan    = lazyre.New(`^Ran (\d+) tests? in [\d.]+s$`)
	unittestResult = lazyre.New(`^(?:OK|FAILED)(?: \((.*)\))?\s*$`)
	// Maven Surefire's totals (a class's own line goes on with "Time
	// elapsed"), when a shell runs mvn: errors are failures.
	surefireTotal = lazyre.New(`^(?:\[\w+\]\s+)?Tests run: (\d+), Failures: (\d+), Errors: (\d+), Skipped: (\d+)\s*$`)

	tapPlan = lazyre.New(`^1\.\.(\d+)\b`)
	// prove's line for a test file: "t/01-add.t ... " then its verdict,
	// on the line or later ("ok", "skipped: no network").
	proveHeader = lazyre.New(`^(\S+) \.{2,} ?(ok(?:\s.*)?|skipped: .*)?$`)
	proveReport = lazyre.New(`^(\S+) \(Wstat: \d+(?: \((?:exited \d+|Signal: (\w+))\))? +Tests: \d+ +Failed: \d+\)$`)
	badPlan     = lazyre.New(`You planned (\d+) tests? but ran (\d+)`)
	perlFailed  = lazyre.New(`^#\s+Failed (\(TODO\) )?test(?: '(.*?)')?(?:\s+at (.+?) line (\d+)\.)?\s*$`)
	perlAt      = lazyre.New(`^#\s+(?:at|in) (.+?) (?:at )?line (\d+)\.?\s*$`)
	perlDieLine = lazyre.New(`^(.+) at (\S+) line (\d+)\.$`)
	// bats's place of a failure, the test's own line after the helper's:
	// "# (in test file test/x.bats, line 7)", "#  in test file …, line 7)",
	// "# (from function `setup' in test file …, line 4)".
	batsAt = lazyre.New(`\bin test file (.+), line (\d+)\)\s*$`)
	// A stack frame in a YAML block: "Test.<anonymous> (/p/test/a.js:4:32)".
	stackFrame = lazyre.New(`(?:^|\(|\s)((?:/|\./|[\w.-]+/)[^\s():]*):(\d+)(?::\d+)?\)?\s*$`)

	makeDir = lazyre.New("^g?make(?:\\[\\d+\\])?: (Entering|Leaving) directory [`'](.+)'$")
	ccError = lazyre.New(`^(\S[^:]*):(\d+):(?:(\d+):)? (?:fatal )?error: (.+)$`)
	logLoc  = lazyre.New(`^([\w./-]+\.\w+):(\d+)[:\s]`)

	libtestLine = lazyre.New(`^test (\S+) \.\.\. (ok|FAILED|ignored)\b`)
	goLine      = lazyre.New(`^\s*--- (PASS|FAIL|SKIP): (\S+) \(`)
	gtestLine   = lazyre.New(`^\[ +(OK|FAILED|SKIPPED) +\] (\S+) \(\d+ ms\)$`)
	pytestLine  = lazyre.New(`^(FAILED|ERROR) (\S+::\S+)(?: - (.*))?$`)
	pytestTotal = lazyre.New(`^=+ (.*?\d+ (?:passed|failed|errors?|skipped).*?) in [\d.]+s(?: \(.*\))? =+$`)
)

func (p *genericParser) Line(s adapters.Stream, b []byte, _ bool) {
	line := strings.TrimRight(string(b), "\r")
	if p.yaml != nil && p.yamlLine(line) {
		return
	}
	trimmed := strings.TrimLeft(line, " ")
	indent := len(line) - len(trimmed)
	if p.open != nil {
		if trimmed == "---" && indent > p.open.indent {
			p.yaml = &tapYAML{indent: indent, keys: -1, t: p.open}
			return
		}
		p.closeTest()
	}
	if s == adapters.Stderr && strings.TrimSpace(line) != "" {
		p.lastErr = strings.TrimSpace(line)
	}
	if p.perlDiagLine(s, line) {
		return
	}
	if p.tapComment(s, line) {
		return
	}
	if p.proveLine(line) {
		return
	}
	// A bare "ok" before any TAP plan or numbered line, outside prove
	// (whose verdict on a file it is), is no TAP: unittest -v prints one
	// on its own line after a test that wrote to stderr.
	if r, ok := format.TAPLine(trimmed); ok && (indent == 0 || r.Number > 0) && (r.Number > 0 || r.Name != "" || p.planned > 0 || p.ran > 0 || p.prove != nil) {
		p.tapLine(r, indent, trimmed)
		return
	}
	if indent == 0 {
		if m := tapPlanOf(line); m != nil {
			n, _ := strconv.Atoi(m[1])
			if p.prove != nil {
				p.prove.planned += n
			} else {
				p.planned += n
			}
			return
		}
		if strings.HasPrefix(line, "Bail out!") {
			p.bail(line)
			return
		}
	}
	if m := automake(line); m != nil {
		p.automakeLine(m)
		return
	}
	if p.otherFramework(line) {
		return
	}
	// make's directories, compiler and linker errors and Surefire's
	// totals all hold a colon; most output lines skip their searches.
	colon := strings.IndexByte(line, ':') >= 0
	if colon && strings.Contains(line, "directory") {
		if m := makeDir.FindStringSubmatch(line); m != nil {
			if m[1] == "Entering" {
				p.dirs = append(p.dirs, m[2])
			} else if len(p.dirs) > 0 {
				p.dirs = p.dirs[:len(p.dirs)-1]
			}
			return
		}
	}
	// " error: " is in every compiler error line; the regexp would cost
	// every output line that says "error" (docs/perf.md). The answer
	// shows a few: the rest need not be kept.
	if colon && p.tests == 0 && len(p.buildErrs) < maxBuildErrors && strings.Contains(line, " error: ") {
		if m := ccError.FindStringSubmatch(line); m != nil {
			ln, _ := strconv.Atoi(m[2])
			col, _ := strconv.Atoi(m[3])
			p.buildErrs = append(p.buildErrs, report.BuildError{File: p.path(m[1]), Line: ln, Column: col, Message: kit.Clip(m[4])})
			return
		}
	}
	if colon && p.tests == 0 && len(p.buildErrs) < maxBuildErrors && strings.Contains(line, "undefined reference to") {
		p.buildErrs = append(p.buildErrs, report.BuildError{Message: kit.Clip(strings.TrimSpace(line))})
		return
	}
	if strings.HasPrefix(line, "Ran ") {
		if m := unittestRan.FindStringSubmatch(line); m != nil {
			p.unittestRan, _ = strconv.Atoi(m[1])
			return
		}
	}
	if p.unittestRan > 0 && (strings.HasPrefix(line, "OK") || strings.HasPrefix(line, "FAILED")) {
		if m := unittestResult.FindStringSubmatch(line); m != nil {
			p.unittestSummary(m[1])
			return
		}
	}
	if m := summary(line); m != nil {
		s := &report.Summary{}
		s.Passed, _ = strconv.Atoi(m[1])
		s.Failed, _ = strconv.Atoi(m[2])
		if m[3] != "" {
			s.Skipped, _ = strconv.Atoi(m[3])
		}
		p.summary = s
		return
	}
	if colon && strings.Contains(line, "Tests run: ") {
		if m := surefireTotal.FindStringSubmatch(line); m != nil {
			var n [4]int
			for i := range n {
				n[i], _ = strconv.Atoi(m[i+1])
			}
			p.summary = &report.Summary{Passed: max(n[0]-n[1]-n[2]-n[3], 0), Failed: n[1] + n[2], Skipped: n[3]}
		}
	}
}

// unittestSummary reads unittest's result line's counts ("failures=1,
// errors=2, skipped=3, expected failures=1, unexpected successes=1")
// against the tests it ran: its totals, which win over the few of its
// lines strobe reads as tests (a FAIL: line).
func (p *genericParser) unittestSummary(counts string) {
	s := &report.Summary{}
	for _, kv := range strings.Split(counts, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(kv), "=")
		n, _ := strconv.Atoi(v)
		switch k {
		case "failures", "errors", "unexpected successes":
			s.Failed += n
		case "skipped", "expected failures":
			s.Skipped += n
		}
	}
	s.Passed = max(p.unittestRan-s.Failed-s.Skipped, 0)
	p.summary = s
}

// path names a file a tool printed, relative to the directory make was
// in, as the project's.
func (p *genericParser) path(file string) string {
	if !filepath.IsAbs(file) && len(p.dirs) > 0 {
		file = filepath.Join(p.dirs[len(p.dirs)-1], file)
	}
	return kit.ProjectPath(p.root, file)
}

func (p *genericParser) end(suite, name string, status report.TestStatus, f *report.Failure) {
	p.tests++
	p.rec.End(suite, name, status, 0, f)
}

// tapLine reads a TAP test line. An indented one is a subtest: it waits
// for its parent's line, which names it.
func (p *genericParser) tapLine(r format.TAPResult, indent int, line string) {
	if p.prove != nil && indent == 0 && line == "ok" {
		p.prove.verdict = report.TestPassed // prove -v's verdict on the file
		return
	}
	p.n++
	name := r.Name
	if name == "" {
		n := r.Number
		if n == 0 {
			n = p.n
		}
		name = "test " + strconv.Itoa(n)
	}
	p.open = &tapTest{indent: indent, name: name, leaf: name, status: r.Status(), line: line, number: r.Number}
	if indent == 0 {
		if p.prove != nil {
			p.prove.ran++
			p.prove.tap = true
		} else {
			p.ran++
			p.lastTAP = line
		}
	}
}

// closeTest records the open test once its YAML block, if any, is read:
// a top-level one with the subtests waiting for it, a subtest later.
func (p *genericParser) closeTest() {
	t := p.open
	p.open, p.yaml = nil, nil
	i := len(p.pending)
	for i > 0 && p.pending[i-1].indent > t.indent {
		i--
	}
	subs := p.pending[i:]
	p.pending = p.pending[:i]
	for _, c := range subs {
		c.name = t.name + "/" + c.name
		c.indent = t.indent
		if c.status == report.TestFailed || c.subFailed {
			t.subFailed = true
		}
	}
	if t.indent > 0 {
		p.pending = append(p.pending, subs...)
		p.pending = append(p.pending, t)
		return
	}
	for _, c := range append(subs, t) {
		p.recordTAP(c)
	}
}

func (p *genericParser) suite() string {
	if p.prove != nil {
		return p.prove.name
	}
	return ""
}

func (p *genericParser) recordTAP(t *tapTest) {
	suite := p.suite()
	// A name used twice in one file ("ok 3 - lives", "ok 7 - lives") is
	// two tests: the second is named by its number too.
	if p.names == nil {
		p.names = map[tapRef]bool{}
	}
	for k := 2; p.names[tapRef{suite: suite, name: t.name}]; k++ {
		t.name = t.leaf + " #" + strconv.Itoa(k)
		if t.number > 0 && k == 2 {
			t.name = t.leaf + " #" + strconv.Itoa(t.number)
		}
	}
	p.names[tapRef{suite: suite, name: t.name}] = true
	if t.status != report.TestFailed {
		p.end(suite, t.name, t.status, nil)
		return
	}
	if p.prove != nil {
		p.prove.failures++
	}
	if t.subFailed {
		// Failed through its subtests, which say why.
		p.end(suite, t.name, report.TestFailed, nil)
		return
	}
	f := &report.Failure{Message: t.line, File: t.file, Line: t.lineNo}
	if suite != "" {
		f.Rerun = p.proveRerun(suite)
	}
	if t.msg != "" {
		f.Message = kit.Clip(strings.TrimSpace(t.msg))
	}
	if suite == "" {
		f.Rerun = p.batsRerun(t.leaf, "")
	}
	if f.File == "" {
		if d := p.findDiag(suite, t.leaf); d != nil {
			d.apply(f)
			d.to = &[2]string{suite, t.name}
		} else {
			p.unlocated = append(p.unlocated, tapRef{suite, t.name, t.leaf})
			if t.msg == "" {
				p.comments = &tapComments{ref: tapRef{suite, t.name, t.leaf}, bare: f.Message}
			}
		}
	}
	p.end(suite, t.name, report.TestFailed, f)
}

// yamlLine reads a line of a YAML block: where the test failed (at:,
// location:, the first project frame of its stack), why (error:,
// message:, with expected and actual), false when the line ends the
// block without belonging to it.
func (p *genericParser) yamlLine(line string) bool {
	y := p.yaml
	trimmed := strings.TrimLeft(line, " ")
	indent := len(line) - len(trimmed)
	if trimmed == "..." && indent == y.indent {
		p.finishYAML()
		p.closeTest()
		return true
	}
	if trimmed != "" && indent < y.indent {
		p.finishYAML()
		p.closeTest()
		return false
	}
	t := y.t
	if y.keys < 0 && trimmed != "" {
		y.keys = indent
	}
	if y.key != "" && (indent > y.keys || trimmed == "") {
		switch y.key {
		case "message", "error":
			t.msg = strings.TrimPrefix(t.msg+"\n"+trimmed, "\n")
		case "expected":
			y.expected = strings.TrimPrefix(y.expected+"\n"+trimmed, "\n")
		case "actual":
			y.actual = strings.TrimPrefix(y.actual+"\n"+trimmed, "\n")
		case "stack":
			if !y.stack {
				if m := stackFrame.FindStringSubmatch(trimmed); m != nil && !strings.Contains(m[1], "node_modules/") {
					if rel, ok := kit.Rel(p.root, m[1]); ok {
						y.stack = true
						t.file = rel
						t.lineNo, _ = strconv.Atoi(m[2])
					}
				}
			}
		}
		return true
	}
	y.key = ""
	key, value, ok := strings.Cut(trimmed, ":")
	if !ok || indent != y.keys {
		return true
	}
	value = strings.TrimSpace(value)
	block := value == "|" || value == "|-" || value == ">" || value == ">-"
	switch key {
	case "at", "location":
		if file, n, ok := format.TAPLocation(line); ok && !y.stack {
			t.file, t.lineNo = kit.ProjectPath(p.root, file), n
		}
	case "message", "error":
		if t.msg != "" && key == "error" {
			return true // message: came first
		}
		t.msg = ""
		if block {
			y.key = key
		} else {
			t.msg = unquote(value)
		}
	case "stack":
		if block {
			y.key = key
		}
	case "expected", "wanted":
		if y.expected = unquote(value); block {
			y.key, y.expected = "expected", "" // tape's "expected: |-"
		}
	case "actual", "found", "got":
		if y.actual = unquote(value); block {
			y.key, y.actual = "actual", ""
		}
	}
	return true
}

// finishYAML adds the block's expected and actual values to the message.
func (p *genericParser) finishYAML() {
	y := p.yaml
	if y.expected != "" && y.actual != "" && !strings.Contains(y.t.msg, y.actual) {
		y.t.msg = strings.TrimPrefix(y.t.msg+"\nexpected: "+y.expected+"\nactual: "+y.actual, "\n")
	}
}

func unquote(v string) string {
	if len(v) >= 2 && (v[0] == '\'' && v[len(v)-1] == '\'') {
		return strings.ReplaceAll(v[1:len(v)-1], "''", "'")
	}
	if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' {
		if s, err := strconv.Unquote(v); err == nil {
			return s
		}
	}
	return v
}

// bail records TAP's "Bail out!": the suite stopped on purpose, a failure.
func (p *genericParser) bail(line string) {
	if p.bailed != "" {
		return
	}
	p.bailed = line
	p.end(p.suite(), "Bail out!", report.TestFailed, &report.Failure{Message: kit.Clip(line)})
}

// perlDiagLine reads Test::More's diagnostics of a failed test (on
// stderr, so before or after its "not ok") and a die's "… at FILE line
// N." line.
func (p *genericParser) perlDiagLine(s adapters.Stream, line string) bool {
	if p.diag != nil && s != p.diag.stream {
		return false
	}
	if !strings.HasPrefix(line, "#") {
		p.diag = nil
		if s == adapters.Stderr && strings.HasSuffix(line, ".") && strings.Contains(line, " line ") {
			if m := perlDieLine.FindStringSubmatch(line); m != nil {
				n, _ := strconv.Atoi(m[3])
				p.dies[m[2]] = perlDie{msg: line, line: n}
			}
		}
		return false
	}
	if strings.Contains(line, "Failed ") {
		if m := perlFailed.FindStringSubmatch(line); m != nil {
			p.diag = nil
			if m[1] != "" {
				return true // a TODO test's: not a failure
			}
			d := &perlDiag{name: m[2], file: m[3], stream: s}
			d.line, _ = strconv.Atoi(m[4])
			p.diags = append(p.diags, d)
			p.diag = d
			p.locate()
			return true
		}
	}
	d := p.diag
	if d == nil {
		return false
	}
	if strings.HasPrefix(line, "# Looks like") {
		p.diag = nil
		return true
	}
	if d.file == "" {
		if m := perlAt.FindStringSubmatch(line); m != nil {
			d.file = m[1]
			d.line, _ = strconv.Atoi(m[2])
			p.locate()
			return true
		}
	}
	if len(d.msg) < 20 {
		text := strings.TrimSpace(strings.TrimPrefix(line, "#"))
		d.msg = append(d.msg, text)
		if d.to != nil { // the failure it placed already: its line follows
			p.rec.UpdateFailure(d.to[0], d.to[1], func(f *report.Failure) { kit.AppendMessage(f, "\n", text) })
		}
	}
	return true
}

// findDiag is the first unused diagnostic of the test called name in the
// file suite ("" when not under prove).
func (p *genericParser) findDiag(suite, name string) *perlDiag {
	for _, d := range p.diags {
		if !d.used && d.file != "" && d.name == name && (suite == "" || d.file == suite) {
			d.used = true
			return d
		}
	}
	return nil
}

func (d *perlDiag) apply(f *report.Failure) {
	f.File, f.Line = d.file, d.line
	if len(d.msg) > 0 {
		kit.AppendMessage(f, "\n", strings.Join(d.msg, "\n"))
	}
}

// locate gives the failed tests recorded before their diagnostics came
// their file:line.
func (p *genericParser) locate() {
	keep := p.unlocated[:0]
	for _, u := range p.unlocated {
		if d := p.findDiag(u.suite, u.leaf); d != nil {
			p.rec.UpdateFailure(u.suite, u.name, d.apply)
			d.to = &[2]string{u.suite, u.name}
			continue
		}
		keep = append(keep, u)
	}
	p.unlocated = keep
}

// tapComment reads the "# " lines on stdout right after a failed TAP test
// that had no YAML block: its diagnostics, as bats writes them (where it
// failed, the command that failed, what the test printed). Test::More's
// diagnostics are read before (perlDiagLine), and TAP's own comments
// after the tests ("# tests 5") come after a plan line, which ends these.
func (p *genericParser) tapComment(s adapters.Stream, line string) bool {
	c := p.comments
	if c == nil || s != adapters.Stdout {
		return false
	}
	if !strings.HasPrefix(line, "#") || strings.HasPrefix(line, "# Looks like") {
		p.comments = nil
		return false
	}
	if m := batsPlace(line); m != nil {
		n, _ := strconv.Atoi(m[2])
		file := kit.ProjectPath(p.root, m[1])
		p.rec.UpdateFailure(c.ref.suite, c.ref.name, func(f *report.Failure) {
			f.File, f.Line = file, n
			if f.Rerun != "" {
				f.Rerun = p.batsRerun(c.ref.leaf, m[1])
			}
		})
		p.dropUnlocated(c.ref)
		return true
	}
	text := strings.TrimPrefix(strings.TrimPrefix(line, "#"), " ")
	if c.lines++; c.lines > maxCommentLines || strings.HasPrefix(text, "(from function ") {
		return true // a helper's place: the test's own line follows
	}
	p.rec.UpdateFailure(c.ref.suite, c.ref.name, func(f *report.Failure) {
		if f.Message == c.bare {
			f.Message = kit.Clip(strings.TrimSpace(text))
			return
		}
		kit.AppendMessage(f, "\n", text)
	})
	return true
}

// batsPlace matches bats's place of a failure; most comment lines (the
// test's output) skip the regexp.
func batsPlace(line string) []string {
	if !strings.Contains(line, "in test file ") {
		return nil
	}
	return batsAt.FindStringSubmatch(line)
}

// maxCommentLines bounds the comment lines a failure's message takes (a
// test that printed a lot); the details file keeps the output.
const maxCommentLines = 40

// dropUnlocated forgets a failed TAP test that its comments placed.
func (p *genericParser) dropUnlocated(r tapRef) {
	p.unlocated = slices.DeleteFunc(p.unlocated, func(u tapRef) bool { return u == r })
}

// batsRerun is the command that runs one bats test: the run's bats
// command with its options, --filter matching that name alone, and the
// test's file when known (else the files and directories it was given);
// "" when the command is not bats.
func (p *genericParser) batsRerun(name, file string) string {
	if len(p.argv) == 0 || filepath.Base(p.argv[0]) != "bats" {
		return ""
	}
	// bats's options that take a value; a filter of the run's own is
	// replaced by the one for this test.
	withValue := map[string]bool{"-j": true, "--jobs": true, "-F": true, "--formatter": true, "-o": true, "--output": true,
		"--report-formatter": true, "--filter-tags": true, "--code-quote-style": true, "--line-reference-format": true,
		"--gather-test-outputs-in": true, "--setup-suite-file": true}
	dropped := map[string]bool{"-f": true, "--filter": true, "--filter-status": true}
	// The project's own bats (node_modules/bats/bin/bats), named from the
	// project root where the rerun is pasted.
	prog := p.argv[0]
	if rel, ok := kit.Rel(p.root, prog); ok && filepath.IsAbs(prog) {
		prog = rel
		if !strings.Contains(prog, "/") {
			prog = "./" + prog
		}
	}
	words := []string{shellQuote(prog)}
	var paths []string
	for i := 1; i < len(p.argv); i++ {
		a := p.argv[i]
		switch {
		case dropped[a]:
			i++
		case withValue[a] && i+1 < len(p.argv):
			words = append(words, shellQuote(a), shellQuote(p.argv[i+1]))
			i++
		case strings.HasPrefix(a, "-"):
			words = append(words, shellQuote(a))
		default:
			paths = append(paths, shellQuote(a))
		}
	}
	words = append(words, "--filter", shellQuote(batsFilter(name)))
	if file != "" {
		paths = []string{shellQuote(file)}
	}
	return strings.Join(append(words, paths...), " ")
}

// batsFilter is the --filter regexp that matches the bats test of that
// name alone. bats matches it against the @test description as written
// in a double-quoted source ("equals \`\$output'"), while its TAP line
// prints it evaluated (equals `$output'): the characters a double quote
// escapes may have a backslash before them.
func batsFilter(name string) string {
	var b strings.Builder
	b.WriteString("^")
	for _, r := range name {
		if strings.ContainsRune("`$\"\\", r) {
			b.WriteString(`\\?`)
		}
		b.WriteString(regexp.QuoteMeta(string(r)))
	}
	b.WriteString("$")
	return b.String()
}

// proveLine reads prove's own lines: a file's header and verdict, the
// summary report, the bail out.
func (p *genericParser) proveLine(line string) bool {
	if line == "" {
		return false
	}
	if p.inReport {
		switch {
		case strings.HasPrefix(line, "Files="):
			p.inReport, p.report = false, nil
			return true
		case strings.HasPrefix(line, "---"):
			return true
		case line[0] == ' ' && p.report != nil:
			note := strings.Join(strings.Fields(line), " ")
			if !strings.HasPrefix(note, "TODO passed") {
				p.report.notes = append(p.report.notes, note)
				p.report.problems = true
			}
			return true
		}
		if m := proveReport.FindStringSubmatch(line); m != nil {
			p.report = p.proveFile(m[1])
			if m[2] != "" {
				p.report.signal = "SIG" + m[2]
				p.report.problems = true
			}
			return true
		}
		return false
	}
	switch {
	case line == "Test Summary Report":
		p.closeProve()
		p.inReport = true
		return true
	case strings.HasPrefix(line, "Bailout called.") || strings.HasPrefix(line, "FAILED--Further testing stopped"):
		p.bail(line)
		return true
	case strings.HasPrefix(line, "All tests successful.") || strings.HasPrefix(line, "Files="):
		p.closeProve()
		return true
	}
	if strings.Contains(line, " ..") {
		if m := proveHeader.FindStringSubmatch(line); m != nil && !strings.HasPrefix(m[1], "#") {
			p.closeProve()
			f := p.proveFile(m[1])
			p.prove = f
			switch {
			case strings.HasPrefix(m[2], "ok"):
				f.verdict = report.TestPassed
			case strings.HasPrefix(m[2], "skipped:"):
				f.verdict, f.reason = report.TestSkipped, strings.TrimSpace(strings.TrimPrefix(m[2], "skipped:"))
			default:
				p.rec.Start("", f.name)
			}
			return true
		}
	}
	f := p.prove
	if f == nil {
		return false
	}
	switch {
	case strings.HasPrefix(line, "Dubious, test returned"),
		strings.HasPrefix(line, "Failed ") && strings.Contains(line, " subtest"),
		line == "No subtests run":
		f.verdict = report.TestFailed
		f.notes = append(f.notes, strings.TrimSpace(line))
		return true
	case strings.HasPrefix(line, "All ") && strings.Contains(line, "subtests passed"),
		strings.HasPrefix(line, "\t(less "):
		return true
	}
	return false
}

func (p *genericParser) proveFile(name string) *proveFile {
	for _, f := range p.proveFiles {
		if f.name == name {
			return f
		}
	}
	f := &proveFile{name: name}
	p.proveFiles = append(p.proveFiles, f)
	return f
}

// closeProve ends the file prove was running: its subtests and open test
// are its own.
func (p *genericParser) closeProve() {
	if p.prove == nil {
		return
	}
	if p.open != nil {
		p.closeTest()
	}
	p.flushPending()
	p.prove = nil
}

// flushPending records subtests whose parent's line never came.
func (p *genericParser) flushPending() {
	for _, t := range p.pending {
		p.recordTAP(t)
	}
	p.pending = nil
}

func (p *genericParser) automakeLine(m []string) {
	status := report.TestPassed
	var f *report.Failure
	switch m[1] {
	case "SKIP", "XFAIL":
		status = report.TestSkipped
	case "FAIL", "XPASS", "ERROR":
		status = report.TestFailed
		f = &report.Failure{Message: m[0]}
		dir := p.root
		if len(p.dirs) > 0 {
			dir = p.dirs[len(p.dirs)-1]
		}
		p.automake = append(p.automake, amTest{dir: dir, name: m[2]})
	}
	p.end("", m[2], status, f)
}

// automakeLog fills in a failed automake test from its .log (the
// harness's copy of what it printed, beside its .trs): the message, the
// first file:line in it, and how to rerun that test alone.
func (p *genericParser) automakeLog(t amTest) {
	name := filepath.Join(t.dir, t.name)
	for _, base := range []string{strings.TrimSuffix(name, filepath.Ext(name)), name} {
		if !kit.FileExists(base + ".trs") {
			continue
		}
		b, err := os.ReadFile(base + ".log")
		if err != nil {
			return
		}
		text := strings.TrimSpace(string(b))
		p.rec.UpdateFailure("", t.name, func(f *report.Failure) {
			if text != "" {
				f.Message = kit.ClipTail(text)
			}
			for _, l := range strings.Split(text, "\n") {
				if m := logLoc.FindStringSubmatch(l); m != nil && kit.FileExists(filepath.Join(t.dir, m[1])) {
					f.File = kit.ProjectPath(p.root, filepath.Join(t.dir, m[1]))
					f.Line, _ = strconv.Atoi(m[2])
					break
				}
			}
			rerun := "make"
			if rel, ok := kit.Rel(p.root, t.dir); ok && rel != "." {
				rerun += " -C " + shellQuote(rel)
			}
			f.Rerun = rerun + " check TESTS=" + shellQuote(t.name)
		})
		return
	}
}

func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./-+=:,@") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// otherFramework reads the result lines of frameworks strobe has an
// adapter for, when a script runs them: libtest's "test x ... FAILED",
// go test's "--- FAIL: TestX (0.00s)", GoogleTest's "[  FAILED  ] A.B (0
// ms)", pytest's "FAILED path::test - why" and its closing counts.
func (p *genericParser) otherFramework(line string) bool {
	switch {
	case strings.HasPrefix(line, "test ") && strings.Contains(line, " ... "):
		if m := libtestLine.FindStringSubmatch(line); m != nil {
			p.endWord("", m[1], m[2], line)
			return true
		}
	case strings.HasPrefix(strings.TrimLeft(line, " \t"), "--- "):
		if m := goLine.FindStringSubmatch(line); m != nil {
			p.endWord("", m[2], m[1], strings.TrimSpace(line))
			return true
		}
	case strings.HasPrefix(line, "[ "):
		if m := gtestLine.FindStringSubmatch(line); m != nil {
			p.endWord("", m[2], m[1], line)
			return true
		}
	case strings.HasPrefix(line, "FAILED ") || strings.HasPrefix(line, "ERROR "):
		if m := pytestLine.FindStringSubmatch(line); m != nil {
			f := &report.Failure{Message: line}
			if m[3] != "" {
				f.Message = kit.Clip(m[3])
			}
			f.File, _, _ = strings.Cut(m[2], "::")
			p.end("", m[2], report.TestFailed, f)
			return true
		}
	case strings.HasPrefix(line, "=") && strings.HasSuffix(line, "="):
		if m := pytestTotal.FindStringSubmatch(line); m != nil {
			p.summary = format.PytestCounts(m[1])
			return true
		}
	}
	return false
}

func (p *genericParser) endWord(suite, name, word, line string) {
	switch word {
	case "ok", "OK", "PASS":
		p.end(suite, name, report.TestPassed, nil)
	case "ignored", "SKIP", "SKIPPED":
		p.end(suite, name, report.TestSkipped, nil)
	default:
		p.end(suite, name, report.TestFailed, &report.Failure{Message: line})
	}
}

// automake reads automake's "PASS: name" line, nil for any other; summary
// a "3 passed, 1 failed" line. Every line of the run comes to both, and
// few are either: a cheap test goes before each regexp.
func automake(line string) []string {
	if i := strings.IndexByte(line, ':'); i != 4 && i != 5 {
		return nil
	}
	return automakeLine.FindStringSubmatch(line)
}

func summary(line string) []string {
	if !strings.Contains(line, " passed, ") {
		return nil
	}
	return summaryLine.FindStringSubmatch(line)
}

func (p *genericParser) Finish(exit report.Exit) adapters.Outcome {
	if p.yaml != nil {
		p.finishYAML()
	}
	if p.open != nil {
		p.closeTest()
	}
	p.closeProve()
	p.flushPending()
	for _, t := range p.automake {
		p.automakeLog(t)
	}
	var out adapters.Outcome
	if crash := p.proveFinish(); crash != nil {
		out.Crash = crash
	}
	if len(p.proveFiles) == 0 && p.planned > p.ran && p.bailed == "" && exit.StoppedBy == "" {
		msg := fmt.Sprintf("the TAP plan announced %d tests but %d ran", p.planned, p.ran)
		if exit.Signaled {
			msg = "the command died of " + kit.ExitSignal(exit) + ": " + msg
		}
		if p.lastTAP != "" {
			msg += ": the command ended after `" + p.lastTAP + "`"
		}
		if p.lastErr != "" {
			msg += "; its last error output: " + p.lastErr
		}
		out.Crash = &report.Crash{Type: report.CrashUnknown, ExitCode: exit.Code, Indicators: []string{"tap_plan_not_met"}, Message: kit.Clip(msg)}
	}
	if p.tests == 0 && len(p.buildErrs) > 0 && exit.Code != 0 && !exit.Signaled && exit.StoppedBy == "" {
		out.BuildFailed, out.BuildErrors = true, p.buildErrs
	}
	if n := len(p.rec.Tests()); p.unittestRan > n && p.summary != nil {
		// unittest's totals count the tests whose lines were not read
		// (`test_x (m.C.test_x) ... ok`): they win, as the answer says.
		out.Summary, out.Unread = p.summary, p.unittestRan-n
	}
	if len(p.rec.Tests()) == 0 {
		out.Summary = p.summary
		if p.summary == nil && exit.Exited && exit.Code == 0 && exit.StoppedBy == "" && out.Crash == nil {
			// A pass that rests on the exit status alone must say so: the
			// command may run tests in a format strobe does not read.
			out.Hint = "the command exited 0 and printed no test results strobe reads (TAP, prove, automake, a summary line, a known framework's result lines), so passed is its exit status alone: for a framework strobe knows, pass framework (--framework) to read its tests"
		}
	}
	if p.test != "" {
		p.askedFor(&out)
	}
	if p.filtered != "" && len(p.rec.Tests()) == 0 && out.Crash == nil {
		out.NoTests = true
		// Not the exit status's pass: bats said it ran none ("1..0").
		out.Hint = fmt.Sprintf("bats ran no test named %s (--filter %s): give a test's name as its TAP line prints it (its @test description)", shell.Quote(p.filtered), shell.Quote(batsFilter(p.filtered)))
	}
	if len(p.members) > 0 && len(p.rec.Tests()) == 0 {
		list := strings.Join(p.members[:min(len(p.members), 5)], ", ")
		if len(p.members) > 5 {
			list += fmt.Sprintf(" and %d more", len(p.members)-5)
		}
		out.Hint = joinHints(fmt.Sprintf("this is a workspaces root: its test script ran the tests of its packages, whose results strobe does not read through it; run strobe on each package (%s), where its framework's adapter reads them", list), out.Hint)
	}
	return out
}

// askedFor says, in a run asked for one test, that the command could not
// be told which: it ran as it is (with STROBE_TEST set), and when its
// results name tests but none is that one, the test did not run: the run
// passed nothing asked for, and answers no_tests unless its suite failed.
func (p *genericParser) askedFor(out *adapters.Outcome) {
	const why = "the generic adapter cannot tell the command which test to run: it ran as it is, with STROBE_TEST=%s in its environment for a script that reads it"
	tests := p.rec.Tests()
	if len(tests) == 0 {
		out.Hint = joinHints(fmt.Sprintf(why+"; nothing in its output says whether %s ran", shell.Quote(p.test), p.test), out.Hint)
		return
	}
	for _, t := range tests {
		if strings.Contains(t.Name, p.test) {
			out.Hint = joinHints(fmt.Sprintf(why+", and ran its %d tests", shell.Quote(p.test), len(tests)), out.Hint)
			return
		}
	}
	out.NoTests = true
	out.Hint = joinHints(fmt.Sprintf(why+"; none of the %d tests it ran is named %s: give the command that runs that test (--command)", shell.Quote(p.test), len(tests), p.test), out.Hint)
}

func joinHints(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "; " + b
}

// proveFinish records each file prove ran as a test of its own when its
// TAP lines were not seen (prove without -v), or when it failed beyond
// its failed tests (it died, its plan was not met); and returns the crash
// of a file that died of a signal or ended before its plan.
func (p *genericParser) proveFinish() *report.Crash {
	var crash *report.Crash
	for _, f := range p.proveFiles {
		failed := f.verdict == report.TestFailed || f.problems
		switch {
		case failed && (!f.tap || f.failures == 0 || f.signal != ""):
			p.end("", f.name, report.TestFailed, p.proveFailure(f))
		case failed:
			// Its failed tests say why.
			p.rec.Forget("", f.name)
		case f.tap && f.verdict != "":
			p.rec.Forget("", f.name)
		case f.verdict == report.TestPassed:
			p.end("", f.name, report.TestPassed, nil)
		case f.verdict == report.TestSkipped:
			p.end("", f.name, report.TestSkipped, nil)
		}
		if !failed || p.bailed != "" {
			continue
		}
		planned, ran := f.planned, f.ran
		for _, n := range f.notes {
			if m := badPlan.FindStringSubmatch(n); m != nil {
				planned, _ = strconv.Atoi(m[1])
				ran, _ = strconv.Atoi(m[2])
			}
		}
		switch {
		case f.signal != "" && (crash == nil || crash.Signal == 0):
			sig := f.signal
			crash = &report.Crash{Type: kit.CrashType(sig), Signal: kit.SignalNumber(sig), SignalName: sig,
				Indicators: []string{"test_binary_signaled"}, RunningTests: []string{f.name},
				Message: fmt.Sprintf("%s died of %s (prove: %s)", f.name, sig, strings.Join(f.notes, "; "))}
		case crash == nil && planned > ran:
			msg := fmt.Sprintf("%s ended after %d of its %d planned tests (prove: %s)", f.name, ran, planned, strings.Join(f.notes, "; "))
			if d, ok := p.dies[f.name]; ok {
				msg += "; it died: " + d.msg
			}
			crash = &report.Crash{Type: report.CrashUnknown, Indicators: []string{"test_binary_exited"}, RunningTests: []string{f.name}, Message: kit.Clip(msg)}
		}
	}
	return crash
}

// proveFailure says why a file failed: the first failed test's
// diagnostic (its file:line), how it died, and prove's own words.
func (p *genericParser) proveFailure(f *proveFile) *report.Failure {
	fail := &report.Failure{File: f.name}
	var parts []string
	for _, d := range p.diags {
		if d.file == f.name && !d.used {
			d.used = true
			if fail.Line == 0 {
				fail.Line = d.line
			}
			what := "failed test"
			if d.name != "" {
				what += " '" + d.name + "'"
			}
			what += fmt.Sprintf(" at line %d", d.line)
			if len(d.msg) > 0 {
				what += ": " + strings.Join(d.msg, "; ")
			}
			parts = append(parts, what)
		}
	}
	if d, ok := p.dies[f.name]; ok {
		parts = append(parts, d.msg)
		if fail.Line == 0 {
			fail.Line = d.line
		}
	}
	if f.signal != "" {
		parts = append(parts, "died of "+f.signal)
	}
	parts = append(parts, f.notes...)
	fail.Message = kit.Clip(strings.Join(parts, "\n"))
	if rerun := p.proveRerun(f.name); rerun != "" {
		fail.Rerun = rerun
	}
	return fail
}

// proveRerun is the command that runs one file as the run's prove
// command does: its options, that file.
func (p *genericParser) proveRerun(file string) string {
	if len(p.argv) == 0 || filepath.Base(p.argv[0]) != "prove" {
		return ""
	}
	withValue := map[string]bool{"-I": true, "-e": true, "--exec": true, "-j": true, "--jobs": true, "-P": true, "-M": true,
		"--harness": true, "--formatter": true, "--source": true, "-a": true, "--archive": true, "--rc": true, "--state": true, "--ext": true}
	words := []string{shellQuote(p.argv[0])}
	for i := 1; i < len(p.argv); i++ {
		a := p.argv[i]
		if !strings.HasPrefix(a, "-") || a == "-r" || a == "--recurse" {
			continue
		}
		words = append(words, shellQuote(a))
		if withValue[a] && i+1 < len(p.argv) {
			i++
			words = append(words, shellQuote(p.argv[i]))
		}
	}
	return strings.Join(append(words, shellQuote(file)), " ")
}
