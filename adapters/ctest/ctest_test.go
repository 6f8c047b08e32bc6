package ctest

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
	"strobe/internal/shell"
	"strobe/internal/testutil"
	"strobe/report"
)

// projectSrc is testdata/project, absolute (go test runs in the package's
// directory): the root the fixture's failures are relative to.
var projectSrc, _ = filepath.Abs(filepath.Join("testdata", "project"))

// fixture is testdata/project configured and built with cmake against the
// system's GoogleTest and Catch2, once, outside the repository, in a
// directory named after the sources' hash. Unlike testutil.CachedBuild it
// builds in place: CTest's files name the tree by its absolute path, so a
// tree built elsewhere and renamed cannot run.
var fixture struct {
	once sync.Once
	dir  string
	err  error
}

func buildFixture() (string, error) { return buildTree(projectSrc) }

// buildTree configures and builds the CMake project src once, in a
// temporary directory named after its sources' hash (testutil.CMakeTree).
func buildTree(src string) (string, error) { return testutil.CMakeTree(src) }

// tree returns the fixture's build tree.
func tree(t testing.TB) string {
	t.Helper()
	testutil.RequireTool(t, "cmake")
	testutil.RequireTool(t, "ctest")
	testutil.RequireTool(t, "g++")
	testutil.RequireHeader(t, "/usr/include/gtest/gtest.h", "libgtest-dev")
	testutil.RequireHeader(t, "/usr/include/catch2/catch.hpp", "catch2")
	fixture.once.Do(func() { fixture.dir, fixture.err = buildFixture() })
	if fixture.err != nil {
		t.Fatalf("building the ctest fixture: %v", fixture.err)
	}
	return fixture.dir
}

// run runs the fixture's tests through the adapter with a ctest command
// naming the cached tree (the tree lives outside the project).
func run(t *testing.T, req adapters.Request) (*adapters.Recorder, adapters.Outcome, report.Exit) {
	t.Helper()
	req.ProjectRoot = projectSrc
	if req.Command == nil {
		req.Command = []string{"ctest", "--test-dir", tree(t)}
	}
	return adapterstest.RunReal(t, ctest{}, req)
}

// times are the durations the frameworks print, which vary run to run.
var times = regexp.MustCompile(`\(\d+ ms( total)?\)|\d+\.\d+ (s|sec)\b`)

func normalise(t *testing.T, rec *adapters.Recorder, out adapters.Outcome) adapterstest.Result {
	r := strings.NewReplacer(tree(t), "{{TREE}}", projectSrc, "{{ROOT}}")
	return adapterstest.Normalise(rec, out, func(s string) string { return times.ReplaceAllString(r.Replace(s), "{{TIME}}") })
}

