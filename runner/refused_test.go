package runner

import (
	"os/exec"
	"strings"
	"testing"
	"time"

	"strobe/internal/testutil"
	"strobe/report"
)

// A test name pytest cannot read as a -k expression is refused by pytest
// (exit 4): the answer is an error saying pytest's reason and how to name
// the test, not a crash.
func TestFrameworkRefusedIsError(t *testing.T) {
	py := testutil.RequireTool(t, "python3")
	if err := exec.Command(py, "-c", "import pytest").Run(); err != nil {
		t.Skip("no pytest")
	}
	root := fixtureTree(t, "../adapters/pytest/testdata/fixtures/basic")
	resp, _ := runReq(t, Request{ProjectRoot: root, Test: "test_add(", Timeout: 60 * time.Second})
	if resp.Status != report.Error || resp.Crash != nil {
		t.Fatalf("status %s, crash %+v: want error, no crash", resp.Status, resp.Crash)
	}
	if !strings.Contains(resp.Error, "Wrong expression passed to '-k': test_add(") || !strings.Contains(resp.Hint, "::test_name") {
		t.Errorf("error %q, hint %q: want pytest's reason and how to name the test", resp.Error, resp.Hint)
	}
}
