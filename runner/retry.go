package runner

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"

	"strobe/adapters"
	"strobe/report"
)

// Bounds of the flakiness hunts: a test that fails ten times alone is not
// flaky, and a hundred runs of a suite say what a thousand would.
const (
	maxRetries = 10
	maxRepeat  = 100
	// maxRetried bounds the tests retried in one run: a run with more
	// failures than this is broken, not flaky, and retrying each alone
	// would take as long as many runs.
	maxRetried = 50
	// flakyNames bounds the tests a hint names.
	flakyNames = 3
)

// errRetryTime ends a rerun that reached what was left of the run's
// timeout.
var errRetryTime = errors.New("the run's timeout was reached")

// checkRetries refuses retries and repeats out of bounds.
func checkRetries(req Request) error {
	switch {
	case req.Retries < 0 || req.Retries > maxRetries:
		return adapters.Usagef("retries %d is out of bounds: give 1 to %d reruns of each failed test, or 0 for none", req.Retries, maxRetries)
	case req.Repeat < 0 || req.Repeat > maxRepeat:
		return adapters.Usagef("repeat %d is out of bounds: give 2 to %d runs of the selection, or leave it out for one", req.Repeat, maxRepeat)
	case req.Retries > 0 && req.Repeat > 1:
		return adapters.Usagef("retries and repeat do not go together: repeat counts every test's passes and failures over its runs, retries reruns the failed ones; pick one")
	case req.RetryStuck && req.Retries == 0:
		return adapters.Usagef("retryStuck needs retries: give retries 1 to %d as well", maxRetries)
	}
	return nil
}

// rerunOf is a run of r's adapter and request, not started, bounded by
// timeout for its tests, with test (when given) selected alone in place of
// the request's selection: a retry, a repeat's run, a sequence's test
// (suite, the test's as recorded, tells it from a test of the same name
// in another suite, for the adapters that need it: mocha). It keeps r's
// id and options; the caller sets what differs and its context.
func (r *Run) rerunOf(test, suite string, timeout time.Duration) *Run {
	c := &Run{ID: r.ID, req: r.req, opts: r.opts, adapter: r.adapter, areq: r.areq, level: r.level, timeout: timeout,
		rec: adapters.NewRecorder(), started: time.Now(), done: make(chan struct{})}
	if test != "" {
		c.req.Test, c.req.OnlyFailed = test, false
		c.areq.Test, c.areq.TestSuite, c.areq.Tests = test, suite, nil
	}
	return c
}

// again runs r's selection again as a run of its own, with test selected
// alone when given, bounded by timeout for its tests and by deadline
// (when not zero) as a whole. Cancelling r cancels it. It returns the
// rerun, over (its Result and tests read), and whether the deadline
// stopped it; an error is a rerun that could not start.
func (r *Run) again(test, suite string, timeout time.Duration, deadline time.Time) (c *Run, late bool, err error) {
	c = r.rerunOf(test, suite, timeout)
	c.ID, c.opts, c.rerun = uuid.NewString(), Options{DetailsDir: r.opts.DetailsDir}, true
	c.areq.Fresh = true // a retry or a repeat's run: go test's cached pass is no answer
	c.ctx, c.cancel = context.WithCancelCause(r.ctx)
	defer c.cancel(nil) // after late is read: the rerun's context goes with it
	if !deadline.IsZero() {
		stop := time.AfterFunc(time.Until(deadline), func() { c.cancel(errRetryTime) })
		defer stop.Stop()
	}
	r.current.Store(c)
	defer r.current.Store(nil)
	err = c.Start(c.ctx)
	<-c.Done()
	return c, errors.Is(context.Cause(c.ctx), errRetryTime), err
}

