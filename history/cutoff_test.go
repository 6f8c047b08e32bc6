package history

import (
	"slices"
	"testing"

	"strobe/report"
)

// diedWith is a test its process's death cut off, as the adapters fail
// it (kit.DidNotFinish).
func diedWith(name string, others int) report.Test {
	msg := report.DidNotFinish + "the test binary died of SIGABRT while it ran"
	if others > 0 {
		msg += " with other tests (one of them, or their running together, did it: rerun each alone)"
	}
	return fail(name, msg)
}

func running(name string) report.Test {
	return report.Test{Name: name, Suite: "pkg", Status: report.TestRunning}
}

func crashed(id string, running []string, tests ...report.Test) Run {
	r := run(id, root, report.Crashed, tests...)
	r.Crash = &report.Crash{Type: report.CrashAbort, Signal: 6, SignalName: "SIGABRT", RunningTests: running}
	return r
}

func stopped(id string, status report.Status, by string, stuck []string, tests ...report.Test) Run {
	r := run(id, root, status, tests...)
	r.Crash = &report.Crash{Type: report.CrashStopped, StoppedBy: by}
	for _, n := range stuck {
		r.Stuck = append(r.Stuck, report.StuckTest{Name: n})
	}
	return r
}

func cutOffNames(n ...string) *report.Names {
	l := names(n...)
	return &l
}

// TestCutOff: a test that failed only because a crash or strobe's stop
// cut it off never failed on its own: it is no new failure on the run
// that cut it off, and not fixed when it passes next. It is listed apart
// (cut_off). The test a crash names, or the one alone in its process when
// it died, and a test the stuck detector named, failed.
func TestCutOff(t *testing.T) {
	for _, tt := range []struct {
		name  string
		runs  []Run
		wants []*report.Changes // one per run after the first
	}{
		{name: "a test binary that died running two tests cuts both off",
			runs: []Run{
				run("r1", root, report.Passed, pass("a"), pass("b"), pass("c")),
				crashed("r2", []string{"a", "b"}, diedWith("a", 1), diedWith("b", 1), pass("c")),
				run("r3", root, report.Passed, pass("a"), pass("b"), pass("c")),
			},
			wants: []*report.Changes{
				{Since: "r1", Partial: true, CutOff: cutOffNames("a", "b")},
				{Since: "r2"},
			}},
		{name: "the test the crash names failed, the one beside it was cut off",
			runs: []Run{
				run("r1", root, report.Passed, pass("a"), pass("b")),
				crashed("r2", []string{"a", "b"}, fail("a", "stack overflow: thread 'a' overflowed its stack, and the test binary died of SIGABRT"),
					fail("b", report.DidNotFinish+"the test binary died of SIGABRT while it ran: a overflowed its stack")),
				run("r3", root, report.Passed, pass("a"), pass("b")),
			},
			wants: []*report.Changes{
				{Since: "r1", NewFailures: names("a"), Partial: true, CutOff: cutOffNames("b")},
				{Since: "r2", Fixed: names("a")},
			}},
		{name: "a test alone in its process when it died is the cause",
			runs: []Run{
				run("r1", root, report.Passed, pass("a"), pass("b")),
				crashed("r2", []string{"b"}, pass("a"), diedWith("b", 0)),
				run("r3", root, report.Passed, pass("a"), pass("b")),
			},
			wants: []*report.Changes{
				{Since: "r1", NewFailures: names("b"), Partial: true},
				{Since: "r2", Fixed: names("b")},
			}},
		{name: "a stuck run: the stuck test fails, the one running beside it was cut off",
			runs: []Run{
				run("r1", root, report.Passed, pass("a"), pass("b"), pass("c")),
				stopped("r2", report.Stuck, report.StoppedStuck, []string{"a"}, running("a"), running("b"), pass("c")),
				run("r3", root, report.Passed, pass("a"), pass("b"), pass("c")),
			},
			wants: []*report.Changes{
				{Since: "r1", NewFailures: names("a"), Partial: true, CutOff: cutOffNames("b")},
				{Since: "r2", Fixed: names("a")},
			}},
		{name: "a test running at the run's timeout or cancel was cut off",
			runs: []Run{
				run("r1", root, report.Passed, pass("a"), pass("b")),
				stopped("r2", report.Timeout, report.StoppedTimeout, nil, pass("a"), running("b")),
				stopped("r3", report.Cancelled, report.StoppedCancelled, nil, running("a")),
				run("r4", root, report.Passed, pass("a"), pass("b")),
			},
			wants: []*report.Changes{
				{Since: "r1", Partial: true, CutOff: cutOffNames("b")},
				{Since: "r2", Partial: true, CutOff: cutOffNames("a")},
				{Since: "r3"},
			}},
		{name: "a test failing before a crash cut it off is still failing after, and fixed when it passes",
			runs: []Run{
				run("r1", root, report.Failed, fail("a", "x"), pass("b")),
				crashed("r2", []string{"a", "b"}, diedWith("a", 1), diedWith("b", 1)),
				run("r3", root, report.Failed, fail("a", "x"), pass("b")),
				crashed("r4", []string{"a", "b"}, diedWith("a", 1), diedWith("b", 1)),
				run("r5", root, report.Passed, pass("a"), pass("b")),
			},
			wants: []*report.Changes{
				{Since: "r1", Partial: true, CutOff: cutOffNames("a", "b")},
				{Since: "r2", StillFailing: names("a")},
				{Since: "r3", Partial: true, CutOff: cutOffNames("a", "b")},
				{Since: "r4", Fixed: names("a")},
			}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := Open(t.TempDir())
			record(t, s, tt.runs[0])
			for i, r := range tt.runs[1:] {
				if got := record(t, s, r).Changes; !equalJSON(got, tt.wants[i]) {
					t.Errorf("%s's changes:\n got %s\nwant %s", r.ID, js(got), js(tt.wants[i]))
				}
			}
		})
	}
}

