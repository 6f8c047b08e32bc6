// Package runner runs one test command: it validates the request, picks the
// adapter, spawns the command in its own process group, streams its output
// into the adapter's parser and into bounded tail buffers, enforces the
// timeout with SIGTERM, a grace period and SIGKILL, makes sure no process of
// the run outlives it, classifies how it ended, and writes the details file.
package runner

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"

	"strobe/adapters"
	"strobe/adapters/all"
	"strobe/history"
	"strobe/internal/shell"
	"strobe/report"
)

// Default test-phase timeouts by level (DESIGN.md). Building is bounded
// separately by buildTimeout.
var defaultTimeouts = map[adapters.Level]time.Duration{
	adapters.LevelUnit:        30 * time.Second,
	adapters.LevelIntegration: 120 * time.Second,
	adapters.LevelE2E:         300 * time.Second,
	// Each doctest is compiled on its own while the doctests run.
	adapters.LevelDoc: 300 * time.Second,
	adapters.LevelAll: 600 * time.Second,
}

const (
	buildTimeout = 30 * time.Minute
	maxTimeout   = 24 * time.Hour
	// killGrace is how long SIGTERM has before SIGKILL follows.
	killGrace = 5 * time.Second
	// tailCap bounds the raw output kept per stream.
	tailCap = 10 << 20
	// maxFailures bounds the failures listed in a response; the details
	// file has them all.
	maxFailures = 20
	// maxMessage bounds a failure message in a response.
	maxMessage = 800
)

// RunIDEnv names the variable every test process gets, so that whatever it
// spawns can be found and killed after the run.
const RunIDEnv = "STROBE_RUN_ID"

// Request is one run as a client asks for it.
type Request struct {
	ProjectRoot string
	Framework   string
	Level       string
	Test        string
	// Command is a command line: the test binary, or the whole command for
	// the generic framework. Shell syntax runs through /bin/sh -c.
	Command string
	// Env overrides the client's environment for this run.
	Env map[string]string
	// BaseEnv is the client's environment; nil means this process's.
	BaseEnv []string
	// Timeout bounds the test phase; 0 means the default for the level.
	Timeout time.Duration
	// OnlyFailed reruns the failed and stuck tests of the previous
	// comparable run (the history's); Partition ("hash:M/N",
	// "slice:M/N") runs one part of the suite. See select.go.
	OnlyFailed bool
	Partition  string
	// Trace, when it has patterns or watches, runs the tests under the
	// adapter's tracer (trace.go).
	Trace *Trace
	// Retries reruns each failed test alone up to this many times (at
	// most maxRetries), stopping at its first pass: a test that passes
	// then is flaky. RetryStuck retries stuck tests and those a crash
	// left running too.
	Retries    int
	RetryStuck bool
	// Repeat runs the selection this many times (at most maxRepeat) and
	// counts each test's passes and failures.
	Repeat int
}

// Options configure the runner itself.
type Options struct {
	// DetailsDir is where details files go; empty means details.Dir().
	DetailsDir string
	// HistoryDir is the run history (history.Dir of STROBE_HOME) every
	// run is recorded in and compared with; empty keeps no history.
	HistoryDir string
	// Reaped says that a process outside this one ends the runs'
	// processes if this one dies (the daemon's reaper): no run starts a
	// guard of its own (see guard).
	Reaped bool
	// Overdue replaces stuck.DefaultOverdue and stuck.DefaultAfterEnd,
	// the waits of the overdue and lingering rules under the default
	// timeout; zero keeps them. The adapters' tests reach those verdicts
	// in seconds with it (the runner's own keep the defaults).
	Overdue time.Duration
}

