package python

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"strobe/adapters"
	"strobe/adapters/kit"
	"strobe/report"
)

// MaxErrLines bounds the stderr lines a Run keeps.
const MaxErrLines = 20

// Run is what the pytest and unittest parsers share, embedded in each:
// the events file strobe's Python code writes, followed into a Mapper;
// stderr's first lines and faulthandler's dump; the run's directory,
// removed once.
type Run struct {
	Mu       sync.Mutex // Line and Finish against Close; guards the parser's own fields too
	M        *Mapper
	Fatal    Fatal    // faulthandler's dying words
	ErrLines []string // stderr's first lines, clipped
	wd       *Workdir
	stream   *Stream
	closed   bool
}

// Init follows wd's events into M, which names reruns with rerun. wd is
// nil when there is no events file to read (a fuzz test's parser).
func (r *Run) Init(rec *adapters.Recorder, root string, wd *Workdir, rerun func(id string) string) {
	r.Fatal.Root = root
	r.M = &Mapper{Rec: rec, Rerun: rerun}
	r.wd = wd
	if wd != nil {
		r.stream = Follow(wd.Events, r.M)
	}
}

// Stderr reads a line of stderr; Mu is held.
func (r *Run) Stderr(b []byte) {
	r.Fatal.Line(b)
	if len(r.ErrLines) < MaxErrLines {
		r.ErrLines = append(r.ErrLines, kit.Clip(string(b)))
	}
}

// StopEvents reads the events file to its end and stops following it.
func (r *Run) StopEvents() {
	if r.stream != nil {
		r.stream.Stop()
	}
}

// Outcome starts a Finish: the events' state, and an outcome that says
// whether some events could not be read. Mu is held.
func (r *Run) Outcome() (State, adapters.Outcome) {
	st := r.M.State()
	var out adapters.Outcome
	if st.Unreadable > 0 {
		out.Indicators = append(out.Indicators, "unreadable_test_events")
	}
	return st, out
}

// Ended fills out for the ends both adapters read alike, and says whether
// it did: strobe stopped the run (the tests running stay running), the
// tests did not collect (build errors), or the interpreter died on a
// signal (a crash, with faulthandler's stack). Mu is held.
func (r *Run) Ended(st State, exit report.Exit, rec *adapters.Recorder, out *adapters.Outcome) bool {
	switch {
	case exit.StoppedBy != "":
	case len(st.CollectErrors) > 0:
		out.BuildFailed, out.BuildErrors = true, st.CollectErrors
	case exit.Signaled:
		running := rec.Running("")
		out.Crash = r.Fatal.Crash(exit, running)
		r.diedWhileRunning(rec, running, "the Python process died of "+out.Crash.SignalName)
	default:
		return false
	}
	return true
}

// diedWhileRunning fails the tests the interpreter was running when it
// died, as go test does: each ran and did not pass, and each gets its
// rerun and the place faulthandler's stack names.
func (r *Run) diedWhileRunning(rec *adapters.Recorder, running []string, died string) {
	for _, id := range running {
		msg := kit.DidNotFinish(died, len(running)-1)
		if r.Fatal.error != "" {
			msg += "\n" + r.Fatal.error
		}
		f := &report.Failure{Message: msg, File: r.Fatal.file, Line: r.Fatal.line}
		if r.M != nil {
			if f.File == "" { // no dump (os._exit): where the test is defined
				f.File, f.Line = r.M.definedAt(id)
			}
			if r.M.Rerun != nil {
				f.Rerun = r.M.Rerun(id)
			}
		}
		rec.End("", id, report.TestFailed, 0, f)
	}
}

