package main

// End-to-end tests of the Catch2 adapter: real g++-built Catch2 binaries
// run through the strobe binary, with detection, crashes, sanitizers and a
// deadlock the stuck detector must name.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"strobe/internal/testutil"
	"strobe/report"
)

func TestCatch2Failures(t *testing.T) {
	bins := testutil.Catch2Fixtures(t)
	dir := testutil.Fixture("catch2", "plain")
	// No --framework: the probe recognises the binary.
	r := strobe(t, true, "test", dir, "--command", filepath.Join(bins, "basic"))
	wantStatus(t, r, report.Failed, 1)
	// The command as a person types it: not the report strobe has the
	// binary write, in a directory removed after the run.
	if r.resp.Framework != "catch2" || r.resp.Command != filepath.Join(bins, "basic") {
		t.Errorf("framework %q command %q", r.resp.Framework, r.resp.Command)
	}
	if s := r.resp.Summary; s.Passed != 3 || s.Failed != 3 {
		t.Errorf("summary %+v, want 3 passed and 3 failed", s)
	}
	f := findFailure(t, r.resp, "adds wrongly")
	if f.File != "basic.cpp" || f.Line != 17 || !strings.Contains(f.Message, "4 == 5") {
		t.Errorf("failure %+v", f)
	}
	// The rerun command runs just that test, with the console reporter.
	out := rerun(t, dir, f.Rerun)
	if !strings.Contains(out, "adds wrongly") || !strings.Contains(out, "test cases: 1 | 1 failed") {
		t.Errorf("rerun %q printed:\n%s", f.Rerun, out)
	}

	one := strobe(t, true, "test", dir, "--command", filepath.Join(bins, "basic"), "--test", `a, b [c] "d" ~e \f *g`)
	wantStatus(t, one, report.Passed, 0)
	if one.resp.Summary.Passed != 1 {
		t.Errorf("one test: %+v", one.resp.Summary)
	}
}

func TestCatch2Crashes(t *testing.T) {
	bins := testutil.Catch2Fixtures(t)
	dir := testutil.Fixture("catch2", "plain")
	t.Run("segfault", func(t *testing.T) {
		r := strobe(t, true, "test", dir, "--command", filepath.Join(bins, "crash"))
		wantStatus(t, r, report.Crashed, 1)
		c := r.resp.Crash
		if c.Type != report.CrashSegmentationFault || c.SignalName != "SIGSEGV" {
			t.Errorf("crash %+v, want SIGSEGV", c)
		}
		f := findFailure(t, r.resp, "dereferences null")
		if f.File != "crash.cpp" || !strings.Contains(f.Message, "SIGSEGV") {
			t.Errorf("failure %+v", f)
		}
		if !strings.Contains(r.resp.Hint, "dereferences null") {
			t.Errorf("hint %q does not name the test", r.resp.Hint)
		}
	})
	t.Run("address sanitizer", func(t *testing.T) {
		r := strobe(t, true, "test", dir, "--command", filepath.Join(bins, "asan"))
		wantStatus(t, r, report.Crashed, 1)
		c := r.resp.Crash
		if !contains(c.Indicators, "address_sanitizer") || !contains(c.RunningTests, "reads past the end") {
			t.Errorf("crash %+v, want ASan in \"reads past the end\"", c)
		}
		f := findFailure(t, r.resp, "reads past the end")
		if f.File != "asan.cpp" || f.Line != 5 {
			t.Errorf("failure %+v, want asan.cpp:5", f)
		}
	})
	t.Run("deadlock", func(t *testing.T) {
		r := strobe(t, true, "test", dir, "--command", filepath.Join(bins, "deadlock"), "--timeout", "60s")
		wantStatus(t, r, report.Stuck, 1)
		if len(r.resp.Stuck) == 0 || r.resp.Stuck[0].Name != "transfers between accounts" || !strings.Contains(r.resp.Stuck[0].Rerun, "transfers between accounts") {
			t.Errorf("stuck %+v, want the deadlocked test named, with its rerun", r.resp.Stuck)
		}
	})
}

