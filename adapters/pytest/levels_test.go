package pytest_test

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"

	"strobe/adapters/adapterstest"
	"strobe/internal/testutil"
	"strobe/report"
	"strobe/runner"
)

// TestLevelWithoutLevels: a level asked of a project that has none (no
// tests/unit directory, no unit marker) is no_tests with the hint that
// says what a level is for pytest. Under the project's --strict-markers,
// pytest 9 refuses strobe's own -m unit (exit 4, "Unknown marker(s) in
// '-m' expression"): that answered error, "fix the argument".
func TestLevelWithoutLevels(t *testing.T) {
	requirePytestModule(t)
	root := adapterstest.CopyFixture(t, "strict_nolevels")
	resp, err := runner.Exec(context.Background(), runner.Request{ProjectRoot: root, Framework: "pytest", Level: "unit"},
		runner.Options{DetailsDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	want := "no unit tests: by convention they live in tests/unit/, or are marked @pytest.mark.unit"
	if resp.Status != report.NoTests || !strings.Contains(resp.Hint, want) {
		t.Errorf("status %s, error %q, hint %q; want no_tests, %q", resp.Status, resp.Error, resp.Hint, want)
	}
	// The whole suite runs, strict markers and all.
	resp, err = runner.Exec(context.Background(), runner.Request{ProjectRoot: root, Framework: "pytest"}, runner.Options{DetailsDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Status != report.Passed || resp.Summary.Passed != 2 {
		t.Errorf("whole suite: %s %+v, want 2 passed", resp.Status, resp.Summary)
	}
}

// requirePytestModule skips (fails under CI) without python3 or without
// pytest importable by it.
func requirePytestModule(t *testing.T) {
	t.Helper()
	py := testutil.RequireTool(t, "python3")
	if err := exec.Command(py, "-c", "import pytest").Run(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("python3 cannot import pytest: .ci/run must pip install it")
		}
		t.Skip("python3 cannot import pytest")
	}
}
