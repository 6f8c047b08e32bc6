package vitest

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"maps"
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
	"strobe/adapters/kit/node"
	"strobe/internal/lazyre"
	"strobe/internal/shell"
	"strobe/report"
)

// event is one line of the reporter's events file (reporter.mjs).
type event struct {
	Ev   string `json:"ev"`
	File string `json:"file"`
	Name string `json:"name"`
	// Title is vitest's own full name when Name differs from it: a test
	// that shares its name in its file is "NAME #2" in the answer.
	Title string `json:"title"`
	// Project is the vitest project that ran the test, when the run has
	// several: the answer's name ends with it, and a rerun selects it.
	Project string     `json:"project"`
	Status  string     `json:"status"`
	Todo    bool       `json:"todo"`
	MS      float64    `json:"ms"`
	Note    string     `json:"note"`
	Error   *testError `json:"error"`
	More    []*testError
	Stream  string `json:"stream"`
	Text    string `json:"text"`
	Version string `json:"version"`
	Pool    string `json:"pool"`
	// PID is the process whose setup file wrote the event (start).
	PID int `json:"pid"`
	// Seed is the seed of a shuffled run (run).
	Seed   string `json:"seed"`
	Reason string `json:"reason"`
	Kind   string `json:"kind"`
	State  string `json:"state"`
	// Tests is a collected module's count of tests (collected); Files,
	// below, the run's test files too (specs).
	Tests int `json:"tests"`
	// end_run of a run vitest cancelled (reason "interrupted"): its
	// --bail, the tests it never ran in the files it began, the test
	// files it was to run and those it never began.
	Bail        int `json:"bail"`
	NotRun      int `json:"notRun"`
	Files       int `json:"files"`
	FilesNotRun int `json:"filesNotRun"`
	// snapshots: what the run wrote to snapshot files, and the obsolete
	// snapshots (at most 50 named, of ObsoleteCount).
	Added         int                `json:"added"`
	Updated       int                `json:"updated"`
	Removed       int                `json:"removed"`
	Obsolete      []obsoleteSnapshot `json:"obsolete"`
	ObsoleteCount int                `json:"obsoleteCount"`
	// badsnap: a snapshot file that does not parse, found before the
	// run, which may write over it.
	SnapFile  string `json:"snapFile"`
	SnapError string `json:"snapError"`
}

type obsoleteSnapshot struct {
	File string `json:"file"`
	Key  string `json:"key"`
}

// testError is an error as the reporter describes it: the frame it came
// from in the test file, source-mapped.
type testError struct {
	Message string `json:"message"`
	Diff    string `json:"diff"`
	File    string `json:"file"`
	Line    int    `json:"line"`
	Col     int    `json:"col"`
	// Snapshot is "mismatch" or "new" for a snapshot matcher's failure;
	// a new one has the value Received, and, when its snapshot file is
	// there but does not parse (vitest read it as empty), SnapFile and
	// SnapError.
	Snapshot  string `json:"snapshot"`
	Received  string `json:"received"`
	SnapFile  string `json:"snapFile"`
	SnapError string `json:"snapError"`
}

