package adapterstest

import (
	"strings"
	"testing"

	"strobe/report"
)

// CheckAsyncHangBesideIdle checks the answer of a run whose one test
// awaits a promise that never settles while a pool's other workers, done
// with their quick files, wait on their pipes: that test alone stuck,
// judged an async wait without end (not blocked on I/O, which the idle
// workers' waits made it), and the quick files' passed tests counted.
func CheckAsyncHangBesideIdle(t *testing.T, resp *report.Response, name string, passed int) {
	t.Helper()
	if resp.Status != report.Stuck || len(resp.Stuck) != 1 || resp.Stuck[0].Name != name {
		t.Fatalf("status %s, stuck %+v; want the hung test stuck", resp.Status, resp.Stuck)
	}
	if d := resp.Stuck[0].Diagnosis; !strings.HasPrefix(d, "async wait without end") {
		t.Errorf("diagnosis %q, want an async wait without end", d)
	}
	if resp.Summary.Passed != passed {
		t.Errorf("summary %+v, want the quick files' %d tests passed", resp.Summary, passed)
	}
}
