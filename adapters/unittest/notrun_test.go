package unittest_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"strobe/adapters/adapterstest"
	"strobe/internal/testutil"
	"strobe/report"
	"strobe/runner"
)

// TestSetUpFailureNotRun: a setUpClass or setUpModule that raises keeps
// its class's or module's tests from running, and unittest skips them
// without a word: no start, no count. They were said removed in the run's
// changes, and new in the next run's. The run is now partial (nothing
// removed), the hint says how many tests of which class or module did not
// run and why, and the run after the fix lists no new test.
func TestSetUpFailureNotRun(t *testing.T) {
	testutil.RequireTool(t, "python3")
	root := t.TempDir()
	write := func(broken bool) {
		raise := "pass"
		if broken {
			raise = `raise RuntimeError("fixture broke")`
		}
		adapterstest.WriteFiles(t, root, map[string]string{
			"test_cls.py": `import unittest


class TestBroken(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        ` + raise + `

    def test_one(self):
        pass

    def test_two(self):
        pass

    def test_three(self):
        pass


class TestFine(unittest.TestCase):
    def test_fine(self):
        pass
`,
			"test_mod.py": `import unittest


def setUpModule():
    ` + raise + `


class TestA(unittest.TestCase):
    def test_a(self):
        pass


class TestB(unittest.TestCase):
    def test_b(self):
        pass
`})
	}
	opts := runner.Options{DetailsDir: t.TempDir(), HistoryDir: t.TempDir()}
	exec := func() *report.Response {
		t.Helper()
		resp, err := runner.Exec(context.Background(), runner.Request{ProjectRoot: root, Framework: "unittest"}, opts)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	write(false)
	if resp := exec(); resp.Status != report.Passed || resp.Summary.Passed != 6 {
		t.Fatalf("clean run: %s %+v, want 6 passed", resp.Status, resp.Summary)
	}
	write(true)
	resp := exec()
	if resp.Status != report.Failed || resp.Summary.Passed != 1 || resp.Summary.Failed != 2 {
		t.Errorf("broken run: %s %+v, want TestFine passed and the two set-ups failed", resp.Status, resp.Summary)
	}
	c := resp.Changes
	if c == nil || !c.Partial || c.RemovedTests.Count != 0 {
		t.Errorf("broken run's changes %+v: want partial, nothing removed", c)
	}
	for _, want := range []string{
		"the setUpClass of test_cls.TestBroken failed, so unittest did not run its 3 tests (the failure setUpClass (test_cls.TestBroken) says why; its rerun runs the class)",
		"the setUpModule of test_mod failed, so unittest did not run its 2 tests (the failure setUpModule (test_mod) says why; its rerun runs the module)",
	} {
		if !strings.Contains(resp.Hint, want) {
			t.Errorf("hint %q lacks %q", resp.Hint, want)
		}
	}
	var names []string
	for _, f := range resp.Failures {
		names = append(names, f.Name)
	}
	if !slices.Contains(names, "setUpClass (test_cls.TestBroken)") || !slices.Contains(names, "setUpModule (test_mod)") {
		t.Errorf("failures %v, want the two set-ups", names)
	}
	write(false)
	if resp := exec(); resp.Status != report.Passed || resp.Changes == nil || resp.Changes.NewTests.Count != 0 {
		t.Errorf("fixed run: %s, changes %+v; want passed, no new test", resp.Status, resp.Changes)
	}
}
