package ctest

import (
	"path/filepath"
	"strings"
	"testing"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
	"strobe/internal/testutil"
	"strobe/report"
)

// TestDoctest: binaries of doctest test cases (magic_enum's tests), each
// run whole by one add_test. A failure was at the add_test's line of
// CMakeLists.txt with the binary's whole output for a message, the
// machine's paths in it; it is at the first failed assertion, under its
// test case and subcase, with the others' failures after it, and a
// signal doctest caught names the test case it ended.
func TestDoctest(t *testing.T) {
	tree(t) // the tools
	testutil.RequireHeader(t, "/usr/include/doctest/doctest.h", "doctest-dev")
	src, _ := filepath.Abs(filepath.Join("testdata", "doctest", "project"))
	dir, err := buildTree(src)
	if err != nil {
		t.Fatalf("building testdata/doctest/project: %v", err)
	}
	rec, out, _ := adapterstest.RunReal(t, ctest{}, adapters.Request{ProjectRoot: src, Command: []string{"ctest", "--test-dir", dir}})
	f := rec.Failure("", "checks_test")
	if f == nil || f.File != "checks_test.cpp" || f.Line != 16 || strings.Contains(f.Message, src) ||
		!strings.HasPrefix(f.Message, "5 of its tests failed: twice doubles every number, vector grows, parse throws, parse escapes, no throw expected\n"+
			"in test case twice doubles every number:\nCHECK( twice(3) == 6 ) is NOT correct!\n  values: CHECK( 7 == 6 )\n  logged: n is 3") {
		t.Fatalf("checks_test: %+v, want the first failed CHECK at checks_test.cpp:16", f)
	}
	for _, want := range []string{
		"\nand 5 more failures in this test:\nchecks_test.cpp:17: in test case twice doubles every number: CHECK( twice(4) == 8 ) is NOT correct!",
		"\nchecks_test.cpp:24: in test case vector grows, subcase push: REQUIRE( v.size() == 2 ) is NOT correct!",
		"\nchecks_test.cpp:35: in test case parse throws: CHECK( parse(\"x\") == 0 ) THREW exception: \"not a number: x\"",
		"\nchecks_test.cpp:37: in test case parse escapes: test case THREW exception: not a number: x",
		"\nchecks_test.cpp:41: in test case no throw expected: CHECK_THROWS( parse(\"1\") ) did NOT throw at all!",
	} {
		if !strings.Contains(f.Message, want) {
			t.Errorf("checks_test's message %q lacks %q", f.Message, want)
		}
	}
	f = rec.Failure("", "crash_test")
	if f == nil || f.File != "crash_test.cpp" || f.Line != 6 ||
		!strings.HasPrefix(f.Message, "the test died of SIGSEGV (ctest: ***Exception: SegFault) inside test case null write\nin test case null write:\ntest case CRASHED: SIGSEGV - Segmentation violation signal") {
		t.Errorf("crash_test: %+v, want the crash in test case null write at crash_test.cpp:6", f)
	}
	if out.Crash == nil || out.Crash.Type != report.CrashSegmentationFault {
		t.Errorf("crash %+v, want SIGSEGV", out.Crash)
	}
	if p := rec.Progress(); p.Failed != 2 || p.Passed != 0 {
		t.Errorf("progress %+v, want both tests failed", p)
	}
}
