package maven

import (
	"cmp"
	"context"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"strobe/adapters"
	"strobe/adapters/kit"
	"strobe/adapters/kit/format"
	"strobe/internal/lazyre"
	"strobe/internal/shell"
	"strobe/report"
)

// Report directories, under each module's target/.
const (
	surefireDir = "surefire-reports"
	failsafeDir = "failsafe-reports"
)

type parser struct {
	rec     *adapters.Recorder
	root    string
	modules []string
	prefix  []string // the command a rerun starts with
	// before holds the reports there before the run, with their times:
	// one still so is an earlier run's.
	before map[string]time.Time
	level  adapters.Level
	test   string

	// read holds the reports recorded, as they were when read, and the
	// tests each gave: Surefire rewrites a class's report when it runs
	// its failed tests again (rerunFailingTestsCount), after the class's
	// first closing line.
	read map[string]readReport
	// classModule is the module whose report first named each class
	// (suiteOf).
	classModule map[string]string
	flaky       []adapters.FlakyTest
	buildErrs   []report.BuildError
	seenErr     map[report.BuildError]bool // as first printed, before its detail lines
	lastErr     int                        // the build error detail lines go to, -1 for none
	totals      report.Summary             // Maven's closing counts, over every module
	hasTotals   bool
	noTests     bool   // "No tests to run."
	crash       string // surefire's word that the forked JVM died
	// forkErr says Surefire's "There was an error in the forked process"
	// came: the next line says what the error was.
	forkErr bool
	running string // the class running now (setRunning)
	// unitClass is running's copy for the stuck detector (RunningUnit),
	// which asks from its own goroutine, and unitSince when it began.
	unitMu    sync.Mutex
	unitClass string
	unitSince time.Time
	// ended are the classes whose closing line came; whole says the
	// command is strobe's own, selecting no test (stoppedHint).
	ended map[string]bool
	whole bool
	// goalErr is Maven's "Failed to execute goal …" with its [ERROR]
	// lines up to "-> [Help 1]"; inGoal says those lines are still coming.
	goalErr string
	inGoal  bool
	// forkExit is the exit code Surefire gives for its fork that died
	// ("Process Exit Code: 3"), -1 until it says.
	forkExit int
	// skipped are the modules the Reactor Summary says Maven skipped
	// (`app ..... SKIPPED`): after a module failed, their tests never ran.
	skipped []string
	// discovery is JUnit's word that an engine found no test because it
	// failed ("TestEngine with ID 'junit-jupiter' failed to discover
	// tests"), with the exception's line after it; inDiscovery says that
	// line is next.
	discovery   string
	inDiscovery bool
}

func newParser(rec *adapters.Recorder, root string, modules, prefix []string) *parser {
	return &parser{rec: rec, root: root, modules: modules, prefix: prefix, before: map[string]time.Time{},
		read: map[string]readReport{}, ended: map[string]bool{}, classModule: map[string]string{}, seenErr: map[report.BuildError]bool{}, lastErr: -1, forkExit: -1}
}

// rules are tried in order on a line without its [LEVEL] tag; the first
// whose prefix matches (anywhere, for contains rules) handles it.
var rules = []struct {
	prefix string
	handle func(p *parser, rest string)
}{
	{"Running ", (*parser).classStarted},
	{"Tests run: ", (*parser).counts},
	{"T E S T S", func(p *parser, _ string) { p.rec.BeginTesting() }},
	{"--- ", (*parser).mojo},
	{"No tests to run.", func(p *parser, _ string) { p.noTests = true }},
}

