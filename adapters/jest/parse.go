package jest

import (
	"bufio"
	"bytes"
	"cmp"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
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

// event is one line of the reporter's (reporter.cjs says what each is).
type event struct {
	Ev   string `json:"ev"`
	File string `json:"file"`
	Name string `json:"name"`
	// Title is jest's own name for a test whose Name differs: one that
	// shares its name in its file is "NAME #2" in the answer.
	Title string `json:"title"`
	// Project is the name of the project that ran the test or file, in a
	// config of several projects (jest's displayName).
	Project string    `json:"project"`
	Status  string    `json:"status"`
	MS      float64   `json:"ms"`
	Msg     string    `json:"msg"`
	At      *location `json:"at"`
	// run
	Total   int    `json:"total"`
	Version string `json:"version"`
	// Seed is --randomize's seed: the order of each file's tests.
	Seed string `json:"seed"`
	// done
	Passed       int  `json:"passed"`
	Failed       int  `json:"failed"`
	Skipped      int  `json:"skipped"`
	Todo         int  `json:"todo"`
	SuitesFailed int  `json:"suitesFailed"`
	Interrupted  bool `json:"interrupted"`
	// Bail is --bail's number when it ended the run.
	Bail int `json:"bail"`
	// Obsolete and ObsoleteFiles are the snapshots no test took and the
	// snapshot files no test file has: jest fails the run for them.
	Obsolete      []obsoleteSnapshot `json:"obsolete"`
	ObsoleteFiles []string           `json:"obsoleteFiles"`
	// suite: how many of the file's tests passed or failed before it
	// failed (an afterAll), 0 for a file that did not load
	Ran int `json:"ran"`
	// SnapFile and SnapError name a test's snapshot file that does not
	// parse, which jest read as empty (its snapshots were new).
	SnapFile  string `json:"snapFile"`
	SnapError string `json:"snapError"`
	// Written counts the snapshots the run wrote (the command's -u).
	Written *snapshotsWritten `json:"written"`
	// PID is the process that runs File (worker).
	PID int `json:"pid"`
	// Late says that a failure's frame lies in another test's function
	// (Origin, declared at Line): an error that test left behind, which
	// jest pinned on the test running when it came.
	Late *lateError `json:"late"`
}

type lateError struct {
	Origin string `json:"origin"`
	Line   int    `json:"line"`
}

type snapshotsWritten struct {
	Added   int `json:"added"`
	Updated int `json:"updated"`
	Removed int `json:"removed"`
}

type obsoleteSnapshot struct {
	File string `json:"file"`
	Key  string `json:"key"`
}

type location struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Col  int    `json:"col"`
}

// parser reads the reporter's events from its file (a goroutine tailing
// it) and jest's stdout and stderr (Line).
type parser struct {
	rec    *adapters.Recorder
	root   string // the project root: files are named relative to it
	pkgDir string // where jest runs and reruns
	cd     string // from the project root to pkgDir, for reruns (node.CdTo)
	dir    string // the private temporary directory
	events string
	tail   *kit.TailFile
	done   chan struct{} // closed when the decoder returns
	stop   sync.Once
	closed sync.Once

	test  string
	level adapters.Level
	rerun []string
	// whole is the run's command as pasted in the package's directory
	// (the package manager's jest, the command's arguments, the
	// selection); seed is --randomize's.
	whole    []string
	seed     string
	fallback string // jest's --json output, when the reporter is not used
	note     string
	// scriptNote says what else the package's test script runs, which
	// strobe did not (see node.TestScriptCall).
	scriptNote string

	mu      sync.Mutex // guards what follows: the decoder and Line share it
	sawRun  bool
	sawDone bool
	version string
	running map[testKey]startedAs // tests started and not ended, to give output to
	// workers are the processes running a test file now, with the file
	// ("worker" to "fileDone"): RunsTest.
	workers map[int]string
	// last is the test that ended last while no other ran: node writes to a
	// full pipe asynchronously, so a test's output can come after its end.
	last     *testKey
	builds   []report.BuildError
	crash    *report.Crash
	noTests  bool
	errLines []string // jest's own stderr, for a run the reporter never saw
	// jestSays holds jest's own complaints on stderr ("Jest: …": a coverage
	// threshold not met): why a run whose tests all passed failed.
	jestSays []string
	// obsolete names the obsolete snapshots jest failed the run for;
	// obsoleteKeys are those that are keys, by the test file's name.
	obsolete     []string
	obsoleteKeys []obsoleteSnapshot
	// snaps holds the tests that failed a snapshot, written what the run
	// wrote, badSnaps the snapshot files jest could not read (see
	// snapshotHints), writable those of them found before a run that
	// writes snapshots (the command's -u).
	snaps    node.SnapshotFailures
	written  *snapshotsWritten
	badSnaps map[string]string
	writable map[string]bool
	// snapKeys are the tests each test file's snapshot file names
	// (snapTests), read once the file's first snapshot fails.
	snapKeys map[string][]string
	// total is the test files jest was to run, files those it began, and
	// bail --bail's number when it ended the run early.
	total int
	files map[string]bool
	bail  int
	// late lists the failures jest pinned on a test while another test's
	// function threw them.
	late []string
	// exitSaid holds jest's account of a test's process.exit ("process.exit
	// called with …" and the lines after it, its frame among them), which
	// a worker prints to jest's stderr; cut lists the tests a worker's
	// exit ended, with the file whose other tests it kept from running.
	exitSaid []string
	cut      []string
	bad      int    // event lines that did not decode
	buf      []byte // the decoder's, for unescaped strings
	// lastFile and lastSuite spare naming a file again for each of its
	// events.
	lastFile, lastSuite string
}

