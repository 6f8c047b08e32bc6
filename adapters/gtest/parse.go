package gtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
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

// parser reads the console live and the JSON report at Finish. The runner
// calls Line for one line at a time and Finish once, so it needs no lock.
type parser struct {
	rec  *adapters.Recorder
	root string
	dir  string // the report's private directory, removed by Close
	path string // the JSON report
	// decls are the tests' declarations from the binary's own listing,
	// read once when a run without a report needs them (declaration).
	decls map[string]place

	rerun []string
	// filter is the run's --gtest_filter ("" for every test), for the
	// command that runs the rest of a stopped run.
	filter string
	test   string
	level  adapters.Level
	note   string
	stale  kit.Pending // the stale-build note, made beside the run
	env    []string

	cur     *running
	last    string // the last test that started
	started int
	// sawBanner says the binary printed GoogleTest's "Running N tests"
	// line: it is GoogleTest and accepted its arguments.
	sawBanner bool
	// announced is how many tests the first banner said would run: a
	// binary that died or was stopped says how many never did.
	announced int
	errLines  []string // output outside any test, for a binary that refused its arguments
	// ended holds the tests the console ended, and how: the report only
	// has to add to them.
	ended map[string]report.TestStatus
	// errTail are the binary's last lines on stderr: what a process that
	// dies says last (glibc's "free(): invalid size" before its abort).
	errTail []string
	// sans are the sanitizer reports read on stderr (sanitizer.go).
	sans      []*sanitized
	order     []string // the tests in the order they started
	sanReader format.SanitizerReader
	// scope is the suite (or the global environment) whose console comes
	// now, for the failures printed outside any test.
	scope *scope
	// envFailures are the global environment's failures, for the hint.
	envFailures []string
	// seed is the seed of --gtest_shuffle's order, "" when not shuffled;
	// the reruns keep it (--gtest_random_seed).
	seed string
	// unshard goes before each rerun when the run was one shard: env -u
	// with GoogleTest's sharding variables.
	unshard []string
	// iteration is --gtest_repeat's iteration (1 before any "Repeating
	// all tests" line); runs are each test's results, one an iteration,
	// and lastFail its last failure.
	iteration int
	runs      map[string][]iterationRun
	lastFail  map[string]*report.Failure
}

type iterationRun struct {
	iteration int
	status    report.TestStatus
}

// scope is a stretch of console outside any test: a suite's, from its
// "[----------] N tests from Suite" line to the next such line, or the
// global environment's set-up or tear-down. Failures there are
// SetUpTestSuite's (before the suite's first test), TearDownTestSuite's
// (after one), or an Environment's.
type scope struct {
	suite    string // "" for the global environment
	ran      bool   // a test of the suite has started
	tearDown bool   // the first failure came after a test
	blocks   format.GTestBlocks
}

// running is the test between its RUN line and its end.
type running struct {
	name   string
	blocks format.GTestBlocks // its failure blocks, GTEST_SKIP's too
}

// errTailLines is how many of the binary's last stderr lines a death
// quotes.
const errTailLines = 3

func newParser(rec *adapters.Recorder, root, dir, path string) *parser {
	return &parser{rec: rec, root: root, dir: dir, path: path, ended: map[string]report.TestStatus{},
		iteration: 1, runs: map[string][]iterationRun{}, lastFail: map[string]*report.Failure{}}
}

var (
	banner      = lazyre.New(`^\[==========\] Running (\d+) tests? from`)
	shuffleNote = lazyre.New(`^Note: Randomizing tests' orders with a seed of (\d+) \.$`)
	repeatLine  = lazyre.New(`^Repeating all tests \(iteration (\d+)\) \. \. \.$`)
)

