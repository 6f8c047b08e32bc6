package runner

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"strobe/adapters"
	"strobe/adapters/kit"
	"strobe/details"
	"strobe/report"
)

// A sequence reruns several failed tests one after the other, through the
// adapter's single-test selection (Request.Test), when the adapter cannot
// run several in one process (it is no MultiSelector). Each test is a run
// of its own (a child: its process, parser, stuck detector), planned when
// the one before it ends; the parent answers once, for all of them. The
// children share the parent's run id (one STROBE_RUN_ID to clean up after)
// and its test timeout: each gets what the ones before it left.
type sequence struct {
	tests []adapters.TestRef

	mu      sync.Mutex
	current *Run
	parts   []*part
	used    time.Duration // testing time the finished children took
	err     error         // a child that could not start
	// outOfTime says the timeout ran out between two tests.
	outOfTime bool
}

// part is what a child run leaves for its parent instead of writing its own
// history, JUnit report and details file.
type part struct {
	resp     *report.Response
	failed   []report.Failure
	tests    []report.Test
	exit     report.Exit
	indic    []string
	argv     []string
	dir      string
	began    *time.Time
	finished time.Time
	out      [2]details.Stream
}

// chooseSequence makes r a sequence of one-test runs over tests.
func (r *Run) chooseSequence(tests []adapters.TestRef) {
	r.seq = &sequence{tests: tests}
}

// child is the run of the sequence's i-th test, with timeout left of the
// parent's. Cancelling the parent reaches it until it ends.
func (r *Run) child(i int, timeout time.Duration) *Run {
	c := r.rerunOf(r.seq.tests[i].Name, r.seq.tests[i].Suite, timeout)
	c.part = &part{}
	c.ctx, c.cancel = context.WithCancelCause(context.Background())
	stop := context.AfterFunc(r.ctx, func() { c.cancel(context.Cause(r.ctx)) })
	go func() { <-c.done; stop() }()
	return c
}

// startSequence plans and starts the first test, as Start does for a run
// of one command (a plan that fails is the run's error), then runs the
// others one by one in the background.
func (r *Run) startSequence(ctx context.Context) error {
	first := r.child(0, r.timeout)
	r.seq.current = first
	if err := first.Start(ctx); err != nil {
		return r.fail(err)
	}
	r.showPlan(first)
	go r.runSequence(first)
	return nil
}

// showPlan makes the child's command the parent's, for Command and the
// running answer.
func (r *Run) showPlan(c *Run) {
	c.planMu.Lock()
	plan := c.plan
	c.planMu.Unlock()
	r.planMu.Lock()
	r.plan = plan
	r.planMu.Unlock()
}

func (r *Run) runSequence(cur *Run) {
	s := r.seq
	for i := 0; ; i++ {
		<-cur.Done()
		p := cur.part
		s.mu.Lock()
		s.parts = append(s.parts, p)
		if p.began != nil {
			s.used += p.finished.Sub(*p.began)
		}
		s.mu.Unlock()
		if i+1 == len(s.tests) || r.ctx.Err() != nil || !sequenceGoesOn(p.resp.Status) {
			break
		}
		left := r.timeout - s.used
		if left <= 0 {
			s.outOfTime = true
			break
		}
		next := r.child(i+1, left)
		s.mu.Lock()
		s.current = next
		s.mu.Unlock()
		if err := next.Start(r.ctx); err != nil {
			s.mu.Lock()
			s.err = err
			s.mu.Unlock()
			break
		}
		r.showPlan(next)
		cur = next
	}
	r.finishSequence()
}

// sequenceGoesOn says whether the next test runs after one that ended so:
// a stuck or crashed test says nothing of the others, but the run's time,
// a cancel or a build that fails end them all.
func sequenceGoesOn(s report.Status) bool {
	switch s {
	case report.Timeout, report.Cancelled, report.BuildFailed, report.Error:
		return false
	}
	return true
}

// keep is finish's end for a child: what the parent needs, in place of the
// history, the JUnit report and the details file.
func (c *Run) keep(resp *report.Response, failed []report.Failure, tests []report.Test, exit report.Exit,
	indicators []string, p *proc, began *time.Time, finished time.Time) {
	*c.part = part{resp: resp, failed: failed, tests: tests, exit: exit, indic: indicators, argv: c.plan.Argv, dir: c.plan.Dir,
		began: began, finished: finished}
	for i := range p.tails {
		c.part.out[i] = details.Stream{Text: p.tails[i].String(), Bytes: p.tails[i].Total(), Truncated: p.tails[i].Truncated()}
	}
	c.resp = resp
}

