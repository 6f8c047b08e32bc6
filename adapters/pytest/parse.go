package pytest

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"strobe/adapters"
	"strobe/adapters/kit"
	"strobe/adapters/kit/format"
	"strobe/adapters/kit/python"
	"strobe/internal/lazyre"
	"strobe/internal/shell"
	"strobe/report"
)

// pytest's exit codes (pytest.ExitCode).
const (
	exitOK          = 0
	exitFailed      = 1
	exitInterrupted = 2
	exitInternal    = 3
	exitUsage       = 4
	exitNoTests     = 5
	// pytest-rerunfailures' --fail-on-flaky: a test passed only on a
	// rerun.
	exitFailOnFlaky = 7
)

// maxSummaryLines bounds what the parser keeps of pytest's own output:
// the summary lines read when the plugin did not load (python.Run keeps
// the stderr lines that explain an error exit).
const maxSummaryLines = 10000

// parser reads the plugin's events (from the stream's goroutine) and
// pytest's own output (from Line).
type parser struct {
	python.Run // the events, stderr's first lines; its Mu guards what follows too
	rec        *adapters.Recorder
	root       string
	test       string
	level      adapters.Level
	prefix     []string
	rerunOpts  []string // the options of a given command that a rerun keeps (rerunOptions)
	args       []string // the run's own arguments, after strobe's plugin
	gone       []string // tests asked for that their files no longer hold (presentIDs)
	asked      []string // the node ids a rerun of the failures asked for

	summary  []string          // FAILED/ERROR lines, for the fallback
	counts   string            // the closing "== 1 failed, 2 passed in 0.1s ==" line
	section  string            // the failure section being read: "test_fail", "TestC.test_m"
	locs     map[string]string // section → its last "file.py:12: Error" location
	internal internalError     // pytest's own traceback: INTERNALERROR on stdout, or stderr's
	dump     timeoutDump       // pytest-timeout's thread method's stacks, before it ends pytest
	// coverage is pytest-cov's line for --cov-fail-under not met ("FAIL
	// Required test coverage of 80% not reached. Total coverage: 75.00%").
	coverage string
}

func newParser(rec *adapters.Recorder, req adapters.Request, wd *python.Workdir, prefix []string) *parser {
	p := &parser{rec: rec, root: req.ProjectRoot, test: req.Test, level: req.Level, prefix: prefix}
	p.Init(rec, req.ProjectRoot, wd, p.rerun)
	return p
}

// shuffled is the run in a random order that pytest-randomly made, nil
// when it made none: its seed, and the whole run again with the seed that
// keep (args, from the plugin) in place of any the command gave.
func (p *parser) shuffled(keep []string) *report.Shuffle {
	if len(keep) == 0 {
		return nil
	}
	words := append([]string{}, p.prefix...)
	for i := 0; i < len(p.args); i++ {
		switch a := p.args[i]; {
		case a == "--randomly-seed" || a == "-p" && i+1 < len(p.args) && p.args[i+1] == "randomly":
			i++
		case strings.HasPrefix(a, "--randomly-seed=") || a == "-prandomly":
		default:
			words = append(words, a)
		}
	}
	seed := strings.TrimPrefix(keep[len(keep)-1], "--randomly-seed=")
	return &report.Shuffle{Seed: seed, Command: shell.Join(append(words, keep...))}
}

// rerun is the pasteable command for one test: the interpreter and
// pytest as the run called them, a given command's options, and the node
// id.
func (p *parser) rerun(id string) string {
	return shell.Join(slices.Concat(p.prefix, p.rerunOpts, []string{id}))
}

// Rerun (adapters.Reruner): a test's name is its node id.
func (p *parser) Rerun(_, name string) string { return p.rerun(name) }

