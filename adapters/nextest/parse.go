package nextest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
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

// binary is one test binary, as nextest's suite events describe it.
type binary struct {
	id   string // nextest's binary id: "ntdemo", "ntdemo::integration", "ntdemo::bin/cli"
	pkg  string
	name string
	kind string // lib, bin, test, bench, example, proc-macro
}

// binaryID is nextest's name of a test binary, as its human output and
// the binary_id() filterset spell it.
func binaryID(pkg, name, kind string) string {
	switch kind {
	case "lib", "proc-macro", "rlib", "dylib", "cdylib", "staticlib":
		return pkg
	case "test":
		return pkg + "::" + name
	}
	return pkg + "::" + kind + "/" + name
}

// flags select the binary on cargo's command line.
func (b *binary) flags() []string {
	switch b.kind {
	case "lib", "proc-macro", "rlib", "dylib", "cdylib", "staticlib":
		return []string{"--lib"}
	case "test", "bin", "bench", "example":
		return []string{"--" + b.kind, b.name}
	}
	return nil
}

// message is a stdout line: a libtest-json-plus event.
type message struct {
	format.LibtestEvent
	// Reason says why a test failed without output ("time limit
	// exceeded") or failed although it passed ("flaky test treated as
	// failure").
	Reason  string `json:"reason"`
	Nextest *struct {
		Crate      string `json:"crate"`
		TestBinary string `json:"test_binary"`
		Kind       string `json:"kind"`
	} `json:"nextest"`
}

// humanStatus is what nextest's status lines on stderr said of a test.
type humanStatus struct {
	signal  string // "SIGSEGV": the test process died of it (on its last try)
	timeout bool   // TIMEOUT: nextest's slow-timeout terminated it
	// exitCode is the code its process exited with, from the line that
	// ends the output block under its status line ("(test failed with
	// exit code 3)", shown when it is not libtest's 101): a test that
	// called exit() and printed nothing.
	exitCode int
	// ends are the status lines that ended one of its tries: the final
	// summary repeats the last, which must not start a new try.
	ends []string
	slow bool
	skip bool // SKIP: filtered out, or ignored
	// try is the output nextest showed under a failed try's status line
	// (TRY 1 FAIL): where a flaky test failed.
	try strings.Builder
	// passed says its last try passed (PASS, TRY 2 PASS, LEAK): the
	// output block under it (--success-output immediate) is libtest's
	// "running 1 test", the test's printing and "test result: ok." when
	// the test ended as libtest ends it. began and ended say which of
	// the two the block had; printed is what followed "running", kept
	// until "test result:" (only a test that exited early keeps it).
	passed, began, ended bool
	printed              strings.Builder
	// lines are the status lines beyond PASS and FAIL, added to the
	// test's output at the end: stderr's lines come in no set order with
	// stdout's events, and a test's output must not depend on it.
	lines []string
}

// pendingFailure is a failed event with no output and no reason: the test
// process died of a signal that only a status line names, and when that
// signal is strobe's own stop (SIGTERM, SIGKILL), the test did not fail:
// it was stopped while stuck or over its time. Its End waits for the
// status line, or for Finish.
type pendingFailure struct {
	b           *binary
	suite, test string
	m           *message
	attempts    int
}

type parser struct {
	rec    *adapters.Recorder
	root   string   // project root: reported paths and reruns are relative to it
	wsRoot string   // rustc prints paths relative to the workspace root
	rerun  []string // cargo nextest run and the user's build flags
	test   string
	level  adapters.Level
	docs   kit.Pending // a file with doc examples nextest will not run, if any
	docCmd string      // the cargo test --doc that runs them, for the run's packages
	// meta reads the workspace's targets, whose root sources place a
	// failure that says nowhere at its test's declaration; nil in a
	// replay.
	meta func() (*kit.CargoMetadata, error)
	// returnedErr are the failed tests that returned Err (binary id +
	// "\x00" + test): their message says why their line is the
	// declaration.
	returnedErr map[string]bool
	// runIgnored says the run ran #[ignore] tests: the reruns of its
	// failures run them too (--run-ignored all), or a failed ignored test
	// would rerun as skipped.
	runIgnored bool

	// binaries maps an event's name prefix, "crate::test_binary", to the
	// binary whose suite started last under it: a library and a binary of
	// the same name (src/lib.rs and src/main.rs) share one.
	binaries map[string]*binary
	// startedIn is the binary each test started in ("crate::binary$test"
	// → binary): nextest starts one binary's tests before the next's, but
	// may end them after the next one's suite started.
	startedIn map[string]*binary
	byID      map[string]*binary
	status    map[string]*humanStatus // binary id + "\x00" + test → what stderr said
	flaky     []adapters.FlakyTest
	timedOut  []string
	retried   bool
	sawTest   bool
	pending   map[string]*pendingFailure // binary id + "\x00" + test

	testing     bool         // stderr is past "Starting N tests"
	collecting  *humanStatus // the test whose failed try's output stderr shows now
	block       *humanStatus // the test whose try's output block stderr shows now
	buildErrors []report.BuildError
	buildFailed bool     // nextest said cargo's build failed
	label       bool     // the last build error has its place and waits for its label
	errors      []string // nextest's own "error:" lines, with the first cause each gives
	// cause reads the "Caused by:" block after an error of p.errors: 1
	// while its heading may come, 2 for its first line, 3 for the lines
	// under it (causeDetail: the first error's, a few).
	cause        int
	causeDetail  []string
	noTests      bool // nextest said "no tests to run"
	jsonRejected bool // this nextest does not know --message-format
	// toRun is how many tests nextest said it would run ("Starting 5
	// tests across 1 binary"), -1 before it said.
	toRun int
	// restArgs are the user's arguments without their filtersets, filters
	// the filtersets that chose the run's tests (the user's -E, or the
	// level's) and testArgs what followed "--": the command that runs the
	// rest of a stopped run is made of them.
	restArgs, filters, testArgs []string
	prefix                      []string // cargo [+toolchain] nextest run
}

