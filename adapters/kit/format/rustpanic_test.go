package format

import (
	"slices"
	"testing"
)

func TestRustPanic(t *testing.T) {
	for _, tc := range []struct {
		name, out, file, msg string
		line                 int
	}{
		{"1.88 with thread id", "\nthread 'tests::halves' (32566) panicked at src/lib.rs:29:9:\nassertion `left == right` failed\n  left: 2\n right: 4\nstack backtrace:\n   0: x\n", "src/lib.rs", "assertion `left == right` failed\n  left: 2\n right: 4", 29},
		{"1.73", "thread 't' panicked at tests/a.rs:3:5:\nboom\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n", "tests/a.rs", "boom", 3},
		{"before 1.73", "thread 't' panicked at 'boom\ntwo lines', src/lib.rs:3:5\nnote: run with", "src/lib.rs", "boom\ntwo lines", 3},
		{"should_panic", "note: test did not panic as expected at src/lib.rs:9:8", "src/lib.rs", "test did not panic as expected", 9},
		{"no panic", "Error: bad input\n", "", "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file, line, msg := RustPanic(tc.out)
			if file != tc.file || line != tc.line || msg != tc.msg {
				t.Errorf("RustPanic = %q, %d, %q; want %q, %d, %q", file, line, msg, tc.file, tc.line, tc.msg)
			}
		})
	}
}

func TestRustTraces(t *testing.T) {
	out := "stack backtrace:\n" +
		"   0: core::panicking::panic_fmt\n             at /rustc/abc/library/core/src/panicking.rs:80:14\n" +
		"   1: ntdemo::half::h0123456789abcdef\n             at ./src/lib.rs:15:5\n" +
		"   2: ntdemo::tests::halves\n             at ./src/lib.rs:29:9\n" +
		"   3: ntdemo::tests::halves::{{closure}}\n             at ./src/lib.rs:28:16\n"
	got := RustTraces(out, "tests::halves", func(f string) bool { return f[0] == '.' })
	if want := []string{"ntdemo::half"}; !slices.Equal(got, want) {
		t.Errorf("RustTraces = %q, want %q", got, want)
	}
}