func (p *parser) Line(_ adapters.Stream, b []byte, cut bool) {
	line := untag(kit.StripANSI(string(b)))
	if strings.Contains(line, "The forked VM terminated without properly saying goodbye") ||
		strings.Contains(line, "The forked VM terminated without saying properly goodbye") {
		p.crash = kit.Clip(strings.TrimSpace(line))
		return
	}
	if t := strings.TrimSpace(line); p.forkErr {
		// The fork's own error, which ended it ("Java heap space"): a
		// crash of the tests, not a build error of Maven's.
		p.forkErr = false
		if t != "" && p.crash == "" && p.discovery == "" {
			p.crash = kit.Clip(forkError + ": " + t)
		}
	} else if t == forkError {
		p.forkErr = true
	}
	if rest, ok := strings.CutPrefix(line, "Process Exit Code: "); ok && p.forkExit < 0 {
		p.forkExit, _ = strconv.Atoi(strings.TrimSpace(rest))
	}
	if cut {
		return
	}
	tagged := strings.HasPrefix(kit.StripANSI(string(b)), "[ERROR]")
	if p.goalError(line, tagged) || p.discoveryFailed(line) {
		return
	}
	for _, r := range rules {
		if rest, ok := strings.CutPrefix(line, r.prefix); ok {
			r.handle(p, rest)
			return
		}
	}
	if m := compileErr.FindStringSubmatch(line); m != nil {
		if tagged { // [WARNING] has the same shape (-Xlint, showWarnings)
			p.buildError(m)
		} else {
			p.lastErr = -1
		}
		return
	}
	if m := reactorSkipped.FindStringSubmatch(line); m != nil {
		p.skipped = append(p.skipped, m[1])
		return
	}
	if strings.HasPrefix(line, "  ") && p.lastErr >= 0 {
		// javac's detail lines under an error (`  symbol:   method x()`)
		e := &p.buildErrs[p.lastErr]
		e.Message = kit.Clip(strings.TrimSuffix(e.Message, ";") + "; " + strings.Join(strings.Fields(line), " "))
		return
	}
	p.lastErr = -1
}

// discoveryFailed keeps JUnit Platform's warning that an engine failed
// to discover its tests, and the exception under it. Surefire then runs
// none of them and says so as if there were none: "Tests run: 0" and a
// zero exit, as when Surefire 2.22's own launcher (JUnit Platform 1.3)
// meets a newer Jupiter ("OutputDirectoryCreator not available; probably
// due to unaligned versions of the junit-platform-engine and
// junit-platform-launcher jars").
func (p *parser) discoveryFailed(line string) bool {
	if p.inDiscovery {
		p.inDiscovery = false
		if strings.Contains(line, "Exception") {
			p.discovery += " (" + kit.Clip(strings.TrimSpace(line)) + ")"
			return true
		}
	}
	m := engineFailed.FindStringSubmatch(line)
	if m == nil {
		return false
	}
	p.discovery, p.inDiscovery = "maven: JUnit's "+m[1]+" engine failed to discover its tests, so none of them ran", true
	return true
}

var engineFailed = lazyre.New(`TestEngine with ID '([^']+)' failed to discover tests`)

// reactorSkipped is a module of the Reactor Summary that Maven skipped
// (`app ........ SKIPPED`), after a module before it failed (or, under
// -fae, one it depends on).
var reactorSkipped = lazyre.New(`^(\S.*?) \.+ SKIPPED$`)

// untag drops Maven's level tag ([INFO], [ERROR], [WARNING]).
func untag(line string) string {
	if strings.HasPrefix(line, "[") {
		if i := strings.Index(line, "] "); i > 0 && i < 10 {
			return line[i+2:]
		}
	}
	return line
}

// goalError keeps Maven's closing failure (`Failed to execute goal
// org.apache.rat:…:check (rat-check) on project x: …`, `Failed to execute
// goal on project x: Could not resolve dependencies …`) and the [ERROR]
// lines under it, which say why a build stopped before any test ran.
// Surefire's word that no test matched is no tests.
func (p *parser) goalError(line string, tagged bool) bool {
	t := strings.TrimSpace(line)
	switch rest, first := strings.CutPrefix(line, "Failed to execute goal "); {
	case first && tagged && p.goalErr == "":
		p.goalErr, p.inGoal = "Failed to execute goal "+strings.TrimSpace(rest), true
	case !p.inGoal:
		return false
	case !tagged || t == "" || strings.HasPrefix(t, "-> [Help"):
		p.inGoal = false
		return false
	case compileErr.MatchString(line):
		return false // javac's errors again, under the compiler's failure
	default:
		p.goalErr += " " + t
	}
	if msg, _, ok := strings.Cut(p.goalErr, " -> [Help"); ok {
		p.goalErr, p.inGoal = msg, false
	}
	p.goalErr = kit.Clip(p.goalErr)
	if strings.Contains(p.goalErr, "No tests") && strings.Contains(p.goalErr, "were executed") {
		p.noTests = true
	}
	return true
}

func (p *parser) classStarted(class string) {
	p.rec.BeginTesting()
	p.setRunning(strings.TrimSpace(class))
}

// setRunning notes the class running now, "" for none, and its copy for
// the stuck detector (RunningUnit) with since when.
func (p *parser) setRunning(class string) {
	p.running = class
	p.unitMu.Lock()
	defer p.unitMu.Unlock()
	if class != p.unitClass {
		p.unitClass, p.unitSince = class, time.Now()
	}
}

