package ctest

import (
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"strobe/adapters"
	"strobe/adapters/kit"
	"strobe/adapters/kit/format"
	"strobe/internal/lazyre"
	"strobe/internal/shell"
	"strobe/report"
)

// parser reads CTest's console live and its JUnit report at Finish. The
// runner calls Line for one line at a time and Finish once: no lock.
type parser struct {
	rec   *adapters.Recorder
	root  string
	dir   string // the report's private directory, removed by Close
	junit string // the JUnit report, "" when this CTest cannot write one

	rerun []string
	sel   []string // the run's selection of tests (selectArgs)
	// selected is how many tests CTest was to run, from its result lines'
	// `3/10`; 0 before the first.
	selected int
	// bin, runDir and env run ctest again to locate failures (locate).
	bin    string
	runDir string
	env    []string
	test   string
	level  adapters.Level
	note   string
	stale  kit.Pending // the stale-build note, made beside the run

	names  map[int]string // test number → name, from the Start lines
	open   *failed        // the failed test whose output comes now
	output map[string]bool
	// result is a result line whose status goes on over further lines (a
	// PASS_REGULAR_EXPRESSION's list, each regex ended by a newline), until
	// the line ending in its time.
	result []string
	// deps is the "Failed test dependencies: …" line CTest prints for a
	// test it will not run, before that test's result line.
	deps string
	// crashes are the tests that died of a signal; timeouts those CTest
	// stopped at their timeout.
	crashes  []crashed
	timeouts []string
	// statuses are the failed tests' CTest words, for what Finish learns
	// of their properties (WILL_FAIL).
	statuses map[string]string
	// repeat is the command's --repeat mode (until-fail:N, until-pass:N,
	// after-timeout:N); tries are the earlier tries of a test CTest ran
	// again under it, oldest first.
	repeat   string
	tries    map[string][]try
	notBuilt []string
	noTests  bool
	// ranNone are the tests CTest passed whose GoogleTest ran no test
	// ("Running 0 tests"): they are skipped, not passed.
	ranNone []string
	// filtered says a test of ranNone ran with a --gtest_filter (GoogleTest
	// printed it): without one the binary has no test at all.
	filtered bool
	// inner names, for a CTest test that ran a GoogleTest binary whole and
	// ended inside one of its tests with no failure of its own, that test:
	// locate places the failure at its TEST.
	inner map[string]string
	// catch2Exits are the Catch2 test cases that exited inside the test
	// (catch2Exited): locate places them at their TEST_CASE.
	catch2Exits []string
	// tree is the build tree's directory, absolute; selects says the
	// command selects tests of its own (-R, -L…).
	tree    string
	selects bool
}

// failed is a test CTest reported as not passed, while its output comes.
type failed struct {
	name    string
	status  string // CTest's words: "***Failed", "***Exception: SegFault"…
	d       time.Duration
	lines   []string
	gtest   format.GTestBlocks
	catch2  format.Catch2Blocks
	doctest format.DoctestBlocks
	ended   bool // GoogleTest's "[==========] … ran." line came: its summary is no failure's text
	deps    string
	// running is the GoogleTest test whose RUN line came and whose end
	// has not (a binary add_test runs whole prints many tests); gtestIn
	// holds, for each of gtest's failures, the test it came in.
	running string
	gtestIn []string
}

// read takes one line of a failed test's output into its GoogleTest and
// Catch2 failure blocks. A test's end, the next one's start or a suite's
// line closes a GoogleTest block; its summary after "[==========] … ran."
// holds none. A binary add_test runs whole has failures after its first
// test's end, and outside any test (SetUpTestSuite, a global
// environment).
func (f *failed) read(line string) {
	if strings.HasPrefix(line, "[==========] ") && strings.Contains(line, " ran.") {
		f.ended = true
	}
	if gtestEvent(line) {
		f.gtest.Close()
		f.running = gtestRunning(line, f.running)
	}
	if !f.ended {
		n := len(f.gtest.Failures)
		f.gtest.Line(line)
		if len(f.gtest.Failures) > n {
			f.gtestIn = append(f.gtestIn, f.running)
		}
	}
	f.catch2.Line(line)
	f.doctest.Line(line)
}

// gtestRunning is the GoogleTest test running after line, one of
// gtestEvent's: a RUN line starts one, an OK, FAILED or SKIPPED line
// ends it.
func gtestRunning(line, running string) string {
	if name, ok := strings.CutPrefix(line, "[ RUN      ] "); ok {
		return strings.TrimSpace(name)
	}
	for _, end := range []string{"[       OK ] ", "[  FAILED  ] ", "[  SKIPPED ] "} {
		if strings.HasPrefix(line, end) {
			return ""
		}
	}
	return running
}

// try is one earlier run of a test ctest --repeat ran again.
type try struct {
	status  report.TestStatus
	failure *report.Failure
}

type crashed struct {
	name   string
	signal string // "SIGSEGV", "" for a timeout
	how    string
	// died is what ended the test, as the runner's hint words it ("died
	// of SIGSEGV", "crashed (ctest: ***Exception: Other)"): each test is
	// a process of its own, and the hint says each crashed.
	died string
}

func newParser(rec *adapters.Recorder, root, dir, junit string) *parser {
	return &parser{rec: rec, root: root, dir: dir, junit: junit, names: map[int]string{}, output: map[string]bool{},
		statuses: map[string]string{}, tries: map[string][]try{}, inner: map[string]string{}}
}