type testKey struct{ suite, name string }

// startedAs is what a test's start event says of it beside its name: the
// project that runs it, under several, and jest's own name for it when
// strobe's differs ("NAME #2", "NAME [one]"), which a rerun selects by.
type startedAs struct{ project, title string }

func newParser(rec *adapters.Recorder, root, pkgDir, dir string) *parser {
	events := filepath.Join(dir, "events.jsonl")
	return &parser{rec: rec, root: root, pkgDir: pkgDir, cd: node.CdTo(root, pkgDir), dir: dir, events: events,
		tail: kit.NewTailFile(events), done: make(chan struct{}), running: map[testKey]startedAs{}}
}

func (p *parser) start() {
	go func() {
		defer close(p.done)
		p.decode(p.tail)
	}()
}

// decode reads events until the file ends and the tail is stopped.
func (p *parser) decode(r io.Reader) {
	br := bufio.NewReaderSize(r, 64<<10)
	var partial []byte
	for {
		line, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			partial = append(partial, line...)
			continue
		}
		if len(partial) > 0 {
			line = append(partial, line...)
			partial = partial[:0]
		}
		if len(bytes.TrimSpace(line)) > 0 {
			p.eventLine(line)
		}
		if err != nil {
			return
		}
	}
}

// eventLine decodes and handles one line of the events file.
func (p *parser) eventLine(line []byte) {
	var ev event
	if !decodeEvent(line, &ev, &p.buf) {
		p.mu.Lock()
		p.bad++
		p.mu.Unlock()
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.handle(&ev)
}

// RunsTest says whether the process pid runs a test file now
// (adapters.TestRunner): a jest worker done with its files waits on its
// pipe for more, and its wait is no test's.
func (p *parser) RunsTest(pid int) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	_, ok := p.workers[pid]
	return ok
}

// handle records one event; p.mu is held.
func (p *parser) handle(ev *event) {
	if ev.Name == "" && (ev.Ev == "start" || ev.Ev == "end") {
		p.bad++ // a test without a name cannot be answered nor rerun
		return
	}
	suite := p.name(ev.File)
	switch ev.Ev {
	case "run":
		p.sawRun, p.version, p.total = true, ev.Version, ev.Total
		if ev.Seed != "" {
			// Reruns keep the order: with --randomize alone, each would
			// draw a seed of its own.
			p.seed = ev.Seed
			p.rerun = withSeed(p.rerun, p.seed)
		}
		p.rec.BeginTesting()
	case "file":
		if p.files == nil {
			p.files = map[string]bool{}
		}
		p.files[ev.File] = true
	case "worker":
		if p.workers == nil {
			p.workers = map[int]string{}
		}
		p.workers[ev.PID] = ev.File
	case "fileDone":
		maps.DeleteFunc(p.workers, func(_ int, file string) bool { return file == ev.File })
	case "badsnap":
		snap := p.name(ev.SnapFile)
		if p.badSnaps == nil {
			p.badSnaps = map[string]string{}
		}
		if p.writable == nil {
			p.writable = map[string]bool{}
		}
		p.badSnaps[snap], p.writable[snap] = ev.SnapError, true
	case "start":
		p.running[testKey{suite, ev.Name}] = startedAs{project: ev.Project, title: ev.Title}
		p.last = nil
		p.rec.Start(suite, ev.Name)
	case "end":
		k := testKey{suite, ev.Name}
		delete(p.running, k)
		p.last = nil
		if len(p.running) == 0 {
			p.last = &k
		}
		p.end(suite, ev)
	case "suite":
		p.suiteError(suite, ev)
	case "done":
		p.rec.EndRun()
		p.sawDone, p.bail = true, ev.Bail
		for _, o := range ev.Obsolete {
			p.obsolete = append(p.obsolete, p.name(o.File)+": "+o.Key)
			p.obsoleteKeys = append(p.obsoleteKeys, obsoleteSnapshot{File: p.name(o.File), Key: o.Key})
		}
		for _, f := range ev.ObsoleteFiles {
			p.obsolete = append(p.obsolete, p.name(f))
		}
		p.written = ev.Written
	}
}