func newParser(rec *adapters.Recorder, root, wsRoot string, rerun []string) *parser {
	if len(rerun) == 0 {
		rerun = []string{"cargo", "nextest", "run"}
	}
	return &parser{rec: rec, root: root, wsRoot: wsRoot, rerun: rerun,
		binaries: map[string]*binary{}, startedIn: map[string]*binary{}, byID: map[string]*binary{}, status: map[string]*humanStatus{},
		pending: map[string]*pendingFailure{}, returnedErr: map[string]bool{}, toRun: -1}
}

func (p *parser) Line(s adapters.Stream, line []byte, cut bool) {
	if s == adapters.Stderr {
		if bytes.IndexByte(line, 0x1b) >= 0 {
			line = []byte(kit.StripANSI(string(line)))
		}
		p.stderr(string(line))
		return
	}
	if len(line) == 0 || line[0] != '{' {
		p.output(string(line))
		return
	}
	m := new(message)
	if !format.DecodeLibtestEvent(line, &m.LibtestEvent) {
		if err := json.Unmarshal(line, m); err != nil {
			if u, ok := unescapedName(line); ok {
				m = u
			} else {
				e, ok := format.LenientLibtestEvent(line)
				if !ok && cut {
					e, ok = format.RecoverLibtestEvent(line)
				}
				if !ok {
					p.output(string(line))
					return
				}
				m = &message{LibtestEvent: *e}
			}
		}
	}
	switch m.Type {
	case "suite":
		p.suite(m)
	case "test":
		p.event(m, cut)
	case "":
		p.output(string(line)) // JSON a test printed
	}
}

// nextestName is how nextest starts a test's event; the name follows.
var nextestName = lazyre.New(`^\{"type":"test","event":"\w+","name":"`)

// unescapedName reads a test event whose name nextest wrote as it is:
// it escapes the output but not the name (nextest-runner's libtest.rs
// writes "crate::binary$NAME" between quotes), so a harness whose names
// hold a double quote or a backslash (data-url's wpt: `MIME type "0x0B
// and 0x0C" "text/html;\u{b}charset=gbk"`) writes lines no JSON decoder
// reads. The name ends where nextest's next member begins
// (`","exec_time":`) or, for started and ignored events, before the
// closing `"}`. The name is put back escaped and the line decoded.
func unescapedName(line []byte) (*message, bool) {
	loc := nextestName.Re().FindIndex(line)
	if loc == nil {
		return nil, false
	}
	start, end := loc[1], -1
	if i := bytes.Index(line[start:], []byte(`","exec_time":`)); i >= 0 {
		end = start + i
	} else if bytes.HasSuffix(line, []byte(`"}`)) && len(line)-2 >= start {
		end = len(line) - 2
	}
	if end < 0 {
		return nil, false
	}
	name, err := json.Marshal(string(line[start:end]))
	if err != nil {
		return nil, false
	}
	fixed := slices.Concat(line[:start-1], name, line[end+1:])
	m := new(message)
	if json.Unmarshal(fixed, m) != nil || m.Type != "test" {
		return nil, false
	}
	m.Name = string(line[start:end])
	return m, true
}

// CutLine is Line for a line too long to keep whole: a failed test's
// event with hundreds of megabytes of output, the panic at its end.
func (p *parser) CutLine(s adapters.Stream, head, end []byte) {
	e, ok := format.RecoverLibtestEvent(head)
	if s == adapters.Stderr || !ok {
		p.Line(s, head, true)
		return
	}
	e.Stdout = format.LibtestOutputEnd(end)
	p.event(&message{LibtestEvent: *e}, true)
}

// suite registers a test binary from its "started" event. nextest may
// start a binary's suite twice (after it closed it early) and its totals
// can count a test twice, so they are not compared with the tests.
func (p *parser) suite(m *message) {
	p.rec.BeginTesting()
	if m.Event != "started" || m.Nextest == nil {
		return
	}
	n := m.Nextest
	id := binaryID(n.Crate, n.TestBinary, n.Kind)
	b := p.byID[id]
	if b == nil {
		b = &binary{id: id, pkg: n.Crate, name: n.TestBinary, kind: n.Kind}
		p.byID[id] = b
	}
	p.binaries[n.Crate+"::"+n.TestBinary] = b
}

// split reads an event's name, "crate::binary$test" with "#N" after a
// test that ran N times: the binary (nil when no suite event named it),
// the suite to record under, the test and its attempts.
func (p *parser) split(name string) (b *binary, suite, test string, attempts int) {
	prefix, test, ok := strings.Cut(name, "$")
	if !ok { // plain libtest-json, or an older nextest
		return nil, "", name, 1
	}
	attempts = 1
	if i := strings.LastIndexByte(test, '#'); i > 0 {
		if n, err := strconv.Atoi(test[i+1:]); err == nil && n > 0 {
			test, attempts = test[:i], n
		}
	}
	if b = p.startedIn[prefix+"$"+test]; b == nil {
		b = p.binaries[prefix]
	}
	if b != nil {
		return b, b.id, test, attempts
	}
	return nil, prefix, test, attempts
}