func TestAll(t *testing.T) {
	rec, out, exit := run(t, adapters.Request{})
	if !exit.Exited || exit.Code != 8 {
		t.Errorf("exit = %+v, want 8 (ctest's failed tests)", exit)
	}
	adapterstest.Golden(t, "all", normalise(t, rec, out))
	tests := rec.Tests()
	if len(tests) != 15 {
		t.Errorf("recorded %d tests, want 15", len(tests))
	}
	for _, tc := range []struct {
		name    string
		status  report.TestStatus
		file    string
		line    int
		message string // a part of the failure's message, or of a passed or skipped test's output
	}{
		{"Math.Adds", report.TestPassed, "", 0, "[       OK ] Math.Adds"},
		{"Math.AddsWrongly", report.TestFailed, "math_test.cpp", 9,
			"Expected equality of these values:\n  sum\n    Which is: 4\n  5\nand 1 more failure in this test:\nmath_test.cpp:10: Expected: (sum) > (10), actual: 4 vs 10 sum is 4"},
		{"Math.SkipsOnPurpose", report.TestSkipped, "", 0, "not on this platform"},
		{"Math.PrintsOutput", report.TestPassed, "", 0, "hello from the test"},
		{"Crash.DereferencesNull", report.TestFailed, "crash_test.cpp", 6, "died of SIGSEGV"},
		{"Crash.Aborts", report.TestFailed, "crash_test.cpp", 11, "died of SIGABRT"},
		{"Crash.Survives", report.TestPassed, "", 0, ""},
		// std::exit(0) inside it: CTest says Passed.
		{"Crash.ExitsZero", report.TestFailed, "crash_test.cpp", 18, "ctest counts it passed, but its binary exited (code 0) inside Crash.ExitsZero, before GoogleTest reported that test's end"},
		{"strings join", report.TestPassed, "", 0, ""},
		// Catch2 goes on after a failed CHECK: 50 in a loop, then REQUIRE.
		{"numbers compare", report.TestFailed, "catch_test.cpp", 9, "CHECK( n + i < 3 )\nwith expansion:\n  3 < 3\n" +
			"and 50 more failures in this test:\ncatch_test.cpp:9: CHECK( n + i < 3 ) with expansion: 4 < 3\n" +
			"catch_test.cpp:9: CHECK( n + i < 3 ) with expansion: 5 < 3\ncatch_test.cpp:9: CHECK( n + i < 3 ) with expansion: 6 < 3\n" +
			"catch_test.cpp:9: CHECK( n + i < 3 ) with expansion: 7 < 3\ncatch_test.cpp:9: CHECK( n + i < 3 ) with expansion: 8 < 3\n" +
			"(45 more: the details file's later_failures)"},
		// std::exit(0) inside it: CTest says Passed; Catch2 began its run
		// and printed no summary.
		{"gives up early", report.TestFailed, "catch_test.cpp", 17, `ctest counts it passed, but its binary exited (code 0) inside Catch2 test case "gives up early", before Catch2 ended it and printed its summary`},
		{"script_passes", report.TestPassed, "", 0, "all good"},
		{"script_fails", report.TestFailed, "CMakeLists.txt", 32, "the test failed (ctest: ***Failed):\nexpected 3, got 4"},
		{"script_hangs", report.TestFailed, "CMakeLists.txt", 33, "timed out after 1."},
		{"BadSuite.Skipped", report.TestFailed, "suite_test.cpp", 7,
			"ctest counts it skipped, but its suite BadSuite failed in SetUpTestSuite or TearDownTestSuite and GoogleTest exited 1 (it skips a suite's tests when SetUpTestSuite failed)\nFailed\nsuite setup broke"},
	} {
		tt, ok := adapterstest.TestByName(tests, tc.name)
		if !ok || tt.Status != tc.status {
			t.Errorf("%s: %+v, want %s", tc.name, tt, tc.status)
			continue
		}
		if tc.status != report.TestFailed {
			if !strings.Contains(tt.Output, tc.message) {
				t.Errorf("%s: output %q lacks %q", tc.name, tt.Output, tc.message)
			}
			continue
		}
		f := tt.Failure
		if f == nil || f.File != tc.file || f.Line != tc.line || !strings.Contains(f.Message, tc.message) {
			t.Errorf("%s: failure %+v, want %s:%d with %q", tc.name, f, tc.file, tc.line, tc.message)
			continue
		}
		if !strings.HasPrefix(f.Rerun, "ctest --test-dir ") || !strings.Contains(f.Rerun, " --output-on-failure -R ") || strings.Contains(f.Rerun, "junit") {
			t.Errorf("%s: rerun %q", tc.name, f.Rerun)
		}
	}
	if f := rec.Failure("", "numbers compare"); f == nil || len(f.Later) != 50 ||
		f.Later[49] != (report.LaterFailure{File: "catch_test.cpp", Line: 10, Message: "REQUIRE( n * 2 == 7 )\nwith expansion:\n  6 == 7"}) {
		t.Errorf("numbers compare: later failures %+v, want the 49 CHECKs and the REQUIRE", f)
	}
	// The timed-out test is no crash: it failed, timed out.
	c := out.Crash
	if c == nil || c.Type != report.CrashSegmentationFault || strings.Join(c.RunningTests, ",") != "Crash.DereferencesNull,Crash.Aborts" ||
		!strings.Contains(strings.Join(out.Indicators, ","), "test_timed_out") {
		t.Errorf("crash %+v, indicators %q: want a segfault naming the two crashed tests, and test_timed_out", c, out.Indicators)
	}
	// Each ran in a process of its own, and died of its own signal: the
	// runner's hint says each crashed, of what.
	if c != nil && strings.Join(c.Died, ",") != "died of SIGSEGV,died of SIGABRT" {
		t.Errorf("crash's Died %q, want each test's signal", c.Died)
	}
}