// parser reads the reporter's events (from a goroutine tailing the file)
// and vitest's stdout and stderr (from Line).
type parser struct {
	rec     *adapters.Recorder
	root    string // the project root the answer is relative to
	pkgDir  string // where vitest runs
	dir     string // the private directory holding the reporter
	tail    *kit.TailFile
	decoded chan struct{}
	stop    sync.Once

	test  string
	level adapters.Level
	rerun []string // the command a person runs, without the selection
	// whole is the run's command as a person runs it (with the
	// selection); seed is a shuffled run's.
	whole []string
	seed  string
	cd    string // the package's directory from the root, when not "."
	note  string
	// scriptNote says what else the package's test script runs, which
	// strobe did not (see node.TestScriptCall).
	scriptNote string
	// jsonReport is vitest's own JSON report, read at the end, for a
	// vitest without the reporter API strobe's reporter needs.
	jsonReport string
	// selected is the -t of such a run: a skipped test it does not match
	// was left out by it, not skipped by its own code.
	selected *regexp.Regexp
	v1       bool // vitest 1: reruns' -t allow its leading space (v1Pattern)

	mu sync.Mutex // the decoder and Line share what follows
	// early are the tests the events of legacy.mjs and setup.mjs recorded
	// in a run of vitest 1 or 2, which its JSON report, once read,
	// replaces (the report is the run's record).
	early   map[[2]string]bool
	began   bool // the reporter's run event came
	ended   bool // and its end_run
	version string
	pool    string
	modules []string // test files started and not ended
	// workers are the processes that began a test of a file whose module
	// has not ended, with the file (setup.mjs's start, reporter.mjs's
	// module_end): RunsTest.
	workers map[int]string
	// specs is how many test files the run was to run; collected, each
	// collected file's tests (reporter.mjs's specs and collected): a run
	// strobe stops says what never ran (notRun).
	specs      int
	collected  map[string]int
	buildErrs  []report.BuildError
	loadFailed map[string]bool // the test files that failed to load
	unhandled  []string
	noFiles    bool // vitest found no test file
	abortStack bool // node printed its abort report: a worker called abort()
	jsFrames   bool // inside node's JavaScript stack trace block
	abortAt    *testError
	workerDied bool // vitest said a worker exited or its channel closed
	badLines   int
	errLines   []string // stderr, for a vitest that failed before its reporter ran
	// cancelled is the end_run of a run vitest cancelled (--bail).
	cancelled *event
	// titles are vitest's own full names of the tests running whose names
	// differ ("NAME #2", "NAME [project]"), by file and name: the rest's
	// -t leaves them out by it.
	titles map[[2]string]string
	// single says the run was of one test (Request.Test): no rest.
	single bool
	// coverage holds vitest's words for a coverage threshold not met
	// ("ERROR: Coverage for lines (50%) does not meet global threshold
	// (80%)"): why a run whose tests passed failed.
	coverage []string
	// snaps holds the tests that failed a snapshot, snapshots what the
	// run wrote and left obsolete, badSnaps the snapshot files that do not
	// parse (see snapshotHints), and writable those of them found before
	// a run that may write snapshots (outside CI, -u).
	snaps       node.SnapshotFailures
	snapshots   *event
	badSnaps    map[string]string
	writable    map[string]bool
	errLinesLen int
	buf         []byte            // the hand decoder's scratch
	paths       map[string]string // a reported file → its path in the answer
	files       map[string]string // the hand decoder's file names, interned
}

func newParser(rec *adapters.Recorder, root, dir string) *parser {
	return &parser{rec: rec, root: root, pkgDir: root, dir: dir, decoded: make(chan struct{})}
}

// start tails the events file from a goroutine until Finish or Close.
func (p *parser) start(events string) {
	p.tail = kit.NewTailFile(events)
	go func() {
		defer close(p.decoded)
		p.decode(p.tail)
	}()
}

// decode reads events a line at a time; a line too long to be an event
// (over 4 MiB) is skipped whole.
func (p *parser) decode(r io.Reader) {
	br := bufio.NewReaderSize(r, 64<<10)
	var long []byte
	for {
		line, err := br.ReadSlice('\n')
		switch {
		case err == bufio.ErrBufferFull:
			if len(long) < 4<<20 {
				long = append(long, line...)
			}
			continue
		case long != nil:
			line = append(long, line...)
			long = nil
		}
		if len(line) > 0 {
			p.mu.Lock()
			p.event(line)
			p.mu.Unlock()
		}
		if err != nil {
			return
		}
	}
}

// RunsTest says whether the process pid runs a test file now
// (adapters.TestRunner): a fork done with its files waits on its pipe
// for more, and its wait is no test's. Under vitest 1 and 2, whose
// reporter says no module's end, a fork that began a test counts as
// running one to the end.
func (p *parser) RunsTest(pid int) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	_, ok := p.workers[pid]
	return ok
}

