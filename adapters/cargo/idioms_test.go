package cargo

import (
	"os/exec"
	"strings"
	"testing"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
	"strobe/internal/testutil"
	"strobe/report"
)

// TestCargoIdioms runs the Rust testing idioms whose failures the first
// panic of a test's output misreads (testdata/fixtures/idioms): a
// proptest property, whose first panics are the cases it shrinks and
// whose verdict panics at the proptest! line; insta's snapshots, which
// panic in insta's own sources; and an ignored test run with
// --include-ignored, whose rerun must run it too.
func TestCargoIdioms(t *testing.T) {
	testutil.RequireTool(t, "cargo")
	t.Parallel()
	dir := adapterstest.CopyFixture(t, "idioms")
	// Its own target directory, in the copy: a target directory shared
	// with another copy of the crate (the nextest adapter's test) would
	// reuse binaries built there, whose CARGO_MANIFEST_DIR (where insta
	// looks for snapshots) is the other copy's.
	cmd := []string{"cargo", "test"}

	rec, _, _ := adapterstest.RunReal(t, cargo{}, adapters.Request{ProjectRoot: dir, Command: cmd})
	for _, tc := range []struct {
		suite, name, file string
		line              int
		has               []string
		hasNot            []string
	}{
		// prop_assert_eq says where it failed: line 50, not the macro's 46.
		{"idioms (lib)", "props::double_is_even", "src/lib.rs", 50,
			[]string{"minimal failing input: x = 42", "proptest saved this case in proptest-regressions/lib.txt: the rerun replays it first"},
			[]string{"successes:", "local rejects"}},
		// An assert! in the body: the minimal case's own panic, not the
		// first case tried (a larger x) nor the macro's line.
		{"idioms::prop (test)", "asserts_even", "tests/prop.rs", 7,
			[]string{"Test failed: odd double for 42.\nminimal failing input: x = 42\n", "tests/prop.proptest-regressions"}, nil},
		// insta: the assertion's line, the .snap file, the changed lines.
		{"idioms::snap (test)", "greeting", "tests/snap.rs", 5,
			[]string{"tests/snapshots/snap__greeting.snap", "\n-how do you do?\n+how are you?"},
			[]string{"registry", "INSTA_UPDATE"}},
		{"idioms::snap (test)", "farewell", "tests/snap.rs", 10,
			[]string{"new snapshot, tests/snapshots/snap__farewell.snap does not exist yet", "\n+see you"},
			[]string{"registry", "INSTA_UPDATE"}},
		{"idioms (lib)", "tests::panics_otherwise", "src/lib.rs", 26,
			[]string{"panic did not contain expected string", `"index out of range"`, `"divide by zero"`}, nil},
		{"idioms (lib)", "tests::never_panics", "src/lib.rs", 31,
			[]string{"test did not panic as expected"}, nil},
		// pretty_assertions colours its diff into the pipe: the message
		// is the text, without the terminal's codes.
		{"idioms::pretty (test)", "pretty_diff", "tests/pretty.rs", 7,
			[]string{"Diff < left / right > :\n<Hello, you!\n"}, []string{"\x1b"}},
	} {
		got := cargoLookup(t, rec, tc.suite, tc.name)
		f := got.Failure
		if got.Status != report.TestFailed || f == nil {
			t.Errorf("%s: %s, want failed", tc.name, got.Status)
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
		for _, s := range tc.hasNot {
			if strings.Contains(f.Message, s) {
				t.Errorf("%s: message %q holds %q", tc.name, f.Message, s)
			}
		}
		if strings.Contains(f.Rerun, "INSTA") || strings.Contains(f.Rerun, "accept") {
			t.Errorf("%s: rerun %q accepts snapshots", tc.name, f.Rerun)
		}
	}
	if got := cargoLookup(t, rec, "idioms (lib)", "tests::ignored_fails"); got.Status != report.TestSkipped {
		t.Errorf("ignored_fails: %s, want skipped", got.Status)
	}

	// Run again: proptest replays the saved case, and says so; the rerun
	// of an ignored test that failed under --include-ignored runs it.
	rec, _, _ = adapterstest.RunReal(t, cargo{}, adapters.Request{ProjectRoot: dir,
		Command: append(cmd, "--lib", "--", "--include-ignored")})
	f := cargoLookup(t, rec, "idioms (lib)", "props::double_is_even").Failure
	if f == nil || !strings.Contains(f.Message, "minimal failing input: x = 42\nthe rerun replays the cases saved in proptest-regressions/lib.txt first") {
		t.Errorf("double_is_even again: %+v, want the replayed case and the regression file named", f)
	}
	f = cargoLookup(t, rec, "idioms (lib)", "tests::ignored_fails").Failure
	if f == nil || f.File != "src/lib.rs" || f.Line != 38 {
		t.Fatalf("ignored_fails under --include-ignored: %+v, want failed at src/lib.rs:38", f)
	}
	run := exec.Command("/bin/sh", "-c", f.Rerun)
	run.Dir = dir
	if b, _ := run.CombinedOutput(); !strings.Contains(string(b), "test tests::ignored_fails ... FAILED") {
		t.Errorf("the rerun %q of the ignored test did not run it:\n%s", f.Rerun, b)
	}
}