// TestRerun pastes a failure's rerun command into a shell: it runs that
// test alone.
func TestRerun(t *testing.T) {
	rec, _, _ := run(t, adapters.Request{Test: "numbers compare"})
	tests := rec.Tests()
	if len(tests) != 1 || tests[0].Failure == nil {
		t.Fatalf("tests %+v, want numbers compare alone, failed", tests)
	}
	out, _ := exec.Command("sh", "-c", tests[0].Failure.Rerun).CombinedOutput()
	if !strings.Contains(string(out), "1/1 Test #10: numbers compare") {
		t.Errorf("rerun %q ran:\n%s", tests[0].Failure.Rerun, out)
	}
}

// TestShardRunsNothing runs a failing GoogleTest test under shard 1 of 2:
// run alone it falls in shard 0, so GoogleTest runs nothing and CTest says
// Passed. It is skipped, and the hint says why.
func TestShardRunsNothing(t *testing.T) {
	t.Setenv("GTEST_TOTAL_SHARDS", "2")
	t.Setenv("GTEST_SHARD_INDEX", "1")
	rec, out, _ := run(t, adapters.Request{Test: "Math.AddsWrongly"})
	got, _ := rec.Lookup("", "Math.AddsWrongly")
	if got.Status != report.TestSkipped {
		t.Errorf("Math.AddsWrongly is %s, want skipped: it ran no test", got.Status)
	}
	if !strings.Contains(out.Hint, "Math.AddsWrongly passed in CTest but ran no GoogleTest test") || !strings.Contains(out.Hint, "GTEST_TOTAL_SHARDS=2 and GTEST_SHARD_INDEX=1 are set") {
		t.Errorf("hint = %q, want the test and the shard named", out.Hint)
	}
}

func TestSelection(t *testing.T) {
	for _, tc := range []struct {
		req  adapters.Request
		want []string
	}{
		{adapters.Request{Test: "Math.Adds"}, []string{"Math.Adds"}}, // the dot is quoted: Math_Adds would not match
		{adapters.Request{Level: adapters.LevelUnit}, []string{"Math.Adds", "Math.AddsWrongly", "Math.SkipsOnPurpose", "Math.PrintsOutput", "strings join", "numbers compare", "gives up early"}},
		{adapters.Request{Level: adapters.LevelIntegration}, []string{"Crash.DereferencesNull", "Crash.Aborts", "Crash.Survives", "Crash.ExitsZero"}},
		{adapters.Request{Level: adapters.LevelE2E}, []string{"script_passes", "script_fails", "script_hangs"}},
	} {
		rec, out, _ := run(t, tc.req)
		var got []string
		for _, tt := range rec.Tests() {
			got = append(got, tt.Name)
		}
		if strings.Join(got, ",") != strings.Join(tc.want, ",") || out.NoTests {
			t.Errorf("%+v ran %q (no tests: %v), want %q", tc.req, got, out.NoTests, tc.want)
		}
	}
}

