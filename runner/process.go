package runner

import (
	"context"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"strobe/adapters"
	"strobe/adapters/kit"
	"strobe/details"
	"strobe/history"
	"strobe/internal/shell"
	"strobe/internal/tail"
	"strobe/report"
	"strobe/stuck"
)

// drainTimeout bounds how long the output readers may go without reading
// a byte after the process and everything of its run were killed, and
// drainCap how long they may read on in all. Only a process that both left
// the group and dropped STROBE_RUN_ID can still hold a pipe then; but a
// parser slower than the command leaves up to a pipe's worth of output to
// read after it ended, and that is read while the readers get on with it.
var (
	drainTimeout = 3 * time.Second // variables for the tests
	drainCap     = 30 * time.Second
)

// readPause is how long an output reader waits after a short read (see
// stamped): about what Go's timers give below a millisecond here.
const readPause = 500 * time.Microsecond

// proc is the running command of a run.
type proc struct {
	cmd    *exec.Cmd
	pgid   int
	waited chan struct{} // closed once the command is reaped
	ws     syscall.WaitStatus

	pipes   [2]*os.File // read ends: stdout, stderr
	tails   [2]*tail.Buffer
	readers sync.WaitGroup
	drop    atomic.Bool  // the drain gave up: the readers stop
	read    atomic.Int64 // bytes the readers took from the pipes
	// dropped says the drain gave up with a pipe still open: the answer
	// says that what came after is not in it.
	dropped time.Duration
	parseMu sync.Mutex // parsers are not safe for concurrent use

	stopOnce sync.Once
	window   pidWindow // where the sweep looks for the run's leftovers
	guard    *guard    // ends the run's processes if strobe dies first
}

func startProcess(r *Run) (*proc, error) {
	p := &proc{waited: make(chan struct{}), tails: [2]*tail.Buffer{tail.New(tailCap), tail.New(tailCap)}}
	var writers [2]*os.File
	for i := range p.pipes {
		rd, wr, err := outputPipe()
		if err != nil {
			p.closePipes(writers[:])
			return nil, fmt.Errorf("creating output pipe: %w", err)
		}
		p.pipes[i], writers[i] = rd, wr
	}
	argv := r.plan.Argv
	// The stack dump directory is named here and made by the first Python
	// process that registers its dump (strobe_stacks.py), not for every
	// run: a new directory's inode is a search of ext4's inode bitmap past
	// the recently deleted ones, which strobe's own churn of temporary
	// files fills (mkdir was 0.5 ms of the CLI's 11 ms of CPU on a cached
	// go test, up to a fifth of it in one profile). Its parent is strobe's
	// private directory. Without it a Python process gives no faulthandler
	// dump; py-spy or native stacks still come.
	if dd := r.detailsDir(); details.EnsureDir(dd) == nil {
		r.stacksDir = filepath.Join(filepath.Dir(dd), "stacks-"+r.ID)
	}
	env := r.environ()
	// The program is the one on the client's PATH, not the daemon's.
	prog, err := shell.LookPath(argv[0], env)
	if err != nil {
		p.closePipes(writers[:])
		r.removeStacksDir()
		return nil, &adapters.UsageError{Msg: fmt.Sprintf("cannot start %s: not found on PATH: install it or put it on PATH", argv[0])}
	}
	cmd := exec.Command(prog, argv[1:]...)
	cmd.Args[0] = argv[0]
	cmd.Dir = r.plan.Dir
	cmd.Env = env
	cmd.Stdin = nil // /dev/null: a test waiting for input must not hang
	cmd.Stdout, cmd.Stderr = writers[0], writers[1]
	cmd.SysProcAttr = sysProcAttr()
	p.cmd = cmd

	p.window = newPIDWindow() // before the fork: it counts from there
	started := make(chan error, 1)
	go func() {
		// Pdeathsig fires when the thread that forked the child exits, not
		// the process (golang/go#27505): fork from a locked thread that
		// lives until the child is reaped.
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		if err := cmd.Start(); err != nil {
			started <- err
			return
		}
		started <- nil
		cmd.Wait() // the status is in ProcessState; an error here adds nothing
		p.ws = cmd.ProcessState.Sys().(syscall.WaitStatus)
		close(p.waited)
	}()
	err = <-started
	// Our copies of the write ends must go, or the readers never see EOF.
	for _, w := range writers {
		w.Close()
	}
	if err != nil {
		p.closePipes(nil)
		r.removeStacksDir()
		return nil, &adapters.UsageError{Msg: fmt.Sprintf("cannot start %s: %v", argv[0], err)}
	}
	p.pgid = cmd.Process.Pid
	p.window.leader = p.pgid
	if !r.opts.Reaped {
		p.guard = newGuard(p.pgid, r.ID)
	}
	r.proc = p
	r.watch.Store(r.newWatch(p.pgid))
	// A traced run's output lines sit in the trace beside the functions'
	// events, in time order: they are read as they come, without a pause
	// that could put a line after the call it preceded.
	pause := readPause
	if r.tr != nil {
		pause = 0
	}
	for i, s := range []adapters.Stream{adapters.Stdout, adapters.Stderr} {
		p.readers.Add(1)
		go func() {
			defer p.readers.Done()
			cl, _ := adapters.ParserAs[adapters.CutLiner](r.plan.Parser)
			in := &stamped{r: p.pipes[i], stop: &p.drop, pause: pause, ended: p.waited}
			readLines(in, func(b []byte) { p.tails[i].Write(b); p.read.Add(int64(len(b))) }, func(b []byte, cut bool, end []byte) {
				if w := r.watch.Load(); w != nil {
					switch {
					case !inspectorLine(b):
						w.lastOutput.Store(in.at)
					case w.inspected.Load():
						return // node's lines about the inspector strobe opened
					}
				}
				r.traceLine(s, b)
				p.parseMu.Lock()
				defer p.parseMu.Unlock()
				if cut && cl != nil {
					cl.CutLine(s, b, end)
					return
				}
				r.plan.Parser.Line(s, b, cut)
			})
		}()
	}
	return p, nil
}