// RunningUnit (adapters.UnitRunner): the class Surefire said it runs, its
// tests named "Class#method" as the parser names them.
func (p *parser) RunningUnit() (name, prefix string, since time.Time) {
	p.unitMu.Lock()
	defer p.unitMu.Unlock()
	if p.unitClass == "" {
		return "", "", time.Time{}
	}
	return p.unitClass, simpleName(p.unitClass) + "#", p.unitSince
}

// counts reads a class's closing line (`Tests run: 4, …, Time elapsed:
// 0.1 s <<< FAILURE! -- in com.x.FooTest`; before Surefire 3, ` - in `)
// and a module's totals (the same counts without the class).
var classCounts = lazyre.New(`^(\d+), Failures: (\d+), Errors: (\d+), Skipped: (\d+)(?:, Flakes: \d+)?(, Time elapsed: .*?-+ in (\S+))?`)

func (p *parser) counts(rest string) {
	m := classCounts.FindStringSubmatch(rest)
	if m == nil {
		return
	}
	if m[6] != "" {
		p.setRunning("")
		p.readClass(m[6])
		return
	}
	if strings.Contains(rest, ", Time elapsed: ") {
		// A class's line without its class (Surefire 2, Maven 3.8's
		// default): the class is the one its "Running" line named. Not
		// the module's totals, which come without a time.
		if class := p.running; class != "" {
			p.setRunning("")
			p.readClass(class)
		}
		return
	}
	n := func(s string) int { v, _ := strconv.Atoi(s); return v }
	run, fail, errs, skip := n(m[1]), n(m[2]), n(m[3]), n(m[4])
	p.hasTotals = true
	p.totals.Failed += fail + errs
	p.totals.Skipped += skip
	p.totals.Passed += max(run-fail-errs-skip, 0)
}

// mojo: a plugin starts. Anything but Surefire and Failsafe is building
// (the next module's compile, after a module's tests): the stuck detector
// judges only the tests.
func (p *parser) mojo(rest string) {
	if strings.Contains(rest, "surefire") || strings.Contains(rest, "failsafe") {
		return
	}
	p.rec.BeginBuilding()
}

// compileErr is javac's error as the compiler plugin prints it
// (`/abs/Foo.java:[12,5] cannot find symbol`); Kotlin's and Scala's
// plugins use the same shape.
var compileErr = lazyre.New(`^(/[^:\[]+\.(?:java|kt|scala|groovy)):\[(\d+),(\d+)\] (.+)$`)

func (p *parser) buildError(m []string) {
	line, _ := strconv.Atoi(m[2])
	col, _ := strconv.Atoi(m[3])
	e := report.BuildError{File: kit.ProjectPath(p.root, m[1]), Line: line, Column: col, Message: kit.Clip(m[4])}
	p.lastErr = -1
	if p.seenErr[e] { // Maven repeats them in its closing error
		return
	}
	p.seenErr[e] = true
	p.lastErr = len(p.buildErrs)
	p.buildErrs = append(p.buildErrs, e)
}

// readClass records a class's report from whichever module wrote it.
func (p *parser) readClass(class string) {
	p.ended[class] = true
	for _, mod := range p.modules {
		for _, dir := range []string{surefireDir, failsafeDir} {
			p.readReport(mod, dir, filepath.Join(p.root, mod, "target", dir, "TEST-"+class+".xml"))
		}
	}
}

// readAll records the run's reports not yet read.
func (p *parser) readAll() {
	p.eachReport(func(mod, dir, path string) { p.readReport(mod, dir, path) })
}

// snapshot notes the reports an earlier run left, before this one starts.
// Comparing times with the run's start would not do: a file system's
// times can be coarser than the clock, and runs follow each other within
// a second.
func (p *parser) snapshot() {
	p.eachReport(func(_, _, path string) {
		if st, err := os.Stat(path); err == nil {
			p.before[path] = st.ModTime()
		}
	})
}

func (p *parser) eachReport(fn func(mod, dir, path string)) {
	for _, mod := range p.modules {
		for _, dir := range []string{surefireDir, failsafeDir} {
			files, _ := filepath.Glob(filepath.Join(p.root, mod, "target", dir, "TEST-*.xml"))
			for _, f := range files {
				fn(mod, dir, f)
			}
		}
	}
}

// readReport is a report as it was read, and the tests it gave.
type readReport struct {
	mtime time.Time
	size  int64
	tests [][2]string // suite and name
}

