package gotest

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"strobe/adapters"
	"strobe/trace"
)

// The fixture's failing lines say, in a "// want:" comment, the traces a
// failure there should suggest; every name must be a pattern that matches
// the function as Delve names it.
func TestCallTraces(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("testdata", "suggest"))
	if err != nil {
		t.Fatal(err)
	}
	p := newGoParser(adapters.NewRecorder(), root, readGoModules(root), nil, "")
	cases := 0
	for _, file := range []string{"calc/calc_test.go", "calc/ext_test.go"} {
		f, err := os.Open(filepath.Join(root, file))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		for line := 1; sc.Scan(); line++ {
			_, want, ok := strings.Cut(sc.Text(), "// want:")
			if !ok {
				continue
			}
			cases++
			got := p.callTraces("example.com/suggest/calc", file, line, "")
			if strings.Join(got, " ") != strings.TrimSpace(want) {
				t.Errorf("%s:%d: suggested %q, want %q", file, line, got, strings.TrimSpace(want))
			}
			for _, name := range got {
				pkg, fn, _ := strings.Cut(name, ".") // fn: Func, or T.Method
				if fn == "*" {
					fn = "w8" // the package's functions: the one left out
				}
				full := "example.com/suggest/calc." + fn
				if pkg == "digits" {
					full = "example.com/suggest/calc/internal/digits." + fn
				}
				if !matches(t, name, full) || fn != "w8" && matches(t, name, full+"x") {
					t.Errorf("%s:%d: %q is not a pattern matching %s alone", file, line, name, full)
				}
			}
		}
		f.Close()
	}
	if cases != 7 {
		t.Fatalf("read %d cases from the fixture, want 7", cases)
	}
	if got := p.callTraces("example.com/suggest/calc", "calc/nope_test.go", 3, ""); got != nil {
		t.Errorf("a missing file suggests %q", got)
	}
}

// TestCallTracesInAHelper: a failure in a helper that reads no project
// function (go-humanize's testList.validate, without t.Helper: the
// failure is at its line) suggests the functions its test calls.
func TestCallTracesInAHelper(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("testdata", "suggest"))
	if err != nil {
		t.Fatal(err)
	}
	p := newGoParser(adapters.NewRecorder(), root, readGoModules(root), nil, "")
	if got := p.callTraces("example.com/suggest/calc", "calc/helper_test.go", 13, "TestThroughAHelper/row"); strings.Join(got, " ") != "calc.Max" {
		t.Errorf("suggested %q, want calc.Max", got)
	}
}

func matches(t *testing.T, pattern, name string) bool {
	t.Helper()
	pat, err := trace.Compile(pattern)
	if err != nil {
		t.Fatalf("%q: %v", pattern, err)
	}
	m, err := trace.NewMatcher(pat, "")
	if err != nil {
		t.Fatal(err)
	}
	return m.Match(name, "")
}