func (p *parser) event(m *message, cut bool) {
	if m.Name == "" {
		return
	}
	b, suite, test, attempts := p.split(m.Name)
	p.sawTest = true
	switch m.Event {
	case "started":
		// The suite that started last under the name's prefix, not the
		// binary an earlier test of the same name started in.
		prefix, _, _ := strings.Cut(m.Name, "$")
		if cur := p.binaries[prefix]; cur != nil {
			suite = cur.id
			p.startedIn[prefix+"$"+test] = cur
		}
		if st := p.status[suite+"\x00"+test]; st != nil && st.skip {
			if !p.asked(suite, test) {
				return // see humanStatus
			}
			p.rec.End(suite, test, report.TestSkipped, 0, nil) // see humanStatus
			return
		}
		p.rec.Start(suite, test)
		return
	case "ok", "failed", "ignored":
	default:
		return
	}
	if m.Stdout != "" {
		p.rec.Output(suite, test, m.Stdout)
	}
	if attempts > 1 {
		p.retried = true
	}
	d := m.Duration()
	switch m.Event {
	case "ok":
		if attempts > 1 {
			p.flaky = append(p.flaky, adapters.FlakyTest{Suite: suite, Name: test, Attempts: attempts})
		}
		p.rec.End(suite, test, report.TestPassed, d, nil)
	case "ignored":
		p.rec.End(suite, test, report.TestSkipped, d, nil)
	case "failed":
		if m.Stdout == "" && m.Reason == "" && !cut {
			key := suite + "\x00" + test
			p.pending[key] = &pendingFailure{b: b, suite: suite, test: test, m: m, attempts: attempts}
			if st := p.status[key]; st != nil && st.signal != "" && !stopSignal(st.signal) {
				p.resolve(key)
			}
			return
		}
		p.rec.End(suite, test, report.TestFailed, d, p.failure(b, suite, test, m, attempts, cut))
	}
}

// stopSignal says whether a signal may be strobe's own stop of the run:
// nextest passes SIGTERM on to the tests it cancels, and SIGKILL follows.
func stopSignal(sig string) bool { return sig == "SIGTERM" || sig == "SIGKILL" }

// resolve records a pending failure as failed.
func (p *parser) resolve(key string) {
	f := p.pending[key]
	if f == nil {
		return
	}
	delete(p.pending, key)
	p.rec.End(f.suite, f.test, report.TestFailed, f.m.Duration(), p.failure(f.b, f.suite, f.test, f.m, f.attempts, false))
}

// output is a stdout line that is not an event: a test's own printing
// under --no-capture. Only a lone running test surely owns it.
func (p *parser) output(text string) {
	if running := p.rec.Progress().Running; len(running) == 1 {
		p.rec.Output(running[0].Suite, running[0].Name, text+"\n")
	}
}

func (p *parser) failure(b *binary, suite, test string, m *message, attempts int, cut bool) *report.Failure {
	f := &report.Failure{Name: test, Rerun: p.rerunFor(b, test)}
	out := m.Stdout
	switch {
	case m.Reason == "time limit exceeded":
		p.timedOut = append(p.timedOut, suite+" "+test)
		f.Message = fmt.Sprintf("timed out: nextest's slow-timeout terminated the test after %.3fs", m.Duration().Seconds())
		return f
	case m.Reason != "":
		f.Message = m.Reason // "flaky test treated as failure"
	}
	rf := kit.ReadRustFailure(out, p.wsRoot, p.relPath)
	file, line, msg := rf.File, rf.Line, rf.Message
	f.File, f.Line = p.relPath(file), line
	if note := shouldPanicNote(out); note != "" && msg != "" {
		msg = note // the panic says where; libtest says why it failed the test
	}
	switch {
	case msg != "":
		f.Message = kit.Clip(msg)
	case cut:
		f.Message = "the test failed, but its output was too large to read whole and its end holds no panic message: rerun it alone with --no-capture to see it"
	case strings.TrimSpace(out) != "":
		f.Message = kit.ClipTail(strings.TrimSpace(out)) // a test returning Err prints "Error: ..."
		p.returnedErr[suite+"\x00"+test] = kit.RustReturnedErr(out)
	case f.Message == "":
		f.Message = printedNothing // a signal or exit code, named in Finish when stderr said which
	}
	if attempts > 1 {
		kit.AppendMessage(f, "\n", fmt.Sprintf("(failed on all %d tries: nextest's retries)", attempts))
	}
	f.SuggestedTraces = format.RustTraces(out, test, p.inProject)
	return f
}

// shouldPanicNote is libtest's note on a #[should_panic(expected = …)]
// test whose panic lacked the text ("panic did not contain expected
// string", the panic's message and the expected one), as cargo's libtest
// JSON gives it in the event's message; "" when the output has none.
func shouldPanicNote(out string) string {
	const note = "note: panic did not contain expected string"
	i := strings.Index(out, note)
	if i < 0 {
		return ""
	}
	rest := out[i+len("note: "):]
	if j := strings.Index(rest, "\n\n"); j >= 0 {
		rest = rest[:j]
	}
	return strings.TrimRight(rest, "\n")
}

var (
	// A status line: "     SIGSEGV [   0.005s] ( 8/10) ntdemo::integration segfault",
	// "        SLOW [>  1.000s] (─────) ntdemo::integration slow", "  TRY 1 FAIL [...]".
	// "        SKIP [         ] (───) ntdemo tests::ignored" has no time.
	statusLine = lazyre.New(`^\s*([A-Z][A-Z0-9 +/-]*?) \[\s*(?:>?\s*[\d.]+s)?\s*\] (?:\([^)]*\) )?(\S+) (.+)$`)
	// rustc's error under cargo's build: "error[E0425]: cannot find value `c` in this scope".
	rustcError = lazyre.New(`^error(?:\[\w+\])?: (.+)$`)
	// Its location: "  --> src/lib.rs:10:9".
	rustcAt = lazyre.New(`^\s*--> (.+):(\d+):(\d+)$`)
	// The line under the code that marks the error's primary span and
	// says what is wrong there: "    |                ---   ^^^^^^ expected `u32`, found `&str`".
	rustcLabel = lazyre.New(`^\s*\d*\s*\|[\s|_\-]*\^+ (\S.*)$`)
	// nextest's word that cargo's build failed: "error: command `cargo ... test --no-run ...` exited with code 101".
	buildFailedLine = lazyre.New("^error: command `.*--no-run.*` exited with code")
	startingLine    = lazyre.New(`^\s*Starting (\d+) tests? across`)
	// nextest's cause when a test binary's --list output is not libtest's:
	// "for `url::url_wpt`, line "" did not end with the string ": test" or ": benchmark"".
	unlistedBinary = lazyre.New("for `([^`]+)`, line .* did not end with the string \": test\"")
)