var (
	startLine = lazyre.New(`^\s*Start\s+(\d+): (.*)$`)
	// resultLine ends a test: `3/10 Test  #3: name ....   Passed  0.01 sec`.
	// Under --repeat, the tries before the last one (and sometimes the
	// last) have no `3/10` count. A status with a PASS_REGULAR_EXPRESSION
	// spans lines: resultHead begins it, resultLine matches it whole.
	resultLine = lazyre.New(`(?s)^\s*(?:\d+/(\d+) )?Test\s+#(\d+): (.*?)\s+(\d+\.\d+) sec$`)
	resultHead = lazyre.New(`^\s*(?:\d+/\d+ )?Test\s+#(\d+): .*\*\*\*Failed .*Regex=\[`)
	totalsLine = lazyre.New(`^\d+% tests passed, \d+ tests? failed out of \d+$`)
)

// maxResultLines bounds the lines of one result line's status.
const maxResultLines = 64

// depsLine is CTest's reason for not running a test: a test it depends
// on (a FIXTURES_SETUP test of a fixture it requires) failed.
const depsLine = "Failed test dependencies: "

// maxOutputLines bounds the lines of one failed test kept for its
// message's reading; the Recorder keeps its output bounded on its own.
const maxOutputLines = 2000

// Line reads one console line: a test's start, its result, or the output
// --output-on-failure prints after a failed test's result.
func (p *parser) Line(s adapters.Stream, b []byte, _ bool) {
	line := kit.StripANSI(strings.TrimRight(string(b), "\r"))
	if s == adapters.Stderr {
		if strings.HasPrefix(line, "No tests were found") {
			p.noTests = true
		}
		return
	}
	if p.result != nil {
		p.result = append(p.result, line)
		joined := strings.Join(p.result, "\n")
		if m := resultLine.FindStringSubmatch(joined); m != nil || len(p.result) == maxResultLines {
			p.result = nil
			if m == nil {
				m = []string{"", "", resultHead.FindStringSubmatch(joined)[1], joined, "0.00"}
			}
			p.total(m[1])
			p.ended(m[2], m[3], m[4])
		}
		return
	}
	if m := startLine.FindStringSubmatch(line); m != nil {
		p.closeOpen()
		n, _ := strconv.Atoi(m[1])
		p.names[n] = m[2]
		p.again(m[2])
		p.rec.Start("", m[2])
		return
	}
	if m := resultLine.FindStringSubmatch(line); m != nil {
		p.closeOpen()
		p.total(m[1])
		p.ended(m[2], m[3], m[4])
		return
	}
	if resultHead.MatchString(line) {
		p.closeOpen()
		p.result = []string{line}
		return
	}
	if p.open == nil && strings.HasPrefix(line, depsLine) {
		p.deps = strings.TrimPrefix(line, depsLine)
		return
	}
	if totalsLine.MatchString(line) {
		p.closeOpen()
		return
	}
	if f := p.open; f != nil {
		if len(f.lines) < maxOutputLines {
			f.lines = append(f.lines, line)
		}
		f.read(line)
	}
}

// gtestEvent says whether line is one GoogleTest prints around tests and
// suites, which ends the failure block before it.
func gtestEvent(line string) bool {
	for _, p := range []string{"[ RUN      ] ", "[       OK ] ", "[  FAILED  ] ", "[  SKIPPED ] ", "[ DISABLED ] ", "[----------] ", "[==========] "} {
		if strings.HasPrefix(line, p) {
			return true
		}
	}
	return false
}

// again takes a test that starts once more (ctest --repeat): its
// earlier try is kept aside, and the test is recorded anew.
func (p *parser) again(name string) {
	t, ok := p.rec.Lookup("", name)
	if !ok || t.Status == report.TestRunning {
		return
	}
	p.tries[name] = append(p.tries[name], try{t.Status, t.Failure})
	p.rec.Forget("", name)
	delete(p.output, name)
	delete(p.statuses, name)
}

// total takes the count of tests CTest is to run from a result line's
// `3/10` (none under --repeat's earlier tries).
func (p *parser) total(n string) {
	if k, err := strconv.Atoi(n); err == nil {
		p.selected = k
	}
}

// ended ends a test from its result line: `name ....   STATUS  T`. The
// name is padded with dots to a common width, or cut to it when longer,
// so it comes from the test's Start line.
func (p *parser) ended(num, rest, secs string) {
	n, _ := strconv.Atoi(num)
	name, ok := p.names[n]
	if !ok {
		name = strings.TrimRight(strings.TrimRight(rest[:max(0, strings.Index(rest, " ."))], "."), " ")
		if name == "" {
			return
		}
		p.rec.Start("", name)
	}
	status := rest
	for i := len(name) + 1; i >= 0; i-- {
		if i <= len(rest) && strings.HasPrefix(name+" ", rest[:i]) {
			status = rest[i:]
			break
		}
	}
	status = strings.TrimSpace(strings.TrimLeft(status, ". "))
	sec, _ := strconv.ParseFloat(secs, 64)
	d := kit.DurationOf(sec)
	if d == 0 {
		d = time.Microsecond // reported as 0.00 sec: not to be measured again
	}
	if m := notBuiltTest.FindStringSubmatch(name); m != nil {
		// gtest_discover_tests' and catch_discover_tests' stand-in for
		// a target whose binary is missing: no test of the project's. It
		// was a failed test named lru_test_NOT_BUILT.
		p.rec.Forget("", name)
		p.notBuilt = append(p.notBuilt, m[1])
		p.deps = ""
		return
	}
	switch {
	case status == "Passed":
		p.rec.End("", name, report.TestPassed, d, nil)
	case status == "***Skipped" || status == "***Not Run (Disabled)":
		p.rec.End("", name, report.TestSkipped, d, nil)
	default:
		p.open = &failed{name: name, status: status, d: d}
		if strings.HasPrefix(status, "***Not Run") && p.deps != "" {
			p.open.deps = p.deps
		}
	}
	p.deps = ""
}

