package jest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"strobe/adapters"
	"strobe/report"
)

// TestNameStuckFromStacks: jest before 29.6 says no test's start, so a
// hung test is named from its stacks: the test whose body holds the
// outermost frame in a test file (not the helper it calls), its path of
// titles read from the source, and a rerun of it alone. Before, luxon's
// hung diff test (jest 29.4.3) was named by the command, with no rerun.
func TestNameStuckFromStacks(t *testing.T) {
	root := t.TempDir()
	src := `const {diff} = require('../src/diff');

const diffFrom = (a, b) =>
  diff(a, b);

describe('dates', () => {
  describe('diff', () => {
    test('accepts units', () => {
      expect(diffFrom(1, 2)).toEqual({});
    });
  });
});
`
	if err := os.MkdirAll(filepath.Join(root, "test"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "test", "x.test.js"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	p := newParser(adapters.NewRecorder(), root, root, t.TempDir())
	p.rerun = []string{"npx", "jest"}
	funcs := []string{"adjust (src/diff.js:7:3)", "diffFrom (test/x.test.js:4:3)", "<anonymous> (test/x.test.js:9:14)", "… 3 more frames"}
	got, ok := p.NameStuck(context.Background(), funcs)
	if !ok || got.Name != "dates › diff › accepts units" || got.Suite != "test/x.test.js" || got.File != "test/x.test.js" || got.Line != 9 {
		t.Fatalf("named %+v (%v), want dates › diff › accepts units at test/x.test.js:9", got, ok)
	}
	if !strings.HasPrefix(got.Rerun, "npx jest --runTestsByPath test/x.test.js -t ") || !strings.Contains(got.Rerun, "accepts units") {
		t.Errorf("rerun %q, want the test alone", got.Rerun)
	}
	if _, ok := p.NameStuck(context.Background(), []string{"adjust (src/diff.js:7:3)", "run (node_modules/jest-circus/build/run.js:1:1)"}); ok {
		t.Errorf("named a test from stacks in no test file")
	}
	// A test that ended is not what hangs: what it left behind runs (an
	// interval that keeps jest from exiting, TestStuckAfterTheTests).
	p.rec.Start("test/x.test.js", "dates › diff › accepts units")
	p.rec.End("test/x.test.js", "dates › diff › accepts units", report.TestPassed, 0, nil)
	if got, ok := p.NameStuck(context.Background(), funcs); ok {
		t.Errorf("named the test that ended: %+v", got)
	}
}
