package history

import (
	"slices"
	"testing"

	"strobe/report"
)

// lateIn is a test failed by a late error, whose failure selects its
// file (report.Failure.Select).
func lateIn(name, file string) report.Test {
	t := fail(name, "late boom")
	t.Failure.Select = file
	return t
}

// TestFailingSelect: a failing test whose failure names what selects it
// again (a late error: its file) is rerun by that name, once for the
// suite however many of its tests name it, beside the suite's other
// failures by their own names. The name stays while the test stays
// failing without failing again (a run that did not reach it, a flaky
// run) and goes when it fails on its own or passes.
func TestFailingSelect(t *testing.T) {
	s := Open(t.TempDir())
	// want are the names rerun; n counts the failing tests they stand
	// for (the answer's rerun.tests).
	rerun := func(step string, n int, want ...string) {
		t.Helper()
		rr, err := s.ToRerun(root, goKey)
		if names := slices.Sorted(slices.Values(rr.Failing["pkg"])); err != nil || !slices.Equal(names, want) || rr.N != n {
			t.Errorf("%s: rerun %v of %d tests (%v), want %v of %d", step, rr.Failing, rr.N, err, want, n)
		}
	}
	record(t, s, run("r1", root, report.Failed, lateIn("a", "pkg"), lateIn("b", "pkg"), fail("c", "own"), pass("d")))
	rerun("two late errors and a failure", 3, "c", "pkg")

	partial := run("r2", root, report.Failed, fail("c", "own"))
	partial.Subset = true
	record(t, s, partial)
	rerun("after a rerun that did not reach them", 3, "c", "pkg")

	record(t, s, run("r3", root, report.Failed, flaky("a", "late boom"), lateIn("b", "pkg"), pass("c"), pass("d")))
	rerun("a flaky, b late again", 2, "pkg")

	record(t, s, run("r4", root, report.Failed, fail("a", "own"), pass("b"), pass("c"), pass("d")))
	rerun("a failed on its own, b passed", 1, "a")
}
