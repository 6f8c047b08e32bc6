package history

import (
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