// Line reads one console line: test events, and the failure blocks and
// output of the test running.
func (p *parser) Line(s adapters.Stream, b []byte, _ bool) {
	line := kit.StripANSI(strings.TrimRight(string(b), "\r"))
	if s == adapters.Stderr && strings.TrimSpace(line) != "" {
		// Kept whether or not a test runs now: stderr, unbuffered, is
		// often read before the stdout line that started the test.
		p.errTail = append(p.errTail, line)
		if len(p.errTail) > errTailLines {
			p.errTail = p.errTail[1:]
		}
	}
	if kind, name, ms, where, ok := parseEvent(line); ok && s == adapters.Stdout {
		if p.event(kind, name, ms) {
			if kind == "FAILED" && where != "" {
				// A typed or parameterized test's instances share their
				// failure's line and often its words: which type or value
				// failed ("TypeParam = long") tells them apart.
				p.rec.UpdateFailure("", name, func(f *report.Failure) { f.Message = kit.Clip(f.Message + "\n(" + where + ")") })
			}
			return
		}
	}
	san := p.sanitizerLine(s, line)
	if p.cur == nil {
		if san {
			return
		}
		if s == adapters.Stdout && p.shuffleOrRepeat(line) {
			return
		}
		if m := banner.FindStringSubmatch(line); m != nil {
			if !p.sawBanner {
				p.announced, _ = strconv.Atoi(m[1])
			}
			p.sawBanner = true
		} else if p.sawBanner && s == adapters.Stdout {
			p.outside(line)
		} else if !p.sawBanner && len(p.errLines) < 20 && strings.TrimSpace(line) != "" {
			p.errLines = append(p.errLines, line)
		}
		return
	}
	p.rec.Output("", p.cur.name, line+"\n")
	if s == adapters.Stdout {
		p.cur.blocks.Line(line)
	}
}

var suiteHeader = lazyre.New(`^\[----------\] \d+ tests? from ([^ ,]+)`)

// shuffleOrRepeat reads the lines --gtest_shuffle and --gtest_repeat
// print before each iteration: the order's seed, which the reruns keep
// (each iteration of a shuffled repeat has its own), and the iteration.
func (p *parser) shuffleOrRepeat(line string) bool {
	if m := shuffleNote.FindStringSubmatch(line); m != nil {
		p.seed = m[1]
		p.rerun = append(slices.DeleteFunc(p.rerun, func(a string) bool {
			return strings.HasPrefix(a, "--gtest_random_seed=") || strings.HasPrefix(a, "--gtest-random_seed=")
		}), "--gtest_random_seed="+m[1])
		return true
	}
	if m := repeatLine.FindStringSubmatch(line); m != nil {
		p.iteration, _ = strconv.Atoi(m[1])
		return true
	}
	return false
}

// outside reads a console line outside any test: the lines that open a
// suite's or the global environment's stretch, and the failure blocks in
// them.
func (p *parser) outside(line string) {
	switch {
	case strings.HasPrefix(line, "[----------] Global test environment"):
		p.endScope()
		p.scope = &scope{}
	case strings.HasPrefix(line, "[----------] "):
		p.endScope() // a suite's end ("N tests from S (0 ms total)") or the next one's start
		if m := suiteHeader.FindStringSubmatch(line); m != nil && !strings.HasSuffix(line, " total)") {
			p.scope = &scope{suite: m[1]}
		}
	case strings.HasPrefix(line, "[==========] "):
		p.endScope()
	case p.scope != nil:
		n := len(p.scope.blocks.Failures)
		p.scope.blocks.Line(line)
		if n == 0 && len(p.scope.blocks.Failures) > 0 {
			p.scope.tearDown = p.scope.ran
		}
	}
}