// event handles one line of the events file.
func (p *parser) event(line []byte) {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return
	}
	var e event
	if p.files == nil {
		p.files = map[string]string{}
	}
	if !fastEvent(line, &e, &p.buf, p.files) {
		e = event{}
		if err := json.Unmarshal(line, &e); err != nil {
			p.badLines++
			return
		}
	}
	if p.jsonReport != "" && e.Name != "" && (e.Ev == "start" || e.Ev == "done" || e.Ev == "end") {
		if p.early == nil {
			p.early = map[[2]string]bool{}
		}
		p.early[[2]string{p.path(e.File), e.Name}] = true
	}
	switch e.Ev {
	case "run":
		p.began, p.version, p.pool = true, e.Version, e.Pool
		if e.Seed != "" {
			// Reruns keep the order: under --sequence.shuffle alone, each
			// would draw a seed of its own.
			p.seed = e.Seed
			p.rerun = withSeed(p.rerun, p.seed)
		}
		p.rec.BeginTesting()
	case "specs":
		p.specs = e.Files
	case "collected":
		if p.collected == nil {
			p.collected = map[string]int{}
		}
		p.collected[e.File] = e.Tests
	case "module":
		p.modules = append(p.modules, e.File)
	case "module_end":
		if i := slices.Index(p.modules, e.File); i >= 0 {
			p.modules = slices.Delete(p.modules, i, i+1)
		}
		maps.DeleteFunc(p.workers, func(_ int, file string) bool { return file == e.File })
	case "start":
		if e.PID > 0 {
			if p.workers == nil {
				p.workers = map[int]string{}
			}
			p.workers[e.PID] = e.File
		}
		untitled(&e)
		if e.Name != "" {
			p.rec.Start(p.path(e.File), e.Name)
			if e.Title != "" {
				if p.titles == nil {
					p.titles = map[[2]string]string{}
				}
				p.titles[[2]string{p.path(e.File), e.Name}] = e.Title
			}
		}
	case "end":
		untitled(&e)
		if p.titles != nil {
			delete(p.titles, [2]string{p.path(e.File), e.Name})
		}
		p.end(e)
	case "done":
		untitled(&e)
		p.done(e)
	case "log":
		untitled(&e)
		if e.Name != "" {
			p.rec.Output(p.path(e.File), e.Name, e.Text)
		}
	case "suite_error":
		// A beforeAll or afterAll of a describe block failed: vitest
		// fails the block, not a test; it is a failure under the block's
		// name.
		p.end(event{File: e.File, Name: e.Name, Status: "failed", Error: e.Error})
		// Its rerun runs the block's tests, which run its hooks: -t
		// matches tests, and the block's own name matches none.
		rerun := p.rerunPattern(e.File, blockPattern(e.Name), e.Project)
		p.rec.UpdateFailure(p.path(e.File), e.Name, func(f *report.Failure) { f.Rerun = rerun })
	case "module_error":
		p.moduleError(e)
	case "unhandled":
		if e.Error != nil {
			if isWorkerDeath(e.Error.Message) {
				p.workerDied = true
			} else if e.File != "" {
				p.fileError(e)
				return
			}
			p.unhandled = append(p.unhandled, kit.Clip(e.Error.Message))
		}
	case "snapshots":
		p.snapshots = &e
	case "badsnap":
		snap := p.path(e.SnapFile)
		if p.badSnaps == nil {
			p.badSnaps, p.writable = map[string]string{}, map[string]bool{}
		}
		p.badSnaps[snap], p.writable[snap] = e.SnapError, true
	case "end_run":
		p.ended = true
		if e.Reason == "interrupted" {
			p.cancelled = &e
		}
	}
}

// path is a file as the answer names it: relative to the project root.
// Files repeat on every event: their answer is computed once.
func (p *parser) path(file string) string {
	if rel, ok := p.paths[file]; ok {
		return rel
	}
	if p.paths == nil {
		p.paths = map[string]string{}
	}
	rel := kit.ProjectPath(p.root, file)
	p.paths[file] = rel
	return rel
}

func (p *parser) end(e event) {
	if e.Name == "" {
		return
	}
	suite := p.path(e.File)
	switch e.Status {
	case "passed":
		p.rec.End(suite, e.Name, report.TestPassed, ms(e.MS), nil)
	case "skipped":
		p.rec.End(suite, e.Name, report.TestSkipped, 0, nil)
	case "failed":
		p.rec.End(suite, e.Name, report.TestFailed, ms(e.MS), p.failure(e))
	case "pending":
		// vitest cancelled the run (--bail) before this test ran: it
		// neither passed nor ran, whatever its start said.
		if t, ok := p.rec.Lookup(suite, e.Name); ok && t.Status == report.TestRunning {
			p.rec.Forget(suite, e.Name)
		}
	}
}