// notBuiltTest is the test CMake's test discovery adds for a target whose
// binary is not built: TARGET_NOT_BUILT (GoogleTest's), with a hash after
// it (Catch2's: strutil_catch_NOT_BUILT-b12d07c).
var notBuiltTest = lazyre.New(`^(.+)_NOT_BUILT(?:-[0-9a-f]+)?$`)

// closeOpen ends the failed test whose output was being read.
func (p *parser) closeOpen() {
	f := p.open
	if f == nil {
		return
	}
	p.open = nil
	for len(f.lines) > 0 && strings.TrimSpace(f.lines[len(f.lines)-1]) == "" {
		f.lines = f.lines[:len(f.lines)-1] // CTest's blank line after the output
	}
	if len(f.lines) > 0 {
		p.rec.Output("", f.name, strings.Join(f.lines, "\n")+"\n")
		p.output[f.name] = true
	}
	p.statuses[f.name] = f.status
	p.rec.End("", f.name, report.TestFailed, f.d, p.failure(f))
}

// signals are CTest's words for a test that died of a signal.
var signals = []struct{ word, signal string }{
	{"SegFault", "SIGSEGV"}, {"Subprocess aborted", "SIGABRT"}, {"Child aborted", "SIGABRT"},
	{"Illegal", "SIGILL"}, {"Numerical", "SIGFPE"}, {"Interrupt", "SIGINT"},
}

// failure builds a failed test's Failure: the framework's own failures
// when its output is GoogleTest's or Catch2's, else CTest's verdict and
// the output's last lines.
func (p *parser) failure(f *failed) *report.Failure {
	out := &report.Failure{Name: f.name, Rerun: p.rerunFor(f.name)}
	verdict := p.verdict(f)
	if san := sanitizerIn(f.lines); san != nil {
		// The sanitizer stopped the test (or reported in it): its report
		// says more than CTest's status or the assertions before it.
		p.sanitizerFailure(out, san)
		if verdict != "" && f.status != "***Failed" {
			out.Message = kit.Clip(verdict + "\n" + out.Message)
		}
		return out
	}
	blocks := p.blocks(f)
	// A GoogleTest test the binary died in, with no failure of its own,
	// leads with no place: locate gives it its TEST's.
	lead := f.running == "" || len(blocks) > 0 && blocks[0].in == f.running
	if !lead {
		p.inner[f.name] = f.running
	}
	for i, b := range blocks {
		if i == 0 && lead {
			out.File, out.Line, out.Message = b.file, b.line, kit.Clip(b.text)
			continue
		}
		file := b.file
		if file == "" {
			file = "unknown file"
		}
		if out.Message == "" {
			// Not the dying test's own failure: its place leads the text.
			where := file
			if b.line > 0 {
				where += ":" + strconv.Itoa(b.line)
			}
			out.Message = kit.Clip(where + ": " + b.text)
			continue
		}
		kit.AddFailure(out, file, b.line, b.text)
	}
	if out.Message == "" {
		p.unityFailures(out, f.lines)
	}
	if names := testsIn(f, blocks); len(names) > 1 {
		// The message is clipped: the first tests' many failures could hide
		// that others failed at all.
		verdict = strings.TrimPrefix(verdict+"\n", "\n") + names.String()
	}
	switch {
	case out.Message == "":
		out.Message = kit.Clip(verdict + tail(f.lines))
	case verdict != "":
		out.Message = kit.Clip(verdict + "\n" + out.Message)
	}
	return out
}

// block is one failure a framework printed in a CTest test's output.
type block struct {
	file string // "" for GoogleTest's unknown file
	line int
	text string
	in   string // the framework's test it came in
}

// blocks are the failures GoogleTest or Catch2 printed in the test's
// output, each saying which of the framework's tests it came in when
// that is not the CTest test (a binary add_test runs whole); those of the
// test the binary died in come first, as the crash is the failure's.
func (p *parser) blocks(f *failed) []block {
	var out []block
	switch {
	case len(f.gtest.Failures) > 0:
		for i, g := range f.gtest.Failures {
			in := f.gtestIn[i]
			out = append(out, block{kit.ProjectPath(p.root, g.File), g.Line, inTest(f.name, "test "+in, in, "", nil, g.Message()), in})
		}
	case len(f.catch2.Failures) > 0:
		for _, c := range f.catch2.Failures {
			out = append(out, block{kit.ProjectPath(p.root, c.File), c.Line, inTest(f.name, "test case "+c.TestCase, c.TestCase, "section", c.Sections, c.Message()), c.TestCase})
		}
	case len(f.doctest.Failures) > 0:
		for _, d := range f.doctest.Failures {
			out = append(out, block{kit.ProjectPath(p.root, d.File), d.Line, inTest(f.name, "test case "+d.TestCase, d.TestCase, "subcase", d.Subcases, d.Message()), d.TestCase})
		}
	}
	if in, _ := f.diedIn(); in != "" {
		slices.SortStableFunc(out, func(a, b block) int {
			switch {
			case a.in == in && b.in != in:
				return -1
			case a.in != in && b.in == in:
				return 1
			}
			return 0
		})
	}
	return out
}

