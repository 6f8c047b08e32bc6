package runner

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"strobe/adapters/adapterstest"
	"strobe/details"
	"strobe/history"
	"strobe/report"
)

// mochaProject is a project of the mocha adapter's fixtures, installed.
func mochaProject(t *testing.T, name string) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "adapters", "mocha", "testdata", "fixtures", "mocha"))
	if err != nil {
		t.Fatal(err)
	}
	adapterstest.NpmCI(t, dir)
	return filepath.Join(dir, name)
}

// mochaRun runs a mocha fixture project through the runner, with a
// history, and reads back its details file.
func mochaRun(t *testing.T, opts Options, root, command string, mod func(*Request)) (*report.Response, *details.Record) {
	t.Helper()
	req := Request{ProjectRoot: root, Framework: "mocha", Command: command, Timeout: time.Minute}
	if mod != nil {
		mod(&req)
	}
	resp, err := Exec(context.Background(), req, opts)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := details.Read("", resp.Details)
	if err != nil {
		t.Fatalf("%+v: %v", resp, err)
	}
	return resp, rec
}

func failedNames(tests []report.Test) []string {
	var names []string
	for _, tc := range tests {
		if tc.Status == report.TestFailed {
			names = append(names, tc.Name)
		}
	}
	slices.Sort(names)
	return names
}

// --failed on mocha, which runs one named test per process, reruns each
// failure in a run of its own and answers once for all of them.
func TestFailedOneByOne(t *testing.T) {
	root := mochaProject(t, "basic")
	opts := Options{DetailsDir: t.TempDir(), HistoryDir: t.TempDir()}
	first, firstRec := mochaRun(t, opts, root, "", nil)
	// A hook's failure is named after the hook; its rerun runs the test
	// it ran for, so the hook fails again under its name.
	all := failedNames(firstRec.Tests)
	failing := all
	if !slices.ContainsFunc(all, func(n string) bool { return strings.Contains(n, " hook for ") }) {
		t.Fatalf("the first run failed %q; the fixture must fail a hook", all)
	}
	if len(failing) < 2 {
		t.Fatalf("the first run failed %q; the fixture must fail several tests", failing)
	}
	resp, rec := mochaRun(t, opts, root, "", func(r *Request) { r.OnlyFailed = true })
	var ran []string
	for _, tc := range rec.Tests {
		ran = append(ran, tc.Name)
	}
	slices.Sort(ran)
	if !slices.Equal(ran, failing) || !slices.Equal(failedNames(rec.Tests), failing) {
		t.Errorf("--failed ran %q (failed %q), want each of %q once, failing", ran, failedNames(rec.Tests), failing)
	}
	if resp.Status != report.Failed || resp.Summary.Failed != len(failing) || resp.Summary.Passed != 0 || len(resp.Failures) != len(failing) {
		t.Errorf("--failed: %s %+v, %d failures; want %d failed", resp.Status, resp.Summary, len(resp.Failures), len(failing))
	}
	if resp.Rerun == nil || resp.Rerun.Of != first.RunID || resp.Rerun.Tests != len(all) {
		t.Errorf("rerun = %+v, want %d tests of %s", resp.Rerun, len(all), first.RunID)
	}
	if c := resp.Changes; c == nil || c.StillFailing.Count != len(failing) || c.RemovedTests.Count != 0 {
		t.Errorf("changes = %+v, want %d still failing, nothing removed", c, len(failing))
	}
	if !strings.Contains(resp.Hint, "one after the other") || strings.Count(resp.Command, "--grep") != len(all) {
		t.Errorf("hint %q, command %q: want both to show %d runs", resp.Hint, resp.Command, len(all))
	}
	if strings.Contains(resp.Hint, "matched no test") {
		t.Errorf("hint %q: the hook's rerun found its test", resp.Hint)
	}
	for _, f := range resp.Failures {
		if f.File == "" || f.Rerun == "" {
			t.Errorf("failure %+v lacks its file or rerun command", f)
		}
	}
}

// hangCommand runs the hang fixture without mocha's own test timeout.
const hangCommand = "npx mocha --timeout 0"