// statusRank orders a sequence's statuses: its answer is its worst child's,
// in the order classify weighs endings.
var statusRank = []report.Status{report.Stuck, report.Timeout, report.Cancelled, report.Error, report.BuildFailed,
	report.Crashed, report.Failed, report.Passed, report.NoTests}

func rank(s report.Status) int {
	if i := slices.Index(statusRank, s); i >= 0 {
		return i
	}
	return len(statusRank)
}

// sequenceProgress sums the finished children's counts with the current
// one's live progress.
func (r *Run) sequenceProgress() Progress {
	s := r.seq
	s.mu.Lock()
	cur, parts := s.current, slices.Clone(s.parts)
	s.mu.Unlock()
	var pr Progress
	if cur != nil && !slices.ContainsFunc(parts, func(p *part) bool { return p == cur.part }) {
		pr = cur.Progress()
	} else {
		pr.Phase = adapters.PhaseRunning
	}
	for _, p := range parts {
		sum := p.resp.Summary
		if sum != nil {
			pr.Passed += sum.Passed
			pr.Failed += sum.Failed
			pr.Skipped += sum.Skipped
		}
	}
	pr.Elapsed = time.Since(r.started)
	return pr
}

// finishSequence answers for the whole sequence: the worst child's status
// and crash, counts summed, failures, stuck tests and tests concatenated,
// then the history, JUnit report and details file as one run's.
func (r *Run) finishSequence() {
	defer close(r.done)
	s := r.seq
	s.mu.Lock()
	parts, serr := s.parts, s.err
	s.mu.Unlock()
	finished := time.Now()

	worst := parts[0]
	for _, p := range parts[1:] {
		if rank(p.resp.Status) < rank(worst.resp.Status) {
			worst = p
		}
	}
	sum := report.Summary{DurationMS: finished.Sub(r.started).Milliseconds()}
	resp := &report.Response{Status: worst.resp.Status, RunID: r.ID, Framework: r.adapter.Name(), Summary: &sum,
		Crash: worst.resp.Crash, Project: worst.resp.Project, BuildErrors: worst.resp.BuildErrors}
	var failed []report.Failure
	var tests []report.Test
	var commands []string
	var out [2]details.Stream
	var indicators []string
	for _, p := range parts {
		if ps := p.resp.Summary; ps != nil {
			sum.Passed += ps.Passed
			sum.Failed += ps.Failed
			sum.Skipped += ps.Skipped
			sum.Stuck += ps.Stuck
		}
		failed = append(failed, p.failed...)
		tests = append(tests, p.tests...)
		resp.Stuck = append(resp.Stuck, p.resp.Stuck...)
		resp.Truncated = resp.Truncated || p.resp.Truncated
		commands = append(commands, p.resp.Command)
		for i := range out {
			out[i].Text += p.out[i].Text
			out[i].Bytes += p.out[i].Bytes
			out[i].Truncated = out[i].Truncated || p.out[i].Truncated
		}
		for _, ind := range p.indic {
			if !slices.Contains(indicators, ind) {
				indicators = append(indicators, ind)
			}
		}
	}
	if t, f, dup := oncePerTest(tests, failed); dup {
		// A test that several reruns ran (a hook that fails again after
		// each test it ran for) counts once, failed if it failed once.
		tests, failed = t, f
		sum.Passed, sum.Failed, sum.Skipped = 0, 0, 0
		for _, t := range tests {
			switch t.Status {
			case report.TestPassed:
				sum.Passed++
			case report.TestFailed:
				sum.Failed++
			case report.TestSkipped:
				sum.Skipped++
			}
		}
	}
	for i := range out {
		// Each child's tail is bounded; together they keep the newest
		// bytes within the one run's bound.
		if len(out[i].Text) > tailCap {
			out[i].Text, out[i].Truncated = out[i].Text[len(out[i].Text)-tailCap:], true
		}
	}
	resp.Command = strings.Join(commands, "; ")
	ran := fmt.Sprintf("the %s framework runs one named test per process, so strobe reran the %d failed tests one after the other", r.adapter.Name(), len(s.tests))
	if n := countStatus(parts, report.NoTests); n > 0 && n < len(parts) {
		ran += fmt.Sprintf("; %d of them matched no test (renamed or removed since, or a failure outside any test)", n)
	}
	if len(parts) < len(s.tests) {
		ran += fmt.Sprintf(" and stopped after %d (%s)", len(parts), r.sequenceStop(worst.resp.Status, serr))
	}
	switch {
	case serr != nil:
		resp.Status, resp.Error = report.Error, serr.Error()
	case s.outOfTime && rank(resp.Status) > rank(report.Timeout):
		// Tests were left unrun: the run is not passed, nor only failed.
		resp.Status, resp.Crash = report.Timeout, &report.Crash{Type: report.CrashStopped, StoppedBy: report.StoppedTimeout,
			Message: fmt.Sprintf("the %v timeout was used up before the last tests ran", r.timeout)}
	}
	resp.Hint = joinHints(ran, worst.resp.Hint)
	for i, f := range failed {
		if i == maxFailures {
			resp.FailuresOmitted = len(failed) - maxFailures
			break
		}
		f.Message = kit.ClipFailure(f, maxMessage, trimmed)
		f.Later, f.LaterOmitted = nil, 0 // the message names them; the details file lists them
		resp.Failures = append(resp.Failures, f)
	}

	r.annotate(resp)
	allChanges, recorded := r.remember(resp, failed, tests)
	dir := r.detailsDir()
	resp.JUnit = r.writeJUnit(dir, resp, tests)
	exit := worst.exit
	rec := &details.Record{Response: *resp, ProjectRoot: r.req.ProjectRoot, Adapter: r.adapter.Name(),
		Level: string(r.level), Argv: worst.argv, Dir: worst.dir, Env: r.req.Env,
		TimeoutMS: r.timeout.Milliseconds(), Started: r.started, TestsBegan: parts[0].began, Finished: finished,
		Exit: &exit, Tests: tests, Indicators: indicators, Stdout: out[0], Stderr: out[1],
		Commit: r.commit(), Command: strings.TrimSpace(r.req.Command)}
	rec.Response.Failures, rec.Response.FailuresOmitted, rec.Response.Changes = failed, 0, allChanges
	if path, err := details.Write(dir, rec); err == nil {
		resp.Details = path
	} else {
		resp.Hint = strings.TrimSpace(resp.Hint + " (no details file: " + err.Error() + ")")
	}
	recorded(resp)
	r.resp = resp
}