func TestNoTests(t *testing.T) {
	for _, tc := range []struct {
		req  adapters.Request
		hint string
	}{
		{adapters.Request{Test: "Math.Nope"}, `no CTest test is named "Math.Nope"`},
		{adapters.Request{Test: "Math.Add"}, `no CTest test is named "Math.Add"`}, // anchored: a prefix is not a name
	} {
		rec, out, exit := run(t, tc.req)
		if !out.NoTests || !out.ExitExplained || len(rec.Tests()) != 0 || !strings.Contains(out.Hint, tc.hint) || exit.Code != 8 {
			t.Errorf("%+v: outcome %+v, exit %+v, want no tests with %q", tc.req, out, exit, tc.hint)
		}
	}
	// A project with enable_testing() and no test at all.
	dir := t.TempDir()
	adapterstest.WriteFiles(t, dir, map[string]string{"CMakeLists.txt": "cmake_minimum_required(VERSION 3.14)\nproject(empty NONE)\nenable_testing()\n"})
	tree(t)
	if out, err := exec.Command("cmake", "-S", dir, "-B", filepath.Join(dir, "build")).CombinedOutput(); err != nil {
		t.Fatalf("%s%v", out, err)
	}
	if d := (ctest{}).Detect(adapters.Request{ProjectRoot: dir}); d.Confidence != 70 {
		t.Errorf("detect %+v for a tree without tests, want 70 (the source declares tests, none built)", d)
	}
	rec, out, _ := adapterstest.RunReal(t, ctest{}, adapters.Request{ProjectRoot: dir, Command: []string{"ctest", "--test-dir", "build"}})
	if !out.NoTests || len(rec.Tests()) != 0 || !strings.Contains(out.Hint, "declares no CTest test") {
		t.Errorf("outcome %+v, want no tests", out)
	}
}

func TestDetectAndHint(t *testing.T) {
	src := t.TempDir()
	adapterstest.WriteFiles(t, src, map[string]string{"CMakeLists.txt": "project(x CXX)\nenable_testing()\nadd_test(NAME a COMMAND true)\n"})
	d := (ctest{}).Detect(adapters.Request{ProjectRoot: src})
	if d.Confidence != 70 {
		t.Errorf("source only: %+v, want 70", d)
	}
	_, err := (ctest{}).Plan(t.Context(), adapters.Request{ProjectRoot: src}, adapters.NewRecorder())
	var u *adapters.UsageError
	if !asUsage(err, &u) || u.Framework != "ctest" || !strings.Contains(u.Hint, "cmake -S . -B build && cmake --build build") {
		t.Errorf("plan of an unbuilt project: %v, want a hint with the configure and build commands", err)
	}
	if _, err := os.Stat(filepath.Join(src, "build")); err == nil {
		t.Error("the plan built the project")
	}
	// A built tree with tests, where the project keeps it: 85, above
	// gtest's and catch2's 80.
	b := filepath.Join(src, "build")
	os.MkdirAll(b, 0o755)
	os.WriteFile(filepath.Join(b, "CTestTestfile.cmake"), []byte("include(\"/x/a[1]_include.cmake\")\n"), 0o644)
	if d := (ctest{}).Detect(adapters.Request{ProjectRoot: src}); d.Confidence != 85 || !strings.Contains(d.Hint, "build") {
		t.Errorf("built tree: %+v, want 85", d)
	}
	if d := (ctest{}).Detect(adapters.Request{ProjectRoot: src, Command: []string{"ctest", "-j4"}}); d.Confidence != 95 {
		t.Errorf("ctest command: %+v, want 95", d)
	}
	if d := (ctest{}).Detect(adapters.Request{ProjectRoot: t.TempDir()}); d.Confidence != 0 {
		t.Errorf("empty project: %+v, want 0", d)
	}
}

func asUsage(err error, u **adapters.UsageError) bool {
	v, ok := err.(*adapters.UsageError)
	*u = v
	return ok
}

func TestUserArgs(t *testing.T) {
	for _, tc := range []struct {
		args    []string
		kept    string
		selects bool
		tree    string
	}{
		{[]string{"-j4", "--test-dir", "b", "-V"}, "-j4 --test-dir b", false, "b"},
		{[]string{"--output-junit", "x.xml", "-R", "foo", "--no-tests=ignore"}, "-R foo", true, ""},
		{[]string{"-L", "unit", "-C", "Debug", "--progress"}, "-L unit -C Debug", true, ""},
		{[]string{"--test-dir=out/build/x", "-E", "slow"}, "--test-dir=out/build/x -E slow", true, "out/build/x"},
		{[]string{"-j", "--test-dir", "b"}, "-j --test-dir b", false, "b"},
		{[]string{"-j", "3", "-C", "Release"}, "-j 3 -C Release", false, ""},
	} {
		kept, selects, tree := userArgs(tc.args)
		if strings.Join(kept, " ") != tc.kept || selects != tc.selects || tree != tc.tree {
			t.Errorf("userArgs(%q) = %q, %v, %q; want %q, %v, %q", tc.args, kept, selects, tree, tc.kept, tc.selects, tc.tree)
		}
	}
}

