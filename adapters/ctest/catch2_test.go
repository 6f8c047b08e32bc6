package ctest

import (
	"path/filepath"
	"strings"
	"testing"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
)

// TestCatch2Listed reads a test case's place from Catch2 v2.13's
// `--list-tests -v high` listing, which wraps a long name and a long
// path at 80 columns (a real binary's, its directory renamed at the same
// length).
func TestCatch2Listed(t *testing.T) {
	for _, tc := range []struct {
		name, out, file string
		line            int
	}{
		{"short", "Matching test cases:\n  gives up early\n    /src/project/catch_test.cpp:17\n    (NO DESCRIPTION)\n1 matching test case\n\n",
			"/src/project/catch_test.cpp", 17},
		{"wrapped", "Matching test cases:\n" +
			"  a test case with a very long name that goes on and on past the console width\n" +
			"    of eighty\n" +
			"    /home/src/a-rather-long-directory-name-for-testing/with-another-long-\n" +
			"    component-inside/and-more/long_test_file_name.cpp:2\n" +
			"    (NO DESCRIPTION)\n" +
			"1 matching test case\n",
			"/home/src/a-rather-long-directory-name-for-testing/with-another-long-component-inside/and-more/long_test_file_name.cpp", 2},
		{"none", "Matching test cases:\n0 matching test cases\n", "", 0},
	} {
		if file, line := catch2Listed(tc.out); file != tc.file || line != tc.line {
			t.Errorf("%s: %s:%d, want %s:%d", tc.name, file, line, tc.file, tc.line)
		}
	}
}

// TestCatch2DuplicateTestCase: a Catch2 binary defines a test case
// twice, in two files. Catch2 refuses to list its tests, Catch2 2.13's
// discovery writes an empty list and the build succeeds: CTest knows no
// test. The answer is the build's error at the redefinition, not "the
// build tree declares no CTest test".
func TestCatch2DuplicateTestCase(t *testing.T) {
	tree(t) // the tools
	src, _ := filepath.Abs(filepath.Join("testdata", "duplicate"))
	dir, err := buildTree(src)
	if err != nil {
		t.Fatalf("building testdata/duplicate: %v", err)
	}
	rec, out, _ := adapterstest.RunReal(t, ctest{}, adapters.Request{ProjectRoot: src, Command: []string{"ctest", "--test-dir", dir}})
	if len(rec.Tests()) != 0 || !out.BuildFailed || out.NoTests || len(out.BuildErrors) != 1 {
		t.Fatalf("tests %+v, outcome %+v: want no test and one build error", rec.Tests(), out)
	}
	if e := out.BuildErrors[0]; e.File != "body_test.cpp" || e.Line != 8 || !strings.Contains(e.Message, `test case "parses the header" is defined again here, first at header_test.cpp:3`) {
		t.Errorf("build error %+v, want the redefinition at body_test.cpp:8", e)
	}
	if !strings.Contains(out.Hint, `catch_discover_tests found no tests in `) || !strings.Contains(out.Hint, `"parses the header" being defined twice, at header_test.cpp:3 and at body_test.cpp:8`) ||
		strings.Contains(out.Hint, "declares no CTest test") {
		t.Errorf("hint %q, want the duplicate named and no \"declares no CTest test\"", out.Hint)
	}
}
