package gtest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
	"strobe/internal/testutil"
	"strobe/report"
)

// fixtureRoot is the fixture project, the root its failures are relative to.
func fixtureRoot(t testing.TB) string {
	root, err := filepath.Abs(filepath.Join("testdata", "project"))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// projectSrc is testdata/project, absolute (go test runs in the package's
// directory).
var projectSrc, _ = filepath.Abs(filepath.Join("testdata", "project"))

// fixture is testdata/project built with cmake against the system's
// GoogleTest, once, outside the repository (testutil.CachedBuild).
var fixture = testutil.CachedBuild{Name: "gtest-fixture", Src: projectSrc, Sentinel: "empty_test", Build: func(dir string) error {
	for _, argv := range [][]string{{"cmake", "-S", projectSrc, "-B", dir, "-DCMAKE_BUILD_TYPE=Debug"}, {"cmake", "--build", dir, "-j2"}} {
		if out, err := exec.Command(argv[0], argv[1:]...).CombinedOutput(); err != nil {
			return fmt.Errorf("%s%w", out, err)
		}
	}
	// CMake's cache names the tree it was made in: the renamed tree is
	// only run, never rebuilt.
	return nil
}}

// bins returns the fixture's build tree.
func bins(t testing.TB) string {
	t.Helper()
	testutil.RequireTool(t, "cmake")
	testutil.RequireTool(t, "g++")
	testutil.RequireHeader(t, "/usr/include/gtest/gtest.h", "libgtest-dev")
	return fixture.Dir(t)
}

// run runs one fixture binary through the adapter.
func run(t *testing.T, bin string, req adapters.Request) (*adapters.Recorder, adapters.Outcome, report.Exit) {
	t.Helper()
	dir := bins(t)
	req.ProjectRoot, req.Command = fixtureRoot(t), []string{filepath.Join(dir, bin)}
	return adapterstest.RunReal(t, gtest{}, req)
}

func normalise(t *testing.T, rec *adapters.Recorder, out adapters.Outcome) adapterstest.Result {
	r := strings.NewReplacer(bins(t), "{{BIN}}", fixtureRoot(t), "{{ROOT}}")
	return adapterstest.Normalise(rec, out, r.Replace)
}

func TestBasic(t *testing.T) {
	rec, out, exit := run(t, "basic_test", adapters.Request{})
	if !exit.Exited || exit.Code != 1 {
		t.Errorf("exit = %+v, want 1 (failed tests)", exit)
	}
	adapterstest.Golden(t, "basic", normalise(t, rec, out))
	tests := rec.Tests()
	if len(tests) != 13 {
		t.Errorf("recorded %d tests, want 13", len(tests))
	}
	for _, tc := range []struct {
		name    string
		status  report.TestStatus
		file    string
		line    int
		message string // a part of the failure's message, or of the output of a passed or skipped test
	}{
		{"UnitMath.Adds", report.TestPassed, "", 0, ""},
		{"UnitMath.AddsWrongly", report.TestFailed, "basic_test.cpp", 13,
			"Expected equality of these values:\n  sum\n    Which is: 4\n  5\nand 1 more failure in this test:\nbasic_test.cpp:14: Value of: sum > 10 Actual: false Expected: true sum is 4"},
		{"UnitMath.Throws", report.TestFailed, "basic_test.cpp", 17, `C++ exception with description "boom" thrown in the test body.`},
		{"UnitMath.SkipsOnPurpose", report.TestSkipped, "", 0, "not on this platform"},
		{"UnitMath.DISABLED_NotYet", report.TestSkipped, "", 0, "DISABLED_"},
		{"Small/IntegrationParam.IsEven/1", report.TestFailed, "basic_test.cpp", 24, "GetParam() % 2\n    Which is: 1\n  0\nodd: 3"},
		{"Small/IntegrationParam.IsEven/2", report.TestPassed, "", 0, ""},
		{"UnitTyped/1.DefaultIsZero", report.TestPassed, "", 0, ""},
		{"E2EDeath.ExitsWithOne", report.TestPassed, "", 0, ""},
		{"E2EDeath.DoesNotDie", report.TestFailed, "basic_test.cpp", 34, "Death test: std::cerr << \"alive\"\n    Result: failed to die."},
		{"Other.PrintsOutput", report.TestPassed, "", 0, "hello from the test"},
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
		if want := "--gtest_filter=" + tc.name; !strings.HasSuffix(f.Rerun, want) || strings.Contains(f.Rerun, "gtest_output") {
			t.Errorf("%s: rerun %q, want it to end in %s", tc.name, f.Rerun, want)
		}
	}
	if out.Crash != nil || out.NoTests {
		t.Errorf("outcome %+v for plain failures", out)
	}
}

// TestSuiteFailures: a failure in SetUpTestSuite or TearDownTestSuite is
// outside any test (GoogleTest's summary: "0 FAILED TESTS", "2 FAILED TEST
// SUITES", exit 1): each fails under its suite's name, at its file:line,
// with a rerun of the suite; one in a global environment is in the hint.
func TestSuiteFailures(t *testing.T) {
	rec, out, exit := run(t, "suite_test", adapters.Request{})
	if exit.Code != 1 {
		t.Errorf("exit = %+v, want 1", exit)
	}
	for _, tc := range []struct {
		name    string
		status  report.TestStatus
		line    int
		message string
	}{
		{"SuiteSetUp.First", report.TestSkipped, 0, ""},
		{"SuiteSetUp.Second", report.TestSkipped, 0, ""},
		{"SuiteTearDown.Only", report.TestPassed, 0, ""},
		{"SuiteSetUp", report.TestFailed, 8, "SetUpTestSuite"},
		{"SuiteTearDown", report.TestFailed, 16, "TearDownTestSuite"},
	} {
		tt, ok := adapterstest.TestByName(rec.Tests(), tc.name)
		if !ok || tt.Status != tc.status {
			t.Errorf("%s: %+v, want %s", tc.name, tt, tc.status)
			continue
		}
		if tc.status != report.TestFailed {
			continue
		}
		f := tt.Failure
		if f == nil || f.File != "suite_test.cpp" || f.Line != tc.line || !strings.Contains(f.Message, tc.message) {
			t.Errorf("%s: failure %+v, want suite_test.cpp:%d with %q", tc.name, f, tc.line, tc.message)
			continue
		}
		got, _ := exec.Command("sh", "-c", f.Rerun).CombinedOutput()
		if !strings.Contains(string(got), tc.name+": SetUpTestSuite or TearDownTestSuite") {
			t.Errorf("%s: rerun %s does not reproduce it:\n%s", tc.name, f.Rerun, got)
		}
	}
	if len(rec.Tests()) != 5 {
		t.Errorf("recorded %+v, want 3 tests and 2 suites", rec.Tests())
	}
	if !strings.Contains(out.Hint, "suite_test.cpp:23") || !strings.Contains(out.Hint, "global teardown failed") || strings.Contains(out.Hint, "reading the GoogleTest report") {
		t.Errorf("hint %q, want the global environment's failure and no report error", out.Hint)
	}
}

// TestRerunIsPasteable runs a failure's rerun command through the shell:
// it runs that test alone.
func TestRerunIsPasteable(t *testing.T) {
	rec, _, _ := run(t, "basic_test", adapters.Request{})
	f := rec.Failure("", "Small/IntegrationParam.IsEven/1")
	if f == nil {
		t.Fatal("no failure for Small/IntegrationParam.IsEven/1")
	}
	out, _ := exec.Command("sh", "-c", f.Rerun).CombinedOutput()
	if !strings.Contains(string(out), "[==========] Running 1 test from 1 test suite.") || !strings.Contains(string(out), "IsEven/1") {
		t.Errorf("%s ran:\n%s", f.Rerun, out)
	}
}

// TestShardRerun runs one shard of basic_test (GTEST_TOTAL_SHARDS,
// GTEST_SHARD_INDEX): the hint says so, and each rerun, pasted where
// those are still set, runs its test, which alone falls in shard 0.
func TestShardRerun(t *testing.T) {
	t.Setenv("GTEST_TOTAL_SHARDS", "2")
	t.Setenv("GTEST_SHARD_INDEX", "1")
	rec, out, _ := run(t, "basic_test", adapters.Request{})
	if !strings.Contains(out.Hint, "GTEST_TOTAL_SHARDS=2 and GTEST_SHARD_INDEX=1 are set") {
		t.Errorf("hint = %q, want the shard named", out.Hint)
	}
	failed := 0
	for _, tc := range rec.Tests() {
		if tc.Failure == nil {
			continue
		}
		failed++
		got, _ := exec.Command("sh", "-c", tc.Failure.Rerun).CombinedOutput()
		if !strings.Contains(string(got), "[==========] Running 1 test from 1 test suite.") {
			t.Errorf("%s ran:\n%s", tc.Failure.Rerun, got)
		}
	}
	if failed == 0 {
		t.Fatal("no failure in basic_test's shard 1 of 2")
	}
}

// TestSelection runs one test, a suite and the levels by their suite
// name prefixes, for real.
func TestSelection(t *testing.T) {
	for _, tc := range []struct {
		name  string
		req   adapters.Request
		tests []string
	}{
		{"one test", adapters.Request{Test: "UnitMath.Adds"}, []string{"UnitMath.Adds"}},
		{"parameterized", adapters.Request{Test: "Small/IntegrationParam.IsEven/1"}, []string{"Small/IntegrationParam.IsEven/1"}},
		{"typed", adapters.Request{Test: "UnitTyped/0.DefaultIsZero"}, []string{"UnitTyped/0.DefaultIsZero"}},
		{"suite", adapters.Request{Test: "E2EDeath"}, []string{"E2EDeath.ExitsWithOne", "E2EDeath.DoesNotDie"}},
		{"unit", adapters.Request{Level: adapters.LevelUnit}, []string{"UnitMath.Adds", "UnitMath.AddsWrongly", "UnitMath.Throws", "UnitMath.SkipsOnPurpose",
			"UnitMath.DISABLED_NotYet", "UnitTyped/0.DefaultIsZero", "UnitTyped/1.DefaultIsZero"}},
		{"integration", adapters.Request{Level: adapters.LevelIntegration}, []string{"Small/IntegrationParam.IsEven/0", "Small/IntegrationParam.IsEven/1", "Small/IntegrationParam.IsEven/2"}},
		{"e2e", adapters.Request{Level: adapters.LevelE2E}, []string{"E2EDeath.ExitsWithOne", "E2EDeath.DoesNotDie"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec, out, _ := run(t, "basic_test", tc.req)
			var got []string
			for _, tt := range rec.Tests() {
				got = append(got, tt.Name)
			}
			if !slices.Equal(got, tc.tests) {
				t.Errorf("ran %q, want %q (hint %q)", got, tc.tests, out.Hint)
			}
		})
	}
	t.Run("no match", func(t *testing.T) {
		_, out, _ := run(t, "basic_test", adapters.Request{Test: "UnitMath.NoSuchTest"})
		if !out.NoTests || !strings.Contains(out.Hint, `no test is named "UnitMath.NoSuchTest"`) || !strings.Contains(out.Hint, "--gtest_list_tests") {
			t.Errorf("outcome %+v, want no_tests with a hint", out)
		}
	})
	t.Run("filter and test", func(t *testing.T) {
		_, err := gtest{}.Plan(context.Background(), adapters.Request{ProjectRoot: fixtureRoot(t), Command: []string{"./t", "--gtest_filter=A.*"}, Test: "A.B"}, adapters.NewRecorder())
		if !adapters.IsUsage(err) {
			t.Errorf("Plan error %v, want a usage error", err)
		}
	})
}

func TestNoTests(t *testing.T) {
	rec, out, exit := run(t, "empty_test", adapters.Request{})
	if exit.Code != 0 || len(rec.Tests()) != 0 || !out.NoTests || !strings.Contains(out.Hint, "no tests") {
		t.Errorf("exit %+v, tests %+v, outcome %+v: want no_tests with a hint", exit, rec.Tests(), out)
	}
}

// TestCrash: a segfault and an abort mid-test fail that test, at its
// declaration, and are the crash naming it, with what the test wrote last
// on stderr; the tests after it never ran.
func TestCrash(t *testing.T) {
	for _, tc := range []struct {
		bin, test string
		sig       syscall.Signal
		crash     report.CrashType
		file      string
		line      int
	}{
		{"crash_test", "Crash.DereferencesNull", syscall.SIGSEGV, report.CrashSegmentationFault, "crash_test.cpp", 7},
		{"abort_test", "Abort.CallsAbort", syscall.SIGABRT, report.CrashAbort, "abort_test.cpp", 9},
	} {
		t.Run(tc.bin, func(t *testing.T) {
			rec, out, exit := run(t, tc.bin, adapters.Request{})
			if !exit.Signaled || exit.Signal != int(tc.sig) {
				t.Errorf("exit = %+v, want %v", exit, tc.sig)
			}
			c := out.Crash
			if c == nil || c.Type != tc.crash || !slices.Equal(c.RunningTests, []string{tc.test}) {
				t.Fatalf("crash %+v, want %s in %s", c, tc.crash, tc.test)
			}
			tests := rec.Tests()
			if len(tests) != 2 || tests[0].Status != report.TestPassed {
				t.Errorf("tests %+v, want the passing one and the crashed one", tests)
			}
			tt, _ := adapterstest.TestByName(tests, tc.test)
			if f := tt.Failure; tt.Status != report.TestFailed || f == nil || f.File != tc.file || f.Line != tc.line || !strings.Contains(f.Message, "died") {
				t.Errorf("crashed test %+v, want failed at %s:%d", tt, tc.file, tc.line)
			}
			// What the process said last before it died is in the message.
			if tc.bin == "abort_test" && !strings.Contains(tt.Failure.Message, "the binary's last lines on stderr:\n  free(): invalid size") {
				t.Errorf("aborted test's message %q lacks its last words on stderr", tt.Failure.Message)
			}
			if !strings.Contains(out.Hint, tc.test) || !strings.Contains(out.Hint, "gdb") {
				t.Errorf("hint %q is not actionable", out.Hint)
			}
			if tc.bin == "crash_test" {
				adapterstest.Golden(t, "crash", normalise(t, rec, out))
			}
		})
	}
}

// TestCrashPlacesEarlierFailures: a test whose only failure was an
// exception ("unknown file" on the console) before the binary died keeps
// its declaration's file:line, as the report the binary never wrote
// would have given it (yaml-cpp's tests, broken on purpose, lost it).
func TestCrashPlacesEarlierFailures(t *testing.T) {
	rec, out, _ := run(t, "throwcrash_test", adapters.Request{})
	if out.Crash == nil || out.Crash.Type != report.CrashAbort {
		t.Fatalf("crash %+v, want the abort", out.Crash)
	}
	tt, _ := adapterstest.TestByName(rec.Tests(), "ThrowCrash.Throws")
	if f := tt.Failure; f == nil || f.File != "throwcrash_test.cpp" || f.Line != 8 || !strings.Contains(f.Message, "boom") {
		t.Errorf("thrown test %+v, want failed at throwcrash_test.cpp:8 with its exception", tt)
	}
	if tt, _ := adapterstest.TestByName(rec.Tests(), "ThrowCrash.Aborts"); tt.Failure == nil || tt.Failure.Line != 10 {
		t.Errorf("aborted test %+v, want failed at throwcrash_test.cpp:10", tt)
	}
}

// TestDeadlockIsLive: the hung test is running in the Recorder while it
// hangs (what the stuck detector reads to name it); killed by strobe, it
// stays running for the runner to name, and killed by anyone else it fails.
func TestDeadlockIsLive(t *testing.T) {
	for _, stoppedBy := range []string{report.StoppedStuck, ""} {
		t.Run("stopped by "+stoppedBy, func(t *testing.T) {
			bin := filepath.Join(bins(t), "deadlock_test")
			s := adapterstest.Start(t, gtest{}, adapters.Request{ProjectRoot: fixtureRoot(t), Command: []string{bin}})
			s.WaitRunning(t, "Bank.TransfersBetweenAccounts")
			syscall.Kill(-s.Cmd.Process.Pid, syscall.SIGKILL)
			exit := s.Wait()
			exit.StoppedBy = stoppedBy
			out := s.Plan.Parser.Finish(exit)
			s.Plan.Parser.(adapters.Closer).Close()
			abandoned := s.Rec.Abandon()
			tt, _ := adapterstest.TestByName(s.Rec.Tests(), "Bank.TransfersBetweenAccounts")
			if stoppedBy != "" {
				if out.Crash != nil || !slices.Equal(abandoned, []string{"Bank.TransfersBetweenAccounts"}) {
					t.Errorf("crash %+v, abandoned %q: want no crash and the hung test left running", out.Crash, abandoned)
				}
				return
			}
			if tt.Status != report.TestFailed || out.Crash == nil || out.Crash.Type != report.CrashKilled {
				t.Errorf("killed test %+v, crash %+v: want it failed and a crash", tt, out.Crash)
			}
		})
	}
}

func TestDetect(t *testing.T) {
	dir := bins(t)
	root := fixtureRoot(t)
	for _, tc := range []struct {
		name    string
		command []string
		want    int
	}{
		{"gtest binary", []string{filepath.Join(dir, "basic_test")}, 95},
		{"no tests", []string{filepath.Join(dir, "empty_test")}, 95},
		{"not gtest", []string{"/bin/true"}, 0},
		{"missing", []string{"./no-such-binary"}, 0},
		{"cmake project", nil, 80},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if d := (gtest{}).Detect(adapters.Request{ProjectRoot: root, Command: tc.command}); d.Confidence != tc.want {
				t.Errorf("Detect = %+v, want %d", d, tc.want)
			}
		})
	}
	if d := (gtest{}).Detect(adapters.Request{ProjectRoot: t.TempDir()}); d.Confidence != 0 {
		t.Errorf("Detect of an empty directory = %+v", d)
	}
}