func (p *parser) stderr(line string) {
	var m []string
	if strings.Contains(line, " [") { // every status line has its time in brackets: most output lines are none
		m = statusLine.FindStringSubmatch(line)
	}
	if p.block != nil && m == nil {
		// The block under a status line: "  output ───", then the
		// output indented by four spaces, then how the try ended.
		if line == "" || strings.HasPrefix(line, "    ") || strings.HasPrefix(line, "  output ") {
			p.blockLine(line)
			return
		}
	}
	p.collecting, p.block = nil, nil
	if p.cause > 0 && m == nil {
		// nextest's errors say what went wrong under "Caused by:"
		// ("for `url::url_wpt`, line "" did not end with the string ": test"…).
		switch t := strings.TrimSpace(line); {
		case p.cause == 3 && (t == "" || strings.HasPrefix(line, "  ")):
			// The rest of the first cause: a test binary's output
			// when its --list failed ("--- stderr:", its lines, "---").
			if len(p.causeDetail) < 40 {
				p.causeDetail = append(p.causeDetail, strings.TrimPrefix(line, "  "))
			}
			return
		case t == "":
			return
		case p.cause == 1 && t == "Caused by:":
			p.cause = 2
			return
		case p.cause == 2:
			p.errors[len(p.errors)-1] += ": " + strings.TrimPrefix(t, "0: ")
			p.cause = 3
			return
		}
		p.cause = 0
	}
	if m != nil && m[1] != "Summary" {
		p.rec.BeginTesting()
		p.testing = true
		p.humanStatus(strings.TrimSpace(m[1]), m[2], m[3], line)
		return
	}
	switch {
	case startingLine.MatchString(line):
		p.testing = true
		p.rec.BeginTesting()
		if n, err := strconv.Atoi(startingLine.FindStringSubmatch(line)[1]); err == nil && p.toRun < 0 {
			p.toRun = n
		}
	case buildFailedLine.MatchString(line):
		p.buildFailed = true
	case strings.HasPrefix(line, "error: no tests to run"):
		p.noTests = true
	case strings.Contains(line, "unexpected argument '--message-format'"), strings.Contains(line, "invalid value 'libtest-json-plus'"):
		p.jsonRejected = true
		p.errors = append(p.errors, line)
	case !p.testing:
		p.build(line)
	case strings.HasPrefix(line, "error: ") && line != "error: test run failed":
		p.errors = append(p.errors, strings.TrimPrefix(line, "error: "))
		p.cause = 1
	}
}

// build reads rustc's errors while cargo builds the tests.
func (p *parser) build(line string) {
	if strings.HasPrefix(line, "warning") {
		p.label = false // a warning's labels are its own
	}
	if m := rustcAt.FindStringSubmatch(line); m != nil {
		p.label = false
		if n := len(p.buildErrors); n > 0 && p.buildErrors[n-1].File == "" {
			e := &p.buildErrors[n-1]
			e.File = p.relPath(m[1])
			e.Line, _ = strconv.Atoi(m[2])
			e.Column, _ = strconv.Atoi(m[3])
			p.label = true
		}
		return
	}
	if m := rustcLabel.FindStringSubmatch(line); m != nil && p.label {
		// The primary span's label, as cargo's JSON has it: "mismatched
		// types: expected `u32`, found `&str`".
		e := &p.buildErrors[len(p.buildErrors)-1]
		e.Message = kit.Clip(e.Message + ": " + m[1])
		p.label = false
		return
	}
	m := rustcError.FindStringSubmatch(line)
	if m == nil {
		return
	}
	p.label = false
	msg := m[1]
	switch {
	case strings.HasPrefix(msg, "could not compile"), strings.HasPrefix(msg, "aborting due to"), strings.HasPrefix(msg, "command `"):
		return // cargo's and rustc's words about the errors already read
	}
	if len(p.buildErrors) < 50 {
		p.buildErrors = append(p.buildErrors, report.BuildError{Message: kit.Clip(msg)})
	}
	if !strings.HasPrefix(line, "error[") {
		p.errors = append(p.errors, msg) // maybe nextest's own: a bad filterset, a bad config
		p.cause = 1
	}
}

// humanStatus keeps what a status line says beyond the events: the
// signal, a timeout, slowness, retries. The line goes into the test's
// output too, so that the details file shows nextest's view.
func (p *parser) humanStatus(status, binID, test, line string) {
	key := binID + "\x00" + test
	st := p.status[key]
	if st == nil {
		st = &humanStatus{}
		p.status[key] = st
	}
	if tryEnded(status) && !slices.Contains(st.ends, strings.TrimSpace(line)) {
		// A new try's result: what an earlier try died of is not this
		// one's (a segfault, then a panic or a pass on the retry).
		st.ends = append(st.ends, strings.TrimSpace(line))
		st.signal, st.exitCode = "", 0
		st.passed, st.began, st.ended = passStatus(status), false, false
		st.printed.Reset()
		p.block = st
	}
	switch {
	case statusSignal(status) != "":
		st.signal = statusSignal(status)
		if !stopSignal(st.signal) {
			p.resolve(key)
		}
	case status == "TIMEOUT" || strings.HasSuffix(status, " TMT"):
		st.timeout = true
	case strings.HasPrefix(status, "SLOW"):
		st.slow = true
	case status == "SKIP":
		// An ignored test has a "started" event and, when a filter
		// leaves its binary's other tests out, no "ignored" one: it never
		// ran, and must not pass for a running (or hung) test.
		st.skip = true
		if t, ok := p.rec.Lookup(binID, test); ok && t.Status == report.TestRunning {
			if !p.asked(binID, test) {
				p.rec.Forget(binID, test)
				return
			}
			p.rec.End(binID, test, report.TestSkipped, 0, nil)
		}
		return
	case status == "PASS" || status == "FAIL" || status == "START":
		return // the events say as much
	}
	if strings.HasPrefix(status, "TRY ") && st.try.Len() == 0 && !strings.HasSuffix(status, " PASS") && p.block == st {
		p.collecting = st // its first failed try
	}
	if strings.HasPrefix(status, "FLAKY") || strings.HasPrefix(status, "FLKY") {
		return // the final summary repeats what the events said
	}
	// The final summary repeats the run's failing and flaky lines.
	if l := "nextest: " + strings.TrimSpace(line) + "\n"; !slices.Contains(st.lines, l) {
		st.lines = append(st.lines, l)
	}
}