func (p *proc) closePipes(extra []*os.File) {
	for _, f := range append(p.pipes[:], extra...) {
		if f != nil {
			f.Close()
		}
	}
}

// environ is the client's environment, then the adapter's additions, then
// the request's overrides, then node's private inspector port, then the
// run id; exec keeps the last value of a repeated name.
func (r *Run) environ() []string {
	env := append(clientEnv(r.req.BaseEnv, nil), r.plan.Env...)
	for k, v := range r.req.Env {
		if mergedByAdapter(r.plan.Env, k, v) {
			continue
		}
		env = append(env, k+"="+v)
	}
	if r.stacksDir != "" {
		env = append(env, stuck.StacksDirEnv+"="+r.stacksDir)
	}
	env = nodeEnv(env)
	return append(env, RunIDEnv+"="+r.ID)
}

// mergedByAdapter tells whether the adapter's environment already holds
// the request's value of name at the end of a path list: the adapter saw
// it and put its own entries first (pytest's plugin directory on
// PYTHONPATH). Appending the request's value again would drop the
// adapter's: pluggy's tests with PYTHONPATH=src failed with "Error
// importing plugin strobe_plugin".
func mergedByAdapter(planEnv []string, name, value string) bool {
	if value == "" {
		return false
	}
	for i := len(planEnv) - 1; i >= 0; i-- {
		k, v, _ := strings.Cut(planEnv[i], "=")
		if k != name {
			continue
		}
		return v == value || strings.HasSuffix(v, string(os.PathListSeparator)+value)
	}
	return false
}

// removeStacksDir removes the run's stack dump directory, once nothing of
// the run can write there any more.
func (r *Run) removeStacksDir() {
	if r.stacksDir != "" {
		os.RemoveAll(r.stacksDir)
	}
}

// stop ends the process group in steps: SIGTERM, a grace period for the
// tests to clean up, then SIGKILL. It does not wait.
func (p *proc) stop() {
	p.stopOnce.Do(func() {
		syscall.Kill(-p.pgid, syscall.SIGTERM)
		go func() {
			select {
			case <-p.waited:
			case <-time.After(killGrace):
				syscall.Kill(-p.pgid, syscall.SIGKILL)
			}
		}()
	})
}

// supervise watches the run until the command ends, enforcing the build and
// test timeouts and cancellation, then finishes the run.
func (r *Run) supervise(ctx context.Context, p *proc) {
	var timedOut, cancelled, stopped bool
	var began *time.Time
	build := time.NewTimer(buildTimeout)
	defer build.Stop()
	var testTimer <-chan time.Time
	beganCh := r.rec.TestingBegan()
	w := r.watch.Load()
	w.deadline.Store(time.Now().Add(buildTimeout).UnixNano())
	detCtx, stopDetector := context.WithCancel(context.Background())
	defer stopDetector()
	verdicts := make(chan *stuck.Verdict, 1)
	go func() { verdicts <- w.det.Run(detCtx) }()
	go details.Warm() // the answer's encoders, built while the command runs
	r.readAhead()
	defer r.ahead.Close() // when the run records nothing
wait:
	for {
		select {
		case <-p.waited:
			break wait
		case <-beganCh:
			beganCh = nil
			now := time.Now()
			began = &now
			build.Stop()
			t := time.NewTimer(r.timeout)
			defer t.Stop()
			testTimer = t.C
			w.deadline.Store(now.Add(r.timeout).UnixNano())
		case v := <-verdicts:
			verdicts = nil
			if v != nil && !stopped {
				stopped = true
				r.onVerdict(w, v)
				p.stop()
			}
		case <-build.C:
			timedOut, stopped = true, true
			p.stop()
		case <-testTimer:
			if !stopped {
				stopDetector()
				r.onHardTimeout(w)
				timedOut, stopped = true, true
				p.stop()
			}
		case <-ctx.Done():
			cancelled = !stopped
			stopped = true
			p.stop()
			ctx = context.Background() // don't select a done context again
		}
	}
	stopDetector()
	if w.symbols != nil {
		// The stacks are captured: the copies with symbols are no
		// longer needed, and a link still under way was cancelled.
		w.symbols.close()
	}
	// The leader is gone; nothing else of the run may stay: its group,
	// then anything that left the group but carries the run id.
	syscall.Kill(-p.pgid, syscall.SIGKILL)
	// The sweep runs beside the drain and the answer's making (a leftover
	// that holds a pipe ends the drain when it is killed); the run is done
	// only once the sweep is.
	swept := make(chan struct{})
	go func() { killRunID(r.ID, p.window); close(swept) }()
	r.removeStacksDir()
	drained := make(chan struct{})
	go func() { p.readers.Wait(); close(drained) }()
	if since := time.Now(); !p.drain(drained) {
		p.drop.Store(true)
		for _, f := range p.pipes {
			wakeReader(f)
		}
		<-drained
		p.dropped = time.Since(since)
	}
	p.closePipes(nil)
	r.finish(p, began, timedOut, cancelled)
	<-swept
	p.guard.end()
	close(r.done)
}