// seedFailing records a run of the hang fixture in which both its tests
// failed, so that --failed reruns the hung one, then the quick one.
func seedFailing(t *testing.T, opts Options, root string) {
	t.Helper()
	key := history.Key{Framework: "mocha", Command: hangCommand}
	const file = "test/hang.spec.js"
	tests := []report.Test{
		{Suite: file, Name: "waits for ever", Status: report.TestFailed, Failure: &report.Failure{Name: "waits for ever", Message: "seeded"}},
		{Suite: file, Name: "finishes quickly", Status: report.TestFailed, Failure: &report.Failure{Name: "finishes quickly", Message: "seeded"}},
	}
	if _, err := history.Open(opts.HistoryDir).Record(history.Run{ID: "seed", Root: root,
		Key: key, Status: report.Failed, Tests: tests}); err != nil {
		t.Fatal(err)
	}
}

// The run's timeout bounds the whole sequence: once the hung test has used
// it up, the next test does not run.
func TestFailedOneByOneTimeout(t *testing.T) {
	root := mochaProject(t, "hang")
	opts := Options{DetailsDir: t.TempDir(), HistoryDir: t.TempDir()}
	seedFailing(t, opts, root)
	resp, rec := mochaRun(t, opts, root, hangCommand, func(r *Request) { r.OnlyFailed, r.Timeout = true, 2*time.Second })
	if resp.Status != report.Timeout || !strings.Contains(resp.Hint, "stopped after 1") {
		t.Errorf("status %s, hint %q; want timeout, stopped after the first test", resp.Status, resp.Hint)
	}
	for _, tc := range rec.Tests {
		if tc.Name == "finishes quickly" {
			t.Errorf("the test after the timeout ran: %+v", tc)
		}
	}
}

// Cancelling the sequence stops the test running and runs no other.
func TestFailedOneByOneCancel(t *testing.T) {
	root := mochaProject(t, "hang")
	opts := Options{DetailsDir: t.TempDir(), HistoryDir: t.TempDir()}
	seedFailing(t, opts, root)
	r, err := Start(context.Background(), Request{ProjectRoot: root, Framework: "mocha",
		Command: hangCommand, OnlyFailed: true, Timeout: time.Minute}, opts)
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for len(r.Progress().Running) == 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if run := r.Running(); run.Progress == nil || len(run.Progress.Running) != 1 || run.Progress.Running[0].Name != "waits for ever" || !strings.Contains(run.Command, "--grep") {
		t.Fatalf("running answer %+v, want the hung test running", run)
	}
	began := time.Now()
	r.Cancel()
	select {
	case <-r.Done():
	case <-time.After(15 * time.Second):
		t.Fatal("the sequence did not end after its cancel")
	}
	resp := r.Result()
	if resp.Status != report.Cancelled || resp.Summary.Passed != 0 || !strings.Contains(resp.Hint, "cancelled") {
		t.Errorf("after cancel: %s %+v, hint %q; want cancelled with nothing else run", resp.Status, resp.Summary, resp.Hint)
	}
	t.Logf("cancel took %v", time.Since(began))
}

// A block's after hook fails after its tests ran: each one-test rerun of
// its failed tests runs the hook again and fails it again. The answer
// counts each test once.
func TestFailedOneByOneCountsEachTestOnce(t *testing.T) {
	root := mochaProject(t, "afterall")
	opts := Options{DetailsDir: t.TempDir(), HistoryDir: t.TempDir()}
	_, firstRec := mochaRun(t, opts, root, "", nil)
	failing := failedNames(firstRec.Tests)
	if len(failing) != 3 {
		t.Fatalf("the first run failed %q; want the two tests and the hook", failing)
	}
	resp, rec := mochaRun(t, opts, root, "", func(r *Request) { r.OnlyFailed = true })
	var names []string
	for _, tc := range rec.Tests {
		names = append(names, tc.Name)
	}
	if got := failedNames(rec.Tests); !slices.Equal(got, failing) || len(names) != len(slices.Compact(slices.Sorted(slices.Values(names)))) {
		t.Errorf("--failed recorded %q (failed %q), want each test once and %q failed", names, got, failing)
	}
	if resp.Summary.Failed != 3 || len(resp.Failures) != 3 {
		t.Errorf("--failed: %+v, %d failures; want 3 failed, 3 failures", resp.Summary, len(resp.Failures))
	}
}
