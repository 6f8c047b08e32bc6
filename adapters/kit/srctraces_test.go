package kit

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"strobe/trace"
)

// SourceTraces on the native tracers' fixtures: the failing assertion's
// line names the function whose argument is wrong, and what it calls.
func TestSourceTraces(t *testing.T) {
	for _, tc := range []struct {
		root, file string
		line       int
		want       string
		matches    []string // gdb's names each suggestion must match, in order
	}{
		{"../cargo/testdata/fixtures/traced", "src/lib.rs", 93, "parser::sum parser::parse", []string{"traced::parser::sum", "traced::parser::parse"}},
		{"../gtest/testdata/traced", "traced_test.cpp", 56, "calc::sum calc::parse", []string{"calc::sum", "calc::parse"}},
		{"../gtest/testdata/traced", "traced_test.cpp", 61, "calc::apply_all calc::apply", []string{"calc::apply_all", "calc::apply"}},
		{"../gtest/testdata/traced", "traced_test.cpp", 1, "", nil},
		// A #[should_panic] test that did not panic is at its fn: what
		// its body calls, not the test itself; nothing when it calls
		// nothing of the project.
		{"../cargo/testdata/fixtures/traced", "src/lib.rs", 114, "parser::checked", []string{"traced::parser::checked"}},
		{"../cargo/testdata/fixtures/errs", "src/lib.rs", 34, "", nil},
		{"../cargo/testdata/fixtures/traced", "src/nope.rs", 3, "", nil},
		{"../cargo/testdata/fixtures/traced", "Cargo.toml", 1, "", nil},
	} {
		got := NewSources(tc.root).Traces(tc.file, tc.line)
		if strings.Join(got, " ") != tc.want {
			t.Errorf("%s:%d: %q, want %q", tc.file, tc.line, got, tc.want)
			continue
		}
		for i, name := range got {
			p, err := trace.Compile(name)
			if err != nil {
				t.Fatalf("%q: %v", name, err)
			}
			m, _ := trace.NewMatcher(p, "")
			if !m.Match(tc.matches[i], "") || m.Match(tc.matches[i]+"x", "") {
				t.Errorf("%q does not match %s alone", name, tc.matches[i])
			}
		}
	}
}

// Each file of a Rust crate's tests/ is a crate of its own, and anyhow's
// define a helper fn f in several: a failure in one names f once, and the
// functions its own f calls, not the other files'.
func TestSourceTracesPreferTheFailingFile(t *testing.T) {
	root := t.TempDir()
	write := func(path, src string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, path)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, path), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("src/lib.rs", "pub fn shared() -> u32 { 1 }\n")
	write("tests/test_fmt.rs", "fn f() -> u32 { fmt_only() }\nfn fmt_only() -> u32 { shared() }\n#[test]\nfn t() {\n    assert_eq!(2, f());\n}\n")
	write("tests/test_context.rs", "fn f() -> u32 { context_only() }\nfn context_only() -> u32 { 3 }\n")
	write("tests/test_chain.rs", "fn f() -> u32 { 4 }\n")
	got := NewSources(root).Traces("tests/test_fmt.rs", 5)
	if want := "f fmt_only shared"; strings.Join(got, " ") != want {
		t.Errorf("traces %q, want %q", got, want)
	}
}