// drain waits for the readers to end, while they read on: it gives up
// (false) after drainTimeout without a byte read or drainCap in all.
func (p *proc) drain(drained <-chan struct{}) bool {
	limit := time.NewTimer(drainCap)
	defer limit.Stop()
	tick := time.NewTicker(drainTimeout)
	defer tick.Stop()
	last := p.read.Load()
	for {
		select {
		case <-drained:
			return true
		case <-limit.C:
			return false
		case <-tick.C:
			if n := p.read.Load(); n != last {
				last = n
				continue
			}
			return false
		}
	}
}

// finish makes the run's answer once its processes are gone; supervise
// closes done after it.
func (r *Run) finish(p *proc, began *time.Time, timedOut, cancelled bool) {
	finished := time.Now()
	exit := exitOf(p.ws)
	w := r.watch.Load()
	switch {
	case w != nil && w.verdict != nil:
		exit.StoppedBy = report.StoppedStuck
	case timedOut:
		exit.StoppedBy = report.StoppedTimeout
	case cancelled:
		exit.StoppedBy = report.StoppedCancelled
	}
	p.parseMu.Lock()
	outcome := r.plan.Parser.Finish(exit)
	p.parseMu.Unlock()
	closeParser(r.plan.Parser)
	waiting := r.rec.Progress().Waiting
	running := r.rec.Abandon()
	if w != nil && len(running) == 0 {
		running = w.running
	}
	tests := r.rec.Tests()
	envReruns(tests, r.req.Env)

	e := ending{exit: exit, outcome: outcome, timedOut: timedOut, cancelled: cancelled,
		recorded: len(tests), running: running, outputBytes: p.tails[0].Total() + p.tails[1].Total()}
	var stuckTests []report.StuckTest
	if w != nil {
		switch {
		case w.verdict != nil:
			e.stuck = w.verdict.Diagnosis
			stuckTests = r.stuckTests(w, w.verdict.Diagnosis, w.verdict.At, verdictTests(w.verdict))
		case timedOut:
			stuckTests = w.onTimeout
		}
	}
	r.nameStuck(w, stuckTests)
	if c, ok := adapters.ParserAs[adapters.RestCommander](r.plan.Parser); ok && exit.StoppedBy != "" {
		outcome.Hint = kit.WithRest(outcome.Hint, r.adapter.Name(), exit.StoppedBy, c.RestCommand(exit.StoppedBy))
	}
	if _, lags := adapters.ParserAs[adapters.StacksOverEvents](r.plan.Parser); lags && e.stuck != "" {
		// The events' running tests lag behind (their ends never came):
		// what ran is what the stacks showed.
		e.running = nil
		for _, s := range stuckTests {
			if !s.AfterTests {
				e.running = append(e.running, s.Name)
			}
		}
	}
	r.rerunStuck(stuckTests, tests)
	if e.stuck != "" {
		markStuck(tests, stuckTests)
	}
	stuckTests, parents := listLeaves(stuckTests)
	var failed []report.Failure
	sum := report.Summary{DurationMS: finished.Sub(r.started).Milliseconds()}
	for _, t := range tests {
		switch t.Status {
		case report.TestPassed:
			sum.Passed++
		case report.TestSkipped:
			sum.Skipped++
		case report.TestFailed:
			sum.Failed++
			// A test without a Failure failed only through others (a Go
			// parent whose subtests failed): counted, not listed.
			if t.Failure != nil {
				failed = append(failed, *t.Failure)
			}
		}
	}
	// A summary line counts tests the adapter could not name; when some
	// tests' lines could not be read (Unread), the framework's totals win.
	e.failed = sum.Failed
	if outcome.Summary != nil && (len(tests) == 0 || outcome.Unread > 0) {
		s := *outcome.Summary
		sum.Passed, sum.Failed, sum.Skipped = s.Passed, s.Failed, s.Skipped
		if outcome.Unread > 0 {
			e.failed = sum.Failed // an unread failed test fails the run
		}
	}
	status, crash := classify(e)
	if status == report.Passed && sum.Passed == 0 && sum.Failed == 0 && sum.Skipped > 0 && r.namesTests() {
		// The tests asked for by name were all skipped (#[ignore],
		// DISABLED_, a skip condition): none ran, so none passed.
		status = report.NoTests
	}
	if status == report.Stuck {
		sum.Stuck = stuckCount(stuckTests) + parents
	}

	if len(r.req.Env) > 0 {
		a := assignments(r.req.Env)
		outcome.Hint = gdbWithAssignments(restWithAssignments(outcome.Hint, a), a)
	}
	resp := &report.Response{Status: status, RunID: r.ID, Framework: r.adapter.Name(), Command: r.Command(),
		Summary: &sum, Crash: crash, Project: outcome.Project, Hint: joinHints(joinHints(joinHints(r.detected, r.sel.hint), outcome.Hint), r.untestedHint()),
		Truncated: p.tails[0].Truncated() || p.tails[1].Truncated(), Stuck: stuckTests}
	if status == report.Error {
		resp.Error = outcome.Refused
	}
	suggestFromSource(r.req.ProjectRoot, failed)
	listFailures(resp, failed)
	// A framework that retries on its own (cargo-nextest) already counted
	// its flaky tests passed: the answer names them as strobe's retries do.
	for _, f := range outcome.Flaky {
		resp.Flaky = append(resp.Flaky, report.Flaky{Name: f.Name, Attempts: f.Attempts, PassedOn: f.Attempts,
			FirstFailure: report.FirstFailure{Message: kit.ClipTo(f.Message, maxMessage, trimmed), File: f.File, Line: f.Line}})
		sum.Flaky++
	}
	for i, b := range outcome.BuildErrors {
		if i == maxFailures {
			break
		}
		b.Message = kit.ClipTo(b.Message, maxMessage, trimmed)
		resp.BuildErrors = append(resp.BuildErrors, b)
	}
	// The adapter's hint knows the framework, the runner's the ending:
	// an answer may need both.
	if h := r.hint(resp); h != resp.Hint {
		resp.Hint = joinHints(resp.Hint, h)
	}
	if h := r.namesakesHint(tests); h != "" {
		resp.Hint = joinHints(resp.Hint, h)
	}
	if p.dropped > 0 {
		resp.Hint = joinHints(resp.Hint, fmt.Sprintf("strobe stopped reading the command's output %v after the command ended, with its stdout or stderr still open: a process that left the run (a session of its own, without STROBE_RUN_ID) holds it, and what it wrote after that is not in this answer", p.dropped.Round(100*time.Millisecond)))
	}
	if len(waiting) > 0 && status != report.Passed {
		resp.Hint = joinHints(resp.Hint, waitingHint(waiting))
	}
	resp.Shuffle = outcome.Shuffle
	if resp.Shuffle != nil && sum.Failed > 0 {
		resp.Hint = joinHints(resp.Hint, shuffleHint(resp.Shuffle))
	}
	if r.rerun {
		r.resp, r.tests = resp, tests // the run that started it reads them
		return
	}
	r.began = began
	r.binaryDied = slices.Contains(outcome.Indicators, report.IndicatorBinaryDied)
	r.notReached = slices.Contains(outcome.Indicators, report.IndicatorNotReached)
	failed, tests = r.retryFailed(resp, failed, tests)
	failed, tests = r.repeatRuns(resp, failed, tests)

	if r.part != nil {
		r.keep(resp, failed, tests, exit, outcome.Indicators, p, began, finished)
		return
	}
	r.annotate(resp)
	r.noteUnrunAsked(resp, tests)
	r.nameLikeIt(resp)
	fullTrace, traceIndicators, refused := r.endTrace(resp, finished)
	if refused {
		// The tracer refused the patterns before any test ran: what the
		// framework made of it (go test's package failure) is no test's
		// result, in the details file or the history.
		failed, tests = nil, nil
	}
	dir := r.detailsDir()
	// The JUnit report is written beside the history's comparison and the
	// details file (it reads nothing they add).
	var junitDone func(*report.Response) string
	resp.JUnit, junitDone = r.startJUnit(dir, resp, tests) // the details file names it too
	allChanges, recorded := r.remember(resp, failed, tests)

	rec := &details.Record{Response: *resp, ProjectRoot: r.req.ProjectRoot, Adapter: r.adapter.Name(),
		Level: string(r.level), Test: r.req.Test, Argv: r.plan.Argv, Dir: r.plan.Dir, Env: r.req.Env,
		TimeoutMS: r.timeout.Milliseconds(), Started: r.started, TestsBegan: began, Finished: finished,
		Exit: &exit, Tests: tests, Indicators: append(outcome.Indicators, traceIndicators...),
		Stdout: details.Stream{Text: p.tails[0].String(), Bytes: p.tails[0].Total(), Truncated: p.tails[0].Truncated()},
		Stderr: details.Stream{Text: p.tails[1].String(), Bytes: p.tails[1].Total(), Truncated: p.tails[1].Truncated()}}
	rec.Response.Failures = failed // the file keeps every failure, untrimmed
	rec.Response.FailuresOmitted = 0
	rec.Response.Changes = allChanges
	rec.Commit, rec.Command = r.commit(), strings.TrimSpace(r.req.Command)
	rec.Response.Trace = fullTrace // every matched name and warning
	if path, err := details.Write(dir, rec); err == nil {
		resp.Details = path
	} else {
		resp.Hint = strings.TrimSpace(resp.Hint + " (no details file: " + err.Error() + ")")
	}
	resp.JUnit = junitDone(resp)
	recorded(resp)
	r.resp = resp
}

