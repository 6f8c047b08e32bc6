package daemon

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap"

	"strobe/adapters"
	"strobe/details"
	"strobe/history"
	"strobe/report"
	"strobe/runner"
)

// DefaultWait is how long a call waits for a run before answering
// `running`: under the 60 s some agents give a tool call.
const DefaultWait = 45 * time.Second

// maxWait bounds waitMs.
const maxWait = 10 * time.Minute

// TestArgs are debug_test's arguments (DESIGN.md, "MCP tools").
type TestArgs struct {
	ProjectRoot string            `json:"projectRoot" jsonschema:"absolute path of the project directory"`
	Framework   string            `json:"framework,omitempty" jsonschema:"override detection: cargo, nextest, go, catch2, gtest, ctest, maven, gradle, xcodebuild, swift, pytest, unittest, jest, vitest, node, mocha, bun, deno, generic (the whole command line given in command)"`
	Level       string            `json:"level,omitempty" jsonschema:"unit, integration, e2e or doc (cargo's doctests); omitted runs the whole suite"`
	Test        string            `json:"test,omitempty" jsonschema:"run only the test of this name (as the failures and rerun commands name it)"`
	Command     string            `json:"command,omitempty" jsonschema:"test binary (Catch2, GoogleTest) or, for generic, the whole command line"`
	Env         map[string]string `json:"env,omitempty" jsonschema:"extra environment variables for the tests"`
	Timeout     int64             `json:"timeout,omitempty" jsonschema:"hard timeout in ms of the test phase (building is not counted); default by level: unit 30000, integration 120000, e2e 300000, all 600000"`
	WaitMs      *int64            `json:"waitMs,omitempty" jsonschema:"how long this call waits before answering status running (default 45000; 0 answers at once)"`
	OnlyFailed  bool              `json:"onlyFailed,omitempty" jsonschema:"rerun only the failed and stuck tests of the previous run of the same project and selection, in one process where the framework can"`
	Partition   string            `json:"partition,omitempty" jsonschema:"run one part of the suite, for CI machines sharing it: hash:M/N (stable by test name) or slice:M/N; merge the parts' details files with strobe merge"`
	// Trace arguments (query.go).
	TracePatterns []string   `json:"tracePatterns,omitempty" jsonschema:"rerun traced: record every call of the matching functions (arguments, return values, durations), then read them with debug_query by the answer's sessionId; usually with test set to one failing test, fed from its suggested_traces. Patterns: a::b (exact; crate::a::b too), a::* (one segment below a), a::** (any depth), *::name, parse_* (wildcard in a segment), Go pkg.Func, pkg.(*T).Method, pkg.*, Python module.func, module.Class.method, @file:parser.rs (every function of that file), @project (all of the project's own code). At most 200 functions may match; tracers: cargo, catch2, gtest (gdb), go (delve), pytest, unittest (python)"`
	Watches       []WatchArg `json:"watches,omitempty" jsonschema:"variables to read at each enter and exit of the functions their 'on' patterns match (at most 32), e.g. [{'variable':'COUNTER','on':['calc::parse']}]; a variable out of scope reads as unavailable with the reason"`
	Retries       int        `json:"retries,omitempty" jsonschema:"rerun each failed test alone up to this many times (1 to 10), stopping at its first pass: a test that passes then is listed in flaky, not failed"`
	RetryStuck    bool       `json:"retryStuck,omitempty" jsonschema:"with retries: rerun stuck tests, and those a crash left running, alone too"`
	Repeat        int        `json:"repeat,omitempty" jsonschema:"run the selection this many times (2 to 100) and count each test's passes and failures, to hunt flaky tests"`
}

// StatusArgs are debug_test_status's arguments.
type StatusArgs struct {
	RunID  string `json:"runId" jsonschema:"the runId of a debug_test answer"`
	WaitMs *int64 `json:"waitMs,omitempty" jsonschema:"how long to wait for the run to end before answering status running again (default 45000; 0 answers at once)"`
}

// CancelArgs are debug_test_cancel's arguments.
type CancelArgs struct {
	RunID string `json:"runId" jsonschema:"the runId of the run to stop"`
}

