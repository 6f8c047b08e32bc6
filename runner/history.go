package runner

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"strobe/details"
	"strobe/history"
	"strobe/junit"
	"strobe/report"
)

// changedNames bounds the names each list of an answer's changes shows; the
// details file has them all.
const changedNames = 10

// repeatedHint is how many runs in a row the same failure must come back
// before the answer tells the agent to step back.
const repeatedHint = 3

// readAhead starts reading the project's history while the command runs,
// for the run that will record itself in it (not a rerun, nor one test of
// a sequence): decoding the history of a 64,000-test project takes 40 to
// 60 ms, which the answer waited for after the command ended.
func (r *Run) readAhead() {
	if r.opts.HistoryDir != "" && !r.rerun && r.part == nil {
		r.ahead = history.Open(r.opts.HistoryDir).ReadAhead(r.req.ProjectRoot)
	}
}

// remember records the run in its project's history (when the runner
// keeps one) and puts what the history says into the answer: changes since
// the previous comparable run, and how many runs in a row each failure has
// come back unchanged. failed are the run's failures in the order of
// tests; resp.Failures is their first part. It returns the untrimmed
// changes for the details file, and recorded, which waits for the history
// file (written meanwhile) and says in resp's hint when it did not land.
func (r *Run) remember(resp *report.Response, failed []report.Failure, tests []report.Test) (all *report.Changes, recorded func(*report.Response)) {
	recorded = func(*report.Response) {}
	if r.opts.HistoryDir == "" {
		return nil, recorded
	}
	res, written, err := history.Open(r.opts.HistoryDir).Start(history.Run{ID: r.ID, Root: r.req.ProjectRoot, Key: r.historyKey(),
		Status: resp.Status, Tests: withStuck(tests, resp.Stuck, r.Command()), Stuck: resp.Stuck, Crash: resp.Crash, Subset: r.sel.rerun != nil, Unfinished: r.binaryDied || r.notReached}, r.ahead)
	if err != nil {
		resp.Hint = joinHints(resp.Hint, "(no comparison with earlier runs: "+err.Error()+")")
		return nil, recorded
	}
	recorded = func(resp *report.Response) {
		if err := written(); err != nil {
			resp.Hint = joinHints(resp.Hint, "(this run is not in the history, the next will not compare with it: "+err.Error()+")")
		}
	}
	resp.Changes = history.Clip(res.Changes, changedNames)
	var ids []history.TestID // the tests of failed, in the order finish took them
	for _, t := range tests {
		if t.Status == report.TestFailed && t.Failure != nil {
			ids = append(ids, history.TestID{Suite: t.Suite, Name: t.Name})
		}
	}
	var again []string
	for i := range min(len(failed), len(ids)) {
		n := res.Repeated[ids[i]]
		failed[i].Repeated = n
		if i < len(resp.Failures) {
			resp.Failures[i].Repeated = n
		}
		if n >= repeatedHint {
			again = append(again, fmt.Sprintf("%s (%d runs)", failed[i].Name, n))
		}
	}
	if len(again) > 0 {
		// strobe does not know whether anything was tried between the
		// runs: a failure the environment causes (a module Python was
		// built without) comes back as unchanged while other work goes on.
		resp.Hint = joinHints(resp.Hint, fmt.Sprintf("the same failure has come back run after run in %s: "+
			"if the edits between these runs were meant to fix it, they have not, so step back, reread the failing assertion and the code under test, and reconsider the approach before another attempt",
			strings.Join(clipList(again, 3), ", ")))
	}
	if h := flippedHint(res.Flipped, tests); h != "" {
		resp.Hint = joinHints(resp.Hint, h)
	}
	return res.Changes, recorded
}

// withStuck is tests with the stuck tests the run has no record of: a
// test named only by its process's stacks (Maven's, whose results come at
// the end; a doctest rustdoc names once it ends). Unrecorded, it was in
// no history: the answer's changes said "no change" beside a new hang,
// and --failed reran an earlier run's failures without it. An entry named
// by the command (no test known) is none.
func withStuck(tests []report.Test, stuck []report.StuckTest, command string) []report.Test {
	out := tests
	for _, s := range stuck {
		if s.AfterTests || s.Name == command || slices.ContainsFunc(tests, func(t report.Test) bool { return t.Name == s.Name }) {
			continue
		}
		if len(out) == len(tests) {
			out = slices.Clone(tests)
		}
		out = append(out, report.Test{Name: s.Name, Suite: s.Suite, Status: report.TestStuck})
	}
	return out
}

// flippedHint names the tests whose state changed in each of their last
// runs (history.FlipsFlaky changes or more), in the run's order: they
// came out as new failures and fixes in turn, never as flaky.
func flippedHint(flipped map[history.TestID]int, tests []report.Test) string {
	if len(flipped) == 0 {
		return ""
	}
	var names []string
	seen := map[history.TestID]bool{}
	for _, t := range tests {
		id := history.TestID{Suite: t.Suite, Name: t.Name}
		if n, ok := flipped[id]; ok && !seen[id] {
			seen[id] = true
			names = append(names, fmt.Sprintf("%s (%d runs)", t.Name, n+1))
		}
	}
	if len(names) == 0 {
		return ""
	}
	return fmt.Sprintf("flipping between failing and passing run after run: %s; a test that does so may be flaky rather than broken and fixed by each edit: rerun it with repeat (--repeat 20) to tell",
		strings.Join(clipList(names, 3), ", "))
}

// clipList keeps the first n of names and counts the rest.
func clipList(names []string, n int) []string {
	if len(names) <= n {
		return names
	}
	return append(names[:n:n], fmt.Sprintf("%d more", len(names)-n))
}

// writeJUnit writes the run's JUnit report beside its details file and
// returns its path, or says in the hint why there is none.
func (r *Run) writeJUnit(dir string, resp *report.Response, tests []report.Test) string {
	_, wait := r.startJUnit(dir, resp, tests)
	return wait(resp)
}

// startJUnit writes the run's JUnit report beside the details file while
// the caller goes on (the two writes of a 500-test run take 1.5 and 3.5 ms
// of CPU; on two cores they overlap). The report is of resp as it is now,
// with the path the report will have ("" when the directory is unusable):
// the caller goes on filling in resp, so the report is built from a copy
// of it. The copy shares what resp's fields point to, and the caller
// changes one of those in place, the failures' repeat counts, which the
// report does not read. wait gives the path once written, or "" with
// resp's hint saying why there is none. tests must not change until then.
func (r *Run) startJUnit(dir string, resp *report.Response, tests []report.Test) (path string, wait func(*report.Response) string) {
	if err := details.EnsureDir(dir); err != nil {
		return "", func(*report.Response) string { return "" }
	}
	path = filepath.Clean(details.JUnitPath(dir, r.ID))
	now := *resp
	done := make(chan error, 1)
	go func() {
		done <- junit.WriteFile(path, junit.Build(junit.Run{Response: &now, Tests: tests, Started: r.started}))
	}()
	return path, func(resp *report.Response) string {
		if err := <-done; err != nil {
			resp.Hint = joinHints(resp.Hint, "(no JUnit report: "+err.Error()+")")
			return ""
		}
		return path
	}
}