// endScope records the failures of the stretch that ends: a suite's fail
// under the suite's name, which reruns the suite; the global
// environment's go to the hint.
func (p *parser) endScope() {
	sc := p.scope
	p.scope = nil
	if sc == nil || len(sc.blocks.Failures) == 0 {
		return
	}
	if sc.suite == "" {
		for _, fl := range sc.blocks.Failures {
			where := kit.ProjectPath(p.root, fl.File)
			if where == "" {
				where = "unknown file"
			} else {
				where += ":" + strconv.Itoa(fl.Line)
			}
			p.envFailures = append(p.envFailures, where+": "+kit.ClipTo(strings.Join(strings.Fields(fl.Message()), " "), 300, "…"))
		}
		return
	}
	f := p.failure(sc.suite, sc.blocks.Failures, "")
	f.Rerun = p.rerunFor(sc.suite + ".*")
	phase := "failed in SetUpTestSuite, outside any test (GoogleTest counts it as a failed test suite, not a failed test)"
	if sc.tearDown {
		phase = "failed in TearDownTestSuite, after its tests (GoogleTest counts it as a failed test suite, not a failed test)"
	}
	f.Message = kit.Clip(phase + "\n" + f.Message)
	p.rec.End("", sc.suite, report.TestFailed, 0, f)
}

// parseEvent splits a console line GoogleTest prints around a test:
// "[ KIND ] Suite.Name", with the time when --gtest_print_time is on (the
// default) and, for a failed parameterized or typed test, what it was
// instantiated with (", where GetParam() = 3": where is "GetParam() = 3").
// It is on every line of a run, so it is plain string work, not a regular
// expression.
func parseEvent(line string) (kind, name, ms, where string, ok bool) {
	if len(line) < 14 || line[0] != '[' || line[11] != ']' || line[12] != ' ' {
		return "", "", "", "", false
	}
	switch kind = strings.TrimSpace(line[1:11]); kind {
	case "RUN", "OK", "FAILED", "SKIPPED", "DISABLED":
	default:
		return "", "", "", "", false
	}
	rest := line[13:]
	if strings.HasSuffix(rest, " ms)") {
		if i := strings.LastIndex(rest, " ("); i >= 0 {
			rest, ms = rest[:i], rest[i+2:len(rest)-4]
		}
	}
	if i := strings.Index(rest, ", where "); i >= 0 {
		rest, where = rest[:i], strings.TrimSpace(rest[i+len(", where "):])
	}
	if rest == "" || strings.ContainsRune(rest, ' ') {
		return "", "", "", "", false // "[  FAILED  ] 4 tests, listed below:"
	}
	return kind, rest, ms, where, true
}

// event handles a RUN, OK, FAILED, SKIPPED or DISABLED line, and says
// whether it was one: the summary's "[  FAILED  ] Suite.Name" lines after
// the run name no running test and are not.
func (p *parser) event(kind, name, ms string) bool {
	var d time.Duration
	if n, err := strconv.Atoi(ms); err == nil {
		d = time.Duration(n) * time.Millisecond
		if d == 0 {
			d = time.Microsecond // reported as 0 ms: not to be measured again
		}
	}
	switch kind {
	case "RUN":
		if p.scope != nil {
			p.scope.ran = true
			p.scope.blocks.Close()
		}
		p.cur = &running{name: name}
		p.last = name
		p.started++
		p.order = append(p.order, name)
		if prev, ok := p.rec.Lookup("", name); ok && prev.Status != report.TestRunning && p.iteration > 1 {
			// --gtest_repeat runs it again: recorded anew (running, for
			// the stuck detector), its earlier output kept.
			p.rec.Forget("", name)
			p.rec.Start("", name)
			if prev.Output != "" {
				p.rec.Output("", name, prev.Output)
			}
			return true
		}
		p.rec.Start("", name)
		return true
	case "DISABLED":
		p.ended[name] = report.TestSkipped
		p.rec.End("", name, report.TestSkipped, 0, nil)
		p.rec.Output("", name, "disabled: its name starts with DISABLED_ (run it with --gtest_also_run_disabled_tests)\n")
		return true
	}
	t := p.cur
	if t == nil || t.name != name {
		return false
	}
	p.cur = nil
	p.ended[name] = map[string]report.TestStatus{"OK": report.TestPassed, "SKIPPED": report.TestSkipped, "FAILED": report.TestFailed}[kind]
	p.runs[name] = append(p.runs[name], iterationRun{p.iteration, p.ended[name]})
	switch f := p.lastFail[name]; {
	case kind == "FAILED":
		f = p.failure(name, t.blocks.Failures, "the test failed without a failed assertion (see its output)")
		p.lastFail[name] = f
		p.rec.End("", name, report.TestFailed, d, f)
	case f != nil:
		// Failed in an earlier --gtest_repeat iteration: GoogleTest fails
		// the run for it, and so does strobe.
		g := *f
		p.rec.End("", name, report.TestFailed, d, &g)
	case kind == "OK":
		p.rec.End("", name, report.TestPassed, d, nil)
	case kind == "SKIPPED":
		p.rec.End("", name, report.TestSkipped, d, nil)
	}
	return true
}

