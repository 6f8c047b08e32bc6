package nodetest_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"strobe/internal/testutil"
	"strobe/report"
	"strobe/runner"
)

// TestStuckAwaitingAChild: a node:test test awaiting a child that never
// exits is blocked on that child, named. The child is no test process
// (those are node --test's own children, the test files): before, it was
// one, and the verdict an async wait without end.
func TestStuckAwaitingAChild(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for a verdict")
	}
	testutil.RequireTool(t, "node")
	testutil.RequireTool(t, "eu-stack")
	root := t.TempDir()
	test := `const test = require('node:test');
const { spawn } = require('node:child_process');

test('awaits a child that never exits', async () => {
  await new Promise((resolve) => spawn('sleep', ['1000']).on('exit', resolve));
});
`
	if err := os.MkdirAll(filepath.Join(root, "test"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "test", "child.test.js"), []byte(test), 0o644); err != nil {
		t.Fatal(err)
	}
	resp, err := runner.Exec(context.Background(), runner.Request{ProjectRoot: root, Framework: "node", Timeout: 40 * time.Second},
		runner.Options{DetailsDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Status != report.Stuck || len(resp.Stuck) == 0 {
		t.Fatalf("status %s, stuck %+v: want stuck", resp.Status, resp.Stuck)
	}
	if d := resp.Stuck[0].Diagnosis; !strings.HasPrefix(d, "blocked on a child process") || !strings.Contains(d, "its child `sleep 1000`") {
		t.Errorf("diagnosis %q, want blocked on its child sleep 1000", d)
	}
}