// TestUnityFailure reads the failure lines of Unity, the C framework a
// plain add_test often runs (cJSON's tests, as ctest printed them).
func TestUnityFailure(t *testing.T) {
	rec := adapters.NewRecorder()
	p := newParser(rec, "/src", "", "")
	p.rerun = []string{"ctest"}
	for _, l := range []string{
		"      Start  3: parse_number",
		" 3/19 Test  #3: parse_number .....................***Failed    0.00 sec",
		"/src/tests/parse_number.c:55:parse_number_should_parse_zero:FAIL: Expected 1 Was 0",
		"/src/tests/parse_number.c:124:parse_number_should_parse_negative_integers:PASS",
		"-----------------------",
		"6 Tests 1 Failures 0 Ignored ",
		"FAIL",
		"",
	} {
		p.Line(adapters.Stdout, []byte(l), false)
	}
	p.Finish(report.Exit{Exited: true, Code: 8})
	f := rec.Failure("", "parse_number")
	if f == nil || f.File != "tests/parse_number.c" || f.Line != 55 || f.Message != "parse_number_should_parse_zero: Expected 1 Was 0" {
		t.Errorf("failure %+v", f)
	}
}

// TestGTestWholeBinary reads a GoogleTest binary that add_test runs whole
// (microsoft/GSL's tests: one CTest test per binary): the failures of the
// tests after the first one's end, and those outside any test (a suite's
// SetUpTestSuite, a global environment), are the failure's, each under
// the name of the test it came in; GoogleTest's own summary is not.
// (ctest 3.25.1 and GoogleTest 1.12.1 printed these.)
func TestGTestWholeBinary(t *testing.T) {
	rec := adapters.NewRecorder()
	p := newParser(rec, "/src", "", "")
	p.rerun = []string{"ctest"}
	for _, l := range []string{
		"      Start  1: span_tests",
		"1/2 Test  #1: span_tests .......................***Failed    0.01 sec",
		"Running main() from ./googletest/src/gtest_main.cc",
		"[==========] Running 3 tests from 2 test suites.",
		"[----------] Global test environment set-up.",
		"[----------] 2 tests from span_test",
		"[ RUN      ] span_test.constructors",
		"[       OK ] span_test.constructors (0 ms)",
		"[ RUN      ] span_test.from_array",
		"/src/tests/span_tests.cpp:42: Failure",
		"Expected equality of these values:",
		"  s.size()",
		"    Which is: 3",
		"  4",
		"[  FAILED  ] span_test.from_array (0 ms)",
		"[----------] 2 tests from span_test (0 ms total)",
		"",
		"[----------] 1 test from SuiteSetUp",
		"/src/tests/span_tests.cpp:50: Failure",
		"Failed",
		"no database",
		"[ RUN      ] SuiteSetUp.First",
		"/src/tests/span_tests.cpp:53: Skipped",
		"",
		"[  SKIPPED ] SuiteSetUp.First (0 ms)",
		"[----------] 1 test from SuiteSetUp (0 ms total)",
		"",
		"[----------] Global test environment tear-down",
		"/src/tests/span_tests.cpp:60: Failure",
		"Failed",
		"global TearDown failed",
		"[==========] 3 tests from 2 test suites ran. (0 ms total)",
		"[  PASSED  ] 1 test.",
		"[  SKIPPED ] 1 test, listed below:",
		"[  SKIPPED ] SuiteSetUp.First",
		"[  FAILED  ] 1 test, listed below:",
		"[  FAILED  ] span_test.from_array",
		"",
		" 1 FAILED TEST",
		"[  FAILED  ] SuiteSetUp: SetUpTestSuite or TearDownTestSuite",
		"",
		" 1 FAILED TEST SUITE",
		"      Start  2: at_tests",
		"2/2 Test  #2: at_tests .........................   Passed    0.00 sec",
	} {
		p.Line(adapters.Stdout, []byte(l), false)
	}
	p.Finish(report.Exit{Exited: true, Code: 8})
	f := rec.Failure("", "span_tests")
	want := "in test span_test.from_array:\nExpected equality of these values:\n  s.size()\n    Which is: 3\n  4\n" +
		"and 2 more failures in this test:\n" +
		"tests/span_tests.cpp:50: Failed no database\n" +
		"tests/span_tests.cpp:60: Failed global TearDown failed"
	if f == nil || f.File != "tests/span_tests.cpp" || f.Line != 42 || f.Message != want {
		t.Errorf("failure %+v, want tests/span_tests.cpp:42 with %q", f, want)
	}
}