func TestCatch2NotDetected(t *testing.T) {
	bins := testutil.Catch2Fixtures(t)
	dir := testutil.Fixture("catch2", "plain")
	// A binary that hangs on --list-tests is not taken for Catch2 (generic
	// runs it); with --framework catch2 it runs and times out.
	r := strobe(t, true, "test", dir, "--command", filepath.Join(bins, "notcatch"))
	wantStatus(t, r, report.Passed, 0)
	if r.resp.Framework != "generic" {
		t.Errorf("framework %q, want generic for a binary that is not Catch2", r.resp.Framework)
	}
}

// TestXcodebuildThroughStandin runs the xcodebuild adapter through the
// binary and its daemon, with the stand-in first on the client's PATH
// replaying a real console where a Swift fatal error crashed a test.
func TestXcodebuildThroughStandin(t *testing.T) {
	standin := filepath.Join(testutil.Root(), "testdata", "xcodebuild-standin")
	t.Setenv("PATH", standin+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("STANDIN_LOG", filepath.Join(testutil.Root(), "adapters", "xcodebuild", "testdata", "corpus", "fastlane-non-parallel-testing-failure-xcode10.log"))
	t.Setenv("STANDIN_EXIT", "65")
	r := strobe(t, true, "test", t.TempDir(), "--command", "xcodebuild test -scheme TestingTest -destination platform=macOS")
	wantStatus(t, r, report.Crashed, 1)
	c := r.resp.Crash
	if r.resp.Framework != "xcodebuild" || !contains(c.Indicators, "test_restarted_after_crash") || !contains(c.RunningTests, "TestingTestTests/TestingTestTests/testFailure") {
		t.Errorf("framework %q crash %+v", r.resp.Framework, c)
	}
	f := findFailure(t, r.resp, "TestingTestTests/TestingTestTests/testFailure")
	if !strings.Contains(f.Message, "Unexpectedly found nil") || !strings.Contains(f.Rerun, "-only-testing:TestingTestTests/TestingTestTests/testFailure") {
		t.Errorf("failure %+v", f)
	}
	if !strings.Contains(r.resp.Hint, "xcodebuild exited 65") {
		t.Errorf("hint %q", r.resp.Hint)
	}

	t.Setenv("STANDIN_LOG", "")
	silent := strobe(t, true, "test", t.TempDir(), "--command", "xcodebuild test -scheme TestingTest")
	wantStatus(t, silent, report.Crashed, 1)
	if !silent.resp.Crash.SilentFailure {
		t.Errorf("exit 65 with no output: crash %+v, want a silent failure", silent.resp.Crash)
	}
}

// TestCatch2NotBuilt runs a CMake+Catch2 project that was never built: the
// tests did not run, so the answer is an error, but one that names the
// framework and says which build command to run, through the daemon and
// without it.
func TestCatch2NotBuilt(t *testing.T) {
	root := filepath.Join(t.TempDir(), "cmake-one")
	if err := os.CopyFS(root, os.DirFS(testutil.Fixture("catch2", "cmake-one"))); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"test", root}, {"test", root, "--no-daemon"}} {
		r := strobe(t, true, args...)
		wantStatus(t, r, report.Error, 2)
		if r.resp.Framework != "catch2" {
			t.Errorf("%v: framework %q, want catch2", args, r.resp.Framework)
		}
		if want := "cmake -S . -B build && cmake --build build"; !strings.Contains(r.resp.Hint, want) {
			t.Errorf("%v: hint %q, want the build command %q", args, r.resp.Hint, want)
		}
		if strings.Contains(r.resp.Error, "cmake -S") {
			t.Errorf("%v: error %q repeats the hint", args, r.resp.Error)
		}
	}
	// Without --json a person reads the hint too.
	r := strobe(t, false, "test", root)
	if r.code != 2 || !strings.Contains(r.stdout+r.stderr, "cmake -S . -B build && cmake --build build") {
		t.Errorf("exit %d, output %q %q, want exit 2 and the build command", r.code, r.stdout, r.stderr)
	}
}
