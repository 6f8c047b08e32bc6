package history

import (
	"fmt"
	"testing"

	"strobe/report"
)

func flaky(name, msg string) report.Test {
	t := fail(name, msg)
	t.Status, t.Flaky = report.TestPassed, true
	return t
}

// TestFlaky: a test that failed and passed on a retry is neither a new
// failure nor fixed, and leaves its failure streak as it was.
func TestFlaky(t *testing.T) {
	s := Open(t.TempDir())
	id := TestID{"pkg", "b"}
	steps := []struct {
		b                  report.Test
		newF, still, fixed int
		repeated           int
	}{
		{b: fail("b", "boom")},                        // the first run compares with nothing
		{b: fail("b", "boom"), still: 1, repeated: 2}, // the same failure again
		{b: flaky("b", "boom"), repeated: 0},          // flaky: not still failing, not fixed
		{b: fail("b", "boom"), still: 1, repeated: 3}, // still failing; its streak went on under the flaky run
		{b: flaky("b", "boom")},                       // flaky after failing: not fixed
		{b: pass("b"), fixed: 1},                      // fixed: its last hard result was a failure
		{b: flaky("b", "boom")},                       // flaky after a pass: not a new failure
	}
	for i, st := range steps {
		res := record(t, s, run(string(rune('a'+i)), root, report.Failed, pass("a"), st.b))
		if got := res.Repeated[id]; got != st.repeated {
			t.Errorf("step %d: repeated %d, want %d", i, got, st.repeated)
		}
		if i == 0 {
			continue
		}
		c := res.Changes
		if c == nil {
			t.Fatalf("step %d: no changes", i)
		}
		if c.NewFailures.Count != st.newF || c.StillFailing.Count != st.still || c.Fixed.Count != st.fixed {
			t.Errorf("step %d: new %d, still %d, fixed %d; want %d, %d, %d", i,
				c.NewFailures.Count, c.StillFailing.Count, c.Fixed.Count, st.newF, st.still, st.fixed)
		}
	}
}

// TestFlipped: a test that fails, passes, fails, passes in a row is
// counted as flipping from its third change of state; a run that agrees
// with the one before ends the count, and a skipped run leaves it.
func TestFlipped(t *testing.T) {
	s := Open(t.TempDir())
	skipped := report.Test{Name: "a", Suite: "pkg", Status: report.TestSkipped}
	steps := []struct {
		test report.Test
		want int // Flipped[a], 0 for none
	}{
		{fail("a", "x"), 0},
		{pass("a"), 0},
		{fail("a", "x"), 0},
		{skipped, 0},
		{pass("a"), 3},
		{fail("a", "x"), 4},
		{fail("a", "x"), 0}, // failing twice: no longer flipping
		{pass("a"), 0},
		{pass("a"), 0}, // passing twice: forgotten
		{fail("a", "x"), 0},
	}
	for i, st := range steps {
		status := report.Passed
		if st.test.Status == report.TestFailed {
			status = report.Failed
		}
		res := record(t, s, run(fmt.Sprintf("r%d", i), root, status, st.test, pass("b")))
		if got := res.Flipped[TestID{"pkg", "a"}]; got != st.want {
			t.Errorf("run %d (%s): flipped %d, want %d", i, st.test.Status, got, st.want)
		}
		if _, ok := res.Flipped[TestID{"pkg", "b"}]; ok {
			t.Errorf("run %d: b, always passing, flipped", i)
		}
	}
}