// iterations says, in the message of a test --gtest_repeat ran more than
// once, in which iterations it failed: one failed test stands for all of
// its iterations, failed if any failed, as GoogleTest's exit status says.
func (p *parser) iterations() {
	if p.iteration < 2 {
		return
	}
	for name, runs := range p.runs {
		var failed []string
		for _, r := range runs {
			if r.status == report.TestFailed {
				failed = append(failed, strconv.Itoa(r.iteration))
			}
		}
		if len(failed) == 0 || len(runs) < 2 {
			continue
		}
		note := fmt.Sprintf("failed in all %d iterations (--gtest_repeat)", len(runs))
		if len(failed) < len(runs) {
			note = fmt.Sprintf("failed in %d of %d iterations (--gtest_repeat): iteration %s, passed in the others; the failure shown is iteration %s's",
				len(failed), len(runs), strings.Join(failed, ", "), failed[len(failed)-1])
		}
		p.rec.UpdateFailure("", name, func(f *report.Failure) { f.Message = kit.Clip(note + "\n" + f.Message) })
	}
}

// failure builds a test's report.Failure: the first failure's file:line
// and text, the later ones added with their own location.
func (p *parser) failure(name string, fs []format.GTestFailure, none string) *report.Failure {
	f := &report.Failure{Name: name, Rerun: p.rerunFor(name)}
	if len(fs) == 0 {
		f.Message = none
		return f
	}
	for i, fl := range fs {
		text := fl.Message()
		if i == 0 {
			f.File, f.Line, f.Message = kit.ProjectPath(p.root, fl.File), fl.Line, kit.Clip(text)
			continue
		}
		file := kit.ProjectPath(p.root, fl.File)
		if file == "" {
			file = "unknown file" // GoogleTest's words for an exception's or a mock's failure
		}
		kit.AddFailure(f, file, fl.Line, text)
	}
	return f
}

// jsonReport is what the adapter reads of --gtest_output=json.
type jsonReport struct {
	Tests  int `json:"tests"`
	Suites []struct {
		Name  string     `json:"name"`
		Tests []jsonTest `json:"testsuite"`
	} `json:"testsuites"`
}

type jsonTest struct {
	Name     string `json:"name"`
	File     string `json:"file"`
	Line     int    `json:"line"`
	Status   string `json:"status"` // RUN, NOTRUN
	Result   string `json:"result"` // COMPLETED, SKIPPED, SUPPRESSED
	Time     string `json:"time"`   // "0.12s"
	Failures []struct {
		Failure string `json:"failure"`
	} `json:"failures"`
	Skipped []struct {
		Message string `json:"message"`
	} `json:"skipped"` // newer releases: GTEST_SKIP's message
}

// readReport reads the JSON report, nil when the binary wrote none.
func readReport(path string) (*jsonReport, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r jsonReport
	if err := json.Unmarshal(b, &r); err != nil {
		// GoogleTest 1.12 forgets the comma before the suite it adds for
		// a global environment's failures ("    }    {").
		fixed := bytes.Replace(b, []byte("\n    }    {\n"), []byte("\n    },\n    {\n"), 1)
		if json.Unmarshal(fixed, &r) != nil {
			return nil, fmt.Errorf("reading the GoogleTest report: %w", err)
		}
	}
	return &r, nil
}