// done is a test's end as its worker wrote it: the status, at once. The
// reporter's end, with a failure's details, comes when vitest sends it
// (the Recorder keeps a later failure over an earlier result).
func (p *parser) done(e event) {
	if e.Name == "" {
		return
	}
	suite := p.path(e.File)
	switch e.State {
	case "pass":
		// A test that ended already keeps its result (the Recorder ignores
		// a later pass).
		p.rec.End(suite, e.Name, report.TestPassed, 0, nil)
	case "fail":
		if t, ok := p.rec.Lookup(suite, e.Name); ok && t.Status != report.TestRunning {
			return // the reporter's end, with the details, came first
		}
		f := &report.Failure{Name: e.Name, File: suite, Message: "failed", Rerun: p.rerunFor(e.File, cmp.Or(e.Title, e.Name), e.Project)}
		if e.Error != nil && strings.TrimSpace(e.Error.Message) != "" {
			// The worker's own words, for a run stopped before vitest sent
			// the failure (a hang after it): its place is the reporter's.
			f.Message = errorText(e.Error)
		}
		p.rec.End(suite, e.Name, report.TestFailed, 0, f)
	}
}

func ms(v float64) time.Duration { return time.Duration(v * float64(time.Millisecond)) }

// untitledName names a test whose title is empty (`test("", …)`, at the
// top of its file): vitest counts it, and a test without a name was
// dropped. No -t selects it apart, so its rerun runs its file.
const untitledName = "(untitled)"

// untitled names a test event's test untitledName when its full name is
// empty.
func untitled(e *event) {
	if e.Name == "" && e.File != "" {
		e.Name = untitledName
	}
}

// failure makes a test's failure from its errors: the first one's
// message, diff and place; the others after it.
func (p *parser) failure(e event) *report.Failure {
	f := &report.Failure{Name: e.Name, File: p.path(e.File), Rerun: p.rerunFor(e.File, cmp.Or(e.Title, e.Name), e.Project)}
	if e.Error == nil {
		f.Message = "failed (vitest gave no error)"
		return f
	}
	f.Message = errorText(e.Error)
	if e.Error.File != "" && e.Error.Line > 0 {
		f.File, f.Line = p.path(e.Error.File), e.Error.Line
	}
	if s := e.Error.Snapshot; s != "" {
		if s == "new" {
			f.Message = p.unwritten(e.Error)
		}
		// The snapshot is updated deliberately by the rerun with -u.
		update := p.rerunUpdate(e.File, cmp.Or(e.Title, e.Name), e.Project)
		p.snaps.Add(s == "new", e.Error.SnapFile != "", f.File+" > "+e.Name, update)
	}
	for _, m := range e.More {
		if m != nil {
			kit.AddFailure(f, p.path(m.File), m.Line, errorText(m))
		}
	}
	return f
}

// errorText is an error's message with its diff, clipped.
func errorText(e *testError) string {
	s := strings.TrimSpace(e.Message)
	if d := strings.TrimSpace(e.Diff); d != "" {
		s += "\n\n" + d
	}
	return kit.Clip(s)
}

// Rerun (adapters.Reruner): a test's suite is its file from the project
// root.
func (p *parser) Rerun(suite, name string) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.rerunFor(filepath.Join(p.root, suite), name, "")
}

// rerunFor is the command that runs one test again: its file and its
// name pattern, from the package's directory, in its project when the run
// has several.
func (p *parser) rerunFor(file, name, project string) string {
	if name == untitledName {
		return p.rerunPattern(file, "", project)
	}
	return p.rerunPattern(file, namePattern(name), project)
}

