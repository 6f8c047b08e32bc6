package swift

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
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

// The console's lines. Swift Testing starts each line with a symbol (◇ ✔ ✘
// ➜ ↳ …, or an SF Symbols private-use glyph on macOS), hence \S+.
var (
	xcCase      = lazyre.New(`^Test Case '(.+?)' (started|passed|failed|skipped)(?: at .*|\.| \(([\d.]+) seconds\)\.?)?$`)
	xcSuite     = lazyre.New(`^Test Suite '(.+?)' (started|passed|failed)`)
	xcAssertion = lazyre.New(`^(.+?):(\d+): error: (-\[[^\]]+\]|[\w.]+) : (.*)$`)
	xcSkipNote  = lazyre.New(`^(?:.+?):(\d+): (-\[[^\]]+\]|[\w.]+) : Test skipped(?: - (.*))?$`)
	stStarted   = lazyre.New(`^\S+\s+Test (.+?) started\.$`)
	stPassed    = lazyre.New(`^\S+\s+Test (.+?) passed after ([\d.]+) seconds`)
	stFailed    = lazyre.New(`^\S+\s+Test (.+?) failed after ([\d.]+) seconds`)
	stIssue     = lazyre.New(`^\S+\s+Test (.+?) recorded an issue(?: with .*?)? at ([^\s:]+):(\d+):(\d+): (.*)$`)
	stSkipped   = lazyre.New(`^\S+\s+Test (.+?) skipped(?:: "(.*)")?\.?$`)
	stRun       = lazyre.New(`^\S+\s+Test (?:run (?:started|with)|case passing )`)
	compileErr  = lazyre.New(`^(.+?):(\d+):(\d+): (?:fatal )?error: (.*)$`)
	signalCode  = lazyre.New(`(?i)exited with (?:unexpected )?signal code (\d+)`)
	fatalError  = lazyre.New(`^(?:.*?: )?(Fatal error|Precondition failed|Assertion failed)(?:: (.*))?$`)
	backtracing = lazyre.New(`^\*\*\* Signal (\d+): Backtracing`)
	progCrashed = lazyre.New(`^\*\*\* Program crashed: (.+?) \*\*\*$`)
	backtraceAt = lazyre.New(`^\s*\d+ (?:\[[^\]]+\]\s*)*0x[0-9a-f]+ (.+?) in \S+ at (.+?):(\d+):(\d+)$`)
	buildFailed = lazyre.New(`^error: (fatalError|.*command failed with exit code \d+.*)$`)
)

// parser reads swift test's console.
type parser struct {
	rec    *adapters.Recorder
	root   string
	dir    string // strobe's report directory, removed by Close
	xunit  string
	rerun  []string
	filter string

	testing   bool
	last      string // the XCTest test running (XCTest runs one at a time)
	lastFail  *report.Failure
	failLines int
	fails     map[string]*report.Failure // failures of tests not ended yet
	skipNotes map[string]string
	buildErrs []report.BuildError
	buildNote string
	crash     *crashSeen
	files     map[string][]string // Tests/ files by base name, for Swift Testing's bare File.swift
}

// crashSeen is the console's evidence of a crash.
type crashSeen struct {
	signal     int
	text       string // the runtime's own words: "Fatal error: …", "Program crashed: …"
	file       string
	line       int
	running    []string
	indicators []string
}

func newParser(rec *adapters.Recorder, root, dir, xunit string, rerun []string) *parser {
	return &parser{rec: rec, root: root, dir: dir, xunit: xunit, rerun: rerun,
		fails: map[string]*report.Failure{}, skipNotes: map[string]string{}}
}

// xctestName turns XCTest's names into --filter's spelling:
// -[Module.Class test] → Module.Class/test, Class.test → Class/test.
func xctestName(raw string) string {
	if strings.HasPrefix(raw, "-[") && strings.HasSuffix(raw, "]") {
		cls, method, _ := strings.Cut(raw[2:len(raw)-1], " ")
		return cls + "/" + method
	}
	if i := strings.LastIndex(raw, "."); i > 0 {
		return raw[:i] + "/" + raw[i+1:]
	}
	return raw
}

func (p *parser) begin() {
	if !p.testing {
		p.testing = true
		p.rec.BeginTesting()
	}
}

func (p *parser) Line(_ adapters.Stream, b []byte, _ bool) {
	line := strings.TrimRight(kit.StripANSI(string(b)), "\r")
	switch {
	case p.xctestLine(line), p.swiftTestingLine(line), p.crashLine(line):
		return
	}
	if !p.testing {
		p.buildLine(line)
		return
	}
	// Anything else while a test runs is its output; right after a
	// failure, the rest of a multi-line assertion message.
	if p.lastFail != nil && p.failLines < 30 && strings.TrimSpace(line) != "" {
		kit.AppendMessage(p.lastFail, "\n", line)
		p.failLines++
	}
	if p.last != "" {
		p.rec.Output("", p.last, line+"\n")
	}
}