func (p *parser) readReport(mod, dir, path string) {
	st, err := os.Stat(path)
	if err != nil {
		return
	}
	was, again := p.read[path]
	if again && st.ModTime().Equal(was.mtime) && st.Size() == was.size {
		return
	}
	if old, ok := p.before[path]; ok && st.ModTime().Equal(old) {
		return
	}
	f, err := os.Open(path)
	if err != nil {
		return
	}
	defer f.Close()
	// A report written again holds the class's tests with their last
	// attempts: what the first one gave is replaced.
	for _, t := range was.tests {
		p.rec.Forget(t[0], t[1])
	}
	p.flaky = slices.DeleteFunc(p.flaky, func(ft adapters.FlakyTest) bool {
		return slices.Contains(was.tests, [2]string{ft.Suite, ft.Name})
	})
	p.read[path] = readReport{mtime: st.ModTime(), size: st.Size(), tests: p.readCases(mod, dir, f)}
}

// readCases records a report's tests and returns their suites and names.
func (p *parser) readCases(mod, dir string, r io.Reader) [][2]string {
	var tests [][2]string
	jr := format.NewJUnitReader(r)
	for {
		c, err := jr.Next()
		if err != nil {
			return tests
		}
		if c.Name == "" && c.Status != format.JUnitFailed && c.Status != format.JUnitError {
			continue
		}
		if noMatch(c) {
			p.noTests = true
			continue
		}
		suite, name := p.record(mod, dir, c)
		tests = append(tests, [2]string{suite, name})
	}
}

// noMatch says whether a case is JUnit 4's word that a -Dtest method
// matched nothing (Surefire 2's filter, on a class with its own runner:
// Parameterized, Enclosed): `Filter#initializationError`, "No tests found
// matching Method m(com.x.FooTest)". No test ran; there is no such test
// to rerun (its rerun would name the class org.junit.runner.manipulation.Filter).
func noMatch(c format.JUnitCase) bool {
	return c.Classname == "org.junit.runner.manipulation.Filter" && c.Name == "initializationError" &&
		strings.Contains(c.Message+c.Text, "No tests found matching")
}

// record turns one test case into the Recorder's test: suite is the
// class, the name Class#method. A case without a name is the class's
// own failure (JUnit 5's @BeforeAll or @AfterAll threw), which Surefire
// counts as a test: it is named by the class alone, which selects it.
func (p *parser) record(mod, dir string, c format.JUnitCase) (suite, test string) {
	class := c.Classname
	if class == "" && len(c.Suites) > 0 {
		class = c.Suites[0]
	}
	suite = p.suiteOf(mod, class)
	name := simpleName(class) + "#" + c.Name
	if c.Name == "" {
		name = simpleName(class)
	}
	if c.SystemOut != "" {
		p.rec.Output(suite, name, c.SystemOut)
	}
	if c.SystemErr != "" {
		p.rec.Output(suite, name, c.SystemErr)
	}
	d := kit.DurationOf(c.Time)
	switch c.Status {
	case format.JUnitSkipped:
		p.rec.End(suite, name, report.TestSkipped, d, nil)
	case format.JUnitFailed, format.JUnitError:
		p.rec.End(suite, name, report.TestFailed, d, p.failure(mod, dir, class, name, c))
	default:
		p.rec.End(suite, name, report.TestPassed, d, nil)
		if c.Reruns > 0 {
			// Surefire's rerunFailingTestsCount: it failed, then passed.
			ft := adapters.FlakyTest{Suite: suite, Name: name, Attempts: c.Reruns + 1, Message: kit.Clip(c.RerunMessage)}
			if file, line := testFrame(c.RerunText, class); file != "" {
				ft.File, ft.Line = p.sourcePath(mod, class, file), line
			}
			p.flaky = append(p.flaky, ft)
		}
	}
	return suite, name
}

// suiteOf is a test's suite: its class, and for a class of the same name
// in a module after the first that ran one, "Class (module)", so that
// the modules' tests stay apart (the suite and the name key a test).
// Their reruns select the module (-pl), and -Dtest the class alone
// (multiSelection), in every module that has it.
func (p *parser) suiteOf(mod, class string) string {
	first, ok := p.classModule[class]
	if !ok {
		p.classModule[class] = mod
		return class
	}
	if first == mod {
		return class
	}
	return class + " (" + mod + ")"
}

