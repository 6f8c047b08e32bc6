package runner

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"strobe/details"
	"strobe/history"
	"strobe/internal/testutil"
	"strobe/report"
)

// catch2Run runs a Catch2 fixture binary through the runner, with a
// history, and reads back its details file.
func catch2Run(t *testing.T, opts Options, bin string, mod func(*Request)) (*report.Response, *details.Record) {
	t.Helper()
	req := Request{ProjectRoot: testutil.Fixture("catch2", "plain"), Framework: "catch2", Command: bin, Timeout: time.Minute}
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

// --failed on Catch2, which runs one named test per process, reruns each
// failure in a run of its own and answers once for all of them.
func TestFailedOneByOne(t *testing.T) {
	bin := filepath.Join(testutil.Catch2Fixtures(t), "basic")
	opts := Options{DetailsDir: t.TempDir(), HistoryDir: t.TempDir()}
	first, firstRec := catch2Run(t, opts, bin, nil)
	failing := failedNames(firstRec.Tests)
	if len(failing) < 2 {
		t.Fatalf("the first run failed %q; the fixture must fail several tests", failing)
	}
	resp, rec := catch2Run(t, opts, bin, func(r *Request) { r.OnlyFailed = true })
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
	if resp.Rerun == nil || resp.Rerun.Of != first.RunID || resp.Rerun.Tests != len(failing) {
		t.Errorf("rerun = %+v, want %d tests of %s", resp.Rerun, len(failing), first.RunID)
	}
	if c := resp.Changes; c == nil || c.StillFailing.Count != len(failing) || c.RemovedTests.Count != 0 {
		t.Errorf("changes = %+v, want %d still failing, nothing removed", c, len(failing))
	}
	if !strings.Contains(resp.Hint, "one after the other") || strings.Count(resp.Command, bin) != len(failing) {
		t.Errorf("hint %q, command %q: want both to show %d runs", resp.Hint, resp.Command, len(failing))
	}
	for _, f := range resp.Failures {
		if f.File == "" || f.Line == 0 || f.Rerun == "" {
			t.Errorf("failure %+v lacks its file:line or rerun command", f)
		}
	}
	if !strings.Contains(rec.Stdout.Text+rec.Stderr.Text, "adds wrongly") && rec.Stdout.Bytes+rec.Stderr.Bytes == 0 {
		t.Errorf("the details file kept no output of the runs")
	}
}

// seedFailing records a run of the deadlock fixture in which both its
// tests failed, so that --failed reruns the hung one, then the quick one.
func seedFailing(t *testing.T, opts Options, bin string) {
	t.Helper()
	key := history.Key{Framework: "catch2", Command: bin}
	tests := []report.Test{
		{Name: "transfers between accounts", Status: report.TestFailed, Failure: &report.Failure{Name: "transfers between accounts", Message: "seeded"}},
		{Name: "quick one", Status: report.TestFailed, Failure: &report.Failure{Name: "quick one", Message: "seeded"}},
	}
	if _, err := history.Open(opts.HistoryDir).Record(history.Run{ID: "seed", Root: testutil.Fixture("catch2", "plain"),
		Key: key, Status: report.Failed, Tests: tests}); err != nil {
		t.Fatal(err)
	}
}

// The run's timeout bounds the whole sequence: once the hung test has used
// it up, the next test does not run.
func TestFailedOneByOneTimeout(t *testing.T) {
	bin := filepath.Join(testutil.Catch2Fixtures(t), "deadlock")
	opts := Options{DetailsDir: t.TempDir(), HistoryDir: t.TempDir()}
	seedFailing(t, opts, bin)
	resp, rec := catch2Run(t, opts, bin, func(r *Request) { r.OnlyFailed, r.Timeout = true, time.Second })
	if resp.Status != report.Timeout || !strings.Contains(resp.Hint, "stopped after 1") {
		t.Errorf("status %s, hint %q; want timeout, stopped after the first test", resp.Status, resp.Hint)
	}
	for _, tc := range rec.Tests {
		if tc.Name == "quick one" {
			t.Errorf("the test after the timeout ran: %+v", tc)
		}
	}
}

// Cancelling the sequence stops the test running and runs no other.
func TestFailedOneByOneCancel(t *testing.T) {
	bin := filepath.Join(testutil.Catch2Fixtures(t), "deadlock")
	opts := Options{DetailsDir: t.TempDir(), HistoryDir: t.TempDir()}
	seedFailing(t, opts, bin)
	r, err := Start(context.Background(), Request{ProjectRoot: testutil.Fixture("catch2", "plain"), Framework: "catch2",
		Command: bin, OnlyFailed: true, Timeout: time.Minute}, opts)
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for len(r.Progress().Running) == 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if run := r.Running(); run.Progress == nil || len(run.Progress.Running) != 1 || run.Progress.Running[0].Name != "transfers between accounts" || !strings.Contains(run.Command, "deadlock") {
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
