package adapters

import (
	"slices"
	"testing"
	"time"

	"strobe/report"
)

// TestRecorderFailureUpdates: a parser changes a recorded failure through
// UpdateFailure, under the lock; what Tests, Lookup and Failure returned
// before is the caller's copy and does not change under its reader.
func TestRecorderFailureUpdates(t *testing.T) {
	rec := NewRecorder()
	rec.End("", "fails", report.TestFailed, 0, &report.Failure{Message: "boom"})
	rec.End("", "passes", report.TestPassed, 0, nil)
	before := rec.Tests()
	looked, _ := rec.Lookup("", "fails")
	copied := rec.Failure("", "fails")

	if !rec.UpdateFailure("", "fails", func(f *report.Failure) { f.File, f.Line = "t.sh", 7 }) {
		t.Fatal("UpdateFailure found no failure to update")
	}
	if rec.UpdateFailure("", "passes", func(*report.Failure) { t.Error("called for a test without a failure") }) {
		t.Error("UpdateFailure updated a test that passed")
	}
	for what, f := range map[string]*report.Failure{"Tests": before[0].Failure, "Lookup": looked.Failure, "Failure": copied} {
		if f.File != "" {
			t.Errorf("%s's copy changed with the recorder: %+v", what, f)
		}
	}
	if got := rec.Tests()[0].Failure; got.File != "t.sh" || got.Line != 7 || got.Message != "boom" {
		t.Errorf("after UpdateFailure: %+v", got)
	}
}

func TestRecorderRunning(t *testing.T) {
	rec := NewRecorder()
	rec.Start("s", "first")
	rec.Start("s", "second")
	rec.Start("other", "elsewhere")
	rec.Start("s", "third")
	rec.Start("s", "first") // started twice: still once, still first
	rec.End("s", "second", report.TestPassed, 0, nil)
	rec.End("s", "never started", report.TestFailed, 0, nil)
	rec.Start("s", "never started") // ended first: not running
	if got := rec.Running("s"); !slices.Equal(got, []string{"first", "third"}) {
		t.Errorf("Running(s) = %q, want first and third", got)
	}
	if got := rec.Running("other"); !slices.Equal(got, []string{"elsewhere"}) {
		t.Errorf("Running(other) = %q", got)
	}
	var all []string
	for _, r := range rec.Progress().Running {
		all = append(all, r.Name)
	}
	if !slices.Equal(all, []string{"first", "elsewhere", "third"}) {
		t.Errorf("Progress().Running = %q", all)
	}
}

// TestRecorderPause: a paused test (Go's t.Parallel, waiting for the
// tests that run one at a time) is waiting, not running: the stuck
// detector judges the one that runs, and Abandon names that one alone. Its
// running time counts from when it went on; a pause of a test that never
// started, or ended, records nothing.
func TestRecorderPause(t *testing.T) {
	now := time.Unix(1000, 0)
	rec := NewRecorder()
	rec.now = func() time.Time { return now }
	rec.Start("p", "TestPar")
	rec.Pause("p", "TestPar")
	now = now.Add(time.Second)
	rec.Start("p", "TestHang")
	rec.Pause("p", "TestNever") // not started: nothing
	rec.End("p", "TestDone", report.TestPassed, 0, nil)
	rec.Pause("p", "TestDone") // ended: nothing
	pr := rec.Progress()
	if len(pr.Running) != 1 || pr.Running[0].Name != "TestHang" || len(pr.Waiting) != 1 || pr.Waiting[0].Name != "TestPar" {
		t.Errorf("running %+v, waiting %+v: want TestHang running and TestPar waiting", pr.Running, pr.Waiting)
	}
	if len(rec.Tests()) != 3 {
		t.Errorf("tests %+v: a pause of a test never started recorded one", rec.Tests())
	}
	if pr.AfterTests() {
		t.Error("after the tests, with one running and one waiting")
	}
	rec.End("p", "TestHang", report.TestPassed, 0, nil)
	if rec.Progress().AfterTests() {
		t.Error("after the tests while one waits to go on")
	}

	now = now.Add(5 * time.Second)
	rec.Resume("p", "TestPar")
	pr = rec.Progress()
	if len(pr.Running) != 1 || pr.Running[0].Name != "TestPar" || !pr.Running[0].Since.Equal(now) || len(pr.Waiting) != 0 {
		t.Errorf("after Resume: running %+v, waiting %+v; want TestPar running since it went on", pr.Running, pr.Waiting)
	}
	rec.Pause("p", "TestPar")
	rec.Start("p", "TestHang2")
	if got := rec.Abandon(); !slices.Equal(got, []string{"TestHang2"}) {
		t.Errorf("Abandon = %q, want the running test alone", got)
	}
	for _, tt := range rec.Tests() {
		if tt.Name == "TestPar" && tt.Status != report.TestRunning {
			t.Errorf("the paused test is %s after Abandon, want running (it never finished)", tt.Status)
		}
	}
}