// waitingHint names the tests that were paused when the run ended (Go's
// t.Parallel, waiting for the tests that run one at a time): they are in
// no count and no stuck entry, and they never ran to their end.
func waitingHint(waiting []adapters.RunningTest) string {
	var names []string
	for _, t := range waiting {
		names = append(names, t.Name)
	}
	what := "tests were"
	if len(names) == 1 {
		what = "test was"
	}
	return fmt.Sprintf("%d more %s paused, waiting for the tests that run one at a time (t.Parallel), and never went on: %s", len(names), what, strings.Join(clipList(names, 3), ", "))
}

// markStuck gives the tests the detector found stuck their status, where
// the adapter left them running or failed them on the way out (the signal
// that ended them, or the dump asked for their stacks, read as their
// failure). A stuck test is stuck, not also failed, so the counts add up
// to the tests that ran. (The adapters mean not to; this holds for any
// that does.)
func markStuck(tests []report.Test, stuckTests []report.StuckTest) {
	for i := range tests {
		t := &tests[i]
		if (t.Status == report.TestFailed || t.Status == report.TestRunning) &&
			slices.ContainsFunc(stuckTests, func(s report.StuckTest) bool { return !s.AfterTests && s.Name == t.Name }) {
			t.Status, t.Failure = report.TestStuck, nil
		}
	}
}