func (p *parser) xctestLine(line string) bool {
	if m := xcSuite.FindStringSubmatch(line); m != nil {
		p.begin()
		p.lastFail = nil
		return true
	}
	if m := xcCase.FindStringSubmatch(line); m != nil {
		p.begin()
		name := xctestName(m[1])
		p.lastFail = nil
		d := seconds(m[3])
		switch m[2] {
		case "started":
			p.rec.Start("", name)
			p.last = name
		case "passed":
			p.rec.End("", name, report.TestPassed, d, nil)
		case "skipped":
			if note := p.skipNotes[name]; note != "" {
				p.rec.Output("", name, "skipped: "+note+"\n")
			}
			delete(p.fails, name)
			p.rec.End("", name, report.TestSkipped, d, nil)
		case "failed":
			p.endFailed(name, d, "failed (swift test printed no assertion for it)")
		}
		if m[2] != "started" {
			p.last = ""
		}
		return true
	}
	if m := xcSkipNote.FindStringSubmatch(line); m != nil {
		p.skipNotes[xctestName(m[2])] = m[3]
		return true
	}
	if m := xcAssertion.FindStringSubmatch(line); m != nil {
		p.begin()
		n, _ := strconv.Atoi(m[2])
		p.addFailure(xctestName(m[3]), kit.ProjectPath(p.root, m[1]), n, m[4])
		return true
	}
	return false
}

func (p *parser) swiftTestingLine(line string) bool {
	if stRun.MatchString(line) {
		p.begin()
		return true // the run's own lines, or one argument case of a parameterised test
	}
	if m := stIssue.FindStringSubmatch(line); m != nil {
		p.begin()
		n, _ := strconv.Atoi(m[3])
		p.addFailure(m[1], p.sourceFile(m[2]), n, m[5])
		return true
	}
	if m := stStarted.FindStringSubmatch(line); m != nil {
		p.begin()
		p.rec.Start("", m[1])
		p.lastFail = nil
		return true
	}
	if m := stPassed.FindStringSubmatch(line); m != nil {
		p.begin()
		p.rec.End("", m[1], report.TestPassed, seconds(m[2]), nil)
		p.lastFail = nil
		return true
	}
	if m := stFailed.FindStringSubmatch(line); m != nil {
		p.begin()
		p.endFailed(m[1], seconds(m[2]), strings.TrimSpace(line))
		p.lastFail = nil
		return true
	}
	if m := stSkipped.FindStringSubmatch(line); m != nil {
		p.begin()
		if m[2] != "" {
			p.rec.Output("", m[1], "skipped: "+m[2]+"\n")
		}
		p.rec.End("", m[1], report.TestSkipped, 0, nil)
		return true
	}
	return false
}

// buildLine reads the build before any test ran: the compiler's errors,
// each once (the compiler repeats them for every job that hit them).
func (p *parser) buildLine(line string) {
	if m := compileErr.FindStringSubmatch(line); m != nil {
		n, _ := strconv.Atoi(m[2])
		c, _ := strconv.Atoi(m[3])
		e := report.BuildError{File: kit.ProjectPath(p.root, m[1]), Line: n, Column: c, Message: m[4]}
		if !slices.Contains(p.buildErrs, e) {
			p.buildErrs = append(p.buildErrs, e)
		}
		return
	}
	if m := buildFailed.FindStringSubmatch(line); m != nil && p.buildNote == "" {
		p.buildNote = m[1]
	}
}

// crashLine notes the evidence of a crash: SwiftPM's word that the test
// process died of a signal, the Swift runtime's fatal error, and the
// backtracer's block with the first frame that has a source location.
func (p *parser) crashLine(line string) bool {
	if m := signalCode.FindStringSubmatch(line); m != nil {
		c := p.crashed("test_process_signaled")
		c.signal, _ = strconv.Atoi(m[1])
		return true
	}
	if m := backtracing.FindStringSubmatch(line); m != nil {
		c := p.crashed("swift_backtrace")
		c.signal, _ = strconv.Atoi(m[1])
		return true
	}
	if m := progCrashed.FindStringSubmatch(line); m != nil {
		c := p.crashed("swift_backtrace")
		if c.text == "" {
			c.text = "Program crashed: " + m[1]
		}
		return true
	}
	if m := fatalError.FindStringSubmatch(line); m != nil && (p.testing || p.crash != nil || strings.HasPrefix(line, m[1])) {
		c := p.crashed("swift_fatal_error")
		text := m[1]
		if m[2] != "" {
			text += ": " + m[2]
		}
		c.text = text
		if p.last != "" {
			p.rec.Output("", p.last, line+"\n")
		}
		return true
	}
	if p.crash != nil && p.crash.file == "" {
		if m := backtraceAt.FindStringSubmatch(line); m != nil {
			// The first frame with a source location is the code that crashed.
			p.crash.file = kit.ProjectPath(p.root, m[2])
			p.crash.line, _ = strconv.Atoi(m[3])
		}
	}
	return false
}