func TestIsTestProcess(t *testing.T) {
	for _, tc := range []struct {
		p    adapters.Proc
		want bool
	}{
		{adapters.Proc{Name: "ctest", Exe: "/usr/bin/ctest"}, false},
		{adapters.Proc{Name: "math_test", Exe: "/b/math_test"}, true},
		{adapters.Proc{Name: "sh", Exe: "/usr/bin/dash"}, true},
	} {
		if got := (ctest{}).IsTestProcess(tc.p); got != tc.want {
			t.Errorf("IsTestProcess(%+v) = %v, want %v", tc.p, got, tc.want)
		}
	}
}

// feed runs console lines through a parser rooted at /src and finishes it.
func feed(t *testing.T, code int, lines []string) (*adapters.Recorder, *parser, adapters.Outcome) {
	t.Helper()
	rec := adapters.NewRecorder()
	p := newParser(rec, "/src", "", "")
	p.rerun = []string{"ctest"}
	for _, l := range lines {
		p.Line(adapters.Stdout, []byte(l), false)
	}
	return rec, p, p.Finish(report.Exit{Exited: true, Code: code})
}

// TestGTestWholeBinaryCrash reads a GoogleTest binary add_test runs whole
// that died of a signal in a test after another test failed (yaml-cpp's
// tests, GoogleTest 1.16, a null pointer written on purpose): the crash
// leads, names the test it happened in, and waits for locate to place it
// at that test's TEST; the earlier assertion follows under its test's
// name, and the first lines list both tests.
func TestGTestWholeBinaryCrash(t *testing.T) {
	rec, p, out := feed(t, 8, []string{
		"    Start 1: yaml-cpp::test",
		"1/1 Test #1: yaml-cpp::test ...................***Exception: SegFault  0.21 sec",
		"[==========] Running 1062 tests from 18 test suites.",
		"[----------] Global test environment set-up.",
		"[----------] 2 tests from NodeTest",
		"[ RUN      ] NodeTest.IntScalar",
		"/src/test/node/node_test.cpp:70: Failure",
		"Expected equality of these values:",
		"  16",
		"  node.as<int>()",
		"    Which is: 15",
		"",
		"[  FAILED  ] NodeTest.IntScalar (0 ms)",
		"[ RUN      ] NodeTest.OctalScalar",
		"[       OK ] NodeTest.OctalScalar (0 ms)",
		"[----------] 2 tests from NodeTest (0 ms total)",
		"",
		"[----------] 8 tests from OstreamWrapperTest",
		"[ RUN      ] OstreamWrapperTest.BufferNoWrite",
		"",
	})
	f := rec.Failure("", "yaml-cpp::test")
	want := "the test died of SIGSEGV (ctest: ***Exception: SegFault) inside test OstreamWrapperTest.BufferNoWrite, which GoogleTest started and never ended\n" +
		"2 of its tests failed: OstreamWrapperTest.BufferNoWrite, NodeTest.IntScalar\n" +
		"test/node/node_test.cpp:70: in test NodeTest.IntScalar:\nExpected equality of these values:\n  16\n  node.as<int>()\n    Which is: 15"
	if f == nil || f.File != "" || f.Message != want {
		t.Errorf("failure %+v, want no place yet and %q", f, want)
	}
	if p.inner["yaml-cpp::test"] != "OstreamWrapperTest.BufferNoWrite" {
		t.Errorf("inner %v: locate would not place the crash at its TEST", p.inner)
	}
	if out.Crash == nil || out.Crash.Message != "ctest: yaml-cpp::test died of SIGSEGV in OstreamWrapperTest.BufferNoWrite" {
		t.Errorf("crash %+v", out.Crash)
	}
}