// name is how an answer names a test file: relative to the project root.
func (p *parser) name(file string) string {
	if file == "" {
		return ""
	}
	if file != p.lastFile {
		p.lastFile, p.lastSuite = file, kit.ProjectPath(p.root, file)
	}
	return p.lastSuite
}

func (p *parser) end(suite string, ev *event) {
	d := time.Duration(ev.MS * float64(time.Millisecond))
	switch ev.Status {
	case "passed":
		p.rec.End(suite, ev.Name, report.TestPassed, d, nil)
	case "skipped", "todo":
		p.rec.End(suite, ev.Name, report.TestSkipped, d, nil)
	default:
		prefix := p.rerunPrefix(ev.Project)
		msg := ev.Msg
		isNew := strings.Contains(msg, "New snapshot was not written")
		if isNew {
			// --ci, as strobe runs jest, fails a snapshot not yet written;
			// without it the rerun would write it and pass. jest guesses
			// the environment is CI's: it is strobe's --ci.
			prefix = append(prefix, "--ci")
			why := "strobe runs jest with --ci, which writes no new snapshot."
			if ev.SnapFile != "" {
				// Said before the value received, which may be long.
				snap := p.name(ev.SnapFile)
				why += fmt.Sprintf(" But the snapshot file %s does not parse (%s): jest read it as empty, so this snapshot counts as new.", snap, ev.SnapError)
				if p.badSnaps == nil {
					p.badSnaps = map[string]string{}
				}
				p.badSnaps[snap] = ev.SnapError
			}
			if strings.Contains(msg, jestCIGuess) {
				msg = strings.Replace(msg, jestCIGuess, why, 1)
			} else {
				msg += "\n\n" + why
			}
		}
		file, title := p.relPkg(ev.File), cmp.Or(ev.Title, ev.Name)
		f := &report.Failure{Name: ev.Name, File: suite, Message: kit.Clip(msg), Rerun: p.rerunCommand(prefix, file, title)}
		if ev.At != nil {
			f.File, f.Line = p.name(ev.At.File), ev.At.Line
		}
		if l := ev.Late; l != nil {
			// The test alone passes: the file runs the test that left
			// the error behind first, as the run did.
			f.Message = kit.Clip(msg + fmt.Sprintf("\n\njest failed `%s` with this error, which came while it ran; but its stack points into the test `%s` (%s:%d), which had ended: a timer, callback or promise that test left behind. Rerun the file, which runs that test before this one as the run did: this test alone passes",
				ev.Name, l.Origin, suite, l.Line))
			f.Rerun = node.InDir(p.cd, shell.Join(append(p.rerunPrefix(ev.Project), "--runTestsByPath", file)))
			f.Select = suite // --failed and retries: the file whole, as the rerun
			p.late = append(p.late, suite+sep+ev.Name)
		}
		if isNew || strings.Contains(msg, "Snapshot name: `") {
			// The snapshot is written deliberately by the rerun with -u,
			// or through strobe where jest -u -t would delete others'.
			update := p.rerunCommand(append(p.rerunPrefix(ev.Project), "-u"), file, title)
			keys, ok := p.snapKeys[ev.File]
			if !ok {
				keys = snapTests(ev.File) // once a file: many of its snapshots may fail
				if p.snapKeys == nil {
					p.snapKeys = map[string][]string{}
				}
				p.snapKeys[ev.File] = keys
			}
			if othersHinted(keys, strings.ReplaceAll(title, sep, " ")) {
				update = node.InDir(p.cd, strobeUpdate(p.rerunPrefix(ev.Project), file, title))
			}
			p.snaps.Add(isNew, ev.SnapFile != "", suite+sep+ev.Name, update)
		}
		p.rec.End(suite, ev.Name, report.TestFailed, d, f)
	}
}

// workerDied is jest-worker's account of a worker that died of a signal
// (process.abort(), a native crash, the OOM killer).
var workerDied = lazyre.New(`jest worker process \(pid=\d+\) was terminated by another process: signal=(SIG[A-Z0-9]+)`)

// suiteError is a test file that could not run: a worker that died is a
// crash of the tests it was running; anything else (a syntax error, an
// import that fails, a describe block that throws) kept the file's tests
// from running, as a compile error would.
func (p *parser) suiteError(suite string, ev *event) {
	if m := workerDied.FindStringSubmatch(ev.Msg); m != nil {
		p.workerCrash(suite, m[1], ev.Msg)
		return
	}
	if m := workerExited.FindStringSubmatch(ev.Msg); m != nil {
		if p.workerExit(suite, ev, m[1]) {
			return
		}
	}
	if ev.Ran > 0 {
		p.afterTests(suite, ev)
		return
	}
	be := report.BuildError{File: suite, Message: kit.Clip(ev.Msg)}
	if ev.At != nil {
		be.File, be.Line, be.Column = p.name(ev.At.File), ev.At.Line, ev.At.Col
	}
	p.builds = append(p.builds, be)
}