func (p *parser) failure(mod, dir, class, name string, c format.JUnitCase) *report.Failure {
	f := &report.Failure{Name: name, Message: message(c), Rerun: p.rerun(mod, dir, class, c.Name)}
	if file, line, helpers := format.JavaTestMethodFrame(c.Text, class, c.Name); file != "" {
		// The assertion failed in a helper of the class: the test's own
		// line says which call, the helpers' follow in the message.
		f.File, f.Line = p.sourcePath(mod, class, file), line
		f.Message = kit.Clip(f.Message + "\n(in " + strings.Join(helpers, " → ") + ")")
	} else if file, line := testFrame(c.Text, class); file != "" {
		f.File, f.Line = p.sourcePath(mod, class, file), line
		if at := p.thrownAt(mod, c.Text, class); at != "" {
			f.Message = kit.Clip(f.Message + "\n(thrown at " + at + ")")
		}
	} else if owner, file, line := format.JavaInvokedFrame(c.Text); file != "" {
		// A test the class inherits (an abstract base class's, an
		// interface's default method) has no frame in the class: the
		// frame JUnit called is the test, in its owner's source when the
		// project has it (not a test library's base class).
		f.File, f.Line = p.ownSource(mod, owner, file), line
		if f.File == "" {
			f.Line = 0
		}
	} else if file, line := p.declaration(mod, class, c.Name); line > 0 {
		f.File, f.Line = file, line
	}
	if bareAssertion(f.Message) && f.File != "" && f.Line > 0 {
		// JUnit 3's assertFalse(x), JUnit 4's assertTrue(x): no message;
		// the line that failed says what was asserted.
		if src := kit.SourceLine(p.root, f.File, f.Line); src != "" {
			f.Message = kit.Clip(f.Message + "\n(failed: " + src + ")")
		}
	}
	p.multipleFailures(f, mod, class, c)
	return f
}

// bareAssertion says whether a failure's message is an assertion error's
// type and nothing else (`junit.framework.AssertionFailedError`,
// `java.lang.AssertionError`): an assertion written without a message.
func bareAssertion(msg string) bool {
	return !strings.ContainsAny(msg, " :\n") && (strings.HasSuffix(msg, "AssertionFailedError") || strings.HasSuffix(msg, "AssertionError"))
}

// multipleFailures makes the failures JUnit 5's assertAll threw together
// (a MultipleFailuresError, whose trace has each as suppressed, with its
// own frames) the test's first failure and its later ones: the first at
// its frame in the test class, after assertAll's heading ("group (3
// failures)"), the others each at its own line.
func (p *parser) multipleFailures(f *report.Failure, mod, class string, c format.JUnitCase) {
	if !strings.HasSuffix(c.Type, "MultipleFailuresError") {
		return
	}
	sup := format.JavaSuppressedOf(c.Text)
	if len(sup) == 0 {
		return // a trace Surefire trimmed (trimStackTrace): the message lists them
	}
	heading, _, _ := strings.Cut(strings.TrimSpace(c.Message), "\n")
	for i, s := range sup {
		text := s.Message
		if !assertionType(s.Type) {
			text = s.Type + ": " + text
		}
		file, line := testFrame(s.Trace, class)
		if file != "" {
			file = p.sourcePath(mod, class, file)
		}
		if i == 0 {
			f.Message = kit.Clip(heading + "\n" + text)
			if file != "" {
				f.File, f.Line = file, line
			}
			continue
		}
		kit.AddFailure(f, file, line, text)
	}
	// The trace is kept to format.JUnitMaxText (some 40 failures of a
	// loop): the rest are in the message's list, one line each, without
	// their frames, or else only in its count.
	var n int
	if m := failureCount.FindStringSubmatch(heading); m != nil {
		n, _ = strconv.Atoi(m[1])
	}
	if n <= len(sup) {
		return
	}
	listed := strings.Split(strings.TrimSpace(c.Message), "\n")[1:]
	if len(listed) != n {
		kit.OmitFailures(f, n-len(sup))
		return
	}
	for _, l := range listed[len(sup):] {
		typ, text, _ := strings.Cut(strings.TrimSpace(l), ": ")
		if !assertionType(typ) {
			text = typ + ": " + text
		}
		kit.AddFailure(f, "", 0, text)
	}
}

// failureCount is the count a MultipleFailuresError's heading ends with:
// "group (3 failures)".
var failureCount = lazyre.New(`\((\d+) failures?\)$`)

// assertionType says whether an exception type is an assertion's failure,
// said by its message alone (Surefire's failure, not error).
func assertionType(typ string) bool {
	return strings.HasSuffix(typ, "AssertionFailedError") || strings.HasSuffix(typ, ".AssertionError") || strings.HasSuffix(typ, "ComparisonFailure")
}