// testNames are the framework's tests a binary add_test ran whole
// failed in.
type testNames []string

// maxTestNames bounds the tests named in a failure's first lines.
const maxTestNames = 10

func (n testNames) String() string {
	s := strings.Join(n[:min(len(n), maxTestNames)], ", ")
	if len(n) > maxTestNames {
		s += fmt.Sprintf(" and %d more", len(n)-maxTestNames)
	}
	return fmt.Sprintf("%d of its tests failed: %s", len(n), s)
}

// testsIn are the framework's tests that failed in f's output: the one
// it died in, then those the blocks came in, in order; those that are the
// CTest test itself aside.
func testsIn(f *failed, blocks []block) testNames {
	var out testNames
	if in, _ := f.diedIn(); in != "" {
		out = append(out, in)
	}
	for _, b := range blocks {
		if b.in != "" && b.in != f.name && !slices.Contains(out, b.in) {
			out = append(out, b.in)
		}
	}
	return out
}

// inTest is a failure's text under the name of the framework's test it
// came in, when that is not the CTest test's own (gtest_discover_tests
// and catch_discover_tests make one CTest test per framework test), and
// of its Catch2 sections or doctest subcases (kind says which).
func inTest(ctestName, what, in, kind string, sections []string, text string) string {
	var where []string
	if in != "" && in != ctestName {
		where = append(where, what)
	}
	if len(sections) > 0 {
		where = append(where, kind+" "+strings.Join(sections, " / "))
	}
	if len(where) == 0 {
		return text
	}
	return "in " + strings.Join(where, ", ") + ":\n" + text
}

// diedIn is the framework's test the binary ended inside, and how it
// says so: the GoogleTest test whose RUN line came and whose end never
// did, or the Catch2 test case of a fatal error condition (a signal
// Catch2 caught). "" when the output shows none, or when that test is
// the CTest test itself (gtest_discover_tests).
func (f *failed) diedIn() (string, string) {
	if f.running == f.name {
		return "", ""
	}
	if f.running != "" {
		return f.running, "test " + f.running + ", which GoogleTest started and never ended"
	}
	for _, c := range f.catch2.Failures {
		if strings.Contains(c.Message(), "due to a fatal error condition:") && c.TestCase != "" && c.TestCase != f.name {
			return c.TestCase, "test case " + c.TestCase
		}
	}
	for _, d := range f.doctest.Failures {
		if d.Crashed() && d.TestCase != "" && d.TestCase != f.name {
			return d.TestCase, "test case " + d.TestCase
		}
	}
	return "", ""
}

// unityFail is a failed test's line in Unity's output (the C test
// framework of cJSON and many embedded projects, run by plain add_test):
// `tests/x.c:55:test_name:FAIL: Expected 1 Was 0`.
var unityFail = lazyre.New(`^(.+?):(\d+):(\w+):FAIL(?:: ?(.*))?$`)

// unityFailures fills out from Unity's FAIL lines, when the output has any.
func (p *parser) unityFailures(out *report.Failure, lines []string) {
	for _, l := range lines {
		m := unityFail.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[2])
		file, text := kit.ProjectPath(p.root, m[1]), m[3]+": "+m[4]
		if out.Message == "" {
			out.File, out.Line, out.Message = file, n, kit.Clip(text)
			continue
		}
		kit.AddFailure(out, file, n, text)
	}
}

// verdict is what CTest's status says beyond "failed": a signal, a
// timeout, a test it could not run, a regular expression property; ""
// for a plain ***Failed whose framework said why.
func (p *parser) verdict(f *failed) string {
	st := f.status
	in, inside := f.diedIn()
	for _, s := range signals {
		if strings.Contains(st, s.word) {
			how := "died of " + s.signal
			if in != "" {
				how += " in " + in
			}
			p.crashes = append(p.crashes, crashed{name: f.name, signal: s.signal, how: how, died: how})
			return insideOf("the test died of "+s.signal+" (ctest: "+st+")", inside)
		}
	}
	switch {
	case strings.HasPrefix(st, "***Timeout"):
		p.timeouts = append(p.timeouts, f.name)
		return fmt.Sprintf("%s %.2f s: ctest stopped it at its timeout (raise it with set_tests_properties(… PROPERTIES TIMEOUT n) or ctest --timeout)", timedOut, f.d.Seconds())
	case strings.HasPrefix(st, "***Exception"):
		p.crashes = append(p.crashes, crashed{name: f.name, how: "crashed", died: "crashed (ctest: " + st + ")"})
		return insideOf("the test crashed (ctest: "+st+")", inside)
	case strings.HasPrefix(st, "***Not Run") && f.deps != "":
		return "ctest did not run the test: a test it depends on failed (" + depsLine + f.deps + "): fix that one first; ctest -R runs a required fixture's FIXTURES_SETUP tests with the test"
	case strings.HasPrefix(st, "***Not Run"):
		return "ctest could not run the test (" + st + ")"
	case strings.HasPrefix(st, "***Failed") && strings.Contains(st, "Regex=["):
		return regexVerdict(st, f.lines)
	case inside != "":
		return insideOf(plainFailed+st+")", inside)
	case st == "***Failed" && (len(f.gtest.Failures) > 0 || len(f.catch2.Failures) > 0 || len(f.doctest.Failures) > 0 || slices.ContainsFunc(f.lines, unityFail.MatchString)):
		return ""
	}
	return plainFailed + st + ")"
}