// Run is one run in progress or done.
type Run struct {
	ID       string
	req      Request
	opts     Options
	adapter  adapters.Adapter
	areq     adapters.Request
	plan     *adapters.Plan
	level    adapters.Level
	timeout  time.Duration
	rec      *adapters.Recorder
	detected string // what detection says beside its pick (another framework, a fallback), for the answer's hint
	// untested is what lookBelow found: the projects below the root the
	// run does not test, as the answer's hint says them; nil when not
	// looked for.
	untested chan string
	started  time.Time
	cancelMu sync.Mutex
	planMu   sync.Mutex      // guards plan while Start sets it
	ctx      context.Context // the run's own: Cancel ends it
	cancel   context.CancelCauseFunc
	done     chan struct{}
	resp     *report.Response
	proc     *proc
	watch    atomic.Pointer[watch]
	sel      selection
	// stacksDir is the run's private directory for its processes' stack
	// dumps (stuck.StacksDirEnv), made by the first process that dumps
	// there and removed when the run ends.
	stacksDir string
	tr        *tracing // nil for a run not traced
	// rerun marks a rerun of a retry or a repeat: finish leaves its result
	// in resp and tests for the run that started it, and records nothing.
	rerun bool
	tests []report.Test
	// began is when testing began, for the reruns' share of the timeout.
	began *time.Time
	// binaryDied says a test binary died before its last test: retries of
	// single tests cannot make the run pass.
	binaryDied bool
	// notReached says the run left part of its selection unstarted (a
	// module Maven skipped after one failed): the same holds.
	notReached bool
	// current is the rerun under way, while a retry or repeat runs one.
	current atomic.Pointer[Run]
	// seq, when set, runs several tests one by one (sequence.go); part,
	// when set, makes this run one of them.
	seq  *sequence
	part *part
	// ahead is the project's history, read while the command runs (see
	// readAhead); remember takes it.
	ahead *history.Ahead
}

// ErrCancelled is the cause of a run stopped by its client.
var ErrCancelled = errors.New("cancelled")

// Start validates req, plans it and starts the command: New, then the
// run's Start. A request strobe cannot run is an error (a
// *adapters.UsageError when the client should change it); ErrorResponse
// turns it into a response.
func Start(ctx context.Context, req Request, opts Options) (*Run, error) {
	r, err := New(req, opts)
	if err != nil {
		return nil, err
	}
	if err := r.Start(ctx); err != nil {
		return nil, err
	}
	return r, nil
}

// New validates req and picks its adapter: a run with its id, that Cancel
// reaches, not planned or started yet. A caller that must be able to stop
// the run while it is planned (the daemon's debug_test_cancel, its
// shutdown) holds it from here.
func New(req Request, opts Options) (*Run, error) {
	r, err := prepare(req, opts)
	if err != nil {
		return nil, err
	}
	// The run's lifetime is its own: the caller's context only reaches it
	// through Cancel (a daemon's client may go away; the run goes on).
	r.ctx, r.cancel = context.WithCancelCause(context.Background())
	return r, nil
}

// lookBelow looks, beside a run of the whole suite, for the projects
// below its root that it does not test (a vitest package in a Go
// module's web/): the run answered passed, and nothing said that half of
// the repository's tests never ran.
func (r *Run) lookBelow() {
	if r.areq.Level != adapters.LevelAll || r.areq.Test != "" || len(r.areq.Command) > 0 || r.sel.onlyFailed || r.sel.partition != nil {
		return
	}
	r.untested = make(chan string, 1)
	go func() { r.untested <- all.UntestedHint(all.Untested(r.req.ProjectRoot, r.adapter.Name())) }()
}

// untestedHint is lookBelow's news, "" when it did not look.
func (r *Run) untestedHint() string {
	if r.untested == nil {
		return ""
	}
	h := <-r.untested
	r.untested <- h
	return h
}

// Start plans the run and starts its command. Planning (cargo metadata,
// xcodebuild -list) stops when the run is cancelled or ctx ends; once the
// command runs, ctx no longer reaches it. On an error the run is over:
// Done is closed and Result is the error's response.
func (r *Run) Start(ctx context.Context) error {
	if err := r.setupTrace(); err != nil {
		return r.fail(err)
	}
	stop := context.AfterFunc(ctx, func() { r.cancel(context.Cause(ctx)) })
	if r.part == nil { // a sequence's test: its parent reads the commit
		r.readCommit()
		r.lookBelow()
	}
	none, err := r.choose(r.ctx)
	if none != nil || err != nil {
		stop()
		if err != nil {
			return r.fail(err)
		}
		r.answerWithout(none)
		return nil
	}
	if r.seq != nil {
		stop()
		return r.startSequence(ctx)
	}
	plan, err := r.adapter.Plan(r.ctx, r.areq, r.rec)
	stop()
	if r.ctx.Err() != nil {
		// A plan made while cancelled may have left out what it could not
		// ask (cargo metadata): do not run it.
		err = fmt.Errorf("the run was stopped while it was being planned: %w", context.Cause(r.ctx))
	}
	if err != nil {
		if plan != nil {
			closeParser(plan.Parser)
		}
		return r.fail(err)
	}
	if plan.Dir == "" {
		plan.Dir = r.req.ProjectRoot
	}
	plan.Env = append(plan.Env, r.traceEnv()...)
	r.planMu.Lock()
	r.plan = plan
	r.planMu.Unlock()
	p, err := startProcess(r)
	if err != nil {
		closeParser(plan.Parser) // Finish never comes: what Plan started ends here
		return r.fail(err)
	}
	r.startCompanion(p)
	go r.supervise(r.ctx, p)
	return nil
}