// retryFailed reruns each failed test of the run alone, up to
// Request.Retries times, stopping at its first pass (see docs/json.md,
// flaky). It updates resp (status, summary, failures, flaky, hint) and
// returns the run's failures and tests as they stand after.
func (r *Run) retryFailed(resp *report.Response, failed []report.Failure, tests []report.Test) ([]report.Failure, []report.Test) {
	n := r.req.Retries
	if n == 0 {
		return failed, tests
	}
	switch resp.Status {
	case report.Failed, report.Stuck, report.Crashed, report.Timeout:
	default:
		return failed, tests
	}
	if r.adapter.Name() == "generic" {
		resp.Hint = joinHints(resp.Hint, "no test was retried: the generic adapter runs one command and cannot select a test alone")
		return failed, tests
	}
	// The tests stuck, or running when the run crashed or timed out, are
	// retried with retryStuck only; the others that failed beside them
	// are (a GoogleTest binary that one test aborted retried none of its
	// five other failures).
	stuck := map[string]bool{}
	for _, s := range resp.Stuck {
		stuck[s.Name] = true
	}
	if resp.Status != report.Failed && resp.Crash != nil {
		for _, name := range resp.Crash.RunningTests {
			stuck[name] = true
		}
	}
	if resp.Status != report.Failed && !r.req.RetryStuck {
		resp.Hint = joinHints(resp.Hint, "stuck and crashed tests are not retried: pass retryStuck: true (--retry-stuck) to rerun them alone too")
	}
	var deadline time.Time
	if r.began != nil {
		deadline = r.began.Add(r.timeout)
	}
	h := retryHunt{died: r.binaryDied, notReached: r.notReached}
	for i := range tests {
		t := &tests[i]
		retried := t.Status == report.TestFailed && t.Failure != nil && !stuck[t.Name] ||
			r.req.RetryStuck && (t.Status == report.TestRunning || stuck[t.Name])
		if !retried {
			continue
		}
		if h.tried == maxRetried {
			h.left++
			continue
		}
		h.tried++
		if h.stop != "" {
			h.left++
			continue
		}
		h.stop = r.retryTest(t, resp, n, deadline, &h)
	}
	r.applyRetries(resp, &failed, tests, &h)
	return failed, tests
}

// retryHunt is what the retries of a run found.
type retryHunt struct {
	tried, left int
	flaky       []report.Flaky
	stillFailed int
	// ordered names the tests of a shuffled run that passed alone: not
	// flaky, since the run's order or seed may be what fails them.
	ordered []string
	// unselected names the tests a rerun could not select alone, with why.
	unselected []string
	// stop says why the retries ended early (a cancel, the timeout).
	stop      string
	cancelled bool
	// died says a test binary died in the run (report.IndicatorBinaryDied);
	// unrun names the selection's tests that then never ran, or unlisted
	// says why they are unknown.
	died     bool
	unrun    []string
	unlisted string
	// notReached says part of the selection never started
	// (report.IndicatorNotReached): the adapter's hint says which.
	notReached bool
}

// listWait bounds the listing of a selection after its binary died.
const listWait = time.Minute

// unrun lists the selection's tests that tests, the run's, lack: those a
// dead test binary never started. An adapter that cannot list, or a list
// that fails, leaves them unknown, and why says so.
func (r *Run) unrun(tests []report.Test) (names []string, why string) {
	l, ok := r.adapter.(adapters.Lister)
	if !ok {
		return nil, "the " + r.adapter.Name() + " adapter cannot list them"
	}
	ctx, cancel := context.WithTimeout(r.ctx, listWait)
	defer cancel()
	all, err := l.List(ctx, r.areq)
	if err != nil {
		return nil, "listing them failed: " + oneLine(err.Error())
	}
	ran := map[adapters.TestRef]bool{}
	for _, t := range tests {
		ran[adapters.TestRef{Suite: t.Suite, Name: t.Name}] = true
		ran[adapters.TestRef{Name: t.Name}] = true
	}
	for _, t := range all {
		if !ran[t] && !ran[adapters.TestRef{Name: t.Name}] {
			names = append(names, t.Name)
		}
	}
	return names, ""
}