const testDescription = `Run a project's tests and get a short structured result. Use it instead of running tests through a shell: it detects the framework (cargo, nextest, go, Catch2, GoogleTest, CTest, Maven, Gradle, xcodebuild, swift, pytest, unittest, jest, vitest, node:test, mocha, bun, deno; generic for any command), and answers which test failed, where (file:line) and why, with a command to rerun just that test; which test hung, the thread stacks that show why and a command to rerun it alone (stuck detection); whether the run crashed (signal, crash type) or failed to build (compiler errors). The full record (every test, its output) goes to the JSON file named in "details".

status is one of passed, failed, stuck, crashed, timeout, cancelled, build_failed, no_tests, error, running. Only "passed" is a success: never read a crash, a hang or a build error as one.

"changes" compares with the previous run of the same project and selection: new_failures (probably the last edit), still_failing, fixed, new_tests, removed_tests, cut_off (tests a crash or strobe's stop cut off mid-run: neither failed nor fixed on their own). failures[].repeated counts the runs in a row a test failed the same way; from 3 on, step back and reconsider the approach.

With retries: N, each failed test is rerun alone up to N times; one that then passes is listed in "flaky" (with its first failure) and not counted failed, and the run is "passed" only if every failure was flaky. A flaky test is not a bug to fix in the code under test but a signal: the test depends on timing, order or shared state. repeat: N runs the selection N times and lists in "repeat" each test that failed at least once, with its pass and fail counts.

The call waits up to waitMs (default 45 s). If the run is still going it answers status "running" with a runId and live progress (counts, phase, the tests running now and for how long, any stuck warning): call debug_test_status with that runId to wait again, or debug_test_cancel to stop it. The run goes on even if this call is interrupted or the connection drops; one run per project at a time (a second one gets an error naming the running runId).`

const statusDescription = `Wait again for a run started by debug_test that answered status "running": answers its final result (same shape as debug_test) when it ends within waitMs (default 45 s), else "running" again with live progress. Results stay collectable by runId for at least 30 minutes.`

const cancelDescription = `Stop a run started by debug_test (its whole process tree), and answer its partial result with status "cancelled" (or its final result if it had already ended).`

const instructions = `strobe runs a project's tests and answers with structured results: failures with file:line and rerun commands, hung tests with stacks, crashes, build errors. Prefer debug_test over running test commands in a shell.`

// session is one connection: the client's environment and details directory.
type session struct {
	d          *Daemon
	hello      Hello
	env        []string
	detailsDir string

	mu      sync.Mutex
	cliRuns []*entry // the runs a `strobe test` client started (ended)
}

// sessionKey keys a connection's session in the context its handlers get.
type sessionKey struct{}

func withSession(ctx context.Context, s *session) context.Context {
	return context.WithValue(ctx, sessionKey{}, s)
}

// sessionOf is the session of the connection a handler serves.
func sessionOf(ctx context.Context) *session {
	s, _ := ctx.Value(sessionKey{}).(*session)
	return s
}

// sessionTool makes a tool handler of a session's method, for the server
// every connection shares.
func sessionTool[In, Out any](h func(*session, context.Context, *mcp.CallToolRequest, In) (*mcp.CallToolResult, Out, error)) mcp.ToolHandlerFor[In, Out] {
	return func(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, Out, error) {
		s := sessionOf(ctx)
		if s == nil {
			var zero Out
			return nil, zero, errors.New("internal error: a call outside any connection's session")
		}
		return h(s, ctx, req, in)
	}
}

func newSession(d *Daemon, h Hello) *session {
	// Never the daemon's environment (runner's nil), and always the mark
	// that lets a dead daemon's processes be found.
	// A client that itself runs under a strobe daemon carries that one's
	// mark: this daemon's replaces it.
	env := make([]string, 0, len(h.Env)+1)
	for _, kv := range h.Env {
		if !strings.HasPrefix(kv, OwnerEnv+"=") {
			env = append(env, kv)
		}
	}
	env = append(env, OwnerEnv+"="+strconv.Itoa(os.Getpid()))
	return &session{d: d, hello: h, env: env, detailsDir: detailsDirFor(env)}
}