// insideOf adds to a verdict the framework's test the binary ended in.
func insideOf(verdict, inside string) string {
	if inside == "" {
		return verdict
	}
	return verdict + " inside " + inside
}

const (
	// plainFailed begins the verdict of a test that failed for no reason
	// CTest gives: its exit code, or its WILL_FAIL property (Finish).
	plainFailed = "the test failed (ctest: "
	timedOut    = "the test timed out after"
)

// regexVerdict says which of a test's regular expression properties
// failed it, from CTest's status: `***Failed  Required regular expression
// not found. Regex=[a\nb\n]` (PASS_REGULAR_EXPRESSION, the regexes one a
// line), `***Failed  Error regular expression found in output.
// Regex=[ERROR]` (FAIL_REGULAR_EXPRESSION, the one that matched), or
// `Required regular expression found` when the test passed and WILL_FAIL
// failed it. The output line a failing regex matches is quoted when Go
// reads the regex alike.
func regexVerdict(st string, lines []string) string {
	reason, list, _ := strings.Cut(st, "Regex=[")
	list = strings.TrimSuffix(list, "]")
	var res []string
	for _, r := range strings.Split(list, "\n") {
		if r != "" {
			res = append(res, "["+r+"]")
		}
	}
	quoted := strings.Join(res, " or ")
	switch {
	case strings.Contains(reason, "Required regular expression not found"):
		return "ctest failed the test: its output matches no PASS_REGULAR_EXPRESSION " + quoted
	case strings.Contains(reason, "Required regular expression found"):
		return "the test passed (its output matches its PASS_REGULAR_EXPRESSION " + quoted + "), and its WILL_FAIL property makes ctest fail a test that passes"
	case strings.Contains(reason, "Error regular expression found"):
		v := "ctest failed the test: its output matches its FAIL_REGULAR_EXPRESSION " + quoted
		if re, err := regexp.Compile(strings.TrimSuffix(list, "\n")); len(res) == 1 && err == nil {
			for _, l := range lines {
				if re.MatchString(l) {
					v += ", at the line " + strconv.Quote(kit.ClipTo(l, 200, "…"))
					break
				}
			}
		}
		return v + " (whatever the exit code)"
	}
	return plainFailed + st + ")"
}

// tail is a failed test's last output lines, for a message that has no
// assertion to show.
func tail(lines []string) string {
	var keep []string
	for _, l := range slices.Backward(lines) {
		if strings.TrimSpace(l) == "" {
			continue
		}
		if keep = append(keep, l); len(keep) == 10 {
			break
		}
	}
	if len(keep) == 0 {
		return ""
	}
	slices.Reverse(keep)
	return ":\n" + strings.Join(keep, "\n")
}

// rerunFor is the pasteable command that runs one test alone.
// Rerun (adapters.Reruner): a CTest test by its name.
func (p *parser) Rerun(_, name string) string { return p.rerunFor(name) }

func (p *parser) rerunFor(name string) string {
	return shell.Join(append(slices.Clone(p.rerun), testArgs(name)...))
}

// Close removes the report's directory: after Finish, or in its place
// when CTest never started.
func (p *parser) Close() error {
	if p.dir == "" {
		return nil
	}
	return os.RemoveAll(p.dir)
}