// declaration is the source file and line where a test's method is
// declared: the place of a failure whose trace has no frame of the test.
// JUnit's @Timeout fails with a TimeoutException thrown from its own
// thread; the test's frame is in the exception's suppressed
// InterruptedException, which Surefire 2's trimmed traces (trimStackTrace
// is true there by default) leave out.
func (p *parser) declaration(mod, class, name string) (string, int) {
	method := name
	if i := strings.IndexAny(name, "([{"); i >= 0 {
		method = name[:i]
	}
	if method == "" || classFailure(method) {
		return "", 0
	}
	outer, _, _ := strings.Cut(class, "$")
	path := p.sourcePath(mod, outer, simpleName(outer)+".java")
	b, err := os.ReadFile(filepath.Join(p.root, path))
	if err != nil {
		return "", 0
	}
	decl := regexp.MustCompile(`^\s*(?:[\w.$<>\[\],?]+\s+)+` + regexp.QuoteMeta(method) + `\s*\(`)
	for i, l := range strings.Split(string(b), "\n") {
		first, _, _ := strings.Cut(strings.TrimSpace(l), " ")
		if decl.MatchString(l) && !slices.Contains(notTypes, first) {
			return path, i + 1
		}
	}
	return "", 0
}

// notTypes are the words that stand before a method's name in a call,
// where a declaration has its type.
var notTypes = []string{"return", "new", "throw", "else", "yield", "assert"}

// ownSource is the project's source file of a class declared outside the
// test class, in its module or another ("" when none has it: a class
// from a jar).
func (p *parser) ownSource(mod, class, file string) string {
	for _, m := range append([]string{mod}, p.modules...) {
		if path := p.sourcePath(m, class, file); kit.FileExists(filepath.Join(p.root, path)) {
			return path
		}
	}
	return ""
}

// thrownAt is where the project's own code called by the test threw
// (the innermost frame above the test class's whose source the project
// has: src/main/java/com/x/Isbn.java:167), "" when none did (JUnit's
// assertion, the JDK's code): the test's line alone does not say it.
func (p *parser) thrownAt(mod, trace, class string) string {
	for _, fr := range format.JavaFramesBefore(trace, class) {
		if path := p.ownSource(mod, fr.Class, fr.File); path != "" {
			return path + ":" + strconv.Itoa(fr.Line)
		}
	}
	return ""
}

// message is an assertion's own message (`expected: <5> but was: <4>`);
// for an error, the exception and its message as the stack trace starts
// (`java.lang.ArithmeticException: / by zero`).
func message(c format.JUnitCase) string {
	first, _, _ := strings.Cut(c.Text, "\n")
	first = strings.TrimSpace(first)
	switch {
	case c.Status == format.JUnitFailed && c.Message != "":
		return kit.Clip(c.Message)
	case first != "":
		return kit.Clip(first)
	case c.Message != "":
		return kit.Clip(c.Type + ": " + c.Message)
	}
	return c.Type
}

// testFrame is the file and line of the first frame in the test class
// (format.JavaTestFrame, shared with Gradle).
func testFrame(trace, class string) (string, int) { return format.JavaTestFrame(trace, class) }

// sourcePath maps a class's source file (FooTest.java, from the frame) to
// the project's path of it: the module's src/test/java (or src/it/java,
// src/main/java; src/*/kotlin for Kotlin) and the package's directories.
func (p *parser) sourcePath(mod, class, file string) string {
	return kit.JVMSource(p.root, mod, sourceSets, class, file)
}

// sourceSets are a module's source directories under src/, where a
// class's source is looked for, in order.
var sourceSets = []string{"test", "it", "main"}

// simpleName drops a class's package.
func simpleName(class string) string { return kit.SimpleClassName(class) }

// rerun is the command that runs one test again: the method of the class
// (a parameterised case's method, or its class when the name says none
// or the failure is the class's own), in its module, by Surefire or
// Failsafe as it ran.
func (p *parser) rerun(mod, dir, class, method string) string {
	sel := class
	m, whole := invokedMethod(method, func() bool { return jupiterClass(p.root, class) })
	if !whole && m != "" && !strings.Contains(m, " ") && !classFailure(m) {
		sel += "#" + m
	}
	argv := withGoal(p.prefix, dir)
	if mod != "." {
		argv = append(argv, "-pl", mod, "-am")
	}
	if dir == failsafeDir {
		argv = append(argv, noSurefire, noFailProp, "-Dit.test="+sel, noFailItProp)
	} else {
		argv = append(argv, "-Dtest="+sel, noFailProp)
	}
	return shell.Join(argv)
}

