package cargo

import (
	"strings"
	"testing"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
	"strobe/adapters/kit"
	"strobe/internal/testutil"
	"strobe/report"
)

// TestCargoErrs runs the failures whose output gives no location
// (testdata/fixtures/errs): a test that returns Err prints only libtest's
// "Error: …", and was left without file:line; it is placed at its
// declaration, found from its binary's root source through its modules
// (an inline mod tests, src/a.rs's mod b). A test that exits is there
// too. Its binary runs last: the doctests that cargo runs after it were
// left out (their lines taken for the exited binary's).
func TestCargoErrs(t *testing.T) {
	testutil.RequireTool(t, "cargo")
	t.Parallel()
	dir := adapterstest.CopyFixture(t, "errs")
	rec, out, _ := adapterstest.RunReal(t, cargo{}, adapters.Request{ProjectRoot: dir})
	// As raw cargo test counts them (1 passed, 6 failed), and the test
	// that exited, which it counts nowhere.
	var passed, failed int
	for _, tt := range rec.Tests() {
		passed += map[bool]int{true: 1}[tt.Status == report.TestPassed]
		failed += map[bool]int{true: 1}[tt.Status == report.TestFailed]
	}
	if passed != 1 || failed != 7 {
		t.Errorf("%d passed and %d failed, want 1 and 7: %s", passed, failed, cargoNames(rec))
	}
	if c := out.Crash; c == nil || len(c.RunningTests) != 1 || c.RunningTests[0] != "exits_three" {
		t.Errorf("crash %+v, want exits_three's binary", c)
	}
	for _, tc := range []struct {
		suite, name, file string
		line              int
		has               []string
	}{
		{"errs (lib)", "tests::returns_err", "src/lib.rs", 26, []string{"Error: ParseIntError { kind: InvalidDigit }\n", kit.RustErrNote}},
		{"errs (lib)", "a::b::tests::nested_err", "src/a.rs", 5, []string{`Error: "nested"`, kit.RustErrNote}},
		{"errs::it (test)", "boxed_err", "tests/it.rs", 4, []string{"Error: ParseIntError { kind: PosOverflow }", kit.RustErrNote}},
		// libtest's own message says where (recent Rust).
		{"errs (lib)", "tests::never_panics", "src/lib.rs", 34, []string{"test did not panic as expected"}},
		{"errs (lib)", "tests::wrong_panic", "src/lib.rs", 39, []string{"panic did not contain expected string", `"underflow"`, `"overflow"`}},
		{"errs::process (test)", "exits_three", "tests/process.rs", 3, []string{"did not finish: the test binary exited while it ran"}},
		// Edition 2021 unwraps a doctest's Err in the code rustdoc wraps it in.
		{"errs (doc)", "src/lib.rs - parse (line 9)", "src/lib.rs", 9, []string{"called `Result::unwrap()` on an `Err` value: ParseIntError { kind: InvalidDigit }"}},
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
	}
}