func (p *parser) Finish(exit report.Exit) adapters.Outcome {
	if p.result != nil { // ctest ended within a result line
		joined := strings.Join(p.result, "\n")
		p.result = nil
		p.ended(resultHead.FindStringSubmatch(joined)[1], joined, "0.00")
	}
	p.closeOpen()
	var out adapters.Outcome
	var hints []string
	if note := kit.JoinNotes(p.note, p.stale.Wait()); note != "" {
		hints = append(hints, note)
	}
	if err := p.readJUnit(); err != nil && !os.IsNotExist(err) {
		hints = append(hints, "reading ctest's JUnit report: "+err.Error())
	}
	if exit.StoppedBy == "" {
		p.locate()
	}
	hints = append(hints, p.repeated(&out)...)
	for _, name := range p.timeouts {
		if t, _ := p.rec.Lookup("", name); t.Status == report.TestFailed {
			out.Indicators = append(out.Indicators, "test_timed_out")
			break
		}
	}
	if exit.StoppedBy != "" {
		if h := p.stoppedHint(exit.StoppedBy); h != "" {
			hints = append(hints, h)
		}
	}
	if len(p.ranNone) > 0 {
		hints = append(hints, p.ranNoneHint())
	}
	if len(p.notBuilt) > 0 {
		// A target whose binary is missing failed to build, or was never
		// built: its tests are not known, and the run is no pass.
		out.BuildFailed = true
		for _, target := range p.notBuilt {
			out.BuildErrors = append(out.BuildErrors, report.BuildError{Message: target + " is not built: its test binary is missing (its build failed, or the tree was not built since it was added), so its tests are not known"})
		}
		hints = append(hints, fmt.Sprintf("%s not built: build the tree (cmake --build), then rerun", kit.JoinAnd(p.notBuilt)))
	}
	if c := p.crash(exit); c != nil {
		out.Crash = c
	}
	var discovery []string
	if exit.StoppedBy == "" && len(p.sel) == 0 && !p.selects {
		// The whole tree ran: a Catch2 binary whose discovery found
		// nothing is missing from it.
		discovery = p.discoveryFailures(&out, len(p.rec.Tests()) > 0)
		hints = append(hints, discovery...)
	}
	if p.noTests && len(p.rec.Tests()) == 0 && len(discovery) > 0 {
		out.Project = &report.Project{Language: "c++", BuildSystem: "CMake (CTest)"}
		out.NoTests, out.ExitExplained = !out.BuildFailed, true
	}
	if p.noTests && len(p.rec.Tests()) == 0 && len(discovery) == 0 {
		out.NoTests, out.ExitExplained = true, true
		out.Project = &report.Project{Language: "c++", BuildSystem: "CMake (CTest)"}
		hints = append(hints, kit.NoTestsHint{
			Test:  fmt.Sprintf("no CTest test is named %q: list them with ctest -N", p.test),
			Level: fmt.Sprintf("no CTest test has the label %s: strobe runs `ctest -L ^%s$` for it (set_tests_properties(… PROPERTIES LABELS %s), or gtest_discover_tests(… PROPERTIES LABELS %s))", p.level, p.level, p.level, p.level),
			All:   "the build tree declares no CTest test (add_test, gtest_discover_tests or catch_discover_tests in CMakeLists.txt)",
		}.For(p.test, p.level))
	}
	if p.noTests && len(p.rec.Tests()) > 0 && p.rec.Progress().Failed == 0 {
		// CTest counts a disabled test as none: the exit 8 of strobe's
		// --no-tests=error when only disabled tests were selected.
		out.ExitExplained = true
	}
	out.Hint = strings.Join(hints, "; ")
	return out
}

// stoppedHint says, for a run strobe stopped (stuck, timeout), how many
// of the tests CTest was to run it never started, and how to run the rest
// without the tests that hung (-E beside the run's selection). "" when no
// test was running, or under --repeat, whose tries the counts do not tell.
func (p *parser) stoppedHint(by string) string {
	if p.repeat != "" {
		return ""
	}
	var hung []string
	ended := 0
	for _, t := range p.rec.Tests() {
		if t.Status == report.TestRunning {
			hung = append(hung, t.Name)
		} else {
			ended++
		}
	}
	if len(hung) == 0 {
		return ""
	}
	h := "ctest was stopped at " + kit.StoppedAt(by) + ": the tests after it did not run and are in no count"
	if left := p.selected - ended - len(hung); p.selected > 0 && left > 0 {
		h = fmt.Sprintf("ctest was stopped at %s: %d of its %d tests did not run and %s in no count", kit.StoppedAt(by), left, p.selected, plural(left, "is", "are"))
	} else if p.selected > 0 {
		return ""
	}
	if slices.ContainsFunc(p.rerun, func(a string) bool { return a == "-E" || strings.HasPrefix(a, "--exclude-regex") }) {
		return h // the command's own exclusion would be replaced
	}
	rest := append(append(slices.Clone(p.rerun), p.sel...), "-E", kit.ExactAny(hung))
	return h + "; to run the rest without " + kit.StoppedWhat(by) + ": " + shell.Join(rest)
}

// crash is the crash evidence of the tests that died of a signal, their
// last try: CTest went on with the others, so the run names them all. A
// test CTest stopped at its timeout is no crash: it failed, timed out. A
// run strobe stopped has none of its own making.
func (p *parser) crash(exit report.Exit) *report.Crash {
	var c *report.Crash
	var parts []string
	for _, cr := range p.crashes {
		if t, _ := p.rec.Lookup("", cr.name); t.Status != report.TestFailed {
			continue // passed on a later try (ctest --repeat until-pass)
		}
		if c == nil {
			c = &report.Crash{Type: report.CrashUnknown, ExitCode: exit.Code}
		}
		if slices.Contains(c.RunningTests, cr.name) {
			continue // crashed on several tries
		}
		c.RunningTests = append(c.RunningTests, cr.name)
		c.Died = append(c.Died, cr.died) // CTest runs each test in a process of its own
		parts = append(parts, cr.name+" "+cr.how)
		if cr.signal != "" && c.Type == report.CrashUnknown {
			c.Type = kit.CrashType(cr.signal)
		}
		if cr.signal != "" {
			c.Indicators = append(c.Indicators, "ctest_test_signaled")
		}
	}
	if c == nil {
		return nil
	}
	c.Indicators = slices.Compact(c.Indicators)
	c.Message = "ctest: " + strings.Join(parts, "; ")
	return c
}