// Rerun (adapters.Reruner): a test by its suite, the class ("Class
// (module)" beside a namesake), and its name, Simple#method; a test named
// only by its JVM's stacks (stuck) has no suite: its simple class name
// selects it, as Surefire takes one.
func (p *parser) Rerun(suite, name string) string {
	simple, method, _ := strings.Cut(name, "#")
	class, mod, _ := strings.Cut(suite, " (")
	mod = strings.TrimSuffix(mod, ")")
	if class == "" {
		class = simple
	}
	if mod == "" {
		mod = cmp.Or(p.classModule[class], ".")
	}
	dir := surefireDir
	if failsafeClass.MatchString(simpleName(class)) {
		dir = failsafeDir
	}
	return p.rerun(mod, dir, class, method)
}

// classFailure says whether a test name is JUnit 4's for the class's own
// failure: initializationError before its tests (an @BeforeClass that
// threw, a class without a runnable test), executionError after them (an
// @AfterClass). No such method exists, and selecting it runs nothing.
func classFailure(method string) bool {
	return method == "initializationError" || method == "executionError"
}

// withGoal is the rerun's command: a Failsafe test needs `verify`, where
// the command ran only `test`.
func withGoal(prefix []string, dir string) []string {
	argv := append([]string(nil), prefix...)
	if dir != failsafeDir {
		return argv
	}
	for i, w := range argv {
		if w == "test" {
			argv[i] = "verify"
		}
	}
	return argv
}

func (p *parser) Finish(exit report.Exit) adapters.Outcome {
	p.readAll()
	var out adapters.Outcome
	tests := p.rec.Tests()
	if len(p.skipped) > 0 {
		out.Indicators = append(out.Indicators, report.IndicatorNotReached)
		out.Hint = "Maven skipped " + strings.Join(p.skipped, ", ") + ": their tests did not run"
		if len(p.skipped) == 1 {
			out.Hint = "Maven skipped " + p.skipped[0] + ": its tests did not run"
		}
		if !failsAtEnd(p.prefix) {
			out.Hint += " (Maven stops at the first module that fails; mvn -fae goes on with the modules that do not depend on it)"
		}
	}
	if p.discovery != "" {
		out.Hint = joinHints(p.discovery, out.Hint)
	}
	if len(p.flaky) > 0 {
		out.Flaky = p.flaky
		out.Indicators = append(out.Indicators, "flaky_tests")
		out.Hint = joinHints(out.Hint, kit.FlakyHint(p.flaky, "Surefire's rerunFailingTestsCount"))
	}
	if exit.StoppedBy != "" {
		out.Hint = joinHints(out.Hint, p.stoppedHint(exit.StoppedBy))
	}
	if len(p.buildErrs) > 0 {
		// A module that did not compile, beside the tests of those that
		// did (mvn -fae).
		out.BuildFailed, out.BuildErrors = true, p.buildErrs
		if len(tests) == 0 {
			return out
		}
	}
	if p.crash != "" && exit.StoppedBy == "" {
		out.Crash = &report.Crash{Type: report.CrashUnknown, ExitCode: exit.Code, Message: p.crash,
			Indicators: []string{"surefire_fork_died"}, RunningTests: p.runningClass()}
		p.forkDied(out.Crash)
		if p.running != "" {
			// Surefire names no test of the class, only the class
			// (commons-dbutils' DbUtilsTest made to System.exit): its rerun.
			out.Hint = joinHints(out.Hint, "the forked JVM died while "+simpleName(p.running)+" ran: rerun that class alone: "+p.Rerun(p.running, ""))
		}
		if outOfMemory(p.crash) {
			out.Crash.Indicators = append(out.Crash.Indicators, "out_of_memory")
			in := ""
			if p.running != "" {
				in = " in " + simpleName(p.running)
			}
			out.Hint = joinHints(out.Hint, "the forked JVM ran out of memory"+in+": give Surefire's fork a larger heap (<argLine>-Xmx…</argLine> in the pom) or make the test need less")
		}
	}
	if len(tests) == 0 && p.hasTotals && p.totals != (report.Summary{}) && !p.noTests {
		// Counts without reports (a reportsDirectory elsewhere): the
		// counts are all there is.
		s := p.totals
		out.Summary = &s
		return out
	}
	if len(tests) == 0 && out.Crash == nil && exit.StoppedBy == "" && exit.Code != 0 && p.goalErr != "" && !p.noTests {
		// Maven stopped before the tests (a plugin's check, a
		// dependency): its own words say why.
		out.BuildFailed, out.BuildErrors = true, []report.BuildError{{Message: p.goalErr}}
		return out
	}
	if len(tests) == 0 && out.Crash == nil && exit.StoppedBy == "" && (exit.Code == 0 || p.noTests) {
		out.NoTests = true
		out.Project = &report.Project{Language: "java", BuildSystem: "maven"}
		if p.discovery == "" {
			out.Hint = joinHints(noTestsHint.For(p.test, p.level), out.Hint)
		}
	}
	return out
}