// CutShort fills out for a session that ended, without a signal, before
// it said it was done (see CutShort), whatever its exit code (os._exit(3)
// is pytest's code for an internal error), and fails the tests it was
// running; it says whether it did. Mu is held.
func (r *Run) CutShort(st State, exit report.Exit, rec *adapters.Recorder, framework string, out *adapters.Outcome) bool {
	running := rec.Running("")
	c := CutShort(st, exit, running, framework)
	if c == nil {
		return false
	}
	out.Crash = c
	r.diedWhileRunning(rec, running, fmt.Sprintf("%s ended (exit %d)", framework, exit.Code))
	return true
}

// WorkersDied fills out for the tests whose pytest-xdist worker died
// while it ran them (st.Crashed): xdist replaces the worker, goes on and
// exits 1, its report saying only "worker 'gw0' crashed while running
// …", so the run is a crash as a signal in plain pytest is. The worker's
// faulthandler dump on stderr names the signal and, for a lone crash,
// the test's frame. It says whether it did. Mu is held.
func (r *Run) WorkersDied(st State, exit report.Exit, rec *adapters.Recorder, out *adapters.Outcome) bool {
	if len(st.Crashed) == 0 {
		return false
	}
	sig := r.Fatal.signal()
	died := workerDied
	if sig != "" {
		died += " of " + sig
	}
	for _, id := range st.Crashed {
		rec.UpdateFailure("", id, func(f *report.Failure) {
			f.Message = strings.Replace(f.Message, kit.DidNotFinish(workerDied, 0), kit.DidNotFinish(died, 0), 1)
			if r.Fatal.error != "" {
				kit.AppendMessage(f, "\n", r.Fatal.error)
			}
			if len(st.Crashed) == 1 && r.Fatal.file != "" {
				f.File, f.Line = r.Fatal.file, r.Fatal.line
			}
		})
	}
	msg := "a pytest-xdist worker died"
	if sig != "" {
		msg += " of " + sig
	}
	msg += " in " + st.Crashed[0]
	if len(st.Crashed) == 1 && r.Fatal.at != "" {
		msg += " at " + r.Fatal.at
	}
	if r.Fatal.error != "" {
		msg += " (" + r.Fatal.error + ")"
	}
	if len(st.Crashed) > 1 {
		msg += fmt.Sprintf(", and %d more", len(st.Crashed)-1)
	}
	out.Crash = &report.Crash{Type: kit.CrashType(sig), Signal: kit.SignalNumber(sig), SignalName: sig, ExitCode: exit.Code,
		RunningTests: st.Crashed, Indicators: []string{"xdist_worker_crashed"}, Message: kit.Clip(msg)}
	return true
}

// Close stops the events' reader and removes the run's directory: after
// Finish, or instead of it when the interpreter never started.
func (r *Run) Close() error {
	r.StopEvents()
	r.Mu.Lock()
	defer r.Mu.Unlock()
	if r.closed || r.wd == nil {
		return nil
	}
	r.closed = true
	return r.wd.Remove()
}

// NameStuck names a run stuck while no test ran (adapters.StuckNamer) when
// its Python stacks show a module of the project being imported: pytest
// collecting a test file or loading a conftest.py, the unittest runner
// loading a module. The module is the stuck entry, at the line it hangs
// on, with the run of that file as its rerun.
func (r *Run) NameStuck(_ context.Context, funcs []string) (adapters.StuckName, bool) {
	for _, f := range funcs {
		loc, ok := strings.CutPrefix(f, "<module> (")
		if !ok {
			continue
		}
		i := strings.LastIndexByte(loc, ':')
		if i < 0 {
			continue
		}
		path := loc[:i]
		line, err := strconv.Atoi(strings.TrimSuffix(loc[i+1:], ")"))
		file, ok := kit.Rel(r.Fatal.Root, path)
		if err != nil || !ok || !filepath.IsAbs(path) || strings.Contains(file, "site-packages") || !kit.FileExists(path) {
			continue // not the project's own module
		}
		return adapters.StuckName{Name: file + " (as it was imported, before its tests ran)", File: file, Line: line, Rerun: r.M.Rerun(file)}, true
	}
	return adapters.StuckName{}, false
}