// tryEnded says whether a status ends a try of the test (PASS, FAIL,
// SIGSEGV, TRY 2 SEGV, TIMEOUT…), not one on the way (SLOW, TERMINATING,
// START, SKIP) or the summary's FLAKY.
func tryEnded(status string) bool {
	if f := strings.Fields(status); len(f) == 3 && f[0] == "TRY" {
		status = f[2]
	}
	switch status {
	case "TRMNTG", "TERMINATING", "START", "SKIP":
		return false
	}
	return !strings.HasPrefix(status, "SLOW") && !strings.HasPrefix(status, "FLAKY") && !strings.HasPrefix(status, "FLKY")
}

// passStatus says a status line ends a try that passed: PASS, or LEAK
// (passed, leaving a handle open), or either on a retry (TRY 2 PASS).
// Not TIMEOUT-PASS: nextest ended that test at its time limit, as a
// profile's on-timeout = "pass" asks, before libtest could.
func passStatus(status string) bool {
	if f := strings.Fields(status); len(f) == 3 && f[0] == "TRY" {
		status = f[2]
	}
	return status == "PASS" || status == "LEAK"
}

// statusSignal is the signal a status line says the test died of:
// "SIGSEGV", or under retries nextest's short form "TRY 2 SEGV"; "SIG 40"
// and "ABORT SIG 40" for a signal without a name. "" for any other status.
func statusSignal(status string) string {
	f := strings.Fields(status)
	retry := len(f) == 3 && f[0] == "TRY"
	if retry {
		f = f[2:]
	}
	if len(f) > 0 && f[0] == "ABORT" {
		f = f[1:]
	}
	switch {
	case len(f) == 2 && f[0] == "SIG":
		if n, err := strconv.Atoi(f[1]); err == nil {
			return kit.SignalName(n)
		}
	case len(f) == 1 && strings.HasPrefix(f[0], "SIG"):
		return f[0]
	case len(f) == 1 && retry && kit.SignalNumber("SIG"+f[0]) > 0:
		return "SIG" + f[0]
	}
	return ""
}

// libtestRunning is libtest's first line: "running 1 test".
var libtestRunning = lazyre.New(`^running \d+ tests?$`)

// tryEndLine is the line nextest ends a try's output block with when the
// status line alone would not say how it ended.
var tryEndLine = lazyre.New(`^\s*\(test (?:failed with exit code (-?\d+)|aborted with signal (\d+)(?:: (SIG\w+))?)`)

// blockLine reads a line of the output block under a status line: its
// last line says the exit code or signal the try ended with.
func (p *parser) blockLine(line string) {
	if c := p.collecting; c != nil && c.try.Len() < adapters.PerTestOutput {
		c.try.WriteString(strings.TrimPrefix(line, "    "))
		c.try.WriteByte('\n')
	}
	if b := p.block; b.passed && !b.ended {
		// libtest's lines in a passing test's output (see humanStatus).
		t := strings.TrimPrefix(line, "    ")
		switch {
		case !b.began:
			b.began = libtestRunning.MatchString(t)
		case strings.HasPrefix(t, "test result: "):
			b.ended = true
			b.printed.Reset()
		case b.printed.Len() < adapters.PerTestOutput:
			b.printed.WriteString(t)
			b.printed.WriteByte('\n')
		}
		return
	}
	if sig, code := tryEnd(line); sig != "" {
		p.block.signal = sig
	} else if code != 0 {
		p.block.exitCode = code
	}
}

// tryEnd reads the signal or exit code of a try's "(test failed with
// exit code 3)" or "(test aborted with signal 11: SIGSEGV)" line.
func tryEnd(line string) (signal string, code int) {
	m := tryEndLine.FindStringSubmatch(line)
	switch {
	case m == nil:
	case m[1] != "":
		code, _ = strconv.Atoi(m[1])
	case m[3] != "":
		signal = m[3]
	default:
		n, _ := strconv.Atoi(m[2])
		signal = kit.SignalName(n)
	}
	return signal, code
}

// endedBy says what ended a test's process, for a failure that says
// nothing else: a signal, or an exit code other than libtest's.
func endedBy(signal string, code int) string {
	switch {
	case signal != "" && kit.SignalNumber(signal) > 0:
		return fmt.Sprintf("the test process died of %s (signal %d)", signal, kit.SignalNumber(signal))
	case signal != "":
		return "the test process died of " + signal
	case code != 0:
		return fmt.Sprintf("the test process exited with code %d", code)
	}
	return ""
}

// statusOutput adds each test's status lines to its output.
func (p *parser) statusOutput() {
	for _, k := range slices.Sorted(maps.Keys(p.status)) {
		binID, test, _ := strings.Cut(k, "\x00")
		if _, ok := p.rec.Lookup(binID, test); ok && len(p.status[k].lines) > 0 {
			p.rec.Output(binID, test, strings.Join(p.status[k].lines, ""))
		}
	}
}

// asked says whether an ignored test nextest skipped is the one the run
// asked for (--test), or any when it asked for none: nextest starts, then
// skips, the ignored tests of every binary it runs, whatever the filter
// (anyhow's `--test test_iter` counted two such tests skipped).
func (p *parser) asked(binID, test string) bool {
	if bin, own, ok := cutBinary(p.test); ok {
		return bin == binID && own == test
	}
	return p.test == "" || test == p.test
}