// TestCutOffStreakAndRerun: a test cut off keeps its failure streak as it
// was (it neither failed again nor passed), is rerun with what failed,
// and leaves that list once it ran to a result.
func TestCutOffStreakAndRerun(t *testing.T) {
	s := Open(t.TempDir())
	id := TestID{"pkg", "a"}
	record(t, s, run("r1", root, report.Failed, fail("a", "boom"), pass("b")))
	if got := record(t, s, run("r2", root, report.Failed, fail("a", "boom"), pass("b"))).Repeated[id]; got != 2 {
		t.Fatalf("r2: repeated %d, want 2", got)
	}
	res := record(t, s, crashed("r3", []string{"a", "b"}, diedWith("a", 1), diedWith("b", 1)))
	if _, ok := res.Repeated[id]; ok {
		t.Errorf("r3: repeated %v for a test cut off", res.Repeated)
	}
	rr, err := s.ToRerun(root, goKey)
	if err != nil || rr.Since != "r3" || !slices.Equal(rr.Failing["pkg"], []string{"a", "b"}) {
		t.Errorf("after the crash: rerun %v of %s (%v), want a (failing) and b (cut off)", rr.Failing, rr.Since, err)
	}
	if got := record(t, s, run("r4", root, report.Failed, fail("a", "boom"), pass("b"))).Repeated[id]; got != 3 {
		t.Errorf("r4: repeated %d, want 3: the streak went on under the crash", got)
	}
	if rr, _ := s.ToRerun(root, goKey); !slices.Equal(rr.Failing["pkg"], []string{"a"}) {
		t.Errorf("after b passed: rerun %v, want a", rr.Failing)
	}
	// A partial run that did not reach b keeps it to rerun.
	record(t, s, crashed("r5", []string{"a", "b"}, diedWith("a", 1), diedWith("b", 1)))
	record(t, s, run("r6", root, report.Crashed, fail("a", "boom")))
	if rr, _ := s.ToRerun(root, goKey); !slices.Equal(rr.Failing["pkg"], []string{"a", "b"}) {
		t.Errorf("after a run that did not reach b: rerun %v, want a and b", rr.Failing)
	}
}