func (p *parser) Line(s adapters.Stream, b []byte, _ bool) {
	p.Mu.Lock()
	defer p.Mu.Unlock()
	if s == adapters.Stderr {
		p.Stderr(b)
		// pytest's traceback when it stops before its session (a conftest
		// pluggy refuses, an INTERNALERROR before the terminal is set up).
		p.internal.line(bytes.TrimPrefix(b, internalPrefix), p.root)
		return
	}
	// Only the lines the fallback reads are kept, found by their first
	// byte: the hot path costs a comparison or two per line.
	if len(b) == 0 {
		return
	}
	if (b[len(b)-1] == '+' || p.dump.in) && p.dump.line(b, p.root) {
		return
	}
	if b[0] == '_' && bytes.HasSuffix(b, []byte("_")) {
		name := strings.Trim(string(b), "_ ")
		name = strings.TrimPrefix(strings.TrimPrefix(name, "ERROR at setup of "), "ERROR at teardown of ")
		p.section = name
		return
	}
	if p.section != "" && len(b) < 500 && b[0] != ' ' && bytes.Contains(b, []byte(".py:")) && len(p.locs) < maxSummaryLines {
		if m := sectionLoc.FindSubmatch(b); m != nil {
			if p.locs == nil {
				p.locs = map[string]string{}
			}
			p.locs[p.section] = string(m[1])
			return
		}
	}
	switch {
	case b[0] == 'I' && bytes.HasPrefix(b, internalPrefix):
		p.internal.line(b[len(internalPrefix):], p.root)
	case b[0] != 'F' && b[0] != 'E' && b[0] != '=':
		return
	case bytes.HasPrefix(b, []byte("FAILED ")) || bytes.HasPrefix(b, []byte("ERROR ")):
		if len(p.summary) < maxSummaryLines {
			p.summary = append(p.summary, kit.Clip(string(b)))
		}
	case b[0] == '=' && countsLine.Match(b):
		p.counts = string(b)
	case b[0] == 'F' && bytes.HasPrefix(b, []byte("FAIL Required test coverage of ")):
		p.coverage = kit.Clip(string(b))
	}
}

// countsLine is pytest's closing line: `=== 1 failed, 2 passed in 0.12s ===`.
// sectionLoc is the location line that ends a failure's traceback in
// pytest's report: `tests/test_x.py:14: AssertionError`.
var sectionLoc = lazyre.New(`^([^\s:]+\.py:\d+): [A-Za-z_][\w.]*$`)

var countsLine = lazyre.New(`^=+ .*\b\d+ (passed|failed|skipped|errors?|xfailed|xpassed|deselected|warnings?)\b.* in [0-9.]+s`)