// rerunStuck gives each stuck test that has none the command that runs it
// alone (adapters.Reruner), with the run's environment overrides in front
// as envReruns puts them in front of a failure's.
func (r *Run) rerunStuck(entries []report.StuckTest, tests []report.Test) {
	rr, ok := adapters.ParserAs[adapters.Reruner](r.plan.Parser)
	if !ok {
		return
	}
	for i := range entries {
		e := &entries[i]
		if e.Rerun != "" || e.AfterTests {
			continue
		}
		found := false
		for _, t := range tests {
			if t.Name == e.Name && (t.Status == report.TestRunning || t.Status == report.TestFailed) {
				e.Rerun, found = rr.Rerun(t.Suite, t.Name), true
				break
			}
		}
		if !found && e.Name != r.Command() {
			// Named by its process's stacks alone (Maven's, whose results
			// come at the end): by its name.
			e.Rerun = rr.Rerun("", e.Name)
		}
		if e.Rerun != "" && len(r.req.Env) > 0 {
			e.Rerun = withAssignments(e.Rerun, assignments(r.req.Env))
		}
	}
}

// envReruns puts the run's environment overrides (--env, debug_test's
// env) in front of every failure's rerun, as shell assignments: a test
// that fails only with them (a SEGV=1 that makes it crash) must fail again
// when its rerun is pasted.
func envReruns(tests []report.Test, env map[string]string) {
	if len(env) == 0 {
		return
	}
	a := assignments(env)
	for _, t := range tests {
		if t.Failure != nil && t.Failure.Rerun != "" {
			t.Failure.Rerun = withAssignments(t.Failure.Rerun, a)
		}
	}
}

// assignments are env as shell assignments, each followed by a space.
func assignments(env map[string]string) string {
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(env)) {
		b.WriteString(k + "=" + shell.Quote(env[k]) + " ")
	}
	return b.String()
}

// withAssignments puts assignments in front of a rerun's command: after
// its `cd DIR && ` when it starts with one (a JavaScript package's
// directory), where they would set the variables for cd alone.
func withAssignments(rerun, assign string) string {
	if strings.HasPrefix(rerun, "cd ") {
		if i := strings.Index(rerun, " && "); i > 0 {
			return rerun[:i+4] + assign + rerun[i+4:]
		}
	}
	return assign + rerun
}

// restMark begins the command an adapter's hint gives for the rest of a
// run strobe stopped ("…; to run the rest without what hung: CMD").
const restMark = "to run the rest without "

