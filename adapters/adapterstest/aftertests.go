package adapterstest

import (
	"strings"
	"testing"
	"time"

	"strobe/report"
)

// Overdue is the wait of the overdue and lingering rules that the
// adapters' tests give the runner (runner.Options.Overdue) for a run
// under the default timeout: their verdicts come in seconds, not after
// the 20 s (60 s for a framework that reports no end) a user's run
// waits. The runner's own tests keep those defaults.
const Overdue = 3 * time.Second

// CheckAfterTests checks the answer for a run whose tests all passed and
// whose process then did not exit (a server a test left open, a thread
// Python joins at exit): stuck, the passed tests counted and no test
// stuck, one stuck entry after the tests whose diagnosis holds has, a
// hint that holds advice (the adapter's), and a verdict within within.
func CheckAfterTests(t *testing.T, resp *report.Response, passed int, has, advice string, within time.Duration) {
	t.Helper()
	if resp.Status != report.Stuck || len(resp.Stuck) != 1 {
		t.Fatalf("status %s, stuck %+v: want one stuck entry", resp.Status, resp.Stuck)
	}
	if s := resp.Summary; s.Passed != passed || s.Failed != 0 || s.Stuck != 0 {
		t.Errorf("summary %+v: want %d passed and no test stuck (none was running)", *s, passed)
	}
	s := resp.Stuck[0]
	if !s.AfterTests {
		t.Errorf("stuck entry %q not after the tests: %s", s.Name, s.Diagnosis)
	}
	if !strings.Contains(s.Diagnosis, "and the process did not exit: ") && !strings.Contains(s.Diagnosis, "and the process did not go on (after its tests, or between two of them): ") ||
		!strings.Contains(s.Diagnosis, has) {
		t.Errorf("diagnosis %q, want the process that did not exit (or go on) and %q", s.Diagnosis, has)
	}
	if strings.Contains(s.Diagnosis, "the test awaits") || strings.Contains(s.Diagnosis, "awaits a promise") {
		t.Errorf("diagnosis %q blames a test", s.Diagnosis)
	}
	if !strings.Contains(resp.Hint, advice) {
		t.Errorf("hint %q, want %q", resp.Hint, advice)
	}
	// Under the default timeout the hint quotes the wait the detector
	// had: these runs' Overdue (or a few times it, for a framework that
	// reports no end), not a user's default.
	if _, rest, ok := strings.Cut(resp.Hint, "Under the default timeout strobe stops a process that stays "); ok {
		wait, _, _ := strings.Cut(rest, " ")
		if d, err := time.ParseDuration(wait); err != nil || d%Overdue != 0 || d > 5*Overdue {
			t.Errorf("hint %q quotes a wait of %s, not the run's %v", resp.Hint, wait, Overdue)
		}
	}
	if d := time.Duration(s.ElapsedMS) * time.Millisecond; d > within {
		t.Errorf("verdict after %v, want within %v", d, within)
	}
	t.Logf("%s: %s\nhint: %s", s.Name, s.Diagnosis, resp.Hint)
}