// crashed is the crash seen so far, with the tests running when its first
// evidence came.
func (p *parser) crashed(indicator string) *crashSeen {
	if p.crash == nil {
		p.crash = &crashSeen{}
		for _, t := range p.rec.Progress().Running {
			p.crash.running = append(p.crash.running, t.Name)
		}
	}
	if !slices.Contains(p.crash.indicators, indicator) {
		p.crash.indicators = append(p.crash.indicators, indicator)
	}
	return p.crash
}

func seconds(s string) time.Duration {
	f, _ := strconv.ParseFloat(s, 64)
	return kit.DurationOf(f)
}

// sourceFile finds the file Swift Testing names by its base name alone
// (AnalyzeErrorTests.swift) under Tests/, when exactly one has that name.
func (p *parser) sourceFile(name string) string {
	if strings.Contains(name, "/") {
		return kit.ProjectPath(p.root, name)
	}
	if p.files == nil {
		p.files = map[string][]string{}
		kit.WalkLimited(filepath.Join(p.root, "Tests"), 8, func(path string, d fs.DirEntry) {
			if !d.IsDir() && strings.HasSuffix(d.Name(), ".swift") {
				p.files[d.Name()] = append(p.files[d.Name()], kit.ProjectPath(p.root, path))
			}
		}, func(n string) bool { return n == ".build" })
	}
	if paths := p.files[name]; len(paths) == 1 {
		return paths[0]
	}
	return name
}

func (p *parser) addFailure(test, file string, line int, msg string) {
	if f := p.fails[test]; f != nil {
		kit.AddFailure(f, file, line, msg)
		p.lastFail, p.failLines = f, 0
		return
	}
	// Kept until the test's end, which records it.
	f := &report.Failure{Name: test, File: file, Line: line, Message: msg, Rerun: p.rerunFor(test)}
	p.fails[test] = f
	p.lastFail, p.failLines = f, 0
}

func (p *parser) endFailed(name string, d time.Duration, fallback string) {
	f := p.fails[name]
	delete(p.fails, name)
	if f == nil {
		f = &report.Failure{Name: name, Message: fallback, Rerun: p.rerunFor(name)}
	}
	p.rec.End("", name, report.TestFailed, d, f)
}

// rerunFor is the command that runs test alone; none for a Swift Testing
// test known only by its display name ("Parses dates"), which --filter
// does not match.
func (p *parser) rerunFor(test string) string {
	if strings.HasPrefix(test, `"`) {
		return ""
	}
	return shell.Join(append(slices.Clone(p.rerun), "--filter", TestFilter(test)))
}

func (p *parser) Finish(exit report.Exit) adapters.Outcome {
	var out adapters.Outcome
	// Failures whose test never ended (the process died in it).
	for name, f := range p.fails {
		if p.crash == nil || !slices.Contains(p.crash.running, name) {
			p.rec.End("", name, report.TestFailed, 0, f)
			delete(p.fails, name)
		}
	}
	p.readXUnit()
	if crash := p.crashOutcome(exit); crash != nil {
		out.Crash = crash
		out.Hint = p.crashHint(crash)
		return out
	}
	tests := p.rec.Progress()
	if tests.Passed+tests.Failed+tests.Skipped+len(tests.Running) == 0 {
		switch {
		case len(p.buildErrs) > 0 || (p.buildNote != "" && !exit.Exited) || (p.buildNote != "" && exit.Code != 0):
			out.BuildFailed = true
			out.BuildErrors = p.buildErrs
			if len(p.buildErrs) == 0 {
				out.Hint = "swift test could not build the tests (" + p.buildNote + "): run `swift build --build-tests` to see why"
			}
		case exit.Exited && exit.Code == 0:
			out.NoTests = true
			out.Hint = p.noTestsHint()
		}
	}
	return out
}

func (p *parser) noTestsHint() string {
	if p.filter != "" {
		return fmt.Sprintf("no test matched --filter %s: list the tests with `swift test list`", shell.Quote(p.filter))
	}
	return "swift test ran no test: add XCTest or Swift Testing tests to a test target under Tests/"
}