// detailsDirFor is details.Dir() as the client computes it: its TMPDIR, or /tmp.
func detailsDirFor(env []string) string {
	tmp := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "TMPDIR="); ok {
			tmp = v
		}
	}
	if tmp == "" {
		tmp = "/tmp"
	}
	return filepath.Join(tmp, fmt.Sprintf("strobe-%d", os.Getuid()), "tests")
}

// toolError is a tool error with a one-line reason.
func toolError(err error) error {
	return errors.New(strings.Join(strings.Fields(strings.ReplaceAll(err.Error(), "\n", " ")), " "))
}

// argumentErrors rewords the SDK's refusal of a call whose arguments do
// not fit the tool's input schema (checked before any handler runs): the
// SDK's reason without its prefixes or Go type names, and what to do.
func argumentErrors(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		r, ok := res.(*mcp.CallToolResult)
		call, isCall := req.(*mcp.CallToolRequest)
		if err != nil || !ok || !isCall || !r.IsError || len(r.Content) != 1 {
			return res, err
		}
		text, ok := r.Content[0].(*mcp.TextContent)
		if !ok {
			return res, err
		}
		reason, refused := strings.CutPrefix(text.Text, `validating "arguments": `)
		reason = strings.ReplaceAll(strings.TrimPrefix(reason, "validating root: "), "validating /properties/", "")
		if te := (*json.UnmarshalTypeError)(nil); errors.As(r.GetError(), &te) {
			reason, refused = fmt.Sprintf("%s cannot hold %s", te.Field, te.Value), true
		}
		if refused {
			text.Text = fmt.Sprintf("bad arguments: %s: fix them as %s's input schema says, and call again", reason, call.Params.Name)
		}
		return res, err
	}
}