// apply records the report's results: its failures replace the console's,
// and the tests the console did not end are ended.
func (p *parser) apply(r *jsonReport) {
	for _, s := range r.Suites {
		for _, t := range s.Tests {
			if t.Name == "" {
				continue // a global environment's failures ("NonTestSuiteFailure"): read from the console
			}
			name := s.Name + "." + t.Name
			d := jsonDuration(t.Time)
			status, seen := p.ended[name]
			if seen && len(t.Failures) == 0 && len(t.Skipped) == 0 {
				continue // the console said it all
			}
			prev, _ := p.rec.Lookup("", name)
			switch {
			case len(t.Failures) > 0:
				var fs []format.GTestFailure
				for _, jf := range t.Failures {
					fs = append(fs, jsonFailure(jf.Failure, t))
				}
				f := p.failure(name, fs, "")
				if status == report.TestFailed && p.rec.UpdateFailure("", name, func(old *report.Failure) { *old = *f }) {
					continue
				}
				p.rec.End("", name, report.TestFailed, d, f)
			case seen:
				// Ended on the console already.
			case t.Status == "NOTRUN" || t.Result == "SUPPRESSED":
				p.rec.End("", name, report.TestSkipped, 0, nil)
				p.rec.Output("", name, "disabled: its name starts with DISABLED_ (run it with --gtest_also_run_disabled_tests)\n")
			case t.Result == "SKIPPED":
				p.rec.End("", name, report.TestSkipped, d, nil)
			default:
				p.rec.End("", name, report.TestPassed, d, nil)
			}
			for _, sk := range t.Skipped {
				if !strings.Contains(prev.Output, sk.Message) {
					p.rec.Output("", name, sk.Message+"\n")
				}
			}
		}
	}
}

// jsonFailure splits a report failure ("file:line\ntext", or "unknown
// file\ntext" for an exception) into its location and text; without a
// location it takes the test's own.
func jsonFailure(s string, t jsonTest) format.GTestFailure {
	head, text, _ := strings.Cut(s, "\n")
	f := format.GTestFailure{Text: strings.Split(strings.TrimRight(text, "\n"), "\n")}
	if i := strings.LastIndexByte(head, ':'); i > 0 {
		if n, err := strconv.Atoi(head[i+1:]); err == nil {
			f.File, f.Line = head[:i], n
			return f
		}
	}
	f.File, f.Line = t.File, t.Line
	if head != "unknown file" {
		f.Text = append([]string{head}, f.Text...)
	}
	return f
}

func jsonDuration(s string) time.Duration {
	sec, err := strconv.ParseFloat(strings.TrimSuffix(s, "s"), 64)
	if err != nil || sec <= 0 {
		return time.Microsecond
	}
	return kit.DurationOf(sec)
}

// Close removes the report's directory: after Finish, or in its place when
// the binary never started.
func (p *parser) Close() error {
	if p.dir == "" {
		return nil
	}
	return os.RemoveAll(p.dir)
}

