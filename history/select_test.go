package history

import (
	"slices"
	"strings"
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

// TestFailingAcrossFilters: a run of another test filter (`--test FILE`
// beside the whole suite) tells what it found of the selection's tests:
// the whole suite's --failed does not rerun a failure `--test` saw pass,
// and reruns one it saw fail; `--failed --test` reruns its tests that the
// whole suite saw fail since. The whole suite's next run compares with
// its own last run all the same, and a complete run of it forgets what it
// was told.
func TestFailingAcrossFilters(t *testing.T) {
	s := Open(t.TempDir())
	file := Key{Framework: "go", Level: "all", Test: "pkg"}
	rerun := func(step string, key Key, since string, want ...string) {
		t.Helper()
		rr, err := s.ToRerun(root, key)
		if names := slices.Sorted(slices.Values(rr.Failing["pkg"])); err != nil || !slices.Equal(names, want) || rr.N != len(want) || rr.Since != since {
			t.Errorf("%s: rerun %v of %d tests of %s (%v), want %v of %s", step, rr.Failing, rr.N, rr.Since, err, want, since)
		}
	}
	record(t, s, run("r1", root, report.Failed, fail("a", "boom"), fail("b", "boom"), pass("c")))
	narrow := func(id string, tests ...report.Test) {
		r := run(id, root, report.Failed, tests...)
		r.Key = file
		record(t, s, r)
	}
	narrow("r2", pass("a"), pass("b"), fail("c", "boom"))
	rerun("whole suite, after --test fixed a and b and broke c", goKey, "r2", "c")
	rerun("the filter's own", file, "r2", "c")

	record(t, s, run("r3", root, report.Failed, fail("a", "again"), pass("b"), fail("c", "boom")))
	rerun("the filter, after the whole suite broke a again", file, "r3", "a", "c")

	// --failed of the whole suite runs c alone: a stays as the whole
	// suite's r3 left it, failing.
	partial := run("r4", root, report.Passed, pass("c"))
	partial.Subset = true
	record(t, s, partial)
	rerun("whole suite, after its --failed fixed c", goKey, "r4", "a")

	narrow("r5", pass("a"), pass("b"), pass("c"))
	rerun("whole suite, after --test fixed a", goKey, "r5")
	// The whole suite compares with its own last run: a was failing.
	res := record(t, s, run("r6", root, report.Failed, pass("a"), pass("b"), fail("c", "back")))
	if c := res.Changes; c == nil || c.Fixed.Count != 1 || c.Fixed.Names[0] != "a" || c.NewFailures.Count != 1 {
		t.Errorf("r6: changes %s, want a fixed and c failing anew, against r4", js(c))
	}
	rerun("whole suite, after its complete run", goKey, "r6", "c")
}

// TestFailingOfAFilterNeverRun: a test filter that never ran alone
// (`--failed --test FILE` after the whole suite) reruns its tests that
// the other filters' runs found failing, as the newest of them left
// them; its own runs' baseline, which knows only what they ran, gets the
// failures of its tests it lacks. Since is "" only when no run knows a
// test of it.
func TestFailingOfAFilterNeverRun(t *testing.T) {
	s := Open(t.TempDir())
	file := Key{Framework: "go", Level: "all", Test: "a"}
	inA := func(id TestID) bool { return strings.HasPrefix(id.Name, "a") }
	rerun := func(step string, key Key, selects func(TestID) bool, since string, want ...string) {
		t.Helper()
		rr, err := s.ToRerunIn(root, key, selects)
		if names := slices.Sorted(slices.Values(rr.Failing["pkg"])); err != nil || !slices.Equal(names, want) || rr.N != len(want) || rr.Since != since {
			t.Errorf("%s: rerun %v of %d tests of %q (%v), want %v of %q", step, rr.Failing, rr.N, rr.Since, err, want, since)
		}
	}
	rerun("no run at all", file, inA, "")
	record(t, s, run("r1", root, report.Failed, fail("a1", "boom"), pass("a2"), fail("b1", "boom")))
	rerun("the filter, after the whole suite", file, inA, "r1", "a1")
	rerun("without knowing what the filter selects", file, nil, "")
	rerun("a filter none of whose tests ran", file, func(TestID) bool { return false }, "")
	rerun("a filter whose tests passed", file, func(id TestID) bool { return id.Name == "a2" }, "r1")

	// The filter's rerun of a1 leaves a baseline knowing a1 alone; the
	// whole suite then breaks a2.
	partial := run("r2", root, report.Failed, fail("a1", "boom"))
	partial.Key, partial.Subset = file, true
	record(t, s, partial)
	record(t, s, run("r3", root, report.Failed, fail("a1", "boom"), fail("a2", "boom"), pass("b1")))
	rerun("the filter, after the suite broke a2", file, inA, "r3", "a1", "a2")
	rerun("the whole suite", goKey, nil, "r3", "a1", "a2")
}
