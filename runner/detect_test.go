package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"strobe/internal/testutil"
	"strobe/report"
)

func writeProject(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, text := range files {
		path := filepath.Join(root, name)
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// TestFallbackReachesTheAnswer: a project with only a Makefile runs its
// test target through generic, and the answer says so, where a usage
// error was before.
func TestFallbackReachesTheAnswer(t *testing.T) {
	testutil.RequireTool(t, "make")
	root := writeProject(t, map[string]string{"Makefile": "test:\n\t@printf '%s\\n' '1..2' 'ok 1 - adds' 'not ok 2 - divides'; exit 1\n"})
	resp, _ := runReq(t, Request{ProjectRoot: root})
	if resp.Status != report.Failed || resp.Framework != "generic" || len(resp.Failures) != 1 {
		t.Fatalf("status %s framework %s failures %+v, want generic failing divides", resp.Status, resp.Framework, resp.Failures)
	}
	if !strings.Contains(resp.Hint, "ran `make test`") || !strings.Contains(resp.Hint, `framework: "NAME"`) {
		t.Errorf("hint %q: want what ran and how to pick a framework", resp.Hint)
	}
}

// TestRivalFrameworks: go.mod beside a Makefile's test target runs go
// test, and the answer's hint names make test and how to pick it;
// framework: "generic" then runs make test, with no such hint.
func TestRivalFrameworks(t *testing.T) {
	testutil.RequireTool(t, "go")
	testutil.RequireTool(t, "make")
	root := writeProject(t, map[string]string{
		"go.mod":        "module rival\n\ngo 1.21\n",
		"rival_test.go": "package rival\n\nimport \"testing\"\n\nfunc TestAdds(t *testing.T) {}\n",
		"Makefile":      "test:\n\t@echo 'ok 1 - from make'\n",
	})
	resp, _ := runReq(t, Request{ProjectRoot: root})
	if resp.Status != report.Passed || resp.Framework != "go" || resp.Summary.Passed != 1 {
		t.Fatalf("status %s framework %s summary %+v, want go's one test passed", resp.Status, resp.Framework, resp.Summary)
	}
	for _, s := range []string{"picked go", "`make test`", `pass framework: "generic"`} {
		if !strings.Contains(resp.Hint, s) {
			t.Errorf("hint %q lacks %q", resp.Hint, s)
		}
	}
	resp, _ = runReq(t, Request{ProjectRoot: root, Framework: "generic"})
	if resp.Status != report.Passed || resp.Framework != "generic" || resp.Summary.Passed != 1 || strings.Contains(resp.Hint, "picked") {
		t.Errorf("framework generic: status %s framework %s summary %+v hint %q, want make test's one test", resp.Status, resp.Framework, resp.Summary, resp.Hint)
	}
}