// readJUnit adds what only the report has: the output of the tests that
// passed or were skipped (--output-on-failure prints only the failed
// ones'), and the tests the console did not end.
func (p *parser) readJUnit() error {
	if p.junit == "" {
		return nil
	}
	f, err := os.Open(p.junit)
	if err != nil {
		return err
	}
	defer f.Close()
	r := format.NewJUnitReader(f)
	for {
		c, err := r.Next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		p.junitCase(c)
	}
}

func (p *parser) junitCase(c format.JUnitCase) {
	name := c.Name
	if m := notBuiltTest.FindStringSubmatch(name); m != nil {
		if !slices.Contains(p.notBuilt, m[1]) {
			p.notBuilt = append(p.notBuilt, m[1])
		}
		return // no test of the project's (see notBuiltTest)
	}
	_, seen := p.rec.Lookup("", name)
	if c.SystemOut != "" && !p.output[name] {
		p.rec.Output("", name, c.SystemOut)
		p.output[name] = true
	}
	if c.Status == format.JUnitPassed && strings.Contains(c.SystemOut, "[==========] Running 0 tests from ") {
		p.ranNone = append(p.ranNone, name)
		p.filtered = p.filtered || strings.Contains(c.SystemOut, "Note: Google Test filter = ")
		p.rec.Again("", name)
		p.rec.End("", name, report.TestSkipped, kit.DurationOf(c.Time), nil)
		return
	}
	if p.suiteFailed(name, c) || p.exitedInside(name, c) || p.catch2Exited(name, c) {
		return
	}
	if seen {
		// Ended on the console; or still running, because strobe stopped
		// the run (or CTest died) while it ran: it stays so.
		return
	}
	d := kit.DurationOf(c.Time)
	switch c.Status {
	case format.JUnitPassed:
		p.rec.End("", name, report.TestPassed, d, nil)
	case format.JUnitSkipped:
		p.rec.End("", name, report.TestSkipped, d, nil)
	default:
		p.rec.Start("", name)
		p.rec.End("", name, report.TestFailed, d, p.failure(outputFailed(name, d, c.SystemOut)))
	}
}

// outputFailed is a failed test read from its whole output.
func outputFailed(name string, d time.Duration, output string) *failed {
	f := &failed{name: name, status: "***Failed", d: d, lines: strings.Split(strings.TrimRight(output, "\n"), "\n")}
	for _, l := range f.lines {
		f.read(l)
	}
	return f
}

// exitedInside fails a test CTest passed whose GoogleTest output ends
// inside a test: its binary exited 0 after "[ RUN ]" and before that
// test's end and GoogleTest's summary (exit(0) in the test or the code it
// calls), where the gtest adapter answers crashed.
func (p *parser) exitedInside(name string, c format.JUnitCase) bool {
	if c.Status != format.JUnitPassed || cutByCTest(c.SystemOut) {
		return false // a passed test's output CTest cut short has no end to read
	}
	running, summary := "", false
	for _, l := range strings.Split(c.SystemOut, "\n") {
		if gtestEvent(l) {
			running = gtestRunning(l, running)
		}
		summary = summary || strings.HasPrefix(l, "[==========] ") && strings.Contains(l, " ran.")
	}
	if running == "" || summary {
		return false
	}
	d := kit.DurationOf(c.Time)
	of := outputFailed(name, d, c.SystemOut)
	f := p.failure(of)
	out := strings.TrimPrefix(f.Message, plainFailed+of.status+"):\n") // ctest said Passed
	f.Message = kit.Clip(fmt.Sprintf("ctest counts it passed, but its binary exited (code 0) inside %s, before GoogleTest reported that test's end: exit() in the test or the code it calls?\n%s", running, out))
	p.rec.End("", name, report.TestFailed, d, f)
	return true
}

// cutByCTest says CTest cut the output short (1,024 bytes of a passed
// test's by default): "The rest of the test output was removed since it
// exceeds the threshold of N bytes." (older CTest) or "[This part of the
// test output was removed since …]" (CTest 3.25).
func cutByCTest(out string) bool {
	return strings.Contains(out, " of the test output was removed since it exceeds the threshold")
}

// catch2Exited fails a test CTest passed whose Catch2 console output
// began a run and never ended it: catch_discover_tests runs each test
// case alone (`BIN "name"`), and Catch2 begins with its "Filters: name"
// line and ends with its summary ("All tests passed (…)", "test cases:
// …", "No tests ran"). A binary that exited 0 between the two exited
// inside the test case (exit(0) in the test or the code it calls), where
// the catch2 adapter answers crashed. Another reporter than the console
// prints no such line, and is not read.
func (p *parser) catch2Exited(name string, c format.JUnitCase) bool {
	if c.Status != format.JUnitPassed || cutByCTest(c.SystemOut) {
		return false
	}
	began, summary, spec := false, false, ""
	for _, l := range strings.Split(c.SystemOut, "\n") {
		if !began && strings.TrimSpace(l) == "" {
			continue
		}
		if !began {
			if spec, began = strings.CutPrefix(l, "Filters: "); !began {
				return false // not Catch2's console, or output before its run
			}
			continue
		}
		summary = summary || catch2SummaryLine.MatchString(l)
	}
	if !began || summary {
		return false
	}
	d := kit.DurationOf(c.Time)
	of := outputFailed(name, d, c.SystemOut)
	f := p.failure(of)
	out := strings.TrimPrefix(f.Message, plainFailed+of.status+"):\n") // ctest said Passed
	// The spec as Catch2 prints it (v3 quotes it) names the test case.
	spec = strings.Trim(strings.TrimSpace(spec), `"`)
	f.Message = kit.Clip(fmt.Sprintf("ctest counts it passed, but its binary exited (code 0) inside Catch2 test case %q, before Catch2 ended it and printed its summary: exit() in the test or the code it calls?\n%s", spec, out))
	p.catch2Exits = append(p.catch2Exits, name)
	p.rec.End("", name, report.TestFailed, d, f)
	return true
}

