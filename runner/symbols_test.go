package runner

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"strobe/internal/testutil"
	"strobe/report"
)

// TestStuckGoReadsGoroutinesOfStrippedBinary: go test runs its binaries
// stripped; once one deadlocks, the goroutines are read live by gdb with a
// copy linked with symbols (gdb names their states "waiting"; the
// runtime's SIGQUIT dump, the fallback, names the wait itself), and the
// copy is gone when the run has answered.
func TestStuckGoReadsGoroutinesOfStrippedBinary(t *testing.T) {
	testutil.RequireTool(t, "go")
	testutil.RequireTool(t, "gdb")
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp) // where the run keeps its copies
	root, _ := filepath.Abs("../stuck/testdata/godeadlock")
	resp, _ := runReq(t, Request{ProjectRoot: root, Framework: "go", Command: "go test -count=1 ./...", Test: "TestDeadlock", Timeout: 60 * time.Second})
	if resp.Status != report.Stuck {
		t.Fatalf("status = %s, want stuck; crash %+v", resp.Status, resp.Crash)
	}
	if strings.Contains(resp.Command, "ldflags") {
		t.Errorf("command %q: the run itself links as plain go test does", resp.Command)
	}
	txt := stackText(resp.Stuck[0])
	if !strings.Contains(txt, "[waiting]") || !strings.Contains(txt, "lockAThenB") {
		t.Errorf("stacks are not the live goroutines read by gdb:\n%s", txt)
	}
	left, _ := filepath.Glob(filepath.Join(tmp, "strobe-symbols-*"))
	if len(left) > 0 {
		t.Errorf("copies with symbols left behind: %v", left)
	}
}