func (p *parser) Finish(exit report.Exit) adapters.Outcome {
	p.StopEvents()
	p.Mu.Lock()
	defer p.Mu.Unlock()
	st, out := p.Outcome()
	early := !st.Hello && p.stoppedEarly(exit)
	// strobe stopped pytest before the plugin's first event (a
	// conftest.py that hangs as it loads): the plugin did not fail to load.
	stoppedBefore := exit.StoppedBy != "" && p.counts == "" && len(p.summary) == 0
	if !st.Hello && !early && !stoppedBefore {
		p.fallback(&out)
	}
	if len(p.gone) > 0 {
		out.Hint = joinHint(out.Hint, fmt.Sprintf("%d of the tests asked for are no longer in their files (renamed or removed since), so they did not run: %s",
			len(p.gone), kit.ClipTo(strings.Join(p.gone, ", "), 300, "…")))
	}
	out.Shuffle = p.shuffled(st.Shuffle)
	if len(st.Flaky) > 0 {
		out.Flaky = st.Flaky
		out.Indicators = append(out.Indicators, "flaky_tests")
		out.Hint = joinHint(out.Hint, kit.FlakyHint(st.Flaky, "pytest-rerunfailures"))
		if exit.Code == exitFailOnFlaky {
			out.Hint = joinHint(out.Hint, "pytest exited 7: pytest-rerunfailures' --fail-on-flaky fails the run when a test passes only on a rerun")
		}
	}
	if p.Ended(st, exit, p.rec, &out) {
		if exit.StoppedBy != "" || exit.Signaled {
			h := p.unrunHint(st)
			if h != "" && exit.StoppedBy != "" {
				h += p.restWithout(exit.StoppedBy)
			}
			out.Hint = joinHint(out.Hint, h)
		}
		if out.BuildFailed {
			out.Hint = joinHint(out.Hint, collectHint(out.BuildErrors))
		}
		if out.BuildFailed && exit.Code == exitInternal && p.internal.exc != "" {
			// pytest stopped on it after collecting: the next run meets it
			// once the imports are fixed, so it is said now.
			out.Hint = joinHint(out.Hint, "pytest also stopped on an internal error: "+p.internal.String())
		}
		return out
	}
	if len(st.TimedOut) > 0 {
		out.Indicators = append(out.Indicators, "test_timed_out")
	}
	if p.timeoutExit(st, exit, &out) {
		return out
	}
	if p.CutShort(st, exit, p.rec, "pytest", &out) {
		out.Hint = joinHint(out.Hint, p.unrunHint(st))
		return out
	}
	switch exit.Code {
	case exitNoTests:
		if p.countsFailed() {
			break
		}
		out.NoTests, out.ExitExplained = true, true
		out.Project = &report.Project{Language: "python", BuildSystem: "pytest", TestFiles: TestFiles(p.root, 20)}
		out.Hint = joinHint(out.Hint, p.noTestsHint())
	case exitInterrupted:
		if st.Done && st.Stopped != "" && p.rec.Progress().Failed > 0 {
			// pytest-xdist ends -x and --maxfail with its Interrupted:
			// the tests' failures, not the user's interruption.
			out.ExitExplained = true
			break
		}
		out.Crash = &report.Crash{Type: report.CrashInterrupted, ExitCode: exit.Code, Indicators: []string{"pytest_interrupted"},
			Message: p.errorMessage("pytest was interrupted (exit 2)")}
	case exitInternal:
		out.Crash = &report.Crash{Type: report.CrashUnknown, ExitCode: exit.Code, Indicators: []string{"pytest_internal_error"},
			Message: p.internalMessage()}
		out.Hint = joinHint(out.Hint, p.internal.warningHint())
	case exitUsage:
		reason := p.usageReason(st)
		if allGone := p.allGone(reason); len(allGone) > 0 {
			// Not a usage error of the user's: what failed last time
			// is renamed or removed, and there is nothing to rerun.
			out.NoTests, out.ExitExplained = true, true
			what := fmt.Sprintf("none of the %d tests asked for is in its file any more (renamed or removed since the run that failed them), so none ran", len(allGone))
			if len(allGone) == 1 {
				what = "the test asked for is no longer in its file (renamed or removed since the run that failed it), so it did not run"
			}
			out.Hint = joinHint(out.Hint, fmt.Sprintf("%s: %s; run the suite without --failed (onlyFailed) to see what fails under its new name",
				what, kit.ClipTo(strings.Join(allGone, ", "), 300, "…")))
			return out
		}
		if strings.HasPrefix(reason, "Unknown marker(s) in '-m' expression") && p.levelByMarker() {
			// pytest 9 refuses a -m of a marker the configuration does
			// not register, under --strict-markers (strict_markers):
			// strobe's own -m for a level, in a project that has none.
			out.NoTests, out.ExitExplained = true, true
			out.Project = &report.Project{Language: "python", BuildSystem: "pytest", TestFiles: TestFiles(p.root, 20)}
			out.Hint = joinHint(out.Hint, p.noTestsHint()+fmt.Sprintf("; this project has neither: its --strict-markers refused strobe's `-m %s`, as it registers no %s marker", p.level, p.level))
			return out
		}
		if reason != "" {
			out.Refused = "pytest refused its command (exit 4, a usage error): " + reason
			out.Hint = joinHint(out.Hint, p.usageHint(reason))
			return out
		}
		if be, ok := conftestImportError(p.ErrLines); ok {
			// A conftest.py that does not import is the project's code
			// failing to load, as a test module's ImportError is.
			out.BuildFailed, out.BuildErrors, out.ExitExplained = true, []report.BuildError{be}, true
			return out
		}
		out.Crash = &report.Crash{Type: report.CrashUnknown, ExitCode: exit.Code, Indicators: []string{"pytest_usage_error"},
			Message: p.errorMessage("pytest rejected its command line or configuration (exit 4)")}
		out.Hint = joinHint(out.Hint, "pytest did not run the tests: fix the arguments, pytest.ini/pyproject options or plugins it names")
	}
	if out.Crash == nil {
		p.WorkersDied(st, exit, p.rec, &out)
	}
	if m := coverageFail.FindStringSubmatch(p.coverage); m != nil && exit.Code == exitFailed && out.Crash == nil && p.rec.Progress().Failed == 0 {
		out.Indicators = append(out.Indicators, "coverage_threshold_not_met")
		out.Hint = joinHint(out.Hint, fmt.Sprintf("coverage %s%% is under the threshold %s%% (pytest-cov's --cov-fail-under): the tests passed; pytest fails the run until the tests cover more of the code, or the threshold is lowered", m[2], m[1]))
	}
	if st.Stopped != "" {
		out.Indicators = append(out.Indicators, "pytest_stopped_early")
		out.Hint = joinHint(out.Hint, p.stoppedHint(st))
	}
	if early && out.Crash == nil && exit.Code != exitOK {
		out.Crash = &report.Crash{Type: report.CrashUnknown, ExitCode: exit.Code, Indicators: []string{"pytest_did_not_start"},
			Message: kit.Clip("pytest stopped before its session began: " + p.internal.String())}
		out.Hint = joinHint(out.Hint, "pytest ran no test: fix the conftest.py, plugin or configuration its traceback names")
	}
	return out
}

