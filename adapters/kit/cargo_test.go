package kit

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRustPanicInADependency: quickcheck panics in its own sources
// (~/.cargo/registry/…/tester.rs) when a property fails; indexmap's
// failing property was placed there, in no file of the project. With a
// backtrace, the failure is at the first frame in the workspace.
func TestRustPanicInADependency(t *testing.T) {
	ws := t.TempDir()
	if err := os.MkdirAll(filepath.Join(ws, "tests"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "tests", "quick.rs"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	out := `
thread 'insertion_order' (31253) panicked at /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/quickcheck-1.0.3/src/tester.rs:165:28:
[quickcheck] TEST FAILED. Arguments: ([0, 0, 0, 0])
stack backtrace:
   0: std::panicking::begin_panic
             at /rustc/59807616e1fa2540724bfbac14d7976d7e4a3860/library/std/src/panicking.rs:761:5
   1: quickcheck::tester::QuickCheck::quickcheck
             at /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/quickcheck-1.0.3/src/tester.rs:165:28
   2: quick::insertion_order
             at ./tests/quick.rs:69:32
   3: quick::insertion_order::{{closure}}
             at ./tests/quick.rs:57:30
   4: core::ops::function::FnOnce::call_once
             at /rustc/59807616e1fa2540724bfbac14d7976d7e4a3860/library/core/src/ops/function.rs:250:5
note: Some details are omitted, run with ` + "`RUST_BACKTRACE=full`" + ` for a verbose backtrace.
`
	f := ReadRustFailure(out, ws, nil)
	if f.File != "tests/quick.rs" || f.Line != 69 || f.Message != "[quickcheck] TEST FAILED. Arguments: ([0, 0, 0, 0])" {
		t.Errorf("failure %+v, want tests/quick.rs:69 with quickcheck's message", f)
	}
	// Without a backtrace it stays where it panicked: nothing tells more.
	noTrace, _, _ := strings.Cut(out, "stack backtrace:")
	if f := ReadRustFailure(noTrace, ws, nil); filepath.Base(f.File) != "tester.rs" {
		t.Errorf("failure %+v without a backtrace, want quickcheck's tester.rs", f)
	}
}

// TestRustShouldPanicExpected: a #[should_panic(expected = …)] test that
// did not panic said only "test did not panic as expected" (cargo,
// nextest): the message adds the attribute, as written, so the panic it
// wanted is told (parking_lot's copy, a test of half_count(8)). A bare
// #[should_panic] adds nothing.
func TestRustShouldPanicExpected(t *testing.T) {
	ws := t.TempDir()
	src := `use parking_lot::Mutex;

#[test]
#[should_panic]
fn bare() {}

#[test]
// the count must be odd
#[should_panic(
    expected = "odd count"
)]
fn no_panic_at_all() {
    parking_lot::half_count(8);
}

#[should_panic(expected = "even count")]
#[test]
fn attribute_first() {}
`
	if err := os.MkdirAll(filepath.Join(ws, "tests"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "tests", "broken.rs"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		line int
		want string
	}{
		{5, "test did not panic as expected"},
		{12, "test did not panic as expected\n#[should_panic( expected = \"odd count\" )]"},
		{18, "test did not panic as expected\n#[should_panic(expected = \"even count\")]"},
	} {
		out := fmt.Sprintf("note: test did not panic as expected at tests/broken.rs:%d:4\n", tc.line)
		if f := ReadRustFailure(out, ws, nil); f.File != "tests/broken.rs" || f.Line != tc.line || f.Message != tc.want {
			t.Errorf("line %d: failure %+v, want %q", tc.line, f, tc.want)
		}
	}
}