// fail ends a run that could not start: err is its answer.
func (r *Run) fail(err error) error {
	r.cancel(err)
	r.dropTrace()
	r.resp = ErrorResponse(err)
	r.resp.RunID = r.ID
	close(r.done)
	return err
}

// closeParser calls the parser's Close, when it has one: the runner's
// promise to a parser that started work in Plan.
func closeParser(p adapters.Parser) {
	if c, ok := p.(adapters.Closer); ok {
		c.Close()
	}
}

// Exec runs req to the end. Cancelling ctx cancels the run.
func Exec(ctx context.Context, req Request, opts Options) (*report.Response, error) {
	r, err := Start(ctx, req, opts)
	if err != nil {
		return nil, err
	}
	select {
	case <-r.Done():
	case <-ctx.Done():
		r.Cancel()
		<-r.Done()
	}
	return r.Result(), nil
}

// Cancel stops the run; its result has status cancelled.
func (r *Run) Cancel() { r.cancel(ErrCancelled) }

// Done is closed when the run is over and its result written.
func (r *Run) Done() <-chan struct{} { return r.done }

// Result is the run's response; valid once Done is closed.
func (r *Run) Result() *report.Response { return r.resp }

// Framework is the adapter's name.
func (r *Run) Framework() string { return r.adapter.Name() }

// Command is the command line being run, as a person would type it (a
// traced run's as the plan shows it); empty while the run is being
// planned.
func (r *Run) Command() string {
	r.planMu.Lock()
	defer r.planMu.Unlock()
	if r.plan == nil {
		return ""
	}
	if r.plan.Shown != "" {
		return r.plan.Shown
	}
	return shell.Join(r.plan.Argv)
}

// Progress is a run's live state.
type Progress struct {
	adapters.Progress
	Elapsed time.Duration
	// Warning says what looks wrong while the run goes on (a stuck
	// suspicion the detector has not confirmed yet); empty when nothing does.
	Warning string
}

// Progress reports the counts so far and the tests running now.
func (r *Run) Progress() Progress {
	if r.seq != nil {
		return r.sequenceProgress()
	}
	pr := Progress{Progress: r.rec.Progress(), Elapsed: time.Since(r.started)}
	if w := r.watch.Load(); w != nil {
		pr.Warning = w.det.Warning()
	}
	if c := r.retrying(); c != nil {
		// A retry or repeat reruns tests: what runs is the rerun's.
		pr.Running, pr.Warning = c.rec.Progress().Running, rerunWarning(c)
	}
	return pr
}

// Running is the response for a run still going: status running, with
// its live progress.
func (r *Run) Running() *report.Response {
	pr := r.Progress()
	rp := &report.Progress{Phase: string(pr.Phase), Passed: pr.Passed, Failed: pr.Failed, Skipped: pr.Skipped,
		ElapsedMS: pr.Elapsed.Milliseconds(), Warning: pr.Warning}
	now := time.Now()
	for _, t := range pr.Running {
		rp.Running = append(rp.Running, report.RunningTest{Name: t.Name, ElapsedMS: now.Sub(t.Since).Milliseconds()})
	}
	return &report.Response{Status: report.Running, RunID: r.ID, Framework: r.Framework(), Command: r.Command(), Progress: rp}
}