// TestBuildTree: without a command, the one GoogleTest binary of the
// build tree runs; several are a usage error listing them; none is a
// usage error naming gtest and the build command.
func TestBuildTree(t *testing.T) {
	dir := bins(t)
	t.Run("never built", func(t *testing.T) {
		_, err := gtest{}.Plan(context.Background(), adapters.Request{ProjectRoot: fixtureRoot(t)}, adapters.NewRecorder())
		var u *adapters.UsageError
		if !errors.As(err, &u) || u.Framework != "gtest" || !strings.Contains(u.Hint, "cmake -S . -B build && cmake --build build") {
			t.Errorf("Plan error %#v, want a usage error naming gtest with the build command", err)
		}
	})
	tree := func(t *testing.T, names ...string) string {
		root := t.TempDir()
		os.MkdirAll(filepath.Join(root, "build", "tests"), 0o755)
		os.WriteFile(filepath.Join(root, "CMakeLists.txt"), []byte("find_package(GTest REQUIRED)\n"), 0o644)
		for _, n := range names {
			b, err := os.ReadFile(filepath.Join(dir, n))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(root, "build", "tests", n), b, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		return root
	}
	t.Run("one binary", func(t *testing.T) {
		root := tree(t, "crash_test")
		os.WriteFile(filepath.Join(root, "build", "notes.txt"), []byte("not a binary"), 0o755)
		rec, out, _ := adapterstest.RunReal(t, gtest{}, adapters.Request{ProjectRoot: root, Test: "Crash.PassesFirst"})
		if p := rec.Progress(); p.Passed != 1 || !strings.Contains(out.Hint, "ran build/tests/crash_test, the only GoogleTest binary") {
			t.Errorf("progress %+v, hint %q", p, out.Hint)
		}
	})
	t.Run("several", func(t *testing.T) {
		root := tree(t, "crash_test", "abort_test")
		_, err := gtest{}.Plan(context.Background(), adapters.Request{ProjectRoot: root}, adapters.NewRecorder())
		if !adapters.IsUsage(err) || !strings.Contains(err.Error(), "build/tests/abort_test, build/tests/crash_test") {
			t.Errorf("Plan error %v, want a usage error listing both", err)
		}
	})
	t.Run("configured, not built", func(t *testing.T) {
		root := tree(t)
		os.WriteFile(filepath.Join(root, "build", "CMakeCache.txt"), nil, 0o644)
		_, err := gtest{}.Plan(context.Background(), adapters.Request{ProjectRoot: root}, adapters.NewRecorder())
		var u *adapters.UsageError
		if !errors.As(err, &u) || u.Hint != "build them with `cmake --build build`, then rerun, or pass --command with the test binary" {
			t.Errorf("Plan error %#v", err)
		}
	})
}

// TestPlanRemovesItsDirectory: Close removes the report's directory even
// when the binary never ran.
func TestPlanRemovesItsDirectory(t *testing.T) {
	plan, err := gtest{}.Plan(context.Background(), adapters.Request{ProjectRoot: t.TempDir(), Command: []string{"/bin/true"}}, adapters.NewRecorder())
	if err != nil {
		t.Fatal(err)
	}
	dir := plan.Parser.(*parser).dir
	plan.Parser.(adapters.Closer).Close()
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("%s is still there: %v", dir, err)
	}
}

