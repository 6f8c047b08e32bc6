package format

import (
	"reflect"
	"strings"
	"testing"
)

func TestGTestBlocks(t *testing.T) {
	out := `Running main() from ./googletest/src/gtest_main.cc
[ RUN      ] Math.AddsWrongly
/src/math_test.cpp:9: Failure
Expected equality of these values:
  sum
    Which is: 4
  5
/src/math_test.cpp:10: Failure
Expected: (sum) > (10), actual: 4 vs 10
sum is 4
unknown file: Failure
C++ exception with description "boom" thrown in the test body.
c:\src\x.cpp(12): error: Value of: ok
  Actual: false`
	var b GTestBlocks
	for _, l := range strings.Split(out, "\n") {
		b.Line(l)
	}
	want := []GTestFailure{
		{"/src/math_test.cpp", 9, []string{"Expected equality of these values:", "  sum", "    Which is: 4", "  5"}},
		{"/src/math_test.cpp", 10, []string{"Expected: (sum) > (10), actual: 4 vs 10", "sum is 4"}},
		{"", 0, []string{`C++ exception with description "boom" thrown in the test body.`}},
		{`c:\src\x.cpp`, 12, []string{"Value of: ok", "  Actual: false"}},
	}
	if !reflect.DeepEqual(b.Failures, want) {
		t.Errorf("failures:\n%+v\nwant\n%+v", b.Failures, want)
	}
	var s GTestBlocks
	for _, l := range []string{"/src/m.cpp:13: Skipped", "not on this platform", "[  SKIPPED ] Math.Skips (0 ms)"} {
		if strings.HasPrefix(l, "[") {
			s.Close()
		}
		s.Line(l)
	}
	if s.Skip == nil || s.Skip.Line != 13 || s.Skip.Message() != "not on this platform" || len(s.Failures) != 0 {
		t.Errorf("skip %+v, failures %+v", s.Skip, s.Failures)
	}
}

func TestCatch2Blocks(t *testing.T) {
	out := `-------------------------------------------------------------------------------
numbers compare
-------------------------------------------------------------------------------
/src/catch_test.cpp:6
...............................................................................

/src/catch_test.cpp:9: FAILED:
  REQUIRE( n * 2 == 7 )
with expansion:
  6 == 7

/src/catch_test.cpp:15: FAILED:
  {Unknown expression after the reported line}
due to a fatal error condition:
  SIGSEGV - Segmentation violation signal

===============================================================================
test cases: 1 | 1 failed`
	var b Catch2Blocks
	for _, l := range strings.Split(out, "\n") {
		b.Line(l)
	}
	if len(b.Failures) != 2 {
		t.Fatalf("failures %+v, want 2", b.Failures)
	}
	f := b.Failures[0]
	if f.File != "/src/catch_test.cpp" || f.Line != 9 || f.Message() != "REQUIRE( n * 2 == 7 )\nwith expansion:\n  6 == 7" {
		t.Errorf("first %+v: %q", f, f.Message())
	}
	if f := b.Failures[1]; f.Line != 15 || !strings.HasSuffix(f.Message(), "SIGSEGV - Segmentation violation signal") {
		t.Errorf("second %+v", f)
	}
}

// TestCatch2BlocksHeaders reads the headers of a whole binary's console
// (cxxopts' tests, which add_test runs whole; Catch2 2.13 printed this):
// each block knows its test case and section, a long name wrapped over
// two lines is one name, and a rule in the middle of nowhere is no header.
func TestCatch2BlocksHeaders(t *testing.T) {
	rule := strings.Repeat("-", 79)
	dots := strings.Repeat(".", 79)
	out := []string{
		rule,
		"Providing options values via equal sign",
		"  Short value with =",
		rule,
		"/src/test/options.cpp:266",
		dots,
		"",
		"/src/test/options.cpp:274: FAILED:",
		"  CHECK( a == b )",
		"",
		rule,
		"a test case whose name is long enough that Catch2 wraps it over two lines of",
		"its console",
		rule,
		"/src/test/options.cpp:800",
		dots,
		"",
		"/src/test/options.cpp:825: FAILED:",
		"  CHECK( positional[1] == 7 )",
		"",
		rule,
		"Options empty",
		rule,
		"/src/test/options.cpp:1211",
		dots,
		"",
		"/src/test/options.cpp:1211: FAILED:",
		"due to a fatal error condition:",
		"  SIGSEGV - Segmentation violation signal",
		"",
	}
	var b Catch2Blocks
	for _, l := range out {
		b.Line(l)
	}
	type got struct {
		testCase string
		sections []string
		line     int
	}
	var all []got
	for _, f := range b.Failures {
		all = append(all, got{f.TestCase, f.Sections, f.Line})
	}
	want := []got{
		{"Providing options values via equal sign", []string{"Short value with ="}, 274},
		{"a test case whose name is long enough that Catch2 wraps it over two lines of its console", nil, 825},
		{"Options empty", nil, 1211},
	}
	if !reflect.DeepEqual(all, want) {
		t.Errorf("blocks\n%+v\nwant\n%+v", all, want)
	}
}