// TestCatch2WholeBinary reads a Catch2 binary add_test runs whole
// (cxxopts' tests, Catch2 2.13.11) that failed in two test cases and then
// died of a signal in a third: the fatal error leads, at its line, and
// each failure says its test case and section, after the list of the
// test cases that failed (the message is clipped: the first test case's
// many failures could hide the others).
func TestCatch2WholeBinary(t *testing.T) {
	rule, dots := strings.Repeat("-", 79), strings.Repeat(".", 79)
	rec, _, out := feed(t, 8, []string{
		"    Start 1: options",
		"1/1 Test #1: options ..........................***Exception: SegFault  0.01 sec",
		"",
		strings.Repeat("~", 79),
		"options_test is a Catch v2.13.11 host application.",
		"Run with -? for options",
		"",
		rule,
		"Providing options values via equal sign",
		"  Short value with =",
		rule,
		"/src/test/options.cpp:266",
		dots,
		"",
		"/src/test/options.cpp:274: FAILED:",
		`  CHECK( result[p.first].as<std::string>() == p.second + "x" )`,
		"with expansion:",
		`  "hi" == "hix"`,
		"",
		rule,
		"Integers",
		rule,
		"/src/test/options.cpp:806",
		dots,
		"",
		"/src/test/options.cpp:825: FAILED:",
		"  CHECK( positional[1] == 7 )",
		"with expansion:",
		"  6 == 7",
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
		strings.Repeat("=", 79),
		"test cases:  33 |  29 passed |  4 failed",
		"assertions: 235 | 212 passed | 23 failed",
		"",
	})
	f := rec.Failure("", "options")
	want := "the test died of SIGSEGV (ctest: ***Exception: SegFault) inside test case Options empty\n" +
		"3 of its tests failed: Options empty, Providing options values via equal sign, Integers\n" +
		"in test case Options empty:\ndue to a fatal error condition:\n  SIGSEGV - Segmentation violation signal\n" +
		"and 2 more failures in this test:\n" +
		"test/options.cpp:274: in test case Providing options values via equal sign, section Short value with =: CHECK( result[p.fi…\n" +
		"test/options.cpp:825: in test case Integers: CHECK( positional[1] == 7 ) with expansion: 6 == 7"
	if f == nil || f.File != "test/options.cpp" || f.Line != 1211 || f.Message != want {
		t.Errorf("failure %+v,\nwant test/options.cpp:1211 with %q", f, want)
	}
	if out.Crash == nil || out.Crash.Message != "ctest: options died of SIGSEGV in Options empty" {
		t.Errorf("crash %+v", out.Crash)
	}
}