// ErrorResponse is the response for a request that could not run.
func ErrorResponse(err error) *report.Response {
	resp := &report.Response{Status: report.Error, RunID: uuid.NewString(), Error: err.Error()}
	// An adapter that knows the framework says so, with what to do in the
	// hint rather than in the error's one line.
	var u *adapters.UsageError
	if errors.As(err, &u) && u.Framework != "" {
		resp.Framework, resp.Hint = u.Framework, u.Hint
		if err == error(u) {
			resp.Error = u.Msg
		}
	}
	return resp
}

func prepare(req Request, opts Options) (*Run, error) {
	root := req.ProjectRoot
	if root == "" {
		return nil, adapters.Usagef("projectRoot is required: give the absolute path of the project directory")
	}
	if !filepath.IsAbs(root) {
		return nil, adapters.Usagef("projectRoot %q is not absolute: give the absolute path of the project directory", root)
	}
	fi, err := os.Stat(root)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil, adapters.Usagef("project directory %s does not exist: check the path", root)
	case err != nil:
		return nil, adapters.Usagef("cannot read project directory %s: %v", root, err)
	case !fi.IsDir():
		return nil, adapters.Usagef("%s is a file, not a directory: give the project's directory", root)
	}
	root = filepath.Clean(root)
	level, err := adapters.ParseLevel(req.Level)
	if err != nil {
		return nil, err
	}
	if req.Timeout < 0 {
		return nil, adapters.Usagef("timeout %v is negative: give a positive duration such as 30s, or leave it out for the default", req.Timeout)
	}
	if req.Timeout > maxTimeout {
		return nil, adapters.Usagef("timeout %v is longer than %v: give a shorter one, or leave it out for the default", req.Timeout, maxTimeout)
	}
	if err := checkRetries(req); err != nil {
		return nil, err
	}
	if err := checkTraceCombos(req); err != nil {
		return nil, err
	}
	for k := range req.Env {
		if k == "" || strings.ContainsAny(k, "=\x00") {
			return nil, adapters.Usagef("environment variable name %q is not valid: use NAME=value", k)
		}
	}
	// A repeat counts the runs of its tests: each of them, the first too,
	// must run them. A rerun of what failed is asked to see whether it
	// passes now, not whether the same command passed once before.
	areq := adapters.Request{ProjectRoot: root, Level: level, Test: req.Test, Env: clientEnv(req.BaseEnv, req.Env), Fresh: req.Repeat > 1 || req.OnlyFailed}
	if strings.TrimSpace(req.Command) != "" {
		req.Command, req.Env = commandEnv(req.Command, req.Env)
		areq.Env = clientEnv(req.BaseEnv, req.Env)
		if areq.Command, err = commandArgv(root, req.Command, req.BaseEnv, req.Env); err != nil {
			return nil, err
		}
	}
	var a adapters.Adapter
	var detected adapters.Detection
	if req.Framework != "" {
		if a, err = lookup(req.Framework); err != nil {
			return nil, err
		}
	} else if a, detected, err = all.Detect(areq); err != nil {
		return nil, err
	}
	if err := adapters.CheckLevel(a, level); err != nil {
		return nil, err
	}
	sel, err := checkSelection(req, a)
	if err != nil {
		return nil, err
	}
	spec, err := traceSpec(req.Trace, a, root)
	if err != nil {
		return nil, err
	}
	timeout := req.Timeout
	if timeout == 0 {
		timeout = defaultTimeouts[level]
	}
	r := &Run{ID: uuid.NewString(), req: req, opts: opts, adapter: a, areq: areq, level: level, timeout: timeout,
		rec: adapters.NewRecorder(), detected: detected.Hint, started: time.Now(), done: make(chan struct{}), sel: sel}
	r.req.ProjectRoot = root
	if spec != nil {
		r.tr = &tracing{spec: spec}
	}
	return r, nil
}