// TestRecorderForget: a forgotten test leaves the list, the counts and the
// running tests; looking it up again starts a new one.
func TestRecorderForget(t *testing.T) {
	rec := NewRecorder()
	rec.Start("p", "TestOuter")
	rec.Start("p", "TestInner")
	rec.Output("p", "TestInner", "inner failure\n")
	rec.End("p", "TestInner", report.TestFailed, 0, &report.Failure{Message: "inner failure"})
	rec.Start("p", "TestStill")
	rec.Forget("p", "TestInner")
	rec.Forget("p", "TestStill")
	rec.Forget("p", "never recorded")
	rec.End("p", "TestOuter", report.TestPassed, 0, nil)
	var names []string
	for _, tt := range rec.Tests() {
		names = append(names, tt.Name)
	}
	p := rec.Progress()
	if !slices.Equal(names, []string{"TestOuter"}) || p.Passed != 1 || p.Failed != 0 || len(p.Running) != 0 {
		t.Errorf("tests %q, progress %+v; want TestOuter alone, 1 passed, none failed or running", names, p)
	}
	if _, ok := rec.Lookup("p", "TestInner"); ok {
		t.Error("Lookup found a forgotten test")
	}
}

// TestRecorderAgain: a test that ended and runs again (go test -count=N)
// is running, out of the counts, until its next end; its failure stays
// when that end brings none.
func TestRecorderAgain(t *testing.T) {
	rec := NewRecorder()
	rec.Start("p", "TestA")
	rec.End("p", "TestA", report.TestFailed, 0, &report.Failure{Message: "run 1"})
	rec.Again("p", "TestA")
	if got, p := rec.Running("p"), rec.Progress(); !slices.Equal(got, []string{"TestA"}) || p.Failed != 0 || len(p.Running) != 1 {
		t.Errorf("running again: Running %q, progress %+v; want TestA running and out of the counts", got, p)
	}
	rec.End("p", "TestA", report.TestFailed, 0, nil)
	if tt, _ := rec.Lookup("p", "TestA"); tt.Status != report.TestFailed || tt.Failure == nil || tt.Failure.Message != "run 1" || len(rec.Running("p")) != 0 || rec.Progress().Failed != 1 {
		t.Errorf("after its second end: %+v, progress %+v", tt, rec.Progress())
	}
	rec.Again("p", "TestA")
	if names := rec.Abandon(); !slices.Equal(names, []string{"TestA"}) {
		t.Errorf("Abandon = %q, want TestA, running again when the run ended", names)
	}
	rec.Again("p", "TestB") // never ended: started
	if got := rec.Running("p"); !slices.Equal(got, []string{"TestA", "TestB"}) {
		t.Errorf("Running %q", got)
	}
}

// TestAfterTests: a run is after its tests once the framework reported
// its end, or when none runs while some finished and the parser reports
// starts (Start, or StartsLive for a reporter that names a test once it
// runs a moment); a parser that names tests only once they ended
// (Surefire's console) leaves a run between tests unknown.
func TestAfterTests(t *testing.T) {
	ended := NewRecorder()
	if ended.Progress().AfterTests() {
		t.Error("a run with nothing recorded is after its tests")
	}
	ended.EndRun()
	if !ended.Progress().AfterTests() {
		t.Error("a run whose framework reported its end is not after its tests")
	}

	live := NewRecorder()
	live.Start("", "a")
	if live.Progress().AfterTests() {
		t.Error("a run with a test running is after its tests")
	}
	live.End("", "a", report.TestPassed, time.Millisecond, nil)
	if !live.Progress().AfterTests() {
		t.Error("a run whose started tests all ended is not after them")
	}

	lazy := NewRecorder()
	lazy.StartsLive()
	lazy.End("", "quick", report.TestPassed, 0, nil)
	if !lazy.Progress().AfterTests() {
		t.Error("a run of a reporter that names running tests, none running, is not after its tests")
	}

	surefire := NewRecorder()
	surefire.End("Suite", "a", report.TestPassed, time.Millisecond, nil)
	if surefire.Progress().AfterTests() {
		t.Error("a run whose parser names no test running is after its tests")
	}
}

// TestRecorderLastEvent: a test's start and end each stamp the recorder's
// last event (the stuck detector's sign of life); a lookup does not, nor a
// test's output (node's "Debugger attached." on a test file's stderr,
// there because the detector looked).
func TestRecorderLastEvent(t *testing.T) {
	now := time.Unix(1000, 0)
	rec := NewRecorder()
	rec.now = func() time.Time { return now }
	if got := rec.LastEvent(); !got.IsZero() {
		t.Errorf("LastEvent before any event = %v, want zero", got)
	}
	for i, event := range []func(){
		func() { rec.Start("s", "a") },
		func() { rec.End("s", "a", report.TestPassed, 0, nil) },
	} {
		now = now.Add(time.Second)
		event()
		if got := rec.LastEvent(); !got.Equal(now) {
			t.Errorf("event %d: LastEvent = %v, want %v", i, got, now)
		}
	}
	at := now
	now = now.Add(time.Second)
	rec.Lookup("s", "a")
	rec.Progress()
	rec.Output("s", "a", "Debugger attached.\n")
	if got := rec.LastEvent(); !got.Equal(at) {
		t.Errorf("after a lookup and output LastEvent = %v, want %v", got, at)
	}
}