// usageReason is pytest's one-line reason for exiting 4 with a usage
// error (a -k expression it cannot parse, an unknown option, a path that
// does not exist), "" when the exit 4 is not one. pytest says it on stderr
// as "ERROR: …" (argparse's "PROG: error: …"), before its session or
// at the end of a session that ended in order with status 4, no test run.
// A test or conftest.py that calls os._exit(4) or pytest.exit(returncode=4)
// says no such line, or ends no session in order.
func (p *parser) usageReason(st python.State) string {
	if st.Hello && (!st.Done || st.Exit != exitUsage) {
		return ""
	}
	if pr := p.rec.Progress(); pr.Passed+pr.Failed+pr.Skipped > 0 {
		return ""
	}
	for _, l := range p.ErrLines {
		r, ok := strings.CutPrefix(l, "ERROR: ")
		if _, arg, isArg := strings.Cut(l, "pytest: error: "); isArg { // argparse: "python -m pytest: error: …"
			r, ok = arg, true
		}
		switch {
		case !ok || strings.HasPrefix(r, "usage: "):
		case strings.Contains(r, "strobe_"):
			return "" // strobe's plugin did not load: strobe's failure, not the command's
		default:
			return strings.ReplaceAll(r, p.root+string(filepath.Separator), "")
		}
	}
	return ""
}

// usageHint says what to do about pytest's usage error: a test name
// strobe gave to -k, or a node id whose file or test is not there, is
// named again by its node id; anything else is the command's or the
// configuration's to fix.
func (p *parser) usageHint(reason string) string {
	nodeid := "name the test by its node id as `pytest --collect-only -q` lists it: path/to/test_file.py::test_name (::Class::test_name for a method), the path relative to the project root"
	switch {
	case p.test != "" && strings.HasPrefix(reason, "Wrong expression passed to '-k'"):
		return fmt.Sprintf("pytest took the test name %q as a -k expression and could not parse it: %s", p.test, nodeid)
	case p.test != "" && strings.HasPrefix(reason, "file or directory not found"):
		return fmt.Sprintf("pytest found no file for the test %q: %s", p.test, nodeid)
	case p.test != "" && strings.HasPrefix(reason, "not found"):
		return fmt.Sprintf("pytest found no test %q in its file: %s", p.test, nodeid)
	}
	return "pytest ran no test: fix the argument or configuration option it names, then rerun"
}

// levelByMarker says whether the run's selection is strobe's -m for the
// level asked (selection: the project has no directory for it).
func (p *parser) levelByMarker() bool {
	return p.level != adapters.LevelAll && slices.Equal(p.args, []string{"-m", string(p.level)})
}

// stoppedHint says that pytest stopped before its last test (-x,
// --maxfail), with exit 1 as any failed run, and how many it never ran.
func (p *parser) stoppedHint(st python.State) string {
	hint := "pytest stopped early (" + st.Stopped + ": -x or --maxfail)"
	if strings.HasPrefix(st.Stopped, "session-timeout") {
		// pytest-timeout's --session-timeout (or its ini option) ends
		// the session after the test that passed it, exit 1.
		hint = "pytest stopped early: pytest-timeout's --session-timeout ended the session (" + st.Stopped + ")"
	}
	if ran := len(p.rec.Tests()); st.Collected > ran {
		hint += fmt.Sprintf(": %d of the %d tests collected did not run", st.Collected-ran, st.Collected)
	}
	return hint
}

