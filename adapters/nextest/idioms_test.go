package nextest

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
	"strobe/internal/testutil"
	"strobe/report"
)

// TestRealIdioms runs the cargo adapter's idioms fixture
// (adapters/cargo/testdata/fixtures/idioms: proptest, insta, ignored
// tests) under nextest, whose output carries the same panics: the
// failures are read as under cargo. The copy builds in its own target
// directory (see TestCargoIdioms).
func TestRealIdioms(t *testing.T) {
	testutil.RequireTool(t, "cargo")
	testutil.RequireTool(t, "cargo-nextest")
	if testing.Short() {
		t.Skip("runs cargo nextest")
	}
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "idioms")
	testutil.CopyTree(t, filepath.Join("..", "cargo", "testdata", "fixtures", "idioms"), dir)
	cmd := []string{"cargo", "nextest", "run"}

	rec, _, _ := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: dir, Command: append(cmd, "--run-ignored", "all")})
	tests := rec.Tests()
	for _, tc := range []struct {
		name, file string
		line       int
		has        []string
	}{
		{"props::double_is_even", "src/lib.rs", 50, []string{"minimal failing input: x = 42\nproptest saved this case in proptest-regressions/lib.txt: the rerun replays it first"}},
		{"asserts_even", "tests/prop.rs", 7, []string{"Test failed: odd double for 42.\nminimal failing input: x = 42\n"}},
		{"greeting", "tests/snap.rs", 5, []string{"tests/snapshots/snap__greeting.snap", "\n-how do you do?\n+how are you?"}},
		{"farewell", "tests/snap.rs", 10, []string{"tests/snapshots/snap__farewell.snap does not exist yet", "\n+see you"}},
		{"tests::ignored_fails", "src/lib.rs", 38, []string{"left: 101"}},
		{"pretty_diff", "tests/pretty.rs", 7, []string{"Diff < left / right > :\n<Hello, you!\n"}},
	} {
		got, ok := adapterstest.TestByName(tests, tc.name)
		f := got.Failure
		if !ok || got.Status != report.TestFailed || f == nil {
			t.Errorf("%s: %q (recorded: %v), want failed", tc.name, got.Status, ok)
			continue
		}
		if f.File != tc.file || f.Line != tc.line {
			t.Errorf("%s: at %s:%d, want %s:%d", tc.name, f.File, f.Line, tc.file, tc.line)
		}
		for _, s := range tc.has {
			if !strings.Contains(f.Message, s) {
				t.Errorf("%s: message %q, want it to hold %q", tc.name, f.Message, s)
			}
		}
		if strings.Contains(f.Message, "\x1b") {
			t.Errorf("%s: message %q holds a terminal's codes", tc.name, f.Message)
		}
	}
	got, _ := adapterstest.TestByName(tests, "tests::ignored_fails")
	if got.Failure == nil {
		return
	}
	run := exec.Command("/bin/sh", "-c", got.Failure.Rerun)
	run.Dir = dir
	if b, _ := run.CombinedOutput(); !strings.Contains(string(b), "FAIL") || !strings.Contains(string(b), "tests::ignored_fails") {
		t.Errorf("the rerun %q of the ignored test did not run it:\n%s", got.Failure.Rerun, b)
	}
}