// crashOutcome is the crash the console or the exit status shows, nil for
// none. strobe's own stop (stuck, timeout) is not a crash of the tests.
func (p *parser) crashOutcome(exit report.Exit) *report.Crash {
	if exit.StoppedBy != "" {
		return nil
	}
	c := p.crash
	sig := kit.ExitSignal(exit)
	if c == nil && sig == "" {
		return nil
	}
	if c == nil {
		c = &crashSeen{indicators: []string{"swift_test_signaled"}}
		for _, t := range p.rec.Progress().Running {
			c.running = append(c.running, t.Name)
		}
	}
	if sig == "" && c.signal > 0 {
		sig = kit.SignalName(c.signal)
	}
	crash := &report.Crash{Type: report.CrashUnknown, ExitCode: exit.Code, Signal: exit.Signal, SignalName: exit.SignalName, CoreDump: exit.CoreDump,
		Indicators: c.indicators, RunningTests: c.running}
	if sig != "" {
		crash.Type = kit.CrashType(sig)
		if crash.SignalName == "" {
			crash.Signal, crash.SignalName = c.signal, sig
		}
	}
	crash.Message = p.crashMessage(c, sig)
	// XCTest runs one test at a time: the one running is the one that
	// died. Swift Testing runs several at once: they stay suspects.
	if len(c.running) == 1 {
		name := c.running[0]
		f := p.fails[name]
		delete(p.fails, name)
		msg := "crashed: " + crash.Message
		if f == nil {
			f = &report.Failure{Name: name, File: c.file, Line: c.line, Message: msg, Rerun: p.rerunFor(name)}
		} else {
			kit.AppendMessage(f, "\n", msg)
		}
		p.rec.End("", name, report.TestFailed, 0, f)
	}
	for name, f := range p.fails {
		p.rec.End("", name, report.TestFailed, 0, f)
	}
	return crash
}

func (p *parser) crashMessage(c *crashSeen, sig string) string {
	var parts []string
	if c.text != "" {
		parts = append(parts, c.text)
	}
	if sig != "" {
		parts = append(parts, "the test process died of "+sig)
	}
	if c.file != "" {
		parts = append(parts, fmt.Sprintf("at %s:%d", c.file, c.line))
	}
	if len(parts) == 0 {
		return "the test process crashed"
	}
	return strings.Join(parts, "; ")
}

func (p *parser) crashHint(c *report.Crash) string {
	switch len(c.RunningTests) {
	case 0:
		return "the test process crashed before a test was named running: rerun with `swift test --no-parallel` to see where, and read the backtrace above the crash in the details file"
	case 1:
		return fmt.Sprintf("the test process crashed in %s: rerun it alone with `%s`", c.RunningTests[0], p.rerunFor(c.RunningTests[0]))
	}
	return fmt.Sprintf("the test process crashed while %d tests ran (%s): rerun with `swift test --no-parallel` to find the one", len(c.RunningTests), strings.Join(c.RunningTests, ", "))
}

// readXUnit adds the tests of SwiftPM's xUnit reports that the console did
// not name (a line lost, a cut console). The console wins for the others:
// SwiftPM writes XCTest's skips as passes.
func (p *parser) readXUnit() {
	base := strings.TrimSuffix(p.xunit, ".xml")
	for _, path := range []string{p.xunit, base + "-swift-testing.xml"} {
		f, err := os.Open(path)
		if err != nil {
			continue
		}
		r := format.NewJUnitReader(f)
		for {
			c, err := r.Next()
			if err != nil {
				break
			}
			p.xunitCase(c)
		}
		f.Close()
	}
}

func (p *parser) xunitCase(c format.JUnitCase) {
	name := c.Name
	if c.Classname != "" && !strings.HasSuffix(c.Name, ")") {
		name = c.Classname + "/" + c.Name // XCTest: Module.Class/test
	}
	for _, known := range []string{name, c.Name, shortName(name)} {
		if _, ok := p.rec.Lookup("", known); ok {
			return
		}
	}
	d := kit.DurationOf(c.Time)
	switch c.Status {
	case format.JUnitFailed, format.JUnitError:
		msg := c.Message
		if c.Text != "" {
			msg = kit.Clip(c.Text)
		}
		p.rec.End("", name, report.TestFailed, d, &report.Failure{Name: name, Message: msg, Rerun: p.rerunFor(name)})
	case format.JUnitSkipped:
		p.rec.End("", name, report.TestSkipped, d, nil)
	default:
		p.rec.End("", name, report.TestPassed, d, nil)
	}
}

// shortName is Linux's Class/test for macOS's Module.Class/test.
func shortName(name string) string {
	cls, method, ok := strings.Cut(name, "/")
	if !ok {
		return name
	}
	if i := strings.LastIndex(cls, "."); i >= 0 {
		cls = cls[i+1:]
	}
	return cls + "/" + method
}

// Close removes strobe's report directory.
func (p *parser) Close() error {
	if p.dir != "" {
		return os.RemoveAll(p.dir)
	}
	return nil
}