func (p *parser) rerunPattern(file, pattern, project string, extra ...string) string {
	rel, ok := kit.Rel(p.pkgDir, file)
	if !ok {
		rel = file
	}
	argv := append(slices.Clone(p.rerun), extra...)
	if project != "" {
		argv = append(argv, "--project", project)
	}
	argv = append(argv, rel)
	if p.v1 {
		pattern = v1Pattern(pattern)
	}
	if pattern != "" {
		argv = append(argv, "-t", pattern)
	}
	return node.InDir(p.cd, shell.Join(argv))
}

// fileError is an error outside any test that vitest traced to the test
// file running then (a promise a test rejected and nobody handled): vitest
// fails the run for it, its tests passed or not. It is a failure of the
// file, under the file's name (as jest's afterAll that threw), at the
// error's line, rerun by the file whole; more of them in the file follow
// the first.
func (p *parser) fileError(e event) {
	suite := p.path(e.File)
	msg := strings.TrimSpace(e.Error.Message)
	if e.Kind != "" && e.Kind != "Error" && !strings.HasPrefix(msg, e.Kind) {
		msg = e.Kind + ": " + msg
	}
	if e.Title != "" {
		msg += fmt.Sprintf("\n\nvitest: the latest test that might have caused it is %q", e.Title)
	}
	msg = kit.Clip(msg)
	file, line := suite, 0
	if e.Error.File != "" && e.Error.Line > 0 {
		file, line = p.path(e.Error.File), e.Error.Line
	}
	if t, ok := p.rec.Lookup(suite, suite); ok && t.Status == report.TestFailed {
		p.rec.UpdateFailure(suite, suite, func(f *report.Failure) { kit.AddFailure(f, file, line, msg) })
		return
	}
	p.rec.End(suite, suite, report.TestFailed, 0, &report.Failure{Name: suite, File: file, Line: line, Message: msg, Rerun: p.rerunPattern(e.File, "", "")})
}

// moduleError is a test file that failed to load (an import that does not
// resolve, a syntax error, a throw at the top level): its tests never
// ran, as a build error would keep them from running.
func (p *parser) moduleError(e event) {
	be := report.BuildError{File: p.path(e.File), Message: "the test file failed to load"}
	if e.Error != nil {
		be.Message = kit.Clip(strings.TrimSpace(e.Error.Message))
		// A module the test file imports, without a line when vite had
		// none to give; not another test file that failed to load: vite's
		// tsconfig reader (tsconfck) keeps the error of a tsconfig.json it
		// could not read and fails every later file with it, named after
		// the file it failed first (three files answered a, b and b).
		if at := p.path(e.Error.File); (e.Error.Line > 0 || e.Error.File != "") && !p.loadFailed[at] {
			be.File, be.Line, be.Column = at, e.Error.Line, e.Error.Col
		}
	}
	if p.loadFailed == nil {
		p.loadFailed = map[string]bool{}
	}
	p.loadFailed[p.path(e.File)] = true
	p.buildErrs = append(p.buildErrs, be)
}