func TestTestFilter(t *testing.T) {
	for in, want := range map[string]string{
		"Suite.Name":             "Suite.Name",
		"Inst/Suite.Name/0":      "Inst/Suite.Name/0",
		" Suite ":                "Suite.*",
		"-Suite.Name":            "",
		"Suite.Name:Other.Name2": "",
	} {
		got, err := testFilter(in)
		if got != want || (want == "") != (err != nil) {
			t.Errorf("testFilter(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}

func TestParseEvent(t *testing.T) {
	for _, tc := range []struct{ line, kind, name, ms string }{
		{"[ RUN      ] Suite.Name", "RUN", "Suite.Name", ""},
		{"[       OK ] Suite.Name (12 ms)", "OK", "Suite.Name", "12"},
		{"[  FAILED  ] Inst/Suite.Name/1, where GetParam() = 3 (0 ms)", "FAILED", "Inst/Suite.Name/1", "0"},
		{"[  FAILED  ] Typed/0.Name, where TypeParam = int", "FAILED", "Typed/0.Name", ""},
		{"[  SKIPPED ] Suite.Name (? ms)", "SKIPPED", "Suite.Name", "?"},
		{"[ DISABLED ] Suite.DISABLED_Name", "DISABLED", "Suite.DISABLED_Name", ""},
		{"[  FAILED  ] 4 tests, listed below:", "", "", ""},
		{"[  DEATH   ] alive", "", "", ""},
		{"[----------] 4 tests from UnitMath", "", "", ""},
		{"[ RUN      ]", "", "", ""},
	} {
		kind, name, ms, _, ok := parseEvent(tc.line)
		if kind != tc.kind || name != tc.name || ms != tc.ms || ok != (tc.kind != "") {
			t.Errorf("parseEvent(%q) = %q, %q, %q, %v", tc.line, kind, name, ms, ok)
		}
	}
}

// TestManyFailures: a test goes on after a failed EXPECT_*, and stops at
// a failed ASSERT_*. Its failure is the first; the message names the
// later ones, a few, and counts the rest; later_failures keeps them all.
func TestManyFailures(t *testing.T) {
	rec, _, _ := run(t, "many_test", adapters.Request{})
	for name, want := range map[string]string{
		"Many.Expects": "Expected equality of these values:\n  1 + 1\n    Which is: 2\n  3\nand 2 more failures in this test:\n" +
			"many_test.cpp:7: Value of: false Actual: false Expected: true second\n" +
			"many_test.cpp:8: Expected equality of these values: \"a\" \"b\"",
		"Many.ExpectThenAssert": "Expected equality of these values:\n  1\n  2\nfirst\nand 1 more failure in this test:\n" +
			"many_test.cpp:13: Expected equality of these values: 3 4 stops here",
		"Many.Loop": "Expected: (i) < (0), actual: 0 vs 0\ni=0\nand 49 more failures in this test:\n" +
			"many_test.cpp:18: Expected: (i) < (0), actual: 1 vs 0 i=1\nmany_test.cpp:18: Expected: (i) < (0), actual: 2 vs 0 i=2\n" +
			"many_test.cpp:18: Expected: (i) < (0), actual: 3 vs 0 i=3\nmany_test.cpp:18: Expected: (i) < (0), actual: 4 vs 0 i=4\n" +
			"many_test.cpp:18: Expected: (i) < (0), actual: 5 vs 0 i=5\n(44 more: the details file's later_failures)",
	} {
		f := rec.Failure("", name)
		if f == nil || f.File != "many_test.cpp" || f.Message != want {
			t.Errorf("%s: failure %+v, want many_test.cpp and\n%s", name, f, want)
		}
	}
	f := rec.Failure("", "Many.Loop")
	if f == nil || f.Line != 18 || len(f.Later) != 49 ||
		f.Later[48] != (report.LaterFailure{File: "many_test.cpp", Line: 18, Message: "Expected: (i) < (0), actual: 49 vs 0\ni=49"}) {
		t.Errorf("Many.Loop: later failures %+v, want all 49", f)
	}
}