// Rerun (adapters.Reruner): a test by its binary's id, as a failure's.
func (p *parser) Rerun(suite, name string) string { return p.rerunFor(p.byID[suite], name) }

func (p *parser) rerunFor(b *binary, test string) string {
	argv := slices.Clone(p.rerun)
	if b != nil {
		argv = append(append(argv, "-p", b.pkg), b.flags()...)
	}
	if p.runIgnored {
		argv = append(argv, "--run-ignored", "all")
	}
	return shell.Join(append(argv, "-E", "test(="+matcherText(test)+")"))
}

// inProject says whether a backtrace location is the project's code.
func (p *parser) inProject(file string) bool {
	return !filepath.IsAbs(file) || kit.Within(p.wsRoot, file)
}

// relPath turns a path rustc printed (relative to the workspace root)
// into one relative to the project root.
func (p *parser) relPath(file string) string {
	if file == "" {
		return ""
	}
	abs := file
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(p.wsRoot, abs)
	}
	if kit.Within(p.wsRoot, abs) {
		if rel, err := filepath.Rel(p.root, abs); err == nil {
			return rel
		}
	}
	return file
}

func (p *parser) Finish(exit report.Exit) adapters.Outcome {
	var out adapters.Outcome
	if p.buildFailed || !p.sawTest && len(p.buildErrors) > 0 && exit.Code == 101 {
		out.BuildFailed = true
		out.BuildErrors = p.buildErrors
		if len(out.BuildErrors) == 0 {
			out.BuildErrors = []report.BuildError{{Message: "cargo could not build the tests; run cargo nextest run to see why"}}
		}
		return out
	}
	// A test that died of SIGTERM or SIGKILL in a run strobe stopped was
	// stopped, not failed: it stays running, as the runner reports it.
	for _, k := range slices.Sorted(maps.Keys(p.pending)) {
		if exit.StoppedBy != "" {
			if st := p.status[k]; st == nil || st.signal == "" || stopSignal(st.signal) {
				continue
			}
		}
		p.resolve(k)
	}
	if exit.StoppedBy == "" && exit.Exited && (exit.Code == 0 || exit.Code == 4) {
		p.endIgnored() // nothing failed: what never ended was ignored
	}
	p.statusOutput()
	out.Crash = p.signals(exit)
	if p.exitedEarly() {
		out.Indicators = append(out.Indicators, "test_exited_early")
	}
	p.declare()
	for i, f := range p.flaky {
		if st := p.status[f.Suite+"\x00"+f.Name]; st != nil && st.try.Len() > 0 {
			rf := kit.ReadRustFailure(st.try.String(), p.wsRoot, p.relPath)
			file, line, msg := rf.File, rf.Line, rf.Message
			if msg == "" {
				msg = endedBy(tryEndIn(st.try.String()))
			}
			p.flaky[i].File, p.flaky[i].Line, p.flaky[i].Message = p.relPath(file), line, kit.Clip(msg)
		}
	}
	out.Flaky = p.flaky
	var hints []string
	if len(p.flaky) > 0 {
		out.Indicators = append(out.Indicators, "flaky_tests")
		hints = append(hints, p.flakyHint())
	}
	if len(p.timedOut) > 0 {
		out.Indicators = append(out.Indicators, "test_timed_out")
	}
	if p.retried {
		out.Indicators = append(out.Indicators, "nextest_retries")
	}
	switch {
	case p.jsonRejected:
		hints = append(hints, "this cargo-nextest cannot print libtest JSON (--message-format libtest-json-plus, nextest 0.9.66 and later): update it with `cargo install cargo-nextest --locked`")
	case p.noTests || exit.Exited && exit.Code == 4 && !p.ranTests():
		out.NoTests, out.ExitExplained = true, exit.Code == 4
		out.Project = &report.Project{Language: "rust", BuildSystem: "cargo-nextest"}
		if p.test == "" || len(p.rec.Tests()) == 0 { // else the test asked for is there, ignored: the runner says how to run it
			hints = append(hints, p.noTestsHint())
		}
	case !p.sawTest && exit.Code != 0 && len(p.errors) > 0 && exit.StoppedBy == "":
		// nextest stopped before any test (it could not list them, a bad
		// filterset or config): nothing ran, so nothing failed.
		out.Refused = "cargo nextest run failed before running any test: " + kit.Clip(p.relPaths(p.errors[0]))
		if !listCommandFailed.MatchString(p.errors[0]) { // else the hint says it better
			hints = append(hints, "cargo nextest run failed: "+kit.Clip(p.errors[0]))
		}
		if m := unlistedBinary.FindStringSubmatch(p.errors[0]); m != nil {
			hints = append(hints, "`"+m[1]+"` does not list its tests as libtest does (a target with harness = false?): nextest cannot run it; framework: \"cargo\" runs it as cargo test does")
		}
		hints = append(hints, p.listFailedHint())
	}
	if docs := p.docs.Wait(); docs != "" && !out.NoTests {
		hints = append(hints, fmt.Sprintf("nextest does not run doctests, and %s has documentation examples that cargo test would run: run `%s` for them, or pass framework: \"cargo\", which runs both", docs, p.docCmd))
	}
	if exit.StoppedBy == report.StoppedStuck || exit.StoppedBy == report.StoppedTimeout {
		if h := p.notRun(exit.StoppedBy); h != "" {
			hints = append(hints, h)
		}
	}
	out.Hint = strings.Join(hints, ". ")
	return out
}