// isWorkerDeath says whether an error is vitest's word that a worker
// process or thread ended under it.
func isWorkerDeath(msg string) bool {
	for _, s := range []string{"Channel closed", "Worker exited unexpectedly",
		"emitted error.", // vitest 4: "[vitest-pool]: Worker forks emitted error."
		"ERR_IPC_CHANNEL_CLOSED", "Worker terminated due to reaching memory limit", "process exited unexpectedly"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

// jsFrame is a frame of node's own "JavaScript stack trace" block, which
// it prints with its native one before it aborts: "1: fn (file:line:col)"
// or "1: file:line:col".
var jsFrame = lazyre.New(`^\s*\d+: (?:.*? \()?(?:file://)?(/[^():]+):(\d+):(\d+)\)?$`)

func (p *parser) Line(s adapters.Stream, b []byte, cut bool) {
	if p.tail != nil {
		p.tail.Kick() // output often comes with events
	}
	line := string(b)
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case strings.Contains(line, "No test files found"):
		p.noFiles = true
	case strings.HasPrefix(line, "----- Native stack trace -----"):
		p.abortStack = true
	case strings.HasPrefix(line, "----- JavaScript stack trace -----"):
		p.jsFrames = true
	case p.jsFrames:
		if m := jsFrame.FindStringSubmatch(line); m != nil && p.abortAt == nil && !strings.Contains(m[1], "/node_modules/") {
			n, _ := strconv.Atoi(m[2])
			c, _ := strconv.Atoi(m[3])
			p.abortAt = &testError{File: m[1], Line: n, Col: c}
		}
	case isWorkerDeath(line):
		p.workerDied = true
	case strings.HasPrefix(line, "ERROR: Coverage for ") && len(p.coverage) < 8:
		p.coverage = append(p.coverage, strings.TrimPrefix(line, "ERROR: "))
	}
	if s == adapters.Stderr && p.errLinesLen < 8<<10 {
		p.errLines = append(p.errLines, line)
		p.errLinesLen += len(line)
	}
}

// stopTail tells the events' reader that vitest is gone and waits (5 s at
// most) for it to read what is left.
func (p *parser) stopTail() {
	p.stop.Do(func() {
		if p.tail == nil {
			return
		}
		p.tail.Stop()
		select {
		case <-p.decoded:
		case <-time.After(5 * time.Second):
		}
	})
}

// Close stops the reader and removes the reporter's directory: after
// Finish, or in its place when vitest never started.
func (p *parser) Close() error {
	p.stopTail()
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.tail != nil {
		p.tail.CloseFile()
	}
	return os.RemoveAll(p.dir)
}

func (p *parser) Finish(exit report.Exit) adapters.Outcome {
	p.stopTail()
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.jsonReport != "" {
		p.readJSONReport()
	}
	var out adapters.Outcome
	var hints []string
	for _, n := range []string{p.note, p.scriptNote} {
		if n != "" {
			hints = append(hints, n)
		}
	}
	if len(p.buildErrs) > 0 {
		out.BuildFailed, out.BuildErrors = true, p.buildErrs
		hints = append(hints, fmt.Sprintf("%d test file(s) failed to load: fix the first error, then rerun", len(p.buildErrs)))
	}
	prog := p.rec.Progress()
	none := prog.Passed+prog.Failed+prog.Skipped == 0 && len(prog.Running) == 0
	// vitest exits 1 when its filters (a level's, a test's) match no file:
	// with its reporter loaded, that exit is its word for no tests.
	filteredOut := none && (p.began || p.noFiles) && exit.Exited && exit.Code == 1 && (p.noFiles || p.test != "" || p.level != adapters.LevelAll) && len(p.buildErrs) == 0
	if exit.StoppedBy == "" && !filteredOut {
		if c := p.crash(exit); c != nil {
			out.Crash = c
			hints = append(hints, c.Message)
		}
	}
	out.ExitExplained = filteredOut
	if len(p.unhandled) > 0 && out.Crash == nil {
		hints = append(hints, "vitest reported errors outside any test: "+kit.ClipTo(p.unhandled[0], 400, "…"))
	}
	switch {
	case none && !out.BuildFailed && out.Crash == nil && exit.StoppedBy == "" && (p.noFiles || p.test != "" || p.level != adapters.LevelAll || (p.ended && exit.Exited)):
		out.NoTests = true
		out.Project = &report.Project{Language: "javascript", BuildSystem: "vitest"}
		hints = append(hints, noTestsHint.For(p.test, p.level))
	case none && !p.began && exit.Exited && exit.Code != 0 && exit.StoppedBy == "" && !out.BuildFailed:
		// vitest failed before it loaded the reporter (a broken config).
		hints = append(hints, "vitest failed before running any test: "+kit.ClipTail(strings.Join(p.errLines, "\n")))
	}
	if c := p.cancelled; c != nil && exit.StoppedBy == "" && out.Crash == nil {
		out.Indicators = append(out.Indicators, "vitest_stopped_early")
		hints = append(hints, stoppedHint(c))
	}
	if len(p.coverage) > 0 && exit.StoppedBy == "" && exit.Code != 0 && prog.Failed == 0 && out.Crash == nil && !out.BuildFailed {
		out.Indicators = append(out.Indicators, "coverage_threshold_not_met")
		hints = append(hints, kit.Clip(strings.Join(p.coverage, "; ")+
			" (vitest's coverage.thresholds): the tests passed; vitest fails the run until the tests cover more of the code, or the thresholds are lowered"))
	}
	if exit.StoppedBy != "" {
		if h := kit.WithRest(p.notRun(exit.StoppedBy), "vitest", exit.StoppedBy, p.restCommand()); h != "" {
			hints = append(hints, h)
		}
	}
	if h := p.snapshotHints(); h != "" && exit.StoppedBy == "" {
		hints = append(hints, h)
	}
	if p.badLines > 0 {
		out.Indicators = append(out.Indicators, "unreadable_test_events")
	}
	if p.seed != "" {
		// The run's command with the seed: the same order of the files
		// and of each file's tests.
		out.Shuffle = &report.Shuffle{Seed: p.seed, Command: node.InDir(p.cd, shell.Join(withSeed(p.whole, p.seed)))}
		if p.rec.Progress().Failed > 0 {
			hints = append(hints, "the reruns keep --sequence.seed="+p.seed)
		}
	}
	out.Hint = strings.Join(hints, "; ")
	return out
}

// notRun says, for a run strobe stopped, the tests of the files it began
// that never ran and the test files it never began, of which no event
// speaks: they are in no count. "" when none.
func (p *parser) notRun(by string) string {
	counts := map[string]int{}
	for _, t := range p.rec.Tests() {
		counts[t.Suite]++
	}
	tests := 0
	for file, n := range p.collected {
		tests += max(0, n-counts[p.path(file)])
	}
	files := max(0, p.specs-len(p.collected))
	var left []string
	if tests > 0 {
		left = append(left, fmt.Sprintf("%s of the test files it began", kit.Plural(tests, "test")))
	}
	if files > 0 {
		left = append(left, fmt.Sprintf("%d of the %d test files", files, p.specs))
	}
	if len(left) == 0 {
		return ""
	}
	verb := "are"
	if tests+files == 1 {
		verb = "is"
	}
	return "vitest was stopped at " + kit.StoppedAt(by) + ": " + strings.Join(left, " and ") + " did not run and " + verb + " in no count"
}

// restCommand is, for a run strobe stopped while tests ran, the command
// that runs the rest of its selection without them: the run's command (its
// filters, its config, the command's options) with a -t that leaves them
// out by their full names and keeps what the run's own -t took (see
// node.Except; a test of the same full name in another file or project
// is left out too). "" for a run of one test (it is what stopped), or
// when no test was running (a hook's hang). p.mu is held.
func (p *parser) restCommand() string {
	running := p.rec.Progress().Running
	if p.single || len(running) == 0 || len(p.whole) == 0 {
		return ""
	}
	var names []string
	for _, t := range running {
		title := t.Name
		if tt, ok := p.titles[[2]string{t.Suite, t.Name}]; ok {
			title = tt
		}
		q := node.RestName(title, " > ")
		if p.v1 {
			q = " ?" + q // vitest 1's full names begin with a space (v1Pattern)
		}
		if !slices.Contains(names, q) {
			names = append(names, q)
		}
	}
	slices.Sort(names)
	argv, own := node.CutOption(p.whole, "-t", "--testNamePattern")
	argv = append(argv, "-t", node.Except(names, own))
	if p.seed != "" {
		argv = withSeed(argv, p.seed)
	}
	return node.InDir(p.cd, shell.Join(argv))
}

// withSeed is a vitest command with --sequence.seed=SEED in place of its
// own --sequence.seed, and --sequence.shuffle when it has no shuffle
// option of its own (the config's shuffle: true): the same order.
func withSeed(argv []string, seed string) []string {
	var out []string
	shuffle := false
	for i := 0; i < len(argv); i++ {
		a := argv[i]
		switch {
		case a == "--sequence.seed":
			i++ // its value
			continue
		case strings.HasPrefix(a, "--sequence.seed="):
			continue
		case strings.HasPrefix(a, "--sequence.shuffle"):
			shuffle = true
		}
		out = append(out, a)
	}
	if !shuffle {
		out = append(out, "--sequence.shuffle")
	}
	return append(out, "--sequence.seed="+seed)
}

// stoppedHint says that vitest cancelled the run before its end (--bail)
// and what it left out: the tests it never ran in the files it began,
// and the files it never began, whose tests nobody counted.
func stoppedHint(c *event) string {
	why := "vitest stopped the run early"
	if c.Bail > 0 {
		why = fmt.Sprintf("vitest stopped the run early (--bail %d: %s)", c.Bail, kit.Plural(c.Bail, "failed test"))
	}
	var left []string
	if c.NotRun > 0 {
		left = append(left, fmt.Sprintf("%s in the test files it began did not run", kit.Plural(c.NotRun, "test")))
	}
	if c.FilesNotRun > 0 {
		left = append(left, fmt.Sprintf("%d of the %d test files did not run at all", c.FilesNotRun, c.Files))
	}
	if len(left) == 0 {
		return why + ": every test had run"
	}
	return why + ": " + strings.Join(left, ", and ") + "; they are not counted: fix the failure, or run without --bail, to run them"
}

var noTestsHint = kit.NoTestsHint{
	Test:  "no test matched that name: give the full name as vitest prints it (describe blocks and the test joined by \" > \"), or \"FILE > full name\"",
	Level: "no test file for this level: strobe takes files under a unit/, integration/ or e2e/ directory, or named *.unit.test.*, *.integration.test.*, *.e2e.test.*",
	All:   "vitest found no test file: check the include patterns of the vitest config (default **/*.{test,spec}.?(c|m)[jt]s?(x))",
}

// crash reads a vitest that died, or whose worker died: the process's
// own signal (a worker thread's abort takes vitest with it), node's abort
// report on stderr (a fork child's process.abort(), a V8 fatal error), or
// vitest's word that a worker's channel closed.
func (p *parser) crash(exit report.Exit) *report.Crash {
	sig := kit.ExitSignal(exit)
	if sig == "" && !p.abortStack && !p.workerDied {
		return nil
	}
	c := &report.Crash{ExitCode: exit.Code, CoreDump: exit.CoreDump}
	switch {
	case sig != "":
		c.Indicators = []string{"vitest_signaled"}
	case p.abortStack:
		sig = "SIGABRT"
		c.Indicators = []string{"worker_aborted"}
	default:
		c.Indicators = []string{"worker_exited"}
	}
	c.SignalName = sig
	c.Signal = kit.SignalNumber(sig)
	c.Type = kit.CrashType(sig)
	if sig == "" {
		c.Type = report.CrashUnknown
	}
	// The tests running stay running: the runner names them as the
	// crash's suspects.
	var running []string
	for _, t := range p.rec.Progress().Running {
		running = append(running, t.Name)
	}
	c.RunningTests = running
	where := ""
	if a := p.abortAt; a != nil {
		if p.abortLineIsOwn(a.File) {
			where = fmt.Sprintf(" at %s:%d", p.path(a.File), a.Line)
		} else {
			where = " in " + p.path(a.File)
		}
	}
	files := make([]string, len(p.modules))
	for i, m := range p.modules {
		files[i] = p.path(m)
	}
	switch {
	case len(running) > 0:
		c.Message = fmt.Sprintf("a vitest worker died (%s)%s while running %s", orUnknown(sig), where, strings.Join(running, ", "))
	case len(files) > 0:
		c.Message = fmt.Sprintf("a vitest worker died (%s)%s while running %s", orUnknown(sig), where, strings.Join(files, ", "))
	default:
		c.Message = fmt.Sprintf("vitest died (%s)%s", orUnknown(sig), where)
	}
	c.Message += ": rerun that test file alone to see it happen"
	return c
}

// abortLineIsOwn tells whether the line node's abort report gives in a
// test file is the file's own. node does not source-map that report, and
// vitest runs the code it compiled: vitest 3 keeps a JavaScript file's
// lines, vitest 4's module runner does not (one more, or reprinted), and
// esbuild and oxc reprint TypeScript. A wrong line is worse than none.
func (p *parser) abortLineIsOwn(file string) bool {
	major, _, _ := strings.Cut(p.version, ".")
	if n, err := strconv.Atoi(major); err != nil || n >= 4 {
		return false
	}
	switch filepath.Ext(file) {
	case ".js", ".mjs", ".cjs":
		return true
	}
	return false
}

func orUnknown(sig string) string {
	if sig == "" {
		return "no signal reported"
	}
	return sig
}
