package nextest

import (
	"path/filepath"
	"strings"
	"testing"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
	"strobe/adapters/kit"
	"strobe/internal/testutil"
	"strobe/report"
)

// TestRealErrs runs the cargo adapter's errs fixture
// (adapters/cargo/testdata/fixtures/errs) under nextest: a test that
// returns Err prints only libtest's "Error: …", and one that calls
// exit(3) nothing; both were left without file:line, and are placed at
// their declarations, found from their binaries' root sources (cargo
// metadata) through their modules.
func TestRealErrs(t *testing.T) {
	testutil.RequireTool(t, "cargo")
	testutil.RequireTool(t, "cargo-nextest")
	if testing.Short() {
		t.Skip("runs cargo nextest")
	}
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "errs")
	testutil.CopyTree(t, filepath.Join("..", "cargo", "testdata", "fixtures", "errs"), dir)
	rec, _, _ := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: dir, Command: []string{"cargo", "nextest", "run"}})
	tests := rec.Tests()
	// As raw cargo nextest run counts them: 7 tests, 1 passed, 6 failed.
	var passed, failed int
	for _, tt := range tests {
		passed += map[bool]int{true: 1}[tt.Status == report.TestPassed]
		failed += map[bool]int{true: 1}[tt.Status == report.TestFailed]
	}
	if len(tests) != 7 || passed != 1 || failed != 6 {
		t.Errorf("%d tests, %d passed and %d failed, want 7, 1 and 6", len(tests), passed, failed)
	}
	for _, tc := range []struct {
		name, file string
		line       int
		has        []string
	}{
		{"tests::returns_err", "src/lib.rs", 26, []string{"Error: ParseIntError { kind: InvalidDigit }\n", kit.RustErrNote}},
		{"a::b::tests::nested_err", "src/a.rs", 5, []string{`Error: "nested"`, kit.RustErrNote}},
		{"boxed_err", "tests/it.rs", 4, []string{"Error: ParseIntError { kind: PosOverflow }", kit.RustErrNote}},
		{"exits_three", "tests/process.rs", 3, []string{"the test process exited with code 3"}},
		{"tests::never_panics", "src/lib.rs", 34, []string{"test did not panic as expected"}},
		{"tests::wrong_panic", "src/lib.rs", 39, []string{"panic did not contain expected string", `"underflow"`, `"overflow"`}},
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
		if tc.name == "exits_three" && strings.Contains(f.Message, kit.RustErrNote) {
			t.Errorf("%s: message %q says it returned Err", tc.name, f.Message)
		}
	}
}