// retryTest reruns t alone up to n times. It records each attempt in t
// and returns why retrying must stop for every test, or "".
func (r *Run) retryTest(t *report.Test, resp *report.Response, n int, deadline time.Time, h *retryHunt) string {
	name := t.Name
	if t.Failure != nil && t.Failure.Name != "" {
		name = t.Failure.Name
	}
	if t.Failure != nil && t.Failure.Select != "" {
		// What the test alone does not reproduce (a late error: its
		// file); the rerun's test of t's name is the attempt.
		name = t.Failure.Select
	}
	t.Attempts = []report.Attempt{firstAttempt(t, resp)}
	for range n {
		if !deadline.IsZero() && !time.Now().Before(deadline) {
			return "the run's timeout left no time for more retries"
		}
		timeout := r.timeout
		if !deadline.IsZero() {
			timeout = time.Until(deadline)
		}
		c, late, err := r.again(name, t.Suite, timeout, deadline)
		if r.ctx.Err() != nil {
			h.cancelled = true
			return "the run was cancelled while its failed tests were retried"
		}
		if late {
			t.Attempts = append(t.Attempts, report.Attempt{Status: string(report.Timeout), RunID: c.ID,
				DurationMS: time.Since(c.started).Milliseconds(), Message: errRetryTime.Error()})
			return "the run's timeout left no time for more retries"
		}
		if err != nil {
			h.unselected = append(h.unselected, fmt.Sprintf("%s (%s)", name, oneLine(err.Error())))
			return ""
		}
		got, ok := findTest(c.tests, t)
		if !ok {
			res := c.Result()
			if res.Status == report.Passed || res.Status == report.Failed || res.Status == report.NoTests {
				h.unselected = append(h.unselected, fmt.Sprintf("%s (a rerun of that name did not run it)", name))
				return ""
			}
			// The rerun ended before the test did: it counts as a
			// failed attempt (a rerun that hung or crashed).
			t.Attempts = append(t.Attempts, report.Attempt{Status: string(res.Status), RunID: c.ID,
				DurationMS: time.Since(c.started).Milliseconds(), Message: crashMessage(res)})
			continue
		}
		a := report.Attempt{Status: string(got.Status), DurationMS: got.DurationMS, RunID: c.ID}
		if f := got.Failure; f != nil {
			a.Message, a.File, a.Line = f.Message, f.File, f.Line
		}
		t.Attempts = append(t.Attempts, a)
		if got.Status == report.TestPassed {
			t.Flaky = true
			break
		}
	}
	return ""
}

// firstAttempt is the test's run in the whole suite, as the first attempt.
func firstAttempt(t *report.Test, resp *report.Response) report.Attempt {
	a := report.Attempt{Status: string(t.Status), DurationMS: t.DurationMS}
	if f := t.Failure; f != nil {
		a.Message, a.File, a.Line = f.Message, f.File, f.Line
	} else if t.Status == report.TestRunning {
		a.Status, a.Message = string(resp.Status), crashMessage(resp)
	}
	for _, s := range resp.Stuck {
		if s.Name == t.Name {
			a.Status, a.Message = string(report.Stuck), s.Diagnosis
		}
	}
	return a
}

func crashMessage(resp *report.Response) string {
	if resp.Crash != nil && resp.Crash.Message != "" {
		return resp.Crash.Message
	}
	return "the run ended " + string(resp.Status)
}

// findTest is t among a rerun's tests: same suite and name, or the same
// name alone when the rerun has one test of that name (a rerun's suite
// may be spelled apart from the first run's).
func findTest(tests []report.Test, t *report.Test) (report.Test, bool) {
	var byName []report.Test
	for _, u := range tests {
		if u.Name != t.Name {
			continue
		}
		if u.Suite == t.Suite {
			return u, true
		}
		byName = append(byName, u)
	}
	if len(byName) == 1 {
		return byName[0], true
	}
	return report.Test{}, false
}