// unrunHint says how many of the tests pytest collected did not run, for
// a session that ended before its last test (strobe stopped it, a test
// ended the process): the counts are of the tests that ran. "" when all
// ran, or pytest did not say how many it collected.
func (p *parser) unrunHint(st python.State) string {
	return python.UnrunHint(st, len(p.rec.Tests()), "pytest")
}

// restWithout is, for a run strobe stopped with tests left, how to run
// the rest of its selection without the tests that were running (pytest's
// --deselect), as Go's, cargo's and Maven's hints say; "" for a run of one
// test, or when none was running.
func (p *parser) restWithout(by string) string {
	running := p.rec.Progress().Running
	if p.test != "" || len(running) == 0 {
		return ""
	}
	argv := slices.Concat(p.prefix, p.args)
	for _, t := range running {
		argv = append(argv, "--deselect", t.Name)
	}
	return "; to run the rest without " + kit.StoppedWhat(by) + ": " + shell.Join(argv)
}

// coverageFail reads pytest-cov's line for --cov-fail-under: the
// threshold and the total.
var coverageFail = lazyre.New(`^FAIL Required test coverage of ([0-9.]+)% not reached\. Total coverage: ([0-9.]+)%`)

// warningCategory is a collection error's first line when a warning was
// raised as an error: "UserWarning: …", "pytest.PytestUnknownMarkWarning: …".
var warningCategory = lazyre.New(`^(?:[\w.]+\.)?(\w*Warning): `)

// collectHint says why modules failed to collect when it was no import or
// syntax error: a warning that -W error or the configuration's
// filterwarnings made an error, or a marker --strict-markers does not
// know. The other errors keep the runner's own hint.
func collectHint(errs []report.BuildError) string {
	var warned, markers []string
	for _, e := range errs {
		first, _, _ := strings.Cut(e.Message, "\n")
		switch {
		case strings.Contains(first, "not found in `markers` configuration option"):
			markers = append(markers, strings.Trim(strings.TrimPrefix(first, "Failed: "), " "))
		case warningCategory.MatchString(first):
			warned = append(warned, fmt.Sprintf("%s (%s)", e.File, warningCategory.FindStringSubmatch(first)[1]))
		}
	}
	var hints []string
	if len(warned) > 0 {
		hints = append(hints, fmt.Sprintf("%s raised a warning that pytest made an error as it collected (-W error, or filterwarnings = error in the pytest configuration), so their tests did not run: fix the code that warns, or add a filterwarnings entry that ignores that warning",
			listed(warned)))
	}
	if len(markers) > 0 {
		hints = append(hints, fmt.Sprintf("pytest refused unknown markers under --strict-markers (%s): register each under `markers` in the pytest configuration, or fix its name",
			listed(markers)))
	}
	return strings.Join(hints, "; ")
}

// listed is up to three items, then how many more.
func listed(items []string) string {
	if len(items) > 3 {
		return strings.Join(items[:3], ", ") + fmt.Sprintf(" and %d more", len(items)-3)
	}
	return strings.Join(items, ", ")
}

func (p *parser) errorMessage(what string) string {
	if len(p.ErrLines) == 0 {
		return what
	}
	return kit.Clip(what + ": " + strings.Join(p.ErrLines, "\n"))
}

// allGone is every node id a rerun asked for, when pytest refused them
// as not found (reason, usageReason's) and their files hold none of them:
// selection gives them all then; nil otherwise.
func (p *parser) allGone(reason string) []string {
	if len(p.asked) == 0 || len(p.gone) > 0 || !strings.HasPrefix(reason, "not found: ") && !strings.HasPrefix(reason, "file or directory not found: ") {
		return nil
	}
	if keep, gone := presentIDs(p.root, p.asked); len(keep) == 0 {
		return gone
	}
	return nil
}

// conftestImportError reads pytest's "ImportError while loading conftest
// '…/conftest.py'." (exit 4) into a build error at the traceback's last
// line in the project, with the exception's line as its message.
func conftestImportError(lines []string) (report.BuildError, bool) {
	if len(lines) == 0 || !strings.HasPrefix(lines[0], "ImportError while loading conftest ") {
		return report.BuildError{}, false
	}
	be := report.BuildError{Message: kit.Clip(strings.Join(lines, "\n"))}
	for _, l := range lines[1:] {
		if m := conftestFrame.FindStringSubmatch(l); m != nil {
			be.File = m[1]
			be.Line, _ = strconv.Atoi(m[2])
		}
		if e, ok := strings.CutPrefix(l, "E   "); ok {
			be.Message = kit.Clip(strings.TrimSpace(e))
		}
	}
	if be.File == "" {
		be.File = "conftest.py"
	}
	return be, true
}