func (p *parser) Finish(exit report.Exit) adapters.Outcome {
	var out adapters.Outcome
	var hints []string
	if note := kit.JoinNotes(p.note, p.stale.Wait()); note != "" {
		hints = append(hints, note)
	}
	p.endScope()
	if len(p.envFailures) > 0 {
		hints = append(hints, "a global test environment (::testing::Environment) failed outside any test, which fails the run: "+strings.Join(p.envFailures, "; "))
	}
	r, err := readReport(p.path)
	if r != nil {
		p.apply(r)
	} else if err != nil && !os.IsNotExist(err) {
		hints = append(hints, err.Error())
	}
	p.iterations()
	if p.seed != "" && p.rec.Progress().Failed > 0 {
		hints = append(hints, fmt.Sprintf("the reruns keep --gtest_random_seed=%s", p.seed))
	}
	dying := ""
	if p.cur != nil {
		dying = p.cur.name
	}
	if dying != "" && exit.StoppedBy != "" && len(p.sans) == 0 {
		dying = "" // stopped by strobe: see below
	}
	fatal := p.applySanitizers(dying, &hints)
	if dying == "" && p.cur != nil {
		dying = p.cur.name
	}
	switch {
	case fatal != nil:
		p.diedOfSanitizer(fatal, exit, &out, &hints)
	case dying != "" && exit.StoppedBy != "":
		// Stopped by strobe (a stuck verdict, its timeout, a cancel): the
		// test stays running, and the runner says why.
	case dying != "":
		p.died(dying, exit, &out, &hints)
	case r == nil && !p.sawBanner:
		msg := "the binary wrote no GoogleTest report"
		if len(p.errLines) > 0 {
			msg += ": " + strings.Join(p.errLines, " ")
		}
		hints = append(hints, msg+" (is it a GoogleTest binary, and does it accept --gtest_output=json:FILE?)")
	case p.started == 0 && (r == nil || r.Tests == 0 || !p.anyRecorded()):
		out.NoTests = true
		out.Project = &report.Project{Language: "c++", BuildSystem: "GoogleTest test binary"}
		bin := ""
		if len(p.rerun) > 0 {
			bin = shell.Quote(p.rerun[0])
		}
		hints = append(hints, kit.NoTestsHint{
			Test:  fmt.Sprintf("no test is named %q: list them with %s --gtest_list_tests", p.test, bin),
			Level: fmt.Sprintf("no test suite is named for level %s: strobe runs suites named %s… (or Inst/%s…) for it", p.level, levelPrefix(p.level), levelPrefix(p.level)),
			All:   "the binary has no tests to run (disabled ones, DISABLED_*, only run with --gtest_also_run_disabled_tests)",
		}.For(p.test, p.level))
	}
	if r == nil {
		p.placeUnplaced()
		if h := p.unrun(dying != "" || fatal != nil || exit.StoppedBy != ""); h != "" {
			if exit.StoppedBy != "" && p.cur != nil {
				h += "; to run the rest without " + kit.StoppedWhat(exit.StoppedBy) + ": " + p.restWithout(p.cur.name)
			}
			hints = append(hints, h)
		}
	}
	out.Hint = strings.Join(hints, "; ")
	if p.seed != "" {
		// The binary with the command's flags and the seed: the same order.
		out.Shuffle = &report.Shuffle{Seed: p.seed, Command: shell.Join(p.rerun)}
	}
	return out
}

func (p *parser) anyRecorded() bool { return len(p.rec.Tests()) > 0 }

// unrun says, of a binary that died or was stopped before its report
// (ended), how many of the tests its banner announced never ran: they are
// in no count, and GoogleTest says nothing of them. "" when all ran, or
// under --gtest_repeat (the banner is an iteration's).
func (p *parser) unrun(ended bool) string {
	if !ended || p.announced == 0 || p.iteration > 1 {
		return ""
	}
	n := p.announced - p.started
	if n <= 0 {
		return ""
	}
	verb := "are"
	if n == 1 {
		verb = "is"
	}
	return fmt.Sprintf("%d of the %d tests the binary was to run did not run and %s in no count", n, p.announced, verb)
}

// restWithout is the command that runs the run's tests but name, the
// one strobe stopped: the run's filter with name among its negatives.
func (p *parser) restWithout(name string) string {
	f := p.filter
	switch {
	case f == "":
		f = "-" + name
	case strings.Contains(f, "-"):
		f += ":" + name
	default:
		f += "-" + name
	}
	return shell.Join(slices.Concat(p.unshard, p.rerun, []string{"--gtest_filter=" + f}))
}

func levelPrefix(l adapters.Level) string {
	return map[adapters.Level]string{adapters.LevelUnit: "Unit", adapters.LevelIntegration: "Integration", adapters.LevelE2E: "E2E"}[l]
}