// applyRetries turns what the retries found into the answer: flaky tests
// pass and are listed in flaky, the others keep failing with their
// attempts counted, and the status is passed only when every failure of
// the run turned out flaky.
func (r *Run) applyRetries(resp *report.Response, failed *[]report.Failure, tests []report.Test, h *retryHunt) {
	flakyNames := map[string]bool{}
	sum := resp.Summary
	for i := range tests {
		t := &tests[i]
		if len(t.Attempts) < 2 {
			continue
		}
		if t.Flaky && resp.Shuffle != nil {
			// Passed alone after failing in a shuffled run: not flaky
			// but, as likely, failing in that order or with that seed,
			// which a rerun alone does not repeat. It stays failed.
			t.Flaky = false
			h.ordered = append(h.ordered, fmt.Sprintf("%s (passed on attempt %d)", t.Name, len(t.Attempts)))
		} else if !t.Flaky {
			h.stillFailed++
		}
		if !t.Flaky {
			if t.Failure != nil {
				t.Failure.Attempts = len(t.Attempts)
			}
			continue
		}
		first := t.Attempts[0]
		h.flaky = append(h.flaky, report.Flaky{Name: t.Name, Attempts: len(t.Attempts), PassedOn: len(t.Attempts),
			FirstFailure: report.FirstFailure{Message: first.Message, File: first.File, Line: first.Line}})
		flakyNames[t.Name] = true
		if t.Status == report.TestFailed {
			sum.Failed--
		}
		t.Status = report.TestPassed
		sum.Passed++
		sum.Flaky++
	}
	passParents(tests, sum)
	// The failures list follows the tests: a flaky test leaves it, one
	// that failed every attempt carries its count.
	var still []report.Failure
	for _, t := range tests {
		if t.Status == report.TestFailed && t.Failure != nil {
			still = append(still, *t.Failure)
		}
	}
	if h.tried > 0 || len(h.flaky) > 0 {
		*failed = still
		listFailures(resp, still)
	}
	var stuckLeft []report.StuckTest
	for _, s := range resp.Stuck {
		if !flakyNames[s.Name] {
			stuckLeft = append(stuckLeft, s)
		}
	}
	if len(stuckLeft) != len(resp.Stuck) {
		sum.Stuck -= stuckCount(resp.Stuck) - stuckCount(stuckLeft)
		resp.Stuck = stuckLeft
	}
	resp.Flaky = append(resp.Flaky, h.flaky...)
	r.retryStatus(resp, h, flakyNames, tests)
	sum.DurationMS = time.Since(r.started).Milliseconds()
	resp.Hint = joinHints(resp.Hint, retryHint(resp, h))
}

// passParents passes a test that failed only through its subtests (a Go
// parent: failed, without a failure of its own) once every subtest that
// failed turned out flaky: it is counted passed, not flaky, since the
// flaky one is listed.
func passParents(tests []report.Test, sum *report.Summary) {
	for i := range tests {
		p := &tests[i]
		if p.Status != report.TestFailed || p.Failure != nil {
			continue
		}
		flaky, failing := false, false
		for _, t := range tests {
			if t.Suite != p.Suite || !strings.HasPrefix(t.Name, p.Name+"/") {
				continue
			}
			flaky = flaky || t.Flaky
			failing = failing || t.Status == report.TestFailed && !isParentOf(t, tests)
		}
		if flaky && !failing {
			p.Status = report.TestPassed
			sum.Failed--
			sum.Passed++
		}
	}
}

// isParentOf says whether t failed only through subtests of its own: such a
// test does not keep its parent failing by itself.
func isParentOf(t report.Test, tests []report.Test) bool {
	if t.Failure != nil {
		return false
	}
	for _, u := range tests {
		if u.Suite == t.Suite && strings.HasPrefix(u.Name, t.Name+"/") {
			return true
		}
	}
	return false
}

// retryStatus decides the status after the retries: passed only when
// nothing that failed the run is left.
func (r *Run) retryStatus(resp *report.Response, h *retryHunt, flaky map[string]bool, tests []report.Test) {
	if h.cancelled {
		resp.Status = report.Cancelled
		code := 0
		if resp.Crash != nil {
			code = resp.Crash.ExitCode
		}
		resp.Crash = &report.Crash{Type: report.CrashStopped, StoppedBy: report.StoppedCancelled, ExitCode: code,
			Message: "strobe stopped the run: it was cancelled while its failed tests were retried"}
		return
	}
	if len(h.flaky) == 0 || resp.Summary.Failed > 0 || len(resp.Stuck) > 0 || resp.Crash == nil {
		return
	}
	if h.notReached {
		return // what never started, nothing says passes
	}
	if h.died {
		// A test retried alone passed, but a test binary died in the run:
		// the tests it had not started yet ran in neither the run nor the
		// retries, and nothing says they pass. Only the selection's list
		// tells whether there were any.
		if h.unrun, h.unlisted = r.unrun(tests); len(h.unrun) > 0 || h.unlisted != "" {
			return
		}
	}
	switch c := resp.Crash; {
	case resp.Status == report.Failed && c.Type == report.CrashTestFailure && c.Message == "":
	case resp.Status == report.Stuck:
	case resp.Status == report.Crashed && len(c.RunningTests) > 0 && allIn(c.RunningTests, flaky):
	default:
		return // the run failed for more than its tests: that stays
	}
	resp.Status, resp.Crash = report.Passed, nil
}