// restWithAssignments puts the run's environment overrides in front of
// the rest's command in an adapter's hint, as in front of a rerun: pasted
// without them, the rest ran in another environment.
func restWithAssignments(hint, assign string) string {
	i := strings.Index(hint, restMark)
	if i < 0 {
		return hint
	}
	colon := strings.Index(hint[i:], ": ")
	if colon < 0 {
		return hint
	}
	at := i + colon + 2
	end := len(hint)
	if j := strings.Index(hint[at:], "; "); j >= 0 {
		end = at + j
	}
	return hint[:at] + withAssignments(hint[at:end], assign) + hint[end:]
}

// gdbWithAssignments puts the run's environment overrides in front of a
// `gdb --args …` an adapter's hint gives (GoogleTest's binary that died):
// a test that crashes only with them (CRASH=1) runs clean under gdb
// without them.
func gdbWithAssignments(hint, assign string) string {
	hint = strings.ReplaceAll(hint, "gdb --args ", assign+"gdb --args ")
	return strings.ReplaceAll(hint, "gdb -batch ", assign+"gdb -batch ") // Catch2's break on exit()
}

// listFailures puts the first maxFailures of failed, their messages
// clipped, in the answer.
func listFailures(resp *report.Response, failed []report.Failure) {
	resp.Failures, resp.FailuresOmitted = nil, 0
	for _, f := range pickFailures(failed, maxFailures) {
		f.Message = kit.ClipFailure(f, maxMessage, trimmed)
		f.Later, f.LaterOmitted = nil, 0 // the message names them; the details file lists them
		resp.Failures = append(resp.Failures, f)
	}
	resp.FailuresOmitted = len(failed) - len(resp.Failures)
}

// pickFailures is at most n of the failures, in their order: when there
// are more, first one of each message (its first line, without what
// changes from one test to the next: history.Normalise), then the rest in
// order. One fixture's error repeated by every test of a class would
// otherwise fill the list, and a failure of its own be left out.
func pickFailures(failed []report.Failure, n int) []report.Failure {
	if len(failed) <= n {
		return failed
	}
	picked := make([]bool, len(failed))
	seen := map[string]bool{}
	k := 0
	for i, f := range failed {
		first, _, _ := strings.Cut(strings.TrimSpace(f.Message), "\n")
		if key := history.Normalise(first); !seen[key] && k < n {
			seen[key], picked[i] = true, true
			k++
		}
	}
	for i := range failed {
		if k == n {
			break
		}
		if !picked[i] {
			picked[i] = true
			k++
		}
	}
	out := make([]report.Failure, 0, n)
	for i, f := range failed {
		if picked[i] {
			out = append(out, f)
		}
	}
	return out
}

// joinHints joins the adapter's hint and the runner's as two sentences:
// each is written as a clause, and a bare space between them reads as one
// run-on sentence. One alone is kept as it is.
func joinHints(adapter, runner string) string {
	adapter, runner = strings.TrimSpace(adapter), strings.TrimSpace(runner)
	if adapter == "" || runner == "" {
		return adapter + runner
	}
	if endsInPath(adapter) {
		// `… go test ./...`: its dots are the command's, not a full stop.
		return adapter + "; " + sentence(runner)
	}
	return sentence(adapter) + " " + capitalize(sentence(runner))
}

// endsInPath says whether s ends with a command's path whose last
// character is a dot (./..., the package .), which a full stop would
// change.
func endsInPath(s string) bool {
	return strings.HasSuffix(s, "/...") || strings.HasSuffix(s, " .") || strings.HasSuffix(s, "/.")
}