// afterTests is a file that failed once its tests ran (jest 29 reports an
// afterAll hook that threw so): it loaded, so no build error; the file
// fails under its own name, at the error's line, rerun whole.
func (p *parser) afterTests(suite string, ev *event) {
	f := &report.Failure{Name: suite, File: suite, Message: kit.Clip(failureText(ev.Msg))}
	if ev.At != nil {
		f.File, f.Line = p.name(ev.At.File), ev.At.Line
	}
	f.Rerun = node.InDir(p.cd, shell.Join(append(p.rerunPrefix(ev.Project), "--runTestsByPath", p.relPkg(ev.File))))
	p.rec.End(suite, suite, report.TestFailed, 0, f)
}

// workerExited is jest-worker's account of a worker whose process exited
// (process.exit in a test, 0 too): jest calls it the file's failure to
// run, though the file loaded and ran tests.
var workerExited = lazyre.New(`A jest worker process \(pid=\d+\) crashed for an unknown reason: exitCode=(\d+)`)

// workerExit fails the tests a worker was running when its process
// exited: the file loaded, so it is no build error (strobe called it one,
// with the test that exited left running). false when no test of the file
// was running: jest's word stands.
func (p *parser) workerExit(suite string, ev *event, code string) bool {
	var running []testKey
	for k := range p.running {
		if k.suite == suite {
			running = append(running, k)
		}
	}
	if len(running) == 0 {
		return false
	}
	slices.SortFunc(running, func(a, b testKey) int { return strings.Compare(a.name, b.name) })
	for _, k := range running {
		st := p.running[k]
		file := filepath.Join(p.root, k.suite)
		f := &report.Failure{Name: k.name, File: k.suite, Rerun: p.rerunCommand(p.rerunPrefix(st.project), p.relPkg(file), cmp.Or(st.title, k.name)),
			Message: kit.DidNotFinish(fmt.Sprintf("the jest worker running it exited with code %s", code), len(running)-1)}
		if at := frameIn(strings.Join(p.exitSaid, "\n"), file); at != nil && at.File == file {
			f.File, f.Line = k.suite, at.Line
			f.Message += " (process.exit)"
		}
		p.rec.End(k.suite, k.name, report.TestFailed, 0, f)
		delete(p.running, k)
		p.cut = append(p.cut, suite+sep+k.name)
	}
	return true
}

func (p *parser) workerCrash(suite, sig, msg string) {
	var running []string
	for k := range p.running {
		if k.suite == suite {
			running = append(running, k.name)
		}
	}
	what := "a jest worker running " + suite
	if len(running) > 0 {
		what = fmt.Sprintf("the jest worker running %s › %s", suite, strings.Join(running, ", "))
	}
	c := &report.Crash{Type: kit.CrashType(sig), Signal: kit.SignalNumber(sig), SignalName: sig,
		Indicators: []string{"jest_worker_signaled"}, RunningTests: running,
		Message: fmt.Sprintf("%s died of %s", what, sig)}
	if p.crash == nil {
		p.crash = c
	}
	_ = msg
}

// withSeed is a jest command with --randomize --seed=SEED in place of its
// own --randomize and --seed: the same order of each file's tests.
func withSeed(argv []string, seed string) []string {
	var out []string
	for i := 0; i < len(argv); i++ {
		switch a := argv[i]; {
		case a == "--randomize" || a == "--randomize=true" || strings.HasPrefix(a, "--seed="):
			continue
		case a == "--seed":
			i++ // its value
			continue
		}
		out = append(out, argv[i])
	}
	return append(out, "--randomize", "--seed="+seed)
}

// rerunPrefix is the rerun's command up to its selection: in a config of
// several projects, --selectProjects the project that ran the test (jest
// >= 26.1), else jest would run it in every project that runs its file.
func (p *parser) rerunPrefix(project string) []string {
	prefix := slices.Clone(p.rerun)
	if project != "" {
		prefix = append(prefix, "--selectProjects", project)
	}
	return prefix
}

// relPkg is a file relative to the package's directory, where reruns run.
func (p *parser) relPkg(file string) string {
	if r, ok := kit.Rel(p.pkgDir, file); ok {
		return r
	}
	return file
}