// conftestFrame is a frame of pytest's short traceback: "conftest.py:1: in
// <module>".
var conftestFrame = lazyre.New(`^(\S+\.py):(\d+): in `)

// internalMessage says why pytest stopped with exit 3: the exception of
// its INTERNALERROR traceback (a conftest hook that raised, a plugin's
// warning turned into an error) and where in the project it came from.
func (p *parser) internalMessage() string {
	what := "pytest stopped on an internal error (exit 3)"
	if p.internal.exc == "" {
		return p.errorMessage(what)
	}
	return kit.Clip(what + ": " + p.internal.String())
}

// warningHint says what to do of an internal error that is a warning
// pytest made an error as it started (-W error, filterwarnings = error),
// raised by a plugin's pytest_configure before any test: pytest-asyncio's
// "asyncio_default_fixture_loop_scope is unset". "" for any other.
func (e *internalError) warningHint() string {
	typ, msg, _ := strings.Cut(e.exc, ": ")
	if !strings.HasSuffix(typ, "Warning") || strings.ContainsAny(typ, " \n") {
		return ""
	}
	if strings.Contains(msg, `"asyncio_default_fixture_loop_scope" is unset`) {
		return "pytest made pytest-asyncio's warning that asyncio_default_fixture_loop_scope is unset an error (-W error, or filterwarnings = error in the pytest configuration), so no test ran: " +
			"set asyncio_default_fixture_loop_scope = function in the pytest configuration"
	}
	return "pytest made a warning an error as it started (-W error, or filterwarnings = error in the pytest configuration), so no test ran: " +
		"do what the warning says, or add a filterwarnings entry that ignores it"
}

// internalPrefix starts each line of the traceback pytest prints on
// stdout when a hook or plugin raises outside any test.
var internalPrefix = []byte("INTERNALERROR> ")

// internalError is what a Python traceback of pytest's own says (an
// INTERNALERROR on stdout, or on stderr with a traceback of a pytest that
// stopped before its session): its exception and the innermost frame in
// the project's files.
type internalError struct {
	exc   string // "RuntimeError: boom", with the lines of a longer message
	at    string // "conftest.py:12 (pytest_collection_modifyitems)"
	trace bool   // a traceback's frames are being read
	left  int    // lines of the exception's message still to read
}

// tracebackFrame is a frame of a Python traceback:
// `  File "/p/conftest.py", line 2, in pytest_collection_modifyitems`.
var tracebackFrame = lazyre.New(`^\s+File "([^"]+)", line (\d+), in (.+)$`)

// maxExcLines bounds the lines of an exception's message read after its
// first (pluggy's PluginValidationError says the hook on the next two).
const maxExcLines = 4

func (e *internalError) line(b []byte, root string) {
	switch {
	case len(b) == 0:
		e.left = 0
	case bytes.HasPrefix(b, []byte("Traceback (most recent call last):")):
		e.trace, e.left = true, 0
	case !e.trace && e.left == 0:
		// Not a traceback (stderr's other lines).
	case b[0] == ' ':
		if m := tracebackFrame.FindSubmatch(b); m != nil && filepath.IsAbs(string(m[1])) {
			if rel, ok := kit.Rel(root, string(m[1])); ok && !strings.Contains(rel, "site-packages") {
				e.at = rel + ":" + string(m[2]) + " (" + string(m[3]) + ")"
			}
		}
	case e.trace:
		// The traceback's unindented line after its frames is its
		// exception (chained tracebacks repeat both: the last one wins).
		e.exc, e.trace, e.left = kit.Clip(relative(string(b), root)), false, maxExcLines
	case bytes.HasPrefix(b, []byte("During handling")) || bytes.HasPrefix(b, []byte("The above exception")):
		e.left = 0
	default:
		e.exc = kit.Clip(e.exc + "\n" + relative(string(b), root))
		e.left--
	}
}