// died fails the test the binary died in (a signal, abort(), exit() in the
// test) and makes it the crash: GoogleTest wrote no report, so the test's
// declaration comes from a bounded listing of the binary.
func (p *parser) died(name string, exit report.Exit, out *adapters.Outcome, hints *[]string) {
	t := p.cur
	p.cur = nil
	how := exitText(exit)
	f := p.failure(name, t.blocks.Failures, "")
	msg := kit.DidNotFinish("the test binary died ("+how+")", 0)
	if len(p.errTail) > 0 {
		// The C library's or the runtime's last words (free(): invalid
		// size, an assert's file:line): before, only the details file's
		// output had them (uriparser's parser broken on purpose).
		msg += "\nthe binary's last lines on stderr:\n  " + strings.Join(p.errTail, "\n  ")
	}
	if f.Message != "" {
		msg += "\n" + f.Message
	}
	f.Message = kit.Clip(msg)
	if f.File == "" {
		f.File, f.Line = p.declaration(name)
	}
	p.rec.End("", name, report.TestFailed, 0, f)
	c := &report.Crash{Type: report.CrashUnknown, ExitCode: exit.Code, Signal: exit.Signal, SignalName: exit.SignalName, CoreDump: exit.CoreDump,
		Indicators: []string{"gtest_output_cut_short"}, RunningTests: []string{name},
		Message: fmt.Sprintf("the test binary ended (%s) inside test %q before GoogleTest reported its end", how, name)}
	if sig := kit.ExitSignal(exit); sig != "" {
		c.Type = kit.CrashType(sig)
	}
	out.Crash = c
	*hints = append(*hints, fmt.Sprintf("the binary died inside test %q (%s): rerun it alone under gdb: gdb --args %s", name, how, f.Rerun))
}

// diedOfSanitizer fails the test a sanitizer stopped the binary in, with
// the report, and makes it the crash.
func (p *parser) diedOfSanitizer(r *sanitized, exit report.Exit, out *adapters.Outcome, hints *[]string) {
	p.cur = nil
	f := p.sanitizerFailure(r)
	if f.File == "" {
		f.File, f.Line = p.declaration(r.test)
	}
	p.rec.End("", r.test, report.TestFailed, 0, f)
	c, hint := p.sanitizerCrash(r, f, exit)
	out.Crash = c
	*hints = append(*hints, hint)
}

// place is where a test is declared.
type place struct {
	file string
	line int
}

// declaration is where a test is declared, from the binary's own JSON
// listing (--gtest_list_tests --gtest_output=json), bounded like the
// probe and run once.
func (p *parser) declaration(name string) (string, int) {
	if len(p.rerun) == 0 || p.dir == "" {
		return "", 0
	}
	if p.decls == nil {
		p.decls = map[string]place{}
		list := p.path + ".list.json"
		kit.RunTool(context.Background(), kit.Tool{Dir: p.root, Env: p.env, Timeout: probeTimeout}, p.rerun[0], "--gtest_list_tests", "--gtest_output=json:"+list)
		r, err := readReport(list)
		if err != nil {
			return "", 0
		}
		for _, s := range r.Suites {
			for _, t := range s.Tests {
				p.decls[s.Name+"."+t.Name] = place{kit.ProjectPath(p.root, t.File), t.Line}
			}
		}
	}
	at := p.decls[name]
	return at.file, at.line
}

// placeUnplaced gives the failed tests that have no place (an exception's
// "unknown file" came first) their declaration, as the report would have
// had the binary lived to write it.
func (p *parser) placeUnplaced() {
	for _, t := range p.rec.Tests() {
		if t.Failure == nil || t.Failure.File != "" {
			continue
		}
		if file, line := p.declaration(t.Name); file != "" {
			p.rec.UpdateFailure("", t.Name, func(f *report.Failure) { f.File, f.Line = file, line })
		}
	}
}

func exitText(exit report.Exit) string {
	if sig := kit.ExitSignal(exit); sig != "" {
		return "killed by " + sig
	}
	return fmt.Sprintf("exit code %d", exit.Code)
}