// TestNotBuiltTargets: the tests CMake's discovery adds for a target whose
// binary is missing (GoogleTest's b_test_NOT_BUILT, Catch2's with a hash)
// are no tests: the run is a build failure naming each target, and the
// tests that ran are counted. They were two failed tests named so.
func TestNotBuiltTargets(t *testing.T) {
	rec, _, out := feed(t, 8, []string{
		"Test project /src/build",
		"    Start 1: A.Works",
		"1/3 Test #1: A.Works ..........................   Passed    0.00 sec",
		"    Start 2: b_test_NOT_BUILT",
		"Could not find executable b_test_NOT_BUILT",
		"2/3 Test #2: b_test_NOT_BUILT .................***Not Run   0.00 sec",
		"    Start 3: strutil_catch_NOT_BUILT-b12d07c",
		"3/3 Test #3: strutil_catch_NOT_BUILT-b12d07c ..***Not Run   0.00 sec",
		"",
		"33% tests passed, 2 tests failed out of 3",
	})
	if tests := rec.Tests(); len(tests) != 1 || tests[0].Name != "A.Works" {
		t.Errorf("tests %+v, want A.Works alone", tests)
	}
	if !out.BuildFailed || len(out.BuildErrors) != 2 || !strings.HasPrefix(out.BuildErrors[0].Message, "b_test is not built") || !strings.HasPrefix(out.BuildErrors[1].Message, "strutil_catch is not built") {
		t.Errorf("outcome %+v, want a build failure naming b_test and strutil_catch", out)
	}
	if !strings.Contains(out.Hint, "b_test and strutil_catch not built") {
		t.Errorf("hint %q", out.Hint)
	}
	realNotBuilt(t)
}

// realNotBuilt: a CMake project with two GoogleTest targets, one of them
// built, run by real CTest: its stand-in for the other is no test.
func realNotBuilt(t *testing.T) {
	testutil.RequireTool(t, "cmake")
	testutil.RequireTool(t, "ctest")
	root := t.TempDir()
	adapterstest.WriteFiles(t, root, map[string]string{
		"CMakeLists.txt": "cmake_minimum_required(VERSION 3.16)\nproject(nb CXX)\nenable_testing()\nfind_package(GTest REQUIRED)\ninclude(GoogleTest)\n" +
			"add_executable(a_test a.cc)\ntarget_link_libraries(a_test GTest::gtest_main)\ngtest_discover_tests(a_test)\n" +
			"add_executable(b_test b.cc)\ntarget_link_libraries(b_test GTest::gtest_main)\ngtest_discover_tests(b_test)\n",
		"a.cc": "#include <gtest/gtest.h>\nTEST(A, Works) { EXPECT_EQ(1, 1); }\n",
		"b.cc": "#include <gtest/gtest.h>\nTEST(B, Works) { EXPECT_EQ(1, 1) }\n", // does not compile
	})
	build := filepath.Join(root, "build")
	for _, argv := range [][]string{{"cmake", "-S", root, "-B", build}, {"cmake", "--build", build, "--target", "a_test"}} {
		if out, err := exec.Command(argv[0], argv[1:]...).CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", strings.Join(argv, " "), err, out)
		}
	}
	rec, out, _ := adapterstest.RunReal(t, ctest{}, adapters.Request{ProjectRoot: root, Command: []string{"ctest", "--test-dir", build}})
	if tests := rec.Tests(); len(tests) != 1 || tests[0].Name != "A.Works" || tests[0].Status != report.TestPassed {
		t.Errorf("real ctest: tests %+v, want A.Works passed alone", tests)
	}
	if !out.BuildFailed || len(out.BuildErrors) != 1 || !strings.HasPrefix(out.BuildErrors[0].Message, "b_test is not built") {
		t.Errorf("real ctest: outcome %+v, want a build failure naming b_test", out)
	}
}

// TestShownCommand: the answer's command named the JUnit report strobe
// has CTest write, in a directory removed after the run: pasted, CTest
// failed to write it. It is the command a person types.
func TestShownCommand(t *testing.T) {
	tr := tree(t)
	cmd, out := adapterstest.PasteShown(t, ctest{}, adapters.Request{ProjectRoot: projectSrc, Command: []string{"ctest", "--test-dir", tr}, Test: "numbers compare"})
	want := shell.Join([]string{"ctest", "--test-dir", tr, "--output-on-failure", "--no-tests=error", "-R", "^numbers compare$"})
	if cmd != want || !strings.Contains(string(out), "1/1 Test #10: numbers compare") {
		t.Errorf("%s:\n%s\nwant %s and CTest's one test", cmd, out, want)
	}
}