// relative writes the project's paths in s relative to it.
func relative(s, root string) string {
	return strings.ReplaceAll(s, root+string(filepath.Separator), "")
}

func (e internalError) String() string {
	if e.at == "" {
		return e.exc
	}
	return e.exc + " (at " + e.at + ")"
}

func (p *parser) noTestsHint() string {
	return kit.NoTestsHint{
		Test:  fmt.Sprintf("no test matched %q: `%s --collect-only -q` lists the node ids", p.test, shell.Join(p.prefix)),
		Level: fmt.Sprintf("no %s tests: by convention they live in tests/%s/, or are marked @pytest.mark.%s", p.level, p.level, p.level),
		All:   "pytest collected no tests: test files are test_*.py or *_test.py, functions test_*, classes Test* (check testpaths and python_files in the pytest configuration)",
	}.For(p.test, p.level)
}

// countsFailed says whether pytest's closing line counts failures or
// errors (read when the plugin did not load).
func (p *parser) countsFailed() bool {
	return p.counts != "" && (strings.Contains(p.counts, " failed") || strings.Contains(p.counts, " error"))
}

// fallback reads pytest's own output when the plugin sent nothing: its
// short summary names each failed test and its message, its closing line
// counts the rest.
func (p *parser) fallback(out *adapters.Outcome) {
	out.Hint = "strobe's pytest plugin did not load (" + p.pluginError() + "): results were read from pytest's own output (its short summary and failure sections)"
	out.Indicators = append(out.Indicators, "pytest_plugin_not_loaded")
	for _, l := range p.summary {
		status, rest, _ := strings.Cut(l, " ")
		id, msg, _ := strings.Cut(rest, " - ")
		if id == "" {
			continue
		}
		if status == "ERROR" {
			msg = "error: " + msg
		}
		f := &report.Failure{Message: msg, Rerun: p.rerun(id)}
		f.File, _, _ = strings.Cut(id, "::")
		if file, line, ok := p.sectionLocation(id); ok {
			f.File, f.Line = file, line
		}
		p.rec.End("", id, report.TestFailed, 0, f)
	}
	if p.counts != "" {
		out.Summary = format.PytestCounts(p.counts)
		// The tests that passed or were skipped are only counted: the
		// counts win over the failures recorded.
		out.Unread = max(out.Summary.Passed+out.Summary.Skipped, 1)
	}
}

// sectionLocation is where the failure section of a test located it: a
// section is named by the node id's part after the file, with dots.
func (p *parser) sectionLocation(id string) (string, int, bool) {
	_, name, ok := strings.Cut(id, "::")
	if !ok {
		return "", 0, false
	}
	loc, ok := p.locs[strings.ReplaceAll(name, "::", ".")]
	if !ok {
		return "", 0, false
	}
	i := strings.LastIndexByte(loc, ':')
	line, err := strconv.Atoi(loc[i+1:])
	return loc[:i], line, err == nil
}

// stoppedEarly says that pytest stopped before its session, on an error
// of the project's (a conftest.py pluggy refuses or that does not import,
// a pytest_configure that raises), where strobe's plugin had nothing to
// say yet: not a plugin that did not load.
func (p *parser) stoppedEarly(exit report.Exit) bool {
	if p.counts != "" || len(p.summary) > 0 {
		return false // pytest ran without the plugin
	}
	for _, l := range p.ErrLines {
		if strings.Contains(l, "strobe_") {
			return false
		}
	}
	return p.internal.exc != "" || exit.Code == exitUsage || exit.Code == exitInternal
}

func (p *parser) pluginError() string {
	for i, l := range p.ErrLines {
		if strings.Contains(l, "strobe_plugin") || strings.Contains(l, "Error") {
			// pytest 8+: `Error while loading plugin "strobe_plugin".`,
			// then the traceback, its exception on an `E   ` line.
			if strings.HasPrefix(l, "Error while loading plugin") {
				for _, e := range p.ErrLines[i+1:] {
					if rest, ok := strings.CutPrefix(e, "E   "); ok {
						return strings.TrimSpace(l) + " " + strings.TrimSpace(rest)
					}
				}
			}
			return strings.TrimSpace(l)
		}
	}
	return "it wrote no events"
}

func joinHint(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}
