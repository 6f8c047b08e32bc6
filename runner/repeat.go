package runner

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"strobe/report"
)

// repeatNames bounds the tests an answer's repeat lists; the details file
// has them all.
const repeatNames = 20

// tally is one test's counts over a repeat's runs.
type tally struct {
	id             testKey
	passed, failed int
}

type testKey struct{ suite, name string }

// repeatRuns runs the selection Request.Repeat times in all, the run
// itself first, and counts each test's passes and failures: a hunt for
// flaky tests. A test that failed in any run fails the answer, with the
// first failure seen; a run that ended without a verdict on its tests
// (stuck, crashed, did not build) ends the hunt and its status becomes the
// answer's, since it needs looking at first. It updates resp and returns
// the failures and tests the run is recorded with.
func (r *Run) repeatRuns(resp *report.Response, failed []report.Failure, tests []report.Test) ([]report.Failure, []report.Test) {
	n := r.req.Repeat
	if n < 2 {
		return failed, tests
	}
	rep := &report.Repeat{Runs: 1, Requested: n}
	counts := map[testKey]*tally{}
	var order []*tally
	count := func(ts []report.Test) {
		for _, t := range ts {
			k := testKey{t.Suite, t.Name}
			c := counts[k]
			if c == nil {
				c = &tally{id: k}
				counts[k] = c
				order = append(order, c)
			}
			switch t.Status {
			case report.TestPassed:
				c.passed++
			case report.TestFailed, report.TestRunning, report.TestStuck:
				c.failed++
			}
		}
	}
	count(tests)
	if resp.Status != report.Passed && resp.Status != report.Failed {
		rep.Stopped = fmt.Sprintf("run 1 ended %s", resp.Status)
	}
	for i := 2; i <= n && rep.Stopped == ""; i++ {
		if r.ctx.Err() != nil {
			rep.Stopped = fmt.Sprintf("cancelled after %d runs", rep.Runs)
			break
		}
		c, _, err := r.again("", "", r.timeout, time.Time{})
		if r.ctx.Err() != nil {
			rep.Stopped = fmt.Sprintf("cancelled after %d runs", rep.Runs)
			resp.Status = report.Cancelled
			resp.Crash = &report.Crash{Type: report.CrashStopped, StoppedBy: report.StoppedCancelled,
				Message: fmt.Sprintf("strobe stopped the run: it was cancelled during repeat run %d", i)}
			break
		}
		if err != nil {
			rep.Stopped = fmt.Sprintf("run %d could not start: %s", i, oneLine(err.Error()))
			break
		}
		rep.Runs++
		res := c.Result()
		count(c.tests)
		tests = mergeFailed(tests, c.tests)
		if res.Status != report.Passed && res.Status != report.Failed {
			rep.Stopped = fmt.Sprintf("run %d ended %s (its details are in the answer)", i, res.Status)
			resp.Status, resp.Crash, resp.Stuck, resp.BuildErrors = res.Status, res.Crash, res.Stuck, res.BuildErrors
			resp.Hint = joinHints(resp.Hint, res.Hint)
		}
	}
	for _, c := range order {
		if c.failed == 0 {
			continue
		}
		if c.passed > 0 {
			rep.Intermittent++
		} else {
			rep.AlwaysFailed++
		}
		if len(rep.Tests) < repeatNames {
			rep.Tests = append(rep.Tests, report.RepeatTest{Name: c.id.name, Passed: c.passed, Failed: c.failed})
		} else {
			rep.TestsOmitted++
		}
	}
	rep.TestCount = len(order)
	resp.Repeat = rep
	failed = failed[:0:0]
	sum := report.Summary{Stuck: resp.Summary.Stuck, DurationMS: time.Since(r.started).Milliseconds()}
	for _, t := range tests {
		switch t.Status {
		case report.TestPassed:
			sum.Passed++
		case report.TestSkipped:
			sum.Skipped++
		case report.TestFailed:
			sum.Failed++
			if t.Failure != nil {
				failed = append(failed, *t.Failure)
			}
		}
	}
	if len(tests) > 0 {
		*resp.Summary = sum
	}
	listFailures(resp, failed)
	if resp.Status == report.Passed && sum.Failed > 0 {
		resp.Status, resp.Crash = report.Failed, &report.Crash{Type: report.CrashTestFailure}
	}
	resp.Hint = joinHints(resp.Hint, repeatHint(rep))
	return failed, tests
}

// mergeFailed is tests with each test that failed in next but not in tests
// replaced by its failing run, and the tests only next ran added: the
// tests the run is recorded with say every test that failed at least once.
func mergeFailed(tests, next []report.Test) []report.Test {
	at := make(map[testKey]int, len(tests))
	for i, t := range tests {
		at[testKey{t.Suite, t.Name}] = i
	}
	for _, t := range next {
		i, ok := at[testKey{t.Suite, t.Name}]
		switch {
		case !ok:
			at[testKey{t.Suite, t.Name}] = len(tests)
			tests = append(tests, t)
		case t.Status == report.TestFailed && tests[i].Status != report.TestFailed:
			tests[i] = t
		}
	}
	return tests
}

// repeatHint says what the hunt found.
func repeatHint(rep *report.Repeat) string {
	var parts []string
	runs := fmt.Sprintf("%d %s", rep.Runs, plural(rep.Runs, "run", "runs"))
	switch {
	case rep.Intermittent == 0 && rep.AlwaysFailed == 0:
		parts = append(parts, fmt.Sprintf("repeat: every test passed in all %s", runs))
	default:
		var names []string
		for _, t := range rep.Tests {
			if t.Passed > 0 {
				names = append(names, fmt.Sprintf("%s (failed %d of %d)", t.Name, t.Failed, t.Passed+t.Failed))
			}
		}
		if rep.Intermittent > 0 {
			parts = append(parts, fmt.Sprintf("repeat: %d %s both passed and failed over %s, so flaky — %s: "+
				"the failures depend on timing, order or shared state, not only on the code under test",
				rep.Intermittent, plural(rep.Intermittent, "test", "tests"), runs, strings.Join(clipList(names, flakyNames), ", ")))
		}
		if rep.AlwaysFailed > 0 {
			parts = append(parts, fmt.Sprintf("%d %s in every run: %s", rep.AlwaysFailed,
				plural(rep.AlwaysFailed, "test failed", "tests failed"), plural(rep.AlwaysFailed, "a real failure", "real failures")))
		}
	}
	if rep.Stopped != "" {
		parts = append(parts, "the runs stopped early: "+rep.Stopped)
	}
	var out string
	for _, p := range slices.Clip(parts) {
		out = joinHints(out, p)
	}
	return out
}