// Line takes a line of jest's own output. The tests' writes to
// process.stdout reach it through jest (a worker's are piped through the
// main process); they go to the test running when exactly one is, as in a
// run in band, or to the test that ended last when none is and it ran
// alone (node writes to a full pipe asynchronously, after the test may have
// ended), and stay only in the run's raw output otherwise. The events
// file is polled and the pipes are not: a line waits (up to catchUp) for
// the decoder to reach the file's end, where the test that printed it has
// started.
func (p *parser) Line(s adapters.Stream, b []byte, _ bool) {
	p.catchUp()
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.sawRun && bytes.HasPrefix(b, []byte("No tests found")) {
		p.noTests = true
	}
	if s == adapters.Stderr && bytes.HasPrefix(b, []byte("Jest: ")) && len(p.jestSays) < 5 {
		p.jestSays = append(p.jestSays, string(b))
	}
	if bytes.Contains(b, []byte("process.exit called with")) && len(p.exitSaid) == 0 || len(p.exitSaid) > 0 && len(p.exitSaid) < 16 {
		p.exitSaid = append(p.exitSaid, string(b))
	}
	if s == adapters.Stderr && len(p.running) == 0 && len(p.errLines) < 20 && len(bytes.TrimSpace(b)) > 0 {
		p.errLines = append(p.errLines, string(b))
	}
	switch {
	case len(p.running) == 1:
		for k := range p.running {
			p.rec.Output(k.suite, k.name, string(b)+"\n")
		}
	case len(p.running) == 0 && p.last != nil:
		p.rec.Output(p.last.suite, p.last.name, string(b)+"\n")
	}
}

// catchUp bounds how long a line of output waits for the decoder.
const catchUp = 5 * time.Millisecond

func (p *parser) catchUp() {
	var size int64
	if st, err := os.Stat(p.events); err == nil {
		size = st.Size()
	}
	if size == 0 || p.tail.CaughtUp(size) {
		return // nothing written yet, or all of it read
	}
	p.tail.Kick()
	deadline := time.Now().Add(catchUp)
	for !p.tail.CaughtUp(size) && time.Now().Before(deadline) {
		time.Sleep(50 * time.Microsecond)
	}
}

// drain stops the tail and waits for the decoder to read what is left.
func (p *parser) drain() {
	p.stop.Do(func() {
		p.tail.Stop()
		<-p.done
		p.tail.CloseFile()
	})
}