func allIn(names []string, set map[string]bool) bool {
	for _, n := range names {
		if !set[n] {
			return false
		}
	}
	return true
}

// retryHint says what the retries found, plainly: an agent must not read
// a pass after retries as a clean pass, nor a flaky test as a bug to fix
// in the code under test.
func retryHint(resp *report.Response, h *retryHunt) string {
	var parts []string
	if k := len(h.flaky); k > 0 {
		var names []string
		for _, f := range h.flaky {
			names = append(names, fmt.Sprintf("%s (passed on attempt %d)", f.Name, f.PassedOn))
		}
		what := fmt.Sprintf("%d flaky %s — %s", k, plural(k, "test", "tests"), strings.Join(clipList(names, flakyNames), ", "))
		lead := what
		if resp.Status == report.Passed {
			lead = "passed after retries: " + what
		}
		switch {
		case h.notReached:
			parts = append(parts, what+": failed, then passed when rerun alone; the run stays failed: part of it never started (the hint says which), and nothing says it passes")
		case len(h.unrun) > 0 || h.unlisted != "":
			unrun := fmt.Sprintf("%d %s the binary had not started (%s)", len(h.unrun), plural(len(h.unrun), "test", "tests"), strings.Join(clipList(h.unrun, flakyNames), ", "))
			if h.unlisted != "" {
				unrun = "the tests the binary had not started, if any (" + h.unlisted + "),"
			}
			parts = append(parts, what+": failed while a test binary died, then passed when rerun alone; the run stays failed: "+
				unrun+" ran in neither the run nor the retries, and what killed the binary (a panic in a goroutine outlives the test that started it) is a failure to fix: see flaky[].first_failure")
		default:
			parts = append(parts, lead+": failed, then passed when rerun alone, so the failure depends on timing, order or state another test left; "+
				"it is not a failure to fix in the code under test: see flaky[].first_failure, and make the test independent and deterministic")
		}
	}
	if k := len(h.ordered); k > 0 {
		parts = append(parts, fmt.Sprintf("%d %s in the shuffled run, then passed when rerun alone: %s; not counted flaky: the failure may depend on the order "+
			"or the seed, which a rerun alone does not repeat, so the run stays failed: run the whole run in the same order (shuffle.command) to reproduce it",
			k, plural(k, "test failed", "tests failed"), strings.Join(clipList(h.ordered, flakyNames), ", ")))
	}
	if h.stillFailed > 0 {
		parts = append(parts, fmt.Sprintf("%d %s every attempt: %s, not flaky", h.stillFailed,
			plural(h.stillFailed, "test failed", "tests failed"), plural(h.stillFailed, "a real failure", "real failures")))
	}
	if len(h.unselected) > 0 {
		parts = append(parts, "not retried, since a rerun cannot select it alone: "+strings.Join(clipList(h.unselected, flakyNames), ", "))
	}
	if h.stop != "" {
		s := h.stop
		if h.left > 0 {
			s += fmt.Sprintf(" (%d failed %s not retried)", h.left, plural(h.left, "test", "tests"))
		}
		parts = append(parts, s)
	} else if h.left > 0 {
		parts = append(parts, fmt.Sprintf("only the first %d failed tests were retried: %d more failed; a run with that many failures is broken, not flaky", maxRetried, h.left))
	}
	var out string
	for _, p := range parts {
		out = joinHints(out, p)
	}
	return out
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// retrying is the rerun under way, or nil.
func (r *Run) retrying() *Run { return r.current.Load() }

// rerunWarning says what a rerun does, beside its stuck warning if any.
func rerunWarning(c *Run) string {
	what := "repeating the run"
	if c.req.Test != "" {
		what = "retrying " + c.req.Test + " alone"
	}
	if w := c.watch.Load(); w != nil && w.det.Warning() != "" {
		return what + ": " + w.det.Warning()
	}
	return what
}

// oneLine is s on one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
