package kit

import (
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
		{"../cargo/testdata/fixtures/traced", "src/lib.rs", 69, "parser::sum parser::parse", []string{"traced::parser::sum", "traced::parser::parse"}},
		{"../gtest/testdata/traced", "traced_test.cpp", 56, "calc::sum calc::parse", []string{"calc::sum", "calc::parse"}},
		{"../gtest/testdata/traced", "traced_test.cpp", 61, "calc::apply_all calc::apply", []string{"calc::apply_all", "calc::apply"}},
		{"../gtest/testdata/traced", "traced_test.cpp", 1, "", nil},
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
