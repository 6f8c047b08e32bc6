package gradle

import (
	"io/fs"
	"os"
	"path/filepath"
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

type parser struct {
	rec    *adapters.Recorder
	root   string
	prefix []string // the command a rerun starts with
	// task is the planned test task's name; "" for a given command, where
	// any task that wrote test results counts.
	task  string
	level adapters.Level
	test  string
	// before holds the reports there before the run, with their times:
	// read only when the console names no task at all (a given --quiet
	// command), where one still so is an earlier run's.
	before map[string]time.Time

	current   string          // the task whose output the console shows
	tasks     []string        // every task the console named, in order
	named     map[string]bool // the same, as a set
	readTasks map[string]bool // test tasks whose reports were read
	read      map[string]bool // report files already recorded
	pending   []consoleFailure
	last      *consoleFailure // the failure the next indented line belongs to

	buildErrs []report.BuildError
	seenErr   map[report.BuildError]bool
	lastErr   int // the javac error detail lines go to, -1 for none

	wrong       []string // "* What went wrong:" and its lines
	inWrong     bool
	fatal       string         // a JVM's uncaught exception: the wrapper's or the launcher's own
	download    string         // the distribution the wrapper is downloading
	noTestsSaid bool           // Gradle said no test matched or was found
	totals      report.Summary // the console's closing counts, over every task
	hasTotals   bool
}

// consoleFailure is a test the console said FAILED, in task.
type consoleFailure struct {
	task, class, method string
	exception, file     string
	line                int
}

func newParser(rec *adapters.Recorder, root string, prefix []string, task string) *parser {
	return &parser{rec: rec, root: root, prefix: prefix, task: task, before: map[string]time.Time{},
		named: map[string]bool{}, readTasks: map[string]bool{}, read: map[string]bool{},
		seenErr: map[report.BuildError]bool{}, lastErr: -1}
}

// The console's lines.
var (
	// taskLine is a task header: `> Task :app:test`, `> Task :test FAILED`;
	// before Gradle 5, `:app:test` and `:test FAILED` alone on a line.
	taskLine = lazyre.New(`^(?:> Task )?(:[\w.:-]*\w)(?: (FAILED|UP-TO-DATE|SKIPPED|NO-SOURCE|FROM-CACHE))?$`)
	// testFailed is testLogging's default event line: `FooTest > bar()
	// FAILED`, nested classes as `Outer > Inner > bar() FAILED`.
	testFailed = lazyre.New(`^(\S+) > (.+) FAILED$`)
	// exceptionLine follows it: `    org.opentest4j.AssertionFailedError at
	// FooTest.java:12` (testLogging's short exception format).
	exceptionLine = lazyre.New(`^ {4}(\S+?)(?: at ([^\s:]+):(\d+))?$`)
	// counts is the Test task's closing line.
	counts = lazyre.New(`^(\d+) tests? completed, (\d+) failed(?:, (\d+) skipped)?$`)
	// javacErr is javac's error: `/abs/Foo.java:12: error: cannot find symbol`.
	javacErr = lazyre.New(`^(.+\.java):(\d+): error: (.+)$`)
	// javacDetail is one of the lines javac puts under an error.
	javacDetail = lazyre.New(`^\s+(?:symbol|location|required|found|reason):\s+(.+)$`)
	// kotlincErr is kotlinc's error as Kotlin's Gradle plugin prints it:
	// `e: file:///abs/Foo.kt:3:5 Unresolved reference: x` (Kotlin 1.8 on),
	// `e: /abs/Foo.kt: (3, 5): Unresolved reference: x` before.
	kotlincErr    = lazyre.New(`^e: (?:file://)?(.+?\.kts?):(\d+):(\d+) (.+)$`)
	kotlincErrOld = lazyre.New(`^e: (.+?\.kts?): \((\d+), (\d+)\): (.+)$`)
)

func (p *parser) Line(_ adapters.Stream, b []byte, cut bool) {
	if cut {
		return
	}
	line := strings.TrimRight(kit.StripANSI(string(b)), " \r")
	p.noTestsSaid = p.noTestsSaid || saysNoTests(line)
	if p.whatWentWrong(line) || p.launcher(line) {
		return
	}
	if m := taskLine.FindStringSubmatch(line); m != nil {
		p.taskStarted(m[1], m[2])
		return
	}
	if m := testFailed.FindStringSubmatch(line); m != nil {
		p.testFailed(m[1], m[2])
		return
	}
	if p.last != nil {
		if m := exceptionLine.FindStringSubmatch(line); m != nil {
			p.last.exception, p.last.file = m[1], m[2]
			p.last.line, _ = strconv.Atoi(m[3])
		}
		p.last = nil
		return
	}
	if m := counts.FindStringSubmatch(line); m != nil {
		p.counted(m)
		return
	}
	p.compileError(line)
}

// whatWentWrong keeps Gradle's closing failure report: the line under
// `* What went wrong:` and its `> cause` lines, up to the next `* ` part.
func (p *parser) whatWentWrong(line string) bool {
	switch {
	case line == "* What went wrong:":
		p.inWrong = true
		return true
	case !p.inWrong:
		return false
	case strings.HasPrefix(line, "* ") || line == "" && len(p.wrong) > 0:
		p.inWrong = false
		return false
	case line != "":
		p.wrong = append(p.wrong, strings.TrimSpace(line))
	}
	return true
}

// launcher reads what the wrapper says before Gradle runs: the
// distribution it downloads on its first run (`Downloading https://…`),
// and its own death (`Exception in thread "main" java.net.…`), which
// leaves no Gradle output at all.
func (p *parser) launcher(line string) bool {
	if url, ok := strings.CutPrefix(line, "Downloading "); ok && len(p.tasks) == 0 && strings.Contains(url, "://") {
		p.download = strings.TrimSpace(url)
		return true
	}
	if e, ok := strings.CutPrefix(line, `Exception in thread "main" `); ok && p.fatal == "" {
		p.fatal = kit.Clip(e)
		return true
	}
	return false
}

// taskStarted: the console now shows task's output. A test task the
// console moves past has ended and written its reports; any other task
// is building (the next module's compile, after a module's tests): the
// stuck detector judges only the tests.
func (p *parser) taskStarted(path, outcome string) {
	if prev := p.current; prev != "" && prev != path && p.isTestTask(prev) {
		p.readTask(prev)
	}
	p.current = path
	if outcome == "FAILED" {
		p.claimFailures(path)
	}
	if !p.named[path] {
		p.named[path] = true
		p.tasks = append(p.tasks, path)
	}
	switch {
	case outcome == "NO-SOURCE" || outcome == "SKIPPED":
	case p.isTestTask(path):
		p.rec.BeginTesting()
		if outcome != "" { // the task is over, its reports written
			p.readTask(path)
		}
	default:
		p.rec.BeginBuilding()
	}
}

// claimFailures gives a failed task the failures printed before any task
// header: Gradle 4 and older print a task's line after its output.
func (p *parser) claimFailures(path string) {
	for i := range p.pending {
		if p.pending[i].task == "" {
			p.pending[i].task = path
		}
	}
}

// isTestTask: the planned task, in any module (and Android's variants of
// test); for a given command, any task whose test results directory
// exists.
func (p *parser) isTestTask(path string) bool {
	mod, name := splitTask(path)
	if p.task != "" {
		// Android's test task runs a unit test task per build variant
		// (testDebugUnitTest), each with its own results directory.
		return name == p.task || p.task == "test" && strings.HasPrefix(name, "test") && strings.HasSuffix(name, "UnitTest")
	}
	st, err := os.Stat(filepath.Join(p.root, mod, "build", "test-results", name))
	return err == nil && st.IsDir()
}

// splitTask parts a task path into the module's directory (the default
// layout: project :a:b in a/b) and the task's name.
func splitTask(path string) (mod, name string) {
	i := strings.LastIndexByte(path, ':')
	if i < 0 { // a failure printed before any task header (Gradle 4 and older)
		return ".", path
	}
	mod = strings.ReplaceAll(strings.Trim(path[:i], ":"), ":", string(filepath.Separator))
	if mod == "" {
		mod = "."
	}
	return mod, path[i+1:]
}

func (p *parser) testFailed(class, rest string) {
	p.rec.BeginTesting()
	method := rest
	if i := strings.LastIndex(rest, " > "); i >= 0 { // a nested class's test
		method = rest[i+3:]
	}
	p.pending = append(p.pending, consoleFailure{task: p.current, class: class, method: method})
	p.last = &p.pending[len(p.pending)-1]
}

func (p *parser) counted(m []string) {
	n := func(s string) int { v, _ := strconv.Atoi(s); return v }
	run, fail, skip := n(m[1]), n(m[2]), n(m[3])
	p.hasTotals = true
	p.totals.Failed += fail
	p.totals.Skipped += skip
	p.totals.Passed += max(run-fail-skip, 0)
}

// compileError reads javac's and kotlinc's errors.
func (p *parser) compileError(line string) {
	var m []string
	for _, re := range []*lazyre.Regexp{kotlincErr, kotlincErrOld} {
		if m = re.FindStringSubmatch(line); m != nil {
			p.buildError(m[1], m[2], m[3], m[4])
			return
		}
	}
	if m = javacErr.FindStringSubmatch(line); m != nil {
		p.buildError(m[1], m[2], "", m[3])
		return
	}
	if m = javacDetail.FindStringSubmatch(line); m != nil && p.lastErr >= 0 {
		e := &p.buildErrs[p.lastErr]
		e.Message = kit.Clip(e.Message + "; " + strings.Join(strings.Fields(strings.TrimSpace(line)), " "))
		return
	}
	if !strings.HasPrefix(line, " ") { // javac's source line and caret come between
		p.lastErr = -1
	}
}

func (p *parser) buildError(file, line, col, msg string) {
	if len(file) > 3 && file[0] == '/' && file[2] == ':' { // file:///C:/x
		file = file[1:]
	}
	e := report.BuildError{File: kit.ProjectPath(p.root, file), Message: kit.Clip(msg)}
	e.Line, _ = strconv.Atoi(line)
	e.Column, _ = strconv.Atoi(col)
	p.lastErr = -1
	if p.seenErr[e] {
		return
	}
	p.seenErr[e] = true
	p.lastErr = len(p.buildErrs)
	p.buildErrs = append(p.buildErrs, e)
}

// reportsOf lists a test task's reports.
func (p *parser) reportsOf(path string) []string {
	mod, name := splitTask(path)
	files, _ := filepath.Glob(filepath.Join(p.root, mod, "build", "test-results", name, "TEST-*.xml"))
	return files
}

// readTask records a test task's reports. Gradle empties the directory
// when the task runs, and an UP-TO-DATE or FROM-CACHE task's reports are
// the results of these very inputs: either way they are this run's.
func (p *parser) readTask(path string) {
	if p.readTasks[path] {
		return
	}
	p.readTasks[path] = true
	for _, f := range p.reportsOf(path) {
		p.readReport(path, f)
	}
}

func (p *parser) readReport(task, file string) {
	if p.read[file] {
		return
	}
	f, err := os.Open(file)
	if err != nil {
		return
	}
	defer f.Close()
	p.read[file] = true
	jr := format.NewJUnitReader(f)
	var cases []format.JUnitCase
	for {
		c, err := jr.Next()
		if err != nil {
			break
		}
		if c.Name != "" {
			cases = append(cases, c)
		}
	}
	p.classOutput(cases, jr)
	for _, c := range cases {
		p.record(task, c)
	}
}

// classOutput gives the class's output, which Gradle writes on the suite
// after its test cases, to the tests that failed, or to the first test
// when none did: a test's own share of it is not told apart.
func (p *parser) classOutput(cases []format.JUnitCase, jr *format.JUnitReader) {
	out, errOut := jr.SuiteOutput()
	text := strings.TrimRight(out, "\n")
	if strings.TrimSpace(errOut) != "" {
		text = strings.TrimLeft(text+"\n"+strings.TrimRight(errOut, "\n"), "\n")
	}
	if strings.TrimSpace(text) == "" || len(cases) == 0 {
		return
	}
	given := false
	for i := range cases {
		if cases[i].Status == format.JUnitFailed || cases[i].Status == format.JUnitError {
			cases[i].SystemOut += text
			given = true
		}
	}
	if !given {
		cases[0].SystemOut += text
	}
}

// record turns one test case into the Recorder's test: suite is the
// class, the name Class#method as the Maven adapter names them.
func (p *parser) record(task string, c format.JUnitCase) {
	class := c.Classname
	if class == "" && len(c.Suites) > 0 {
		class = c.Suites[0]
	}
	name := simpleName(class) + "#" + c.Name
	for _, out := range []string{c.SystemOut, c.SystemErr} {
		if strings.TrimSpace(out) != "" {
			p.rec.Output(class, name, out)
		}
	}
	d := kit.DurationOf(c.Time)
	switch c.Status {
	case format.JUnitSkipped:
		p.rec.End(class, name, report.TestSkipped, d, nil)
	case format.JUnitFailed, format.JUnitError:
		p.rec.End(class, name, report.TestFailed, d, p.failure(task, class, name, c))
	default:
		p.rec.End(class, name, report.TestPassed, d, nil)
	}
}

func (p *parser) failure(task, class, name string, c format.JUnitCase) *report.Failure {
	f := &report.Failure{Name: name, Message: message(c), Rerun: p.rerun(task, class, c.Name)}
	if file, line, helpers := format.JavaTestMethodFrame(c.Text, class, c.Name); file != "" {
		// The assertion failed in a helper of the class: the test's own
		// line says which call, the helpers' follow in the message.
		mod, _ := splitTask(task)
		f.File, f.Line = sourcePath(p.root, mod, class, file), line
		f.Message = kit.Clip(f.Message + "\n(in " + strings.Join(helpers, " → ") + ")")
	} else if file, line := format.JavaTestFrame(c.Text, class); file != "" {
		mod, _ := splitTask(task)
		f.File, f.Line = sourcePath(p.root, mod, class, file), line
	}
	return f
}

// message is what the test said. Gradle writes every exception as a
// <failure>, with the exception's toString as the message
// (`org.opentest4j.AssertionFailedError: expected: <5> but was: <4>`): an
// assertion's message is kept without its type, as Surefire writes it;
// anything else the test threw keeps its type (`java.io.IOException: …`),
// which is how the answer tells errors from failures.
func message(c format.JUnitCase) string {
	msg := c.Message
	if msg == "" {
		first, _, _ := strings.Cut(strings.TrimSpace(c.Text), "\n")
		msg = first
	}
	if isAssertion(c.Type) {
		msg = strings.TrimPrefix(msg, c.Type+": ")
	}
	if msg == "" {
		msg = c.Type
	}
	return kit.Clip(msg)
}

// isAssertion says whether an exception type is an assertion's: JUnit's,
// opentest4j's, AssertJ's and Hamcrest's (AssertionError), Spock's.
func isAssertion(typ string) bool {
	s := simpleName(typ)
	return strings.Contains(s, "Assertion") || strings.Contains(s, "ComparisonFailure") || s == "MultipleFailuresError"
}

// sourceSets are where a module keeps its test classes' sources, the
// test suites' first.
var sourceSets = []string{"test", "integrationTest", "testFixtures", "main"}

// sourcePath maps a class's source file (FooTest.java, from a frame) to
// the project's path of it, in the module's source sets.
func sourcePath(root, mod, class, file string) string {
	return kit.JVMSource(root, mod, sourceSets, class, file)
}

// simpleName drops a class's package.
func simpleName(class string) string { return kit.SimpleClassName(class) }

// rerun is the command that runs one test again: the task in its module,
// with a --tests filter naming the method (JUnit 5's "bar()" without its
// parentheses), or the class alone where the name is a parameterised
// case's ("[1] 1, 2, 3", "aTest[0]"), which no filter can name.
func (p *parser) rerun(task, class, method string) string {
	if i := strings.IndexByte(method, '('); i >= 0 {
		method = method[:i]
	}
	sel := class
	if method != "" && !strings.ContainsAny(method, "[]") && !classFailure(method) {
		sel += "." + method
	}
	return shell.Join(append(p.rerunPrefix(task), "--tests", sel))
}

// rerunPrefix is the command with the task the test ran in: a module's
// own (`:app:test`) in a multi-module build, so that only it runs.
func (p *parser) rerunPrefix(task string) []string {
	argv := append([]string(nil), p.prefix...)
	mod, name := splitTask(task)
	if mod == "." || name == "" || p.task == "" {
		return argv
	}
	for i, w := range argv {
		if w == name {
			argv[i] = task
			break
		}
	}
	return argv
}

// snapshot notes the reports an earlier run left under every module,
// for the fallback of a console that names no task.
func (p *parser) snapshot() {
	for _, f := range p.allReports() {
		if st, err := os.Stat(f); err == nil {
			p.before[f] = st.ModTime()
		}
	}
}

// allReports lists the reports of every test task of every module.
func (p *parser) allReports() []string {
	var files []string
	kit.WalkLimited(p.root, 6, func(path string, d fs.DirEntry) {
		if strings.HasPrefix(d.Name(), "TEST-") && strings.HasSuffix(d.Name(), ".xml") &&
			filepath.Base(filepath.Dir(filepath.Dir(path))) == "test-results" {
			files = append(files, path)
		}
	}, func(name string) bool { return name == "src" || name == "node_modules" || name == ".gradle" })
	return files
}

func (p *parser) Finish(exit report.Exit) adapters.Outcome {
	for _, t := range p.tasks {
		if p.isTestTask(t) {
			p.readTask(t)
		}
	}
	if len(p.tasks) == 0 {
		p.readFresh()
	}
	p.recordConsoleFailures()
	var out adapters.Outcome
	tests := p.rec.Tests()
	if len(tests) == 0 && len(p.tasks) == 0 && p.fatal != "" && exit.StoppedBy == "" {
		// Gradle never ran: nothing was built and no test was run.
		out.BuildFailed, out.BuildErrors = true, []report.BuildError{{Message: p.fatal}}
		out.Hint = "gradle: Gradle did not start: " + p.fatal
		if p.download != "" {
			out.Hint = "gradle: the wrapper could not download Gradle from " + p.download + " (" + p.fatal +
				"): run ./gradlew --version where that address is reachable, or point distributionUrl in gradle/wrapper/gradle-wrapper.properties at a copy that is"
		}
		return out
	}
	if len(tests) == 0 && (len(p.buildErrs) > 0 || p.buildFailed(exit)) {
		out.BuildFailed, out.BuildErrors = true, p.buildErrs
		if len(out.BuildErrors) == 0 {
			out.BuildErrors = []report.BuildError{{Message: kit.Clip(strings.Join(p.wrong, " "))}}
		}
		return out
	}
	if len(tests) == 0 && p.hasTotals && p.totals != (report.Summary{}) {
		// Counts without reports (reports.junitXml turned off): the
		// counts are all there is.
		s := p.totals
		out.Summary = &s
		return out
	}
	if len(tests) == 0 && exit.StoppedBy == "" && (exit.Code == 0 || p.noTestsFailure()) {
		out.NoTests = true
		out.Project = &report.Project{Language: "java", BuildSystem: "gradle"}
		out.Hint = noTestsHint.For(p.test, p.level)
	}
	return out
}

// readFresh records the reports written during the run, for a console
// that named no task.
func (p *parser) readFresh() {
	for _, f := range p.allReports() {
		st, err := os.Stat(f)
		if old, ok := p.before[f]; err != nil || ok && st.ModTime().Equal(old) {
			continue
		}
		rel, _ := filepath.Rel(p.root, f)
		parts := strings.Split(filepath.ToSlash(rel), "/")
		// <mod…>/build/test-results/<task>/TEST-x.xml
		task := ":" + strings.Join(append(parts[:len(parts)-4], parts[len(parts)-2]), ":")
		p.readReport(task, f)
	}
}

// recordConsoleFailures records the failures the console printed that no
// report held: the test JVM died before Gradle wrote them.
func (p *parser) recordConsoleFailures() {
	for _, cf := range p.pending {
		name := simpleName(cf.class) + "#" + cf.method
		if p.inReports(cf.class, name) {
			continue
		}
		f := &report.Failure{Name: name, Message: cf.exception, Line: cf.line, Rerun: p.rerun(cf.task, cf.class, cf.method)}
		if cf.file != "" {
			mod, _ := splitTask(cf.task)
			f.File = sourcePath(p.root, mod, cf.class, cf.file)
		}
		p.rec.End(cf.class, name, report.TestFailed, 0, f)
	}
}

// inReports says whether a report recorded the test the console named by
// class (qualified before JUnit 5, simple after) and name.
func (p *parser) inReports(class, name string) bool {
	for _, t := range p.rec.Tests() {
		if t.Name == name && (t.Suite == class || simpleName(t.Suite) == class) {
			return true
		}
	}
	return false
}

// buildFailed: Gradle failed before any test ran, for a reason other
// than tests (a dependency it could not resolve, a script error).
func (p *parser) buildFailed(exit report.Exit) bool {
	return exit.Exited && exit.Code != 0 && exit.StoppedBy == "" && len(p.wrong) > 0 && !p.noTestsFailure()
}

// noTestsFailure: Gradle's own words for a filter that matched no test
// ("No tests found for given includes") or, from Gradle 9, a test task
// that found none ("… did not discover any tests to execute").
func (p *parser) noTestsFailure() bool { return p.noTestsSaid }

// saysNoTests: the line carries Gradle's words for no test, wherever it
// stands (under "* What went wrong:", or quoted alone).
func saysNoTests(line string) bool {
	return strings.Contains(line, "No tests found for given includes") || strings.Contains(line, "did not discover any tests")
}

var noTestsHint = kit.NoTestsHint{
	Test: "gradle: no test matched --tests: name a class (com.x.FooTest or *FooTest), a method (FooTest.bar) or a pattern (*Integration*)",
	Levels: map[adapters.Level]string{
		adapters.LevelIntegration: "gradle: the integrationTest task ran no test: its test classes go in the source set it runs (src/integrationTest/java or …/kotlin by convention)",
	},
	Level: "gradle: no test ran at this level",
	All:   "gradle: the test task found no test: test classes go in src/test/java (or src/test/kotlin) and need a test framework dependency and useJUnitPlatform() for JUnit 5",
}