// catch2SummaryLine is a line Catch2's console reporter ends a run with
// (v2 and v3).
var catch2SummaryLine = lazyre.New(`^(All tests passed|test cases: |No tests ran)`)

// suiteFailedLine is GoogleTest's summary line for a suite whose
// SetUpTestSuite or TearDownTestSuite failed.
var suiteFailedLine = lazyre.New(`(?m)^\[  FAILED  \] (\S+): SetUpTestSuite or TearDownTestSuite$`)

// suiteFailed fails a test CTest skipped whose GoogleTest suite failed
// outside it: since 1.11 GoogleTest skips a suite's tests when its
// SetUpTestSuite failed and exits 1, and gtest_discover_tests' skip
// regex makes that a skip.
func (p *parser) suiteFailed(name string, c format.JUnitCase) bool {
	m := suiteFailedLine.FindStringSubmatch(c.SystemOut)
	if c.Status != format.JUnitSkipped || m == nil {
		return false
	}
	d := kit.DurationOf(c.Time)
	f := p.failure(outputFailed(name, d, c.SystemOut))
	f.Message = kit.Clip(fmt.Sprintf("ctest counts it skipped, but its suite %s failed in SetUpTestSuite or TearDownTestSuite and GoogleTest exited 1 (it skips a suite's tests when SetUpTestSuite failed)\n%s", m[1], f.Message))
	p.rec.End("", name, report.TestFailed, d, f)
	return true
}

// ranNoneHint says why the tests of ranNone are skipped: GoogleTest's
// sharding variables, when set, put a test run alone in shard 0, so in
// any other shard each gtest_discover_tests test runs nothing.
func (p *parser) ranNoneHint() string {
	names := strings.Join(p.ranNone[:min(len(p.ranNone), 5)], ", ")
	if n := len(p.ranNone) - 5; n > 0 {
		names += fmt.Sprintf(" and %d more", n)
	}
	why := "its --gtest_filter (or GTEST_FILTER) matched no test"
	if !p.filtered {
		why = "it ran with no filter, so its binary has no GoogleTest test (compiled out?)"
	}
	total, index := kit.EnvValue(p.env, "GTEST_TOTAL_SHARDS"), kit.EnvValue(p.env, "GTEST_SHARD_INDEX")
	if total != "" && index != "" {
		why = fmt.Sprintf("GTEST_TOTAL_SHARDS=%s and GTEST_SHARD_INDEX=%s are set, and a test CTest runs alone falls in shard 0; unset them (env -u GTEST_TOTAL_SHARDS -u GTEST_SHARD_INDEX ctest …)", total, index)
	}
	return fmt.Sprintf("%s passed in CTest but ran no GoogleTest test (\"Running 0 tests\"), so they count as skipped: %s", names, why)
}

// repeated says what the tries of a test ctest --repeat ran again tell:
// one that failed and then passed (until-pass, after-timeout) passed, as
// CTest counts it, and is flaky; one that passed and then failed
// (until-fail) failed on its last try, its message saying so.
func (p *parser) repeated(out *adapters.Outcome) []string {
	var flaky []string
	for _, t := range p.rec.Tests() {
		tries := p.tries[t.Name]
		if len(tries) == 0 {
			continue
		}
		n := len(tries) + 1
		var first *report.Failure
		passes, fails := 0, 0
		for _, tr := range tries {
			if tr.status == report.TestFailed {
				fails++
				if first == nil {
					first = tr.failure
				}
			}
			if tr.status == report.TestPassed {
				passes++
			}
		}
		switch {
		case t.Status == report.TestPassed && fails > 0:
			ft := adapters.FlakyTest{Name: t.Name, Attempts: n}
			if first != nil {
				ft.File, ft.Line, ft.Message = first.File, first.Line, first.Message
			}
			out.Flaky = append(out.Flaky, ft)
			flaky = append(flaky, fmt.Sprintf("%s (passed on try %d)", t.Name, n))
		case t.Status == report.TestFailed && passes > 0:
			p.rec.UpdateFailure("", t.Name, func(f *report.Failure) {
				f.Message = kit.Clip(fmt.Sprintf("failed on try %d (ctest --repeat %s), after passing %d %s:\n", n, p.repeat, passes, plural(passes, "try", "tries")) + f.Message)
			})
		case t.Status == report.TestFailed:
			p.rec.UpdateFailure("", t.Name, func(f *report.Failure) {
				f.Message = kit.Clip(fmt.Sprintf("failed all %d tries (ctest --repeat %s); the last one:\n", n, p.repeat) + f.Message)
			})
		}
	}
	if len(flaky) == 0 {
		return nil
	}
	out.Indicators = append(out.Indicators, "flaky_tests")
	return []string{"flaky: " + strings.Join(flaky, ", ") + " failed and then passed when ctest ran it again (--repeat " + p.repeat + "); it counts as passed, as ctest counts it"}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