// oncePerTest keeps one result for each test the children ran, the first
// failed one if any, else the first, and the failures of the tests kept, in
// their order; dup says whether any test came more than once.
func oncePerTest(tests []report.Test, failed []report.Failure) ([]report.Test, []report.Failure, bool) {
	type key struct{ suite, name string }
	at := map[key]int{}
	var out []report.Test
	dup := false
	for _, t := range tests {
		k := key{t.Suite, t.Name}
		i, seen := at[k]
		if !seen {
			at[k] = len(out)
			out = append(out, t)
			continue
		}
		dup = true
		if out[i].Status != report.TestFailed && t.Status == report.TestFailed {
			out[i] = t
		}
	}
	if !dup {
		return tests, failed, false
	}
	var fs []report.Failure
	seen := map[[2]string]bool{}
	for _, f := range failed {
		if k := [2]string{f.Name, f.File}; !seen[k] {
			seen[k] = true
			fs = append(fs, f)
		}
	}
	return out, fs, true
}

// sequenceStop says why a sequence ended before its last test.
func (r *Run) sequenceStop(worst report.Status, err error) string {
	switch {
	case err != nil:
		return "the next could not start"
	case worst == report.Cancelled:
		return "the run was cancelled"
	case worst == report.BuildFailed:
		return "the tests did not build"
	case worst == report.Timeout || r.seq.outOfTime:
		return fmt.Sprintf("its %v timeout was used up", r.timeout)
	}
	return string(worst)
}

// countStatus counts the parts that ended with status s.
func countStatus(parts []*part, s report.Status) int {
	n := 0
	for _, p := range parts {
		if p.resp.Status == s {
			n++
		}
	}
	return n
}