// answer is a tool's result: the response as structured content (the SDK
// fills it from resp, through a map, so its keys come out sorted) and as
// text marshalled here from the struct, so an agent reading the text sees
// the fields in report.Response's order, status first, as strobe test
// --json prints them, on one line. The SDK keeps a Content it is given.
func answer(resp *report.Response, err error) (*mcp.CallToolResult, *report.Response, error) {
	if err != nil {
		return nil, nil, err
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // a rerun command's && stays readable
	if err := enc.Encode(resp); err != nil {
		return nil, nil, fmt.Errorf("marshaling the response: %w", err)
	}
	text := strings.TrimSuffix(b.String(), "\n")
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, resp, nil
}

func waitFor(ms *int64) (time.Duration, error) {
	if ms == nil {
		return DefaultWait, nil
	}
	if *ms < 0 {
		return 0, fmt.Errorf("waitMs %d is negative: give 0 to answer at once, or leave it out for 45000", *ms)
	}
	// Capped in ms first: past maxDurationMs the product would wrap around.
	return time.Duration(min(*ms, maxWait.Milliseconds())) * time.Millisecond, nil
}

// maxDurationMs is the longest time.Duration in milliseconds.
const maxDurationMs = math.MaxInt64 / int64(time.Millisecond)

func (s *session) debugTest(ctx context.Context, req *mcp.CallToolRequest, in TestArgs) (*mcp.CallToolResult, *report.Response, error) {
	s.d.touch()
	defer s.d.touch()
	wait, err := waitFor(in.WaitMs)
	if err != nil {
		return nil, nil, err
	}
	if in.Timeout < 0 {
		return nil, nil, fmt.Errorf("timeout %d ms is negative: give a positive number of milliseconds, or leave it out for the default", in.Timeout)
	}
	if in.Timeout > maxDurationMs {
		return nil, nil, fmt.Errorf("timeout %d ms is too long: give at most %d ms, or leave it out for the default", in.Timeout, maxDurationMs)
	}
	rreq := runner.Request{ProjectRoot: in.ProjectRoot, Framework: in.Framework, Level: in.Level, Test: in.Test,
		Command: in.Command, Env: in.Env, BaseEnv: s.env, Timeout: time.Duration(in.Timeout) * time.Millisecond,
		OnlyFailed: in.OnlyFailed, Partition: in.Partition,
		Retries: in.Retries, RetryStuck: in.RetryStuck, Repeat: in.Repeat,
		Trace: traceOf(in.TracePatterns, in.Watches)}
	e, err := s.d.reg.start(rreq, runner.Options{DetailsDir: s.detailsDir, HistoryDir: history.Dir(s.d.opts.Paths.Home), Reaped: s.d.reaped}, s.hello.PID)
	if err != nil {
		s.d.log.Info("run refused", zap.Any("root", in.ProjectRoot), zap.Any("error", err.Error()))
		// A project the adapter knows but that is not ready (tests never
		// built) is an answer, not a failed call: status error with the
		// framework and the hint.
		var u *adapters.UsageError
		if errors.As(err, &u) && u.Framework != "" {
			return answer(runner.ErrorResponse(err), nil)
		}
		return nil, nil, toolError(err)
	}
	s.d.log.Info("run started", zap.Any("runId", e.id), zap.Any("root", e.root), zap.Any("framework", e.framework), zap.Any("clientPid", s.hello.PID))
	if isCLI(req.Session) {
		s.mu.Lock()
		s.cliRuns = append(s.cliRuns, e)
		s.mu.Unlock()
	}
	return answer(s.wait(ctx, req, e, wait))
}

func (s *session) debugTestStatus(ctx context.Context, req *mcp.CallToolRequest, in StatusArgs) (*mcp.CallToolResult, *report.Response, error) {
	s.d.touch()
	defer s.d.touch()
	wait, err := waitFor(in.WaitMs)
	if err != nil {
		return nil, nil, err
	}
	e, resp, err := s.lookup(in.RunID)
	if err != nil {
		return nil, nil, err
	}
	if e == nil {
		return answer(resp, nil)
	}
	return answer(s.wait(ctx, req, e, wait))
}

func (s *session) debugTestCancel(ctx context.Context, req *mcp.CallToolRequest, in CancelArgs) (*mcp.CallToolResult, *report.Response, error) {
	s.d.touch()
	defer s.d.touch()
	e, resp, err := s.lookup(in.RunID)
	if err != nil {
		return nil, nil, err
	}
	if e == nil {
		return answer(resp, nil)
	}
	e.Cancel()
	s.d.log.Info("run cancelled", zap.Any("runId", e.id), zap.Any("clientPid", s.hello.PID))
	select {
	case <-e.done:
		return answer(e.Result(), nil)
	case <-ctx.Done():
		return nil, nil, ctx.Err()
	}
}

// isCLI says whether ss is a `strobe test` client's session.
func isCLI(ss *mcp.ServerSession) bool {
	p := ss.InitializeParams()
	return p != nil && p.ClientInfo != nil && p.ClientInfo.Name == cliName
}

// ended stops the runs a `strobe test` client started that are still
// going once its connection is gone: the CLI reads its run's answer to the
// end (or cancels it on Ctrl+C), so a lost connection means the CLI was
// killed, and nobody waits for the run, which would otherwise hold the
// project until its timeout. An agent's session (strobe mcp) may come
// back for its run with debug_test_status: its runs go on.
func (s *session) ended() {
	s.mu.Lock()
	runs := s.cliRuns
	s.cliRuns = nil
	s.mu.Unlock()
	for _, e := range runs {
		if !isDone(e.done) {
			e.Cancel()
			s.d.log.Info("run cancelled: its strobe test client went away", zap.Any("runId", e.id), zap.Any("clientPid", s.hello.PID))
		}
	}
}

// lookup finds a run in memory, or else its details file in the client's
// details directory (a run older than retainResults, or of an earlier
// daemon).
func (s *session) lookup(id string) (*entry, *report.Response, error) {
	if strings.TrimSpace(id) == "" {
		return nil, nil, errors.New("runId is required: give the runId of a debug_test answer")
	}
	if e := s.d.reg.get(id); e != nil {
		return e, nil, nil
	}
	if !strings.ContainsAny(id, "/\\") {
		if rec, err := details.Read(s.detailsDir, id); err == nil && rec.Response.RunID == id {
			return nil, &rec.Response, nil
		}
	}
	return nil, nil, fmt.Errorf("no run %q: it is not known to this daemon nor in %s; start one with debug_test", id, s.detailsDir)
}

// wait waits for e up to d and answers its result, or `running` with its
// progress. While it waits it sends progress notifications if the client
// gave a token. An MCP cancellation of this call cancels the run; a dropped
// connection does not.
func (s *session) wait(ctx context.Context, req *mcp.CallToolRequest, e *entry, d time.Duration) (*report.Response, error) {
	select {
	case <-e.done:
		return e.Result(), nil
	default:
	}
	if d <= 0 {
		return e.Running(), nil
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	var token any
	if req != nil && req.Params != nil {
		token = req.Params.GetProgressToken()
	}
	var tick <-chan time.Time
	var p progressSender
	if token != nil {
		t := time.NewTicker(progressEvery)
		defer t.Stop()
		tick = t.C
		p.send(ctx, req, token, e)
	}
	for {
		select {
		case <-e.done:
			return e.Result(), nil
		case <-timer.C:
			return e.Running(), nil
		case <-tick:
			p.send(ctx, req, token, e)
		case <-ctx.Done():
			// notifications/cancelled cancels with context.Canceled; a
			// connection that went away cancels with its read error.
			if errors.Is(context.Cause(ctx), context.Canceled) && s.d.ctx.Err() == nil {
				e.Cancel()
				s.d.log.Info("run cancelled by its client", zap.Any("runId", e.id), zap.Any("clientPid", s.hello.PID))
			}
			return nil, ctx.Err()
		}
	}
}

const (
	progressEvery     = 250 * time.Millisecond
	progressHeartbeat = 5 * time.Second
)

// progressSender sends a notification when the progress changed, or every
// progressHeartbeat (a long build changes nothing, and a client may reset
// its timeout on progress). The progress value is the tests finished, bumped
// by a little when only time passed: the spec wants it to increase.
type progressSender struct {
	last     string
	lastSent time.Time
	value    float64
}

// Meta keys of strobe's progress notifications.
const (
	MetaProgress  = "strobe/progress"
	MetaRunID     = "strobe/runId"
	MetaFramework = "strobe/framework"
)

func (p *progressSender) send(ctx context.Context, req *mcp.CallToolRequest, token any, e *entry) {
	r := e.Running()
	pr := r.Progress
	if pr == nil {
		return // ended meanwhile: the answer follows
	}
	key := fmt.Sprintf("%s|%d|%d|%d|%s", pr.Phase, pr.Passed, pr.Failed, pr.Skipped, pr.Warning)
	if len(pr.Running) > 0 {
		key += "|" + pr.Running[0].Name
	}
	if key == p.last && time.Since(p.lastSent) < progressHeartbeat {
		return
	}
	v := float64(pr.Passed + pr.Failed + pr.Skipped)
	if v <= p.value && !p.lastSent.IsZero() {
		v = p.value + 0.001
	}
	p.last, p.lastSent, p.value = key, time.Now(), v
	req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
		ProgressToken: token,
		Progress:      v,
		Message:       ProgressMessage(r.Framework, pr),
		Meta:          mcp.Meta{MetaProgress: pr, MetaRunID: r.RunID, MetaFramework: r.Framework},
	})
}

// ProgressMessage is a progress line: framework, phase or counts, the test
// running longest.
func ProgressMessage(framework string, pr *report.Progress) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s · %s · ", framework, (time.Duration(pr.ElapsedMS) * time.Millisecond).Round(100*time.Millisecond))
	if pr.Phase == "building" {
		b.WriteString("building…")
		return b.String()
	}
	fmt.Fprintf(&b, "%d passed", pr.Passed)
	if pr.Failed > 0 {
		fmt.Fprintf(&b, ", %d failed", pr.Failed)
	}
	if pr.Skipped > 0 {
		fmt.Fprintf(&b, ", %d skipped", pr.Skipped)
	}
	if n := len(pr.Running); n > 0 {
		fmt.Fprintf(&b, " · running %s (%s)", pr.Running[0].Name, (time.Duration(pr.Running[0].ElapsedMS) * time.Millisecond).Round(100*time.Millisecond))
		if n > 1 {
			fmt.Fprintf(&b, " +%d", n-1)
		}
	}
	if pr.Warning != "" {
		b.WriteString(" · " + pr.Warning)
	}
	return b.String()
}