// notRun says what a run strobe stopped (stuck, past its timeout) left
// unrun: the tests nextest never started (it said how many it would run),
// and how to run the rest without the tests that hung: the user's command
// with a filterset that leaves those out. "" when nothing was left.
func (p *parser) notRun(by string) string {
	started := 0
	for _, t := range p.rec.Tests() {
		if t.Status != report.TestSkipped { // an ignored test has a started event
			started++
		}
	}
	running := p.rec.Progress().Running
	left := p.toRun - started
	if p.toRun < 0 || left <= 0 {
		return ""
	}
	noun := "tests"
	if left == 1 {
		noun = "test"
	}
	h := fmt.Sprintf("nextest was stopped at %s: %d more %s of the %d it would run never started", kit.StoppedAt(by), left, noun, p.toRun)
	if p.test != "" || len(running) == 0 {
		return h
	}
	var hung []string
	for _, t := range running {
		f := "test(=" + matcherText(t.Name) + ")"
		if p.byID[t.Suite] != nil {
			f = "binary_id(" + matcherText(t.Suite) + ") & " + f
		}
		hung = append(hung, f)
	}
	expr := "not (" + strings.Join(hung, " | ") + ")"
	if len(running) == 1 && p.byID[running[0].Suite] == nil {
		expr = "not " + hung[0]
	}
	switch len(p.filters) {
	case 0:
	case 1:
		expr = "(" + p.filters[0] + ") & " + expr
	default:
		expr = "((" + strings.Join(p.filters, ") | (") + ")) & " + expr
	}
	argv := []string{"cargo", "nextest", "run"}
	if len(p.prefix) > 0 {
		argv = slices.Clone(p.prefix)
	}
	argv = append(argv, p.restArgs...)
	// nextest, as cargo, stops at the first failure unless told not to:
	// the rest is every test's.
	if !slices.Contains(argv, "--no-fail-fast") && !slices.Contains(argv, "--fail-fast") && !slices.ContainsFunc(argv, func(a string) bool { return strings.HasPrefix(a, "--max-fail") }) {
		argv = append(argv, "--no-fail-fast")
	}
	argv = append(argv, "-E", expr)
	if len(p.testArgs) > 0 {
		argv = append(append(argv, "--"), p.testArgs...)
	}
	return h + "; to run the rest without " + kit.StoppedWhat(by) + ": " + shell.Join(argv)
}

// ranTests says a test ran (not only started as ignored).
func (p *parser) ranTests() bool {
	for _, t := range p.rec.Tests() {
		if t.Status == report.TestPassed || t.Status == report.TestFailed {
			return true
		}
	}
	return false
}

// endIgnored ends as skipped the tests that started and never ended in a
// run nextest finished with nothing failed: nextest writes a "started"
// event for an ignored test and, when a filter leaves the binary's other
// tests out, never its "ignored" one (the SKIP line, when the status
// level shows it, already ended it). After a failure, a test left over
// may be one whose event could not be read: it stays running.
func (p *parser) endIgnored() {
	for _, t := range p.rec.Progress().Running {
		p.rec.End(t.Suite, t.Name, report.TestSkipped, 0, nil)
	}
}

// signals names the tests whose process died of a signal, as the status
// lines said: each failure says so, and the first makes the crash.
func (p *parser) signals(exit report.Exit) *report.Crash {
	var c *report.Crash
	for _, k := range slices.Sorted(maps.Keys(p.status)) {
		sig := p.status[k].signal
		if p.status[k].timeout {
			p.timeoutNamed(k)
		}
		binID, test, _ := strings.Cut(k, "\x00")
		if code := p.status[k].exitCode; sig == "" && code != 0 {
			p.rec.UpdateFailure(binID, test, func(f *report.Failure) {
				if msg := endedBy("", code); !nameCause(f, msg) && f.File == "" && !strings.Contains(f.Message, "exit code") {
					kit.AppendMessage(f, "\n", msg)
				}
			})
		}
		if sig == "" || exit.StoppedBy != "" && stopSignal(sig) {
			continue
		}
		if t, ok := p.rec.Lookup(binID, test); ok && t.Status == report.TestPassed {
			continue // it died on a try and passed on a retry: flaky
		}
		msg := endedBy(sig, 0)
		p.rec.UpdateFailure(binID, test, func(f *report.Failure) {
			if !nameCause(f, msg) && !strings.Contains(f.Message, sig) {
				kit.AppendMessage(f, "\n", msg)
			}
		})
		line := fmt.Sprintf("test %s %s: %s", binID, test, msg)
		died := strings.TrimPrefix(msg, "the test process ") // each test is a process of its own
		if c == nil {
			c = &report.Crash{Type: kit.CrashType(sig), Signal: kit.SignalNumber(sig), SignalName: sig, ExitCode: exit.Code,
				Indicators: []string{"test_process_signaled"}, RunningTests: []string{test}, Died: []string{died}, Message: line}
			continue
		}
		c.RunningTests = append(c.RunningTests, test)
		c.Died = append(c.Died, died)
		c.Message += "\n" + line
	}
	return c
}

// exitedEarly fails each test nextest passed whose output under its
// PASS line began as libtest begins a test ("running 1 test") and never
// reached libtest's "test result:" line: its process exited 0 inside the
// test (std::process::exit), which nextest cannot tell from a pass. The
// failure is placed at the test's declaration (declare). A flaky test
// whose passing try did so is no longer flaky. Whether any did.
func (p *parser) exitedEarly() bool {
	failed := map[string]bool{}
	for _, k := range slices.Sorted(maps.Keys(p.status)) {
		st := p.status[k]
		if !st.passed || !st.began || st.ended {
			continue
		}
		binID, test, _ := strings.Cut(k, "\x00")
		t, ok := p.rec.Lookup(binID, test)
		if !ok || t.Status != report.TestPassed {
			continue
		}
		msg := "the test process exited with code 0 before libtest's end (its output lacks libtest's \"test result:\" line): std::process::exit in the test or the code it calls? nextest counts it passed"
		if printed := strings.TrimSpace(st.printed.String()); printed != "" {
			p.rec.Output(binID, test, st.printed.String())
			msg += ". It printed:\n" + kit.ClipTail(printed)
		}
		p.rec.End(binID, test, report.TestFailed, time.Duration(t.DurationMS)*time.Millisecond, &report.Failure{Name: test, Message: msg, Rerun: p.Rerun(binID, test)})
		failed[k] = true
	}
	p.flaky = slices.DeleteFunc(p.flaky, func(f adapters.FlakyTest) bool { return failed[f.Suite+"\x00"+f.Name] })
	return len(failed) > 0
}