// capitalize starts a sentence with a capital when its first word is a
// plain lowercase word: an import path, a file or a flag that opens it
// stays as written (github.com/spf13/cobra, go.mod, -run), and so does
// strobe's own name, written lowercase everywhere else.
func capitalize(s string) string {
	word, _, _ := strings.Cut(s, " ")
	if word == "" || word == "strobe" || strings.ContainsFunc(word, func(r rune) bool { return (r < 'a' || r > 'z') && !strings.ContainsRune(",:;'", r) }) {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// sentence ends s with a period unless it already ends a sentence.
func sentence(s string) string {
	if strings.HasSuffix(s, ".") || strings.HasSuffix(s, "?") || strings.HasSuffix(s, "!") {
		return s
	}
	return s + "."
}

// fewWords is what a run that printed almost nothing printed (stderr,
// then stdout), its lines joined by " / ", "" when nothing.
func (r *Run) fewWords() string {
	if r.proc == nil {
		return ""
	}
	var lines []string
	for _, i := range []int{1, 0} {
		for _, l := range strings.Split(r.proc.tails[i].String(), "\n") {
			if l = strings.TrimSpace(l); l != "" {
				lines = append(lines, l)
			}
		}
	}
	return kit.ClipTo(strings.Join(lines, " / "), 300, "…")
}

// namesakesHint says that the one test asked for by name ran in several
// suites (a test of that name in two cargo test binaries, two Go
// packages, two Maven modules): "exactly this test" ran more than once.
func (r *Run) namesakesHint(tests []report.Test) string {
	if r.req.Test == "" {
		return ""
	}
	var suites []string
	for _, t := range tests {
		if t.Name == r.req.Test && t.Suite != "" && !slices.Contains(suites, t.Suite) {
			suites = append(suites, t.Suite)
		}
	}
	if len(suites) < 2 {
		return ""
	}
	slices.Sort(suites) // in the order they ran, the answer changed from run to run
	return fmt.Sprintf("%d tests named %s ran, one in each of %s: the details file has each one's result", len(suites), r.req.Test, kit.JoinAnd(suites))
}

// lastWords is the last n lines with text of what the command wrote to
// stderr, else to stdout, joined and clipped: why a command that ran no
// test failed, most of the time.
func (r *Run) lastWords(n int) string {
	if r.proc == nil {
		return ""
	}
	for _, i := range []int{1, 0} {
		var lines []string
		for _, l := range strings.Split(r.proc.tails[i].String(), "\n") {
			if l = strings.TrimSpace(l); l != "" {
				lines = append(lines, l)
			}
		}
		if len(lines) > 0 {
			return kit.ClipTo(strings.Join(lines[max(0, len(lines)-n):], " / "), 300, "…")
		}
	}
	return ""
}

// shuffleHint says that a shuffled run's failures may depend on the
// order or the seed, and how to run the whole run that way again: a test
// rerun alone that passes proves nothing then.
func shuffleHint(sh *report.Shuffle) string {
	seed := ""
	if sh.Seed != "" {
		seed = " (seed " + sh.Seed + ")"
	}
	return "the tests ran in a random order" + seed + ": a failure may depend on the tests that ran before it, or on the seed, " +
		"so a test rerun alone can pass where the run failed; `" + sh.Command + "` runs the whole run in the same order"
}

// hint says what to do next, for the answers that need one.
func (r *Run) hint(resp *report.Response) string {
	crash := resp.Crash
	switch resp.Status {
	case report.Stuck:
		if len(resp.Stuck) > 0 && !slices.ContainsFunc(resp.Stuck, func(s report.StuckTest) bool { return !s.AfterTests }) {
			h := "strobe stopped the run: " + r.afterTestsHint()
			if w := r.watch.Load(); w != nil && w.verdict != nil && w.verdict.Kind == stuck.AfterEnd {
				after := fmt.Sprintf("%v after its framework reported the end of its run", r.defaultWait(stuck.DefaultAfterEnd))
				if !r.rec.Progress().Ended {
					after = fmt.Sprintf("%v after its last test when the framework reports no end", stuck.AfterEndUnreported*r.defaultWait(stuck.DefaultAfterEnd))
				}
				h += ". Under the default timeout strobe stops a process that stays " + after + "; under a timeout of your own it waits until that timeout"
			}
			return h
		}
		h := "strobe stopped the run: the stuck test's stacks show where it waits or spins"
		if slices.ContainsFunc(resp.Stuck, func(s report.StuckTest) bool { return len(s.SuggestedTraces) > 0 }) {
			h += "; suggested_traces names the project's functions in them"
		}
		if w := r.watch.Load(); w != nil && w.verdict != nil && (w.verdict.Kind == stuck.Overdue || w.verdict.Kind == stuck.OverdueBusy) {
			h += fmt.Sprintf(". If it is only slower now, set a timeout: under the default one strobe calls a silent test stuck once it has run %d times its last time (and %v), a test not seen to pass %d times the project's slowest (and %v); under a timeout of your own it waits until that timeout",
				stuck.OverdueFactor, r.defaultWait(stuck.DefaultOverdue), stuck.OverdueFactor, stuck.NewOverdueFactor*r.defaultWait(stuck.DefaultOverdue))
		}
		return h
	case report.Timeout:
		if len(crash.RunningTests) == 0 && slices.ContainsFunc(resp.Stuck, func(s report.StuckTest) bool { return s.AfterTests }) {
			return fmt.Sprintf("the run passed its %v timeout after its tests: %s", r.timeout, r.afterTestsHint())
		}
		if len(crash.RunningTests) > 0 {
			return fmt.Sprintf("the run passed its %v timeout while %s ran: %s, or raise the timeout if it is only slow", r.timeout, strings.Join(crash.RunningTests, ", "), rerunAlone(crash.RunningTests))
		}
		return fmt.Sprintf("the run passed its %v timeout: raise the timeout if the suite is only slow", r.timeout)
	case report.Failed:
		// A command that ran no test and failed (a setup step, a missing
		// go.mod under `make test`): its last words say why, where the
		// details file alone had them.
		if s := resp.Summary; crash != nil && crash.Type == report.CrashUnknown && s != nil && s.Passed+s.Failed+s.Skipped == 0 {
			if said := r.lastWords(3); said != "" {
				return fmt.Sprintf("the command ran no test and failed; its output ends: %q", said)
			}
		}
	case report.Crashed:
		if slices.Contains(crash.Indicators, report.IndicatorInfrastructure) {
			return "" // the test runner failed, not the tests: the adapter's hint says what to do
		}
		if crash.SilentFailure {
			if said := r.fewWords(); said != "" {
				// "Without output" would not be true: a linter's one line
				// before the tests, a shell's "not found".
				return fmt.Sprintf("the command failed, printing only %q: run it by hand in the project directory to see why (a missing library, a wrong working directory?)", said)
			}
			return "the command failed without output: run it by hand in the project directory to see why (a missing library, a wrong working directory?)"
		}
		if h := eachCrashed(crash); h != "" {
			return h
		}
		if len(crash.RunningTests) > 0 {
			return fmt.Sprintf("a test process crashed while %s ran: %s and look at the details file's output", strings.Join(crash.RunningTests, ", "), rerunAlone(crash.RunningTests))
		}
		return "the process crashed: the details file has its full output"
	case report.BuildFailed:
		if s := resp.Summary; s != nil && s.Passed+s.Failed+s.Skipped > 0 {
			// A package or module that did not build beside others that
			// ran (go test, Maven's -fae, unittest): their results stand.
			h := fmt.Sprintf("some tests did not build: fix the build errors, then rerun; the others ran: %d passed, %d failed", s.Passed, s.Failed)
			if s.Failed > 0 {
				h += ", their failures listed with the build errors"
			}
			return h
		}
		return "the tests did not build: fix the build errors, then rerun"
	case report.Passed, report.NoTests:
		// A selection of skipped tests, and nothing ran: an agent that
		// asked for one test must not read that as its pass.
		if s := resp.Summary; s != nil && s.Passed == 0 && s.Failed == 0 && s.Skipped > 0 {
			h := fmt.Sprintf("no test ran: the %d selected were skipped (ignored, or skipped by a condition); the details file has their output", s.Skipped)
			if how := runIgnored[resp.Framework]; how != "" {
				h += "; " + how
			}
			return h
		}
	}
	return ""
}

// runIgnored says how a framework runs the tests it skips unless asked.
var runIgnored = map[string]string{
	"cargo":   "an #[ignore] test runs with `cargo test -- --ignored`",
	"nextest": "an #[ignore] test runs with `cargo nextest run --run-ignored all`",
	"gtest":   "a DISABLED_ test runs with --gtest_also_run_disabled_tests",
	"ctest":   "a DISABLED test runs once its DISABLED property is off, a DISABLED_ GoogleTest test with --gtest_also_run_disabled_tests",
}

// namesTests says whether the request asked for tests by name (--test,
// --failed's): a run of them that skipped them all is no pass.
func (r *Run) namesTests() bool {
	return r.req.Test != "" || r.req.OnlyFailed
}

// stuckCount is summary.stuck: the stuck tests, not a process stuck after
// its tests.
func stuckCount(stuck []report.StuckTest) int {
	n := 0
	for _, s := range stuck {
		if !s.AfterTests {
			n++
		}
	}
	return n
}

// afterTestsHint says what to do about a process that did not exit after
// its tests: the framework's advice, when the adapter has some.
func (r *Run) afterTestsHint() string {
	h := "its tests had finished and the process did not exit; the stacks show what it waits for: "
	if !r.rec.Progress().Ended {
		// The framework did not say its run ended: another test file
		// or binary may have been about to start.
		h = "no test was running and the process did not go on (after its tests, or between two of them); the stacks show what it waits for: "
	}
	if a, ok := r.adapter.(adapters.ExitAdvisor); ok {
		return h + a.ExitAdvice()
	}
	return h + "end what the tests started (a server, a socket, a timer, a thread, a child process) in their teardown"
}

// rerunAlone says to rerun the tests that were running, one or several.
func rerunAlone(running []string) string {
	if len(running) == 1 {
		return "rerun that test alone"
	}
	// They may have run in different processes (cargo's test binaries,
	// nextest's one process a test): their running together is a cause
	// only where they shared one.
	return "rerun each of them alone (one of them did it, or, where they shared a process, their running together)"
}

// eachCrashed is the hint for tests that each crashed in a process of
// their own (Crash.Died: CTest's and nextest's one process a test): each
// did, of what the record says; none is a suspect beside another. "" when
// the adapter did not say so of every running test.
func eachCrashed(c *report.Crash) string {
	if len(c.RunningTests) == 0 || len(c.Died) != len(c.RunningTests) {
		return ""
	}
	if len(c.RunningTests) == 1 {
		return fmt.Sprintf("%s crashed in a test process of its own (it %s): rerun it alone and look at the details file's output", c.RunningTests[0], c.Died[0])
	}
	how := make([]string, len(c.RunningTests))
	for i, name := range c.RunningTests {
		how[i] = name + " " + c.Died[i]
	}
	return fmt.Sprintf("each of %s crashed, each in a test process of its own (%s): rerun each alone and look at the details file's output", strings.Join(c.RunningTests, ", "), strings.Join(how, "; "))
}

// trimmed ends a message the answer cut short.
const trimmed = "… (trimmed; the details file has it all)"