// stoppedHint says, for a run strobe stopped at what hung (stuck,
// timeout), what it left unrun: the rest of the class that was running,
// and the test classes of the selection (from src/test/java, as List
// reads them) not yet started; and, for a whole run of strobe's own
// command, how to run the rest without that class. "" when no class was
// running.
func (p *parser) stoppedHint(by string) string {
	if p.running == "" {
		return ""
	}
	class := simpleName(p.running)
	h := "Maven was stopped at " + kit.StoppedAt(by) + ": the tests of " + class + " that had not run yet"
	refs, _ := mavenAdapter{}.List(context.Background(), adapters.Request{ProjectRoot: p.root, Level: p.level, Test: p.test})
	left := 0
	for _, r := range refs {
		if !p.ended[r.Name] && r.Name != p.running {
			left++
		}
	}
	switch {
	case left > 0:
		h += ", and " + kit.Plural(left, "test class", "test classes") + " not yet started, did not run and are in no count"
	case len(refs) > 0:
		h += " did not run and are in no count"
	default:
		h += ", and the test classes not yet started, did not run and are in no count"
	}
	if !p.whole {
		return h
	}
	if failsafeClass.MatchString(class) {
		return h + "; to run the rest without " + kit.StoppedWhat(by) + ": " + shell.Join(append(withGoal(p.prefix, failsafeDir), "-Dit.test=!"+class, noFailItProp))
	}
	return h + "; to run the rest without " + kit.StoppedWhat(by) + ": " + shell.Join(append(slices.Clone(p.prefix), "-Dtest=!"+class, noFailProp))
}

// forkError is Surefire's line for a forked JVM that ended on an error of
// its own; the line after it says which.
const forkError = "There was an error in the forked process"

// outOfMemory says whether a fork's error is the JVM's OutOfMemoryError.
func outOfMemory(msg string) bool {
	for _, s := range []string{"Java heap space", "OutOfMemoryError", "GC overhead limit exceeded", "Metaspace"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

// joinHints puts hint a before hint b, either of which may be empty.
func joinHints(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	return a + "; " + b
}

// failsAtEnd says whether a Maven command goes on after a module fails
// (-fae, --fail-at-end, -fn, --fail-never).
func failsAtEnd(cmd []string) bool {
	return slices.ContainsFunc(cmd, func(w string) bool {
		return w == "-fae" || w == "--fail-at-end" || w == "-fn" || w == "--fail-never"
	})
}

// forkDied adds the fork's own exit code to its crash: Maven exits 1
// whatever happened, and Surefire's words ("VM crash or System.exit
// called?") leave it open. A code above 128 is the signal that killed
// the JVM (134: SIGABRT, HotSpot's fatal error; 137: SIGKILL, the OOM
// killer's); any other is the code a test passed to System.exit.
func (p *parser) forkDied(c *report.Crash) {
	switch {
	case p.forkExit > 128 && p.forkExit < 160:
		sig := kit.SignalName(p.forkExit - 128)
		c.Signal, c.SignalName, c.Type = p.forkExit-128, sig, kit.CrashType(sig)
		c.Message = kit.Clip(c.Message + " (the forked JVM was killed by " + sig + " (exit code " + strconv.Itoa(p.forkExit) + "))")
	case p.forkExit >= 0:
		c.Message = kit.Clip(c.Message + " (the forked JVM exited with code " + strconv.Itoa(p.forkExit) + ")")
	}
}

func (p *parser) runningClass() []string {
	if p.running == "" {
		return nil
	}
	return []string{p.running}
}

var noTestsHint = kit.NoTestsHint{
	Test: "maven: no test matched -Dtest: name a class (FooTest), a method (FooTest#method) or a pattern (Foo*Test)",
	Levels: map[adapters.Level]string{
		adapters.LevelIntegration: "maven: no integration test ran: Failsafe runs classes named *IT, ITCase or IT* in src/test/java when the pom binds maven-failsafe-plugin's integration-test and verify goals",
	},
	Level: "maven: no test ran at this level",
	All:   "maven: Surefire found no test: test classes go in src/test/java, named *Test, Test*, *Tests or *TestCase, and need a JUnit dependency (junit-jupiter) in the pom",
}