// commandEnv takes the assignments off the front of a command line
// (`TZ=UTC npx jest`, `env NODE_OPTIONS=--x npx jest`: a snapshot update's
// command, a test script's) into the request's environment (a copy of
// env), where the adapter sees them and every rerun carries them, and
// returns the command after them, which is detected and run as itself
// rather than as a shell's script. A command of assignments alone, or
// whose assignment the shell would expand, is left to the shell.
func commandEnv(line string, env map[string]string) (string, map[string]string) {
	assign, rest := shell.Assignments(line)
	if len(assign) == 0 {
		if after, ok := strings.CutPrefix(strings.TrimLeft(line, " \t"), "env "); ok {
			assign, rest = shell.EnvAssignments(after)
		}
	}
	if len(assign) == 0 || strings.TrimSpace(rest) == "" || strings.HasPrefix(rest, "-") {
		return line, env
	}
	merged := maps.Clone(env)
	if merged == nil {
		merged = map[string]string{}
	}
	for _, kv := range assign {
		k, v, _ := strings.Cut(kv, "=")
		merged[k] = v // the command's own, as the shell would set it
	}
	return rest, merged
}

// commandArgv splits a command line, or wraps it in /bin/sh -c when it uses
// shell syntax, and checks that the program exists and can be executed, so
// that a typo is a clear error rather than a run that "fails".
func commandArgv(root, line string, baseEnv []string, env map[string]string) ([]string, error) {
	if shell.NeedsShell(line) {
		return []string{"/bin/sh", "-c", line}, nil
	}
	argv, err := shell.Split(line)
	if err != nil {
		return nil, adapters.Usagef("cannot read command %q: %v", line, err)
	}
	prog := argv[0]
	if strings.ContainsRune(prog, '/') {
		p := prog
		if !filepath.IsAbs(p) {
			p = filepath.Join(root, p)
		}
		fi, err := os.Stat(p)
		if err != nil {
			return nil, adapters.Usagef("command %s not found (relative paths start at the project directory %s): check the path", prog, root)
		}
		if fi.IsDir() || fi.Mode().Perm()&0o111 == 0 {
			return nil, adapters.Usagef("command %s is not executable: chmod +x it or give the right file", p)
		}
		argv[0] = p
		return shebangless(argv), nil
	}
	p, err := shell.LookPath(prog, clientEnv(baseEnv, env))
	if err != nil {
		// A JavaScript project's own tools (mocha, jest, vitest) are in
		// node_modules/.bin, which npm puts on the PATH of its scripts.
		bin, ok := nodeBin(root, prog)
		if !ok {
			return nil, adapters.Usagef("command %q not found on PATH: install it or give its full path", prog)
		}
		argv[0] = bin
		return argv, nil
	}
	if wrapped := shebangless(append([]string{p}, argv[1:]...)); wrapped[0] == "/bin/sh" {
		return wrapped, nil
	}
	return argv, nil
}

// nodeBin finds prog in node_modules/.bin of root or of a directory above
// it, as npm run finds a package's tools (a workspace's hoisted ones too).
func nodeBin(root, prog string) (string, bool) {
	for d := root; ; d = filepath.Dir(d) {
		p := filepath.Join(d, "node_modules", ".bin", prog)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode().Perm()&0o111 != 0 {
			return p, true
		}
		if filepath.Dir(d) == d {
			return "", false
		}
	}
}

// shebangless runs an executable script without a "#!" line through
// /bin/sh, as a shell would (execve fails on it with ENOEXEC).
func shebangless(argv []string) []string {
	f, err := os.Open(argv[0])
	if err != nil {
		return argv
	}
	defer f.Close()
	head := make([]byte, 4)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	binary := [][]byte{{0x7f, 'E', 'L', 'F'}, {0xcf, 0xfa, 0xed, 0xfe}, {0xce, 0xfa, 0xed, 0xfe}, {0xca, 0xfe, 0xba, 0xbe}, {0xfe, 0xed, 0xfa, 0xcf}}
	if bytes.HasPrefix(head, []byte("#!")) || slices.ContainsFunc(binary, func(m []byte) bool { return bytes.Equal(head, m) }) {
		return argv
	}
	return append([]string{"/bin/sh"}, argv...)
}

// clientEnv is the client's environment with the request's overrides: the
// environment a run and everything an adapter runs for it see. Exec keeps
// the last value of a repeated name.
func clientEnv(base []string, over map[string]string) []string {
	if base == nil {
		base = os.Environ()
	}
	env := slices.Clone(base)
	for k, v := range over {
		env = append(env, k+"="+v)
	}
	return env
}