// declare places each failure whose output says nowhere (a test that
// returned Err, exited or died of a signal) at its test's declaration,
// read from its binary's root source, which cargo metadata gives
// (kit.RustTestDecl).
func (p *parser) declare() {
	var meta *kit.CargoMetadata
	for _, t := range p.rec.Tests() {
		b := p.byID[t.Suite]
		if t.Status != report.TestFailed || t.Failure == nil || t.Failure.File != "" || b == nil || p.meta == nil {
			continue
		}
		if meta == nil {
			m, err := p.meta()
			if err != nil {
				return
			}
			meta = m
		}
		file, line := kit.RustTestDecl(meta.SrcPath(b.pkg, b.name, b.kind), t.Name)
		if file == "" {
			continue
		}
		p.rec.UpdateFailure(t.Suite, t.Name, func(f *report.Failure) {
			f.File, f.Line = p.relPath(file), line
			if p.returnedErr[t.Suite+"\x00"+t.Name] {
				kit.AppendMessage(f, "\n", kit.RustErrNote)
			}
		})
	}
}

// printedNothing is the message of a failure without output, until a
// status line says what ended the test.
const printedNothing = "the test failed and printed nothing"

// nameCause puts msg in place of a failure's "printed nothing" (kept before
// what follows it: "(failed on all 2 tries…)"); false when the failure
// said something else.
func nameCause(f *report.Failure, msg string) bool {
	rest, ok := strings.CutPrefix(f.Message, printedNothing)
	if ok {
		f.Message = msg + rest
	}
	return ok
}

// tryEndIn reads what ended a try from its output block (see tryEnd).
func tryEndIn(block string) (signal string, code int) {
	for _, l := range strings.Split(block, "\n") {
		if signal, code = tryEnd(l); signal != "" || code != 0 {
			return signal, code
		}
	}
	return "", 0
}

// timeoutNamed makes a failure that said nothing a timeout when only the
// status line said so (an event without its reason).
func (p *parser) timeoutNamed(key string) {
	binID, test, _ := strings.Cut(key, "\x00")
	named := false
	p.rec.UpdateFailure(binID, test, func(f *report.Failure) {
		named = nameCause(f, "timed out: nextest's slow-timeout terminated the test")
	})
	if named {
		p.timedOut = append(p.timedOut, binID+" "+test)
	}
}

func (p *parser) flakyHint() string {
	var names []string
	for _, f := range p.flaky {
		name := fmt.Sprintf("%s %s (passed on try %d", f.Suite, f.Name, f.Attempts)
		if f.File != "" {
			name += fmt.Sprintf("; failed first at %s:%d", f.File, f.Line)
		}
		names = append(names, name+")")
	}
	return "flaky: " + strings.Join(names, ", ") + " failed and then passed when nextest retried it; it counts as passed"
}

func (p *parser) noTestsHint() string {
	return kit.NoTestsHint{
		Test:  fmt.Sprintf("no test is named exactly %q: give the path nextest lists (cargo nextest list), without the binary, for example tests::parses_empty_input", p.test),
		Level: fmt.Sprintf("no %s tests: for nextest, unit tests are those in libraries and binaries (src/), integration tests the tests/ targets not named e2e*, e2e tests tests/e2e*.rs", p.level),
		All:   "no #[test] functions found (nextest does not run doctests); add one under src/ (#[cfg(test)] mod tests) or tests/",
	}.For(p.test, p.level)
}

var (
	// nextest's cause when a test binary failed to list its tests:
	// "for `unlisted::checks`, command `/abs/target/debug/deps/checks-26cb… --list --format terse` exited with exit code 1".
	listCommandFailed = lazyre.New("^(?:creating test list failed: )?for `([^`]+)`, command `([^`]+)` (.+)$")
	// An absolute path to a target directory's file, in nextest's words.
	absTargetPath = lazyre.New(`/\S*/target/\S+`)
)

// listFailedHint says what to run to see why nextest stopped before any
// test: for a test binary that failed to list its tests, its own command
// (nextest runs it with --list) and the first lines of its stderr;
// always `cargo nextest list` with the run's build flags, which stops
// where the run did and prints nextest's whole error.
func (p *parser) listFailedHint() string {
	list := slices.Clone(p.rerun)
	if i := slices.Index(list, "run"); i > 0 && list[i-1] == "nextest" {
		list[i] = "list"
	}
	see := "`" + shell.Join(list) + "` shows nextest's whole error"
	m := listCommandFailed.FindStringSubmatch(p.errors[0])
	if m == nil {
		return see
	}
	h := fmt.Sprintf("nextest could not list the tests: the test binary of `%s` failed when asked for its tests (`%s` %s)", m[1], p.relPaths(m[2]), m[3])
	var stderr []string
	in := false
	for _, l := range p.causeDetail {
		switch t := strings.TrimSpace(l); {
		case t == "--- stderr:":
			in = true
		case strings.HasPrefix(t, "---"):
			in = false
		case in && t != "" && len(stderr) < 5:
			stderr = append(stderr, t)
		}
	}
	if len(stderr) > 0 {
		h += ", saying: " + kit.Clip(strings.Join(stderr, " / "))
	}
	return h + "; `" + p.relPaths(m[2]) + "` shows it again, and " + see
}

// relPaths makes the paths into the project in nextest's words relative
// to the project root (a test binary under target/).
func (p *parser) relPaths(s string) string {
	return absTargetPath.Re().ReplaceAllStringFunc(s, func(path string) string {
		if rel := p.relPath(path); !filepath.IsAbs(rel) {
			return rel
		}
		return path
	})
}