// Finish reads what the run left: the events still in the file, jest's
// --json output in fallback mode, and how jest exited.
func (p *parser) Finish(exit report.Exit) adapters.Outcome {
	p.drain()
	if p.fallback != "" {
		p.readFallback()
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	var out adapters.Outcome
	out.Hint = join(p.note, p.scriptNote)
	if p.bad > 0 {
		out.Indicators = append(out.Indicators, "unreadable_test_events")
	}
	if len(p.builds) > 0 {
		out.BuildFailed, out.BuildErrors = true, p.builds
		return out
	}
	if exit.StoppedBy != "" {
		// strobe stopped it: the tests running stay running.
		out.Hint = join(out.Hint, p.restHint(exit.StoppedBy))
		return out
	}
	if p.crash != nil {
		out.Crash = p.crash
		out.Hint = join(out.Hint, "rerun the crashed test alone with `--runInBand` (`-i`) to see its output and native stack")
		return out
	}
	if exit.Signaled {
		out.Crash = p.inBandCrash(exit)
		return out
	}
	notReached := p.sawRun && !p.sawDone && exit.Exited
	if notReached {
		out.Hint = join(out.Hint, p.exitedEarly(exit))
	}
	if len(p.late) > 0 {
		out.Hint = join(out.Hint, fmt.Sprintf("jest failed %s for an error thrown in another test's function, which had ended (each failure says which): %s; rerun the file to reproduce it, as each failure's rerun does (the test alone passes)",
			kit.Plural(len(p.late), "test", "tests"), names(p.late)))
	}
	if len(p.cut) > 0 {
		out.Hint = join(out.Hint, fmt.Sprintf("a test ended its jest worker's process (process.exit): %s; the tests of its file after it did not run and are in no count (jest does not say how many)", strings.Join(p.cut, ", ")))
		notReached = true
	}
	if notReached {
		// The run's changes are partial: the tests that did not run are
		// neither removed nor, next time, new.
		out.Indicators = append(out.Indicators, report.IndicatorNotReached)
	}
	if p.bail > 0 {
		if h := p.bailed(); h != "" {
			out.Indicators = append(out.Indicators, "jest_stopped_early")
			out.Hint = join(out.Hint, h)
		}
	}
	prog := p.rec.Progress()
	recorded := prog.Passed + prog.Failed + prog.Skipped + len(prog.Running)
	if recorded == 0 && exit.Code == 0 && (p.noTests || p.sawRun || p.fallback != "") {
		out.NoTests = true
		out.Project = &report.Project{Language: "javascript", BuildSystem: "jest"}
		out.Hint = join(out.Hint, noTestsHint.For(p.test, p.level))
		return out
	}
	// jest counts a snapshot file it could not read as obsolete: it is
	// said apart (snapshotHints).
	p.obsolete = slices.DeleteFunc(p.obsolete, func(o string) bool { _, bad := p.badSnaps[o]; return bad })
	if failed := p.failedTestsSnapshots(); len(failed) > 0 {
		p.obsolete = slices.DeleteFunc(p.obsolete, func(o string) bool { return slices.Contains(failed, o) })
		out.Hint = join(out.Hint, kit.Clip(fmt.Sprintf("%s (%s): not obsolete, and jest -u would delete them; fix the tests",
			kit.Plural(len(failed), "snapshot that jest lists as obsolete belongs to a test that failed before taking it", "snapshots that jest lists as obsolete belong to tests that failed before taking them"), few(failed))))
	}
	if len(p.obsolete) > 0 {
		out.Hint = join(out.Hint, kit.Clip(fmt.Sprintf("%s obsolete, which no test took (jest fails a run for them): %s (jest -u removes them, and rewrites every snapshot that does not match)",
			kit.Plural(len(p.obsolete), "snapshot is", "snapshots are"), few(p.obsolete))))
	}
	out.Hint = join(out.Hint, p.snapshotHints())
	if p.sawRun && exit.Code != 0 && prog.Failed == 0 && len(p.jestSays) > 0 {
		hint, threshold := p.thresholdHint()
		out.Hint = join(out.Hint, kit.Clip(hint))
		if threshold {
			out.Indicators = append(out.Indicators, "coverage_threshold_not_met")
		}
	}
	if !p.sawRun && p.fallback == "" && exit.Code != 0 {
		msg := "jest ended before strobe's reporter saw the run begin"
		if len(p.errLines) > 0 {
			msg += ": " + strings.Join(p.errLines[:min(3, len(p.errLines))], " ")
		}
		out.Hint = join(out.Hint, kit.Clip(msg))
	}
	if p.seed != "" {
		// The run's command with the seed: each file's tests in the
		// same order.
		out.Shuffle = &report.Shuffle{Seed: p.seed, Command: node.InDir(p.cd, shell.Join(withSeed(p.whole, p.seed)))}
		if prog.Failed > 0 {
			out.Hint = join(out.Hint, "the reruns keep --randomize --seed="+p.seed)
		}
	}
	return out
}

// restHint says, for a run strobe stopped while tests ran, how to run
// the rest of its selection without them: the run's command (its files,
// its config, the command's options) with a -t that leaves them out by
// their full names and keeps what the run's own -t took (see
// node.Except; jest ignores case, so a test of the same name but for
// case is left out too, as is one of the same name in another file). ""
// for a run of one test (it is what stopped), when no test was running
// (a hook's hang, or jest before 27, whose tests are known only at the
// end). p.mu is held.
func (p *parser) restHint(by string) string {
	if p.test != "" || len(p.running) == 0 || len(p.whole) == 0 {
		return ""
	}
	var names []string
	for k, st := range p.running {
		if q := node.RestName(cmp.Or(st.title, k.name), sep); !slices.Contains(names, q) {
			names = append(names, q)
		}
	}
	slices.Sort(names)
	argv, own := node.CutOption(p.whole, "-t", "--testNamePattern")
	argv = append(argv, "-t", node.Except(names, own))
	if p.seed != "" {
		argv = withSeed(argv, p.seed) // each file's tests in the run's order
	}
	return kit.WithRest("jest was stopped at "+kit.StoppedAt(by)+": the tests it had not run yet are in no count", "jest", by, node.InDir(p.cd, shell.Join(argv)))
}

// bailed says that --bail ended the run early and what it left out: the
// tests still running when jest stopped (they neither passed nor failed:
// they are dropped), and the test files it never began, whose tests
// nobody counted; "" when it left nothing out. p.mu is held.
func (p *parser) bailed() string {
	var cut []string
	for k := range p.running {
		cut = append(cut, k.name)
		p.rec.Forget(k.suite, k.name)
		delete(p.running, k)
	}
	slices.Sort(cut)
	hint := fmt.Sprintf("jest stopped early (--bail %d: it ends the run once that many tests failed)", p.bail)
	var left []string
	if n := p.total - len(p.files); n > 0 {
		left = append(left, fmt.Sprintf("%d of the %d test files did not run", n, p.total))
	}
	if len(cut) > 0 {
		left = append(left, fmt.Sprintf("%d tests were stopped while they ran (%s)", len(cut), kit.ClipTo(strings.Join(cut, ", "), 300, "…")))
	}
	if len(left) == 0 {
		return "" // every file had begun and every test ended: nothing was left out
	}
	return hint + ": " + strings.Join(left, ", and ") + "; they are not counted: fix the failure, or run without --bail, to run them"
}

// thresholdLine is jest's complaint for a coverage threshold not met:
// `Jest: "global" coverage threshold for lines (100%) not met: 66.66%`
// (or a file's or a glob's name in place of "global").
var thresholdLine = lazyre.New(`^Jest: "([^"]+)" coverage threshold for (\w+) \(([0-9.]+)%\) not met: ([0-9.]+)%`)

// thresholdHint says why jest failed a run whose tests passed: the
// coverage under its coverageThreshold, else jest's own words. p.mu is
// held.
func (p *parser) thresholdHint() (string, bool) {
	var says []string
	threshold := false
	for _, l := range p.jestSays {
		m := thresholdLine.FindStringSubmatch(l)
		threshold = threshold || m != nil || strings.Contains(l, "threshold")
		if m == nil {
			says = append(says, l)
			continue
		}
		scope := m[1]
		if filepath.IsAbs(scope) {
			scope = kit.ProjectPath(p.root, scope)
		}
		says = append(says, fmt.Sprintf("coverage of %s %s%% is under the threshold %s%% (jest's coverageThreshold, %q)", m[2], m[4], m[3], scope))
	}
	if !threshold {
		return "jest failed the run although no test failed: " + strings.Join(says, "; "), false
	}
	return strings.Join(says, "; ") + ": the tests passed; jest fails the run until the tests cover more of the code, or the threshold is lowered", true
}

// inBandCrash names the test that was running when jest's own process
// (running the tests in band) died of a signal.
func (p *parser) inBandCrash(exit report.Exit) *report.Crash {
	sig := kit.ExitSignal(exit)
	var running []string
	for k := range p.running {
		running = append(running, k.name)
	}
	c := &report.Crash{Type: kit.CrashType(sig), Signal: exit.Signal, SignalName: sig, RunningTests: running,
		Indicators: []string{"jest_signaled"}}
	if len(running) > 0 {
		c.Message = fmt.Sprintf("jest died of %s while running %s", sig, strings.Join(running, ", "))
	}
	return c
}

// exitedEarly fails the tests running when jest's own process exited
// before its run's end: process.exit in a test run in band (jest prints
// "process.exit called with …" and where), whatever the code, 0 too. It
// says what did not run: the test files jest never began, of those it
// counted at the start, and the rest of the file the test was in (jest
// counts a file's tests only as it runs them).
func (p *parser) exitedEarly(exit report.Exit) string {
	var ended []string
	for k := range p.running {
		ended = append(ended, k.suite+sep+k.name)
	}
	slices.Sort(ended)
	for k, st := range p.running {
		file := filepath.Join(p.root, k.suite)
		f := &report.Failure{Name: k.name, File: k.suite, Rerun: p.rerunCommand(p.rerunPrefix(st.project), p.relPkg(file), cmp.Or(st.title, k.name)),
			Message: kit.DidNotFinish(fmt.Sprintf("jest exited with code %d before the run's end", exit.Code), 0)}
		if t, ok := p.rec.Lookup(k.suite, k.name); ok {
			if at := frameIn(t.Output, file); at != nil && strings.Contains(t.Output, "process.exit called with") {
				f.File, f.Line = p.name(at.File), at.Line
				f.Message += " (process.exit)"
			}
		}
		p.rec.End(k.suite, k.name, report.TestFailed, 0, f)
		delete(p.running, k)
	}
	hint := fmt.Sprintf("jest exited with code %d before its run's end", exit.Code)
	if len(ended) > 0 {
		hint += fmt.Sprintf(", in %s (listed as failed)", strings.Join(ended, ", "))
	}
	left := "the tests after it in its file did not run"
	if n := p.total - len(p.files); n > 0 {
		left = fmt.Sprintf("%d of the %d test files jest was to run never began, and %s", n, p.total, left)
	}
	return hint + ": " + left + "; they are in no count (jest counts a file's tests only as it runs them)"
}

var noTestsHint = kit.NoTestsHint{
	Test: "no jest test matched that name: give its full name, describe blocks and title, as an answer's failures list it (describe › title), or a describe block's, with FILE › in front to pick one file",
	Levels: map[adapters.Level]string{
		adapters.LevelUnit:        "no test file for level unit: strobe selects files under a unit/ directory or named *.unit.test.js",
		adapters.LevelIntegration: "no test file for level integration: strobe selects files under an integration/ directory or named *.integration.test.js",
		adapters.LevelE2E:         "no test file for level e2e: strobe selects files under an e2e/ directory or named *.e2e.test.js",
	},
	All: "jest found no test files: it looks for *.test.js, *.spec.js and files under __tests__ (its testMatch option)",
}

func join(a, b string) string {
	if a == "" {
		return b
	}
	if b == "" {
		return a
	}
	return a + "; " + b
}

// Close removes the reporter, its events and jest's --json output.
func (p *parser) Close() error {
	p.drain()
	var err error
	p.closed.Do(func() { err = os.RemoveAll(p.dir) })
	return err
}

// jestCIGuess is jest's guess at why a new snapshot was not written,
// which strobe's own --ci makes wrong outside CI.
const jestCIGuess = "This is likely because this test is run in a continuous integration (CI) environment in which snapshots are not written by default."

// snapshotHints says what the run's snapshots need: how to update one
// deliberately (-u on its rerun, never on the whole suite, whose every
// mismatch it would take), which snapshot files jest could not read, and
// what the command's own -u wrote. p.mu is held.
func (p *parser) snapshotHints() string {
	var hints []string
	if s := p.snaps.Mismatched; len(s) > 0 {
		how, why := fmt.Sprintf("by adding -u to its rerun (`%s`: jest rewrites the test's snapshots, an inline one in the test file, and removes the file's obsolete ones)", p.snaps.MismatchedCmd), ""
		if strings.HasPrefix(p.snaps.MismatchedCmd, "strobe ") {
			how = fmt.Sprintf("through strobe (`%s`; debug_test with that test and command)", p.snaps.MismatchedCmd)
			why = " (not -u on its rerun: jest would also delete the snapshots the file names with a hint, toMatchSnapshot('hint'), of the tests it skips)"
		}
		hints = append(hints, fmt.Sprintf("%s did not match what the test gave (%s; the diff is the snapshot, -, against the value received, +): fix the code if the change is not wanted; if it is, update that test's snapshot deliberately %s, then review the change%s",
			kit.Plural(len(s), "snapshot"), names(s), how, why))
	}
	if s := p.snaps.Unwritten; len(s) > 0 {
		how := fmt.Sprintf("add -u to its rerun (`%s`)", p.snaps.UnwrittenCmd)
		if strings.HasPrefix(p.snaps.UnwrittenCmd, "strobe ") {
			how = fmt.Sprintf("run it through strobe with -u (`%s`; its rerun with -u would also delete the snapshots the file names with a hint of the tests it skips)", p.snaps.UnwrittenCmd)
		}
		h := fmt.Sprintf("%s new and not written (%s): strobe runs jest with --ci, which writes no snapshot; to write one, %s and review what it wrote",
			kit.Plural(len(s), "snapshot was", "snapshots were"), names(s), how)
		if p.renamed() {
			h += " (their files also hold obsolete snapshots: a test renamed keeps its snapshot under its old name, and -u on its rerun writes it anew and removes the old)"
		}
		hints = append(hints, h)
	}
	files := slices.Sorted(maps.Keys(p.badSnaps))
	for _, f := range files {
		if p.writable[f] {
			hints = append(hints, fmt.Sprintf("the snapshot file %s did not parse (%s): jest read it as empty, so the command's -u wrote each snapshot its tests took over it, the others lost, and those tests passed without checking anything; restore it from version control (`git checkout -- %s`), resolve it, and run again", f, p.badSnaps[f], f))
			continue
		}
		hints = append(hints, fmt.Sprintf("the snapshot file %s does not parse (%s): jest read it as empty, so each of its snapshots counted as new; restore it from version control, or delete it and write its snapshots again with -u", f, p.badSnaps[f]))
	}
	if w := p.written; w != nil {
		var did []string
		for _, c := range []struct {
			n    int
			verb string
		}{{w.Added, "written"}, {w.Updated, "updated"}, {w.Removed, "removed"}} {
			if c.n > 0 {
				did = append(did, fmt.Sprintf("%d %s", c.n, c.verb))
			}
		}
		hints = append(hints, "jest changed snapshot files, as the command's -u asked ("+strings.Join(did, ", ")+"): review them before committing")
	}
	return kit.Clip(strings.Join(hints, "; "))
}

// failedTestsSnapshots names the obsolete snapshots, as p.obsolete does,
// that belong to a test that failed: jest keeps a failed test's snapshots
// (it marks checked the keys of its name, `NAME 1`), but not those a hint
// names (toMatchSnapshot('hint'), `NAME: hint 1`, as babel-plugin-tester
// names every one): dmnd/dedent's macro tests, failing before they took
// their snapshots, had them listed obsolete. jest names a test by its
// blocks and title joined by spaces. p.mu is held.
func (p *parser) failedTestsSnapshots() []string {
	if len(p.obsoleteKeys) == 0 {
		return nil
	}
	failed := map[string][]string{}
	for _, t := range p.rec.Tests() {
		if t.Status == report.TestFailed {
			failed[t.Suite] = append(failed[t.Suite], strings.ReplaceAll(t.Name, sep, " "))
		}
	}
	var out []string
	for _, o := range p.obsoleteKeys {
		test := strings.TrimRight(o.Key, "0123456789")
		for _, name := range failed[o.File] {
			if strings.HasPrefix(test, name+": ") {
				out = append(out, o.File+": "+o.Key)
				break
			}
		}
	}
	return out
}

// few lists a few snapshots, and how many more there are.
func few(list []string) string {
	if len(list) > 5 {
		list = append(slices.Clone(list[:5]), fmt.Sprintf("%d more", len(list)-5))
	}
	return strings.Join(list, "; ")
}

// renamed tells whether a file with a new snapshot holds obsolete ones,
// as a test renamed leaves it. p.mu is held.
func (p *parser) renamed() bool {
	for _, name := range p.snaps.Unwritten {
		suite, _, _ := strings.Cut(name, sep)
		for _, o := range p.obsolete {
			if strings.HasPrefix(o, suite+": ") {
				return true
			}
		}
	}
	return false
}

// names lists a few tests' names, and how many more there are.
func names(list []string) string {
	if len(list) <= 3 {
		return strings.Join(list, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(list[:3], ", "), len(list)-3)
}
