package xcodebuild

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
	"strobe/internal/testutil"
	"strobe/report"
)

// standin puts the xcodebuild stand-in (testdata/xcodebuild-standin) first
// on PATH, gives the test a HOME of its own (where crash reports go) and
// sets the stand-in's STANDIN_* variables. It returns the HOME.
func standin(t *testing.T, env map[string]string) string {
	t.Helper()
	dir := filepath.Join(testutil.Root(), "testdata", "xcodebuild-standin")
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	home := t.TempDir()
	t.Setenv("HOME", home)
	for _, k := range []string{"STANDIN_LOG", "STANDIN_STDERR", "STANDIN_EXIT", "STANDIN_SIGNAL", "STANDIN_HANG", "STANDIN_IPS",
		"STANDIN_IPS_NAME", "STANDIN_IPS_TIME", "STANDIN_ARGS", "STANDIN_LIST", "STANDIN_BUNDLE", "STANDIN_SIMCTL", "STANDIN_XCRESULT"} {
		t.Setenv(k, env[k])
	}
	return home
}

func standinFile(name string) string {
	return filepath.Join(testutil.Root(), "testdata", "xcodebuild-standin", name)
}

func xcodeCorpus(name string) string {
	p, _ := filepath.Abs(filepath.Join("testdata", "corpus", name))
	return p
}

var xcodeTmp = regexp.MustCompile(`/tmp/strobe-xcodebuild-[^/ ']+`)

// xcodeNormalise zeroes durations and replaces the run's directory and HOME.
func xcodeNormalise(rec *adapters.Recorder, out adapters.Outcome, home string) adapterstest.Result {
	res := adapterstest.Normalise(rec, out, func(s string) string {
		s = xcodeTmp.ReplaceAllString(s, "{{RUN}}")
		return strings.ReplaceAll(s, home, "{{HOME}}")
	})
	for i := range res.Tests {
		res.Tests[i].Output = "" // the console's own lines; the goldens keep the results
	}
	return res
}

// xcodeCommand is the command every replay runs: strobe adds the result
// bundle and the test timeouts to it.
var xcodeCommand = []string{"xcodebuild", "test", "-project", "TestingTest.xcodeproj", "-scheme", "TestingTest", "-destination", "platform=iOS Simulator,name=iPhone 15"}

// TestXcodebuildReplays runs the adapter, unchanged, on real xcodebuild
// consoles replayed by the stand-in with the exit status xcodebuild gives
// them (0 for ** TEST SUCCEEDED **, 65 for a failure of the build, the tests
// or the runner, 1 for the swift test logs).
func TestXcodebuildReplays(t *testing.T) {
	for _, tc := range []struct {
		log    string
		exit   string
		check  func(t *testing.T, rec *adapters.Recorder, out adapters.Outcome)
		golden string
	}{
		{"bitrise-ok-full-build-and-test.txt", "0", func(t *testing.T, rec *adapters.Recorder, out adapters.Outcome) {
			p := rec.Progress()
			if out.Crash != nil || out.BuildFailed || p.Failed != 0 || p.Passed == 0 {
				t.Errorf("a passing run: %+v %+v", p, out)
			}
		}, "ok"},
		{"fastlane-ui-test-passing-xcode7.log", "0", func(t *testing.T, rec *adapters.Recorder, out adapters.Outcome) {
			if p := rec.Progress(); p.Passed != 3 || out.Crash != nil {
				t.Errorf("ui test passing: %+v %+v", p, out)
			}
		}, ""},
		{"xcbeautify-TestLog-swiftpm-xctest-failures.txt", "65", func(t *testing.T, rec *adapters.Recorder, out adapters.Outcome) {
			tt, ok := adapterstest.TestByName(rec.Tests(), "XcbeautifyLibTests/XcbeautifyLibTests/testAggregateTarget")
			if !ok || tt.Status != report.TestFailed || tt.Failure == nil || !strings.HasSuffix(tt.Failure.File, "XcbeautifyLibTests.swift") || tt.Failure.Line != 13 ||
				!strings.HasPrefix(tt.Failure.Message, "XCTAssertEqual failed") {
				t.Errorf("assertion failure: %+v", tt)
			}
		}, "xctest-failures"},
		{"xcbeautify-MixedTestLog-XCTest+SwiftTesting-macOS.txt", "65", func(t *testing.T, rec *adapters.Recorder, out adapters.Outcome) {
			st, _ := adapterstest.TestByName(rec.Tests(), "testFailTrueIsFalse()")
			if st.Failure == nil || st.Failure.File != "Test.swift" || st.Failure.Line != 17 || st.Failure.Message != "Expectation failed: true == false" {
				t.Errorf("swift testing issue: %+v", st)
			}
			xc, _ := adapterstest.TestByName(rec.Tests(), "XcbeautifyLibTests/CaptureGroupTests/testForceFailure")
			if xc.Failure == nil || xc.Failure.Line != 34 {
				t.Errorf("xctest failure: %+v", xc)
			}
		}, "mixed-macos"},
		{"xcbeautify-MixedTestLog-XCTest+SwiftTesting-Linux.txt", "1", func(t *testing.T, rec *adapters.Recorder, out adapters.Outcome) {
			if p := rec.Progress(); p.Failed != 2 {
				t.Errorf("linux mixed: %+v", p)
			}
		}, ""},
		{"xcbeautify-swift-testing-sf-symbols-skipped.txt", "65", func(t *testing.T, rec *adapters.Recorder, out adapters.Outcome) {
			p := rec.Progress()
			if p.Passed != 1 || p.Failed != 1 || p.Skipped != 1 {
				t.Errorf("sf symbols: %+v", p)
			}
		}, "swift-testing-sf-symbols"},
		{"xcsift-swift-testing-xcode26-testing-library-6.2.txt", "0", func(t *testing.T, rec *adapters.Recorder, out adapters.Outcome) {
			if p := rec.Progress(); p.Passed != 23 || p.Failed != 0 || out.Crash != nil {
				t.Errorf("swift testing 6.2: %+v %+v", p, out)
			}
		}, ""},
		{"xcbeautify-swift-test-log-macOS-build-and-test.txt", "1", func(t *testing.T, rec *adapters.Recorder, out adapters.Outcome) {
			if p := rec.Progress(); p.Failed == 0 || p.Passed < 300 {
				t.Errorf("swift-testing's own suite: %+v", p)
			}
		}, ""},
		{"xcbeautify-spi-swift-testing-full-log.txt", "1", func(t *testing.T, rec *adapters.Recorder, out adapters.Outcome) {
			if p := rec.Progress(); p.Failed != 3 {
				t.Errorf("spi: %+v", p)
			}
		}, ""},
		{"xcpretty-raw-kiwi-compilation-fail.txt", "65", func(t *testing.T, rec *adapters.Recorder, out adapters.Outcome) {
			if !out.BuildFailed || len(out.BuildErrors) != 2 || out.BuildErrors[0].Line != 26 || out.BuildErrors[0].Column != 5 {
				t.Errorf("build errors: %+v", out)
			}
		}, "compile-error"},
		{"xcpretty-raw-kiwi-fail-xcode5.txt", "65", func(t *testing.T, rec *adapters.Recorder, out adapters.Outcome) {
			if p := rec.Progress(); p.Failed == 0 || out.BuildFailed {
				t.Errorf("kiwi: %+v %+v", p, out)
			}
		}, ""},
		{"xcpretty-raw-specta-fail-xcode5.txt", "65", func(t *testing.T, rec *adapters.Recorder, out adapters.Outcome) {
			if p := rec.Progress(); p.Failed == 0 || p.Passed < 100 {
				t.Errorf("specta: %+v", p)
			}
		}, ""},
		{"bitrise-uitest-timeout-failure-xcode7.txt", "65", func(t *testing.T, rec *adapters.Recorder, out adapters.Outcome) {
			if p := rec.Progress(); p.Failed == 0 {
				t.Errorf("ui test timeout: %+v", p)
			}
		}, ""},
		{"bitrise-failure-attempting-to-launch-uitest.txt", "65", func(t *testing.T, rec *adapters.Recorder, out adapters.Outcome) {
			tt, _ := adapterstest.TestByName(rec.Tests(), "ios_xcode_8_0UITests/ios_xcode_8_0UITests/testExample")
			if tt.Failure == nil || !strings.Contains(tt.Failure.Message, "Failure attempting to launch") {
				t.Errorf("launch failure: %+v", tt)
			}
		}, ""},
		{"fastlane-xcode26-test-execute-failed.log", "65", func(t *testing.T, rec *adapters.Recorder, out adapters.Outcome) {
			if p := rec.Progress(); p.Failed != 2 {
				t.Errorf("xcode 26: %+v", p)
			}
			if _, ok := adapterstest.TestByName(rec.Tests(), "ExampleTestTests/testExample()"); !ok {
				t.Errorf("xcode 26 names: %+v", rec.Tests())
			}
		}, "xcode26"},
		// The crash indicators.
		{"fastlane-non-parallel-testing-failure-xcode10.log", "65", func(t *testing.T, rec *adapters.Recorder, out adapters.Outcome) {
			wantCrash(t, out, "test_restarted_after_crash", "TestingTestTests/TestingTestTests/testFailure")
			tt, _ := adapterstest.TestByName(rec.Tests(), "TestingTestTests/TestingTestTests/testFailure")
			if tt.Failure == nil || !strings.Contains(tt.Failure.Message, "Unexpectedly found nil") {
				t.Errorf("the crashed test: %+v", tt)
			}
			if !slices.Contains(out.Crash.Indicators, "swift_fatal_error") {
				t.Errorf("indicators %v lack the Swift fatal error", out.Crash.Indicators)
			}
		}, "restart-after-crash"},
		{"fastlane-early-unexpected-exit-precondition-failed-xcode10.log", "65", func(t *testing.T, rec *adapters.Recorder, out adapters.Outcome) {
			wantCrash(t, out, "early_unexpected_exit", "")
			if !slices.Contains(out.Crash.Indicators, "never_began_testing") || !strings.Contains(out.Hint, "AppDelegate.swift:19") {
				t.Errorf("precondition at launch: %+v hint %q", out.Crash, out.Hint)
			}
		}, "early-exit-precondition"},
		{"bitrise-early-unexpected-exit-1-xcode8.txt", "65", func(t *testing.T, rec *adapters.Recorder, out adapters.Outcome) {
			wantCrash(t, out, "early_unexpected_exit", "")
		}, ""},
		{"bitrise-failed-to-background-test-runner.txt", "65", func(t *testing.T, rec *adapters.Recorder, out adapters.Outcome) {
			wantCrash(t, out, "test_runner_background_failed", "")
		}, ""},
		{"bitrise-failed-to-open-test-runner-xcode12.txt", "65", func(t *testing.T, rec *adapters.Recorder, out adapters.Outcome) {
			wantCrash(t, out, "test_runner_launch_failed", "")
		}, ""},
		{"bitrise-test-runner-failed-to-initialize-ui-testing.txt", "65", func(t *testing.T, rec *adapters.Recorder, out adapters.Outcome) {
			wantCrash(t, out, "ui_test_runner_initialize_failed", "")
		}, ""},
		{"bitrise-iphonesimulator-boot-timeout.txt", "70", func(t *testing.T, rec *adapters.Recorder, out adapters.Outcome) {
			wantCrash(t, out, "simulator_boot_timeout", "")
			if !strings.Contains(out.Hint, "xcodebuild exited 70, EX_SOFTWARE") {
				t.Errorf("hint %q does not explain exit 70", out.Hint)
			}
		}, "simulator-boot-timeout"},
	} {
		t.Run(tc.log, func(t *testing.T) {
			home := standin(t, map[string]string{"STANDIN_LOG": xcodeCorpus(tc.log), "STANDIN_EXIT": tc.exit})
			rec, out, exit := adapterstest.RunReal(t, xcodebuild{}, adapters.Request{ProjectRoot: t.TempDir(), Command: xcodeCommand})
			if want := tc.exit; exit.Code != atoi(want) {
				t.Errorf("exit %+v, want %s", exit, want)
			}
			tc.check(t, rec, out)
			if out.Crash != nil && out.Hint == "" {
				t.Errorf("a crash without a hint: %+v", out.Crash)
			}
			if tc.golden != "" {
				adapterstest.Golden(t, tc.golden, xcodeNormalise(rec, out, home))
			}
		})
	}
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}

func wantCrash(t *testing.T, out adapters.Outcome, indicator, test string) {
	t.Helper()
	if out.Crash == nil {
		t.Fatalf("no crash, want %s (outcome %+v)", indicator, out)
	}
	if !slices.Contains(out.Crash.Indicators, indicator) {
		t.Errorf("indicators %v, want %s", out.Crash.Indicators, indicator)
	}
	if test != "" && !slices.Contains(out.Crash.RunningTests, test) {
		t.Errorf("running tests %v, want %s", out.Crash.RunningTests, test)
	}
	if out.Hint == "" {
		t.Errorf("no hint for %s", indicator)
	}
}

func TestXcodebuildSignal(t *testing.T) {
	standin(t, map[string]string{"STANDIN_LOG": xcodeCorpus("xcbeautify-MixedTestLog-XCTest+SwiftTesting-macOS.txt"), "STANDIN_SIGNAL": "SEGV"})
	_, out, exit := adapterstest.RunReal(t, xcodebuild{}, adapters.Request{ProjectRoot: t.TempDir(), Command: xcodeCommand})
	if !exit.Signaled {
		t.Fatalf("exit %+v, want a signal", exit)
	}
	if out.Crash == nil || out.Crash.Type != report.CrashSegmentationFault {
		t.Errorf("crash %+v, want a segmentation fault", out.Crash)
	}
}

func TestXcodebuildSilentFailure(t *testing.T) {
	t.Run("no bundle", func(t *testing.T) {
		standin(t, map[string]string{"STANDIN_EXIT": "65"})
		rec, out, _ := adapterstest.RunReal(t, xcodebuild{}, adapters.Request{ProjectRoot: t.TempDir(), Command: xcodeCommand})
		if out.Crash == nil || !out.Crash.SilentFailure || len(rec.Tests()) != 0 {
			t.Fatalf("outcome %+v, want a silent failure", out)
		}
		if !strings.Contains(out.Hint, "xcodebuild exited 65, EX_DATAERR") || !strings.Contains(out.Hint, "run the command by hand") {
			t.Errorf("hint %q", out.Hint)
		}
	})
	t.Run("xcodebuild error", func(t *testing.T) {
		log := filepath.Join(t.TempDir(), "dest.log")
		os.WriteFile(log, []byte("xcodebuild: error: Unable to find a destination matching the provided destination specifier:\n\t\t{ platform:iOS Simulator, OS:latest, name:iPhone 99 }\n"), 0o644)
		standin(t, map[string]string{"STANDIN_LOG": log, "STANDIN_EXIT": "70"})
		_, out, _ := adapterstest.RunReal(t, xcodebuild{}, adapters.Request{ProjectRoot: t.TempDir(), Command: xcodeCommand})
		if out.Crash != nil || !strings.Contains(out.Hint, "Unable to find a destination") || !strings.Contains(out.Hint, "exited 70, EX_SOFTWARE") {
			t.Errorf("outcome %+v, want xcodebuild's own error in the hint", out)
		}
	})
	t.Run("bundle read", func(t *testing.T) {
		standin(t, map[string]string{"STANDIN_EXIT": "65", "STANDIN_BUNDLE": "1", "STANDIN_XCRESULT": standinFile("xcresult-summary.json")})
		rec, out, _ := adapterstest.RunReal(t, xcodebuild{}, adapters.Request{ProjectRoot: t.TempDir(), Command: xcodeCommand})
		tt, ok := adapterstest.TestByName(rec.Tests(), "TestingTestTests/testFailure()")
		if !ok || tt.Failure == nil || !strings.Contains(tt.Failure.Message, "Crash: TestingTest (28750)") {
			t.Errorf("tests %+v, want the bundle's failure", rec.Tests())
		}
		if out.Crash == nil || !out.Crash.SilentFailure || !strings.Contains(out.Crash.Message, "result bundle names 1 failing test") {
			t.Errorf("crash %+v", out.Crash)
		}
		if !strings.Contains(out.Hint, "result bundle: ") {
			t.Errorf("hint %q does not point at the kept bundle", out.Hint)
		}
		bundle := strings.TrimSpace(out.Hint[strings.LastIndex(out.Hint, "result bundle: ")+len("result bundle: "):])
		if _, err := os.Stat(bundle); err != nil {
			t.Errorf("the bundle was not kept: %v", err)
		}
		os.RemoveAll(filepath.Dir(bundle))
	})
}

func TestXcodebuildCrashReports(t *testing.T) {
	log := xcodeCorpus("fastlane-non-parallel-testing-failure-xcode10.log")
	for _, tc := range []struct {
		name  string
		env   map[string]string
		match bool
	}{
		{"the test host's, written now", map[string]string{"STANDIN_IPS": standinFile("TestingTest-crash.ips"), "STANDIN_IPS_NAME": "TestingTest-2026-11-23-101010.ips"}, true},
		{"another app's", map[string]string{"STANDIN_IPS": standinFile("Safari-crash.ips"), "STANDIN_IPS_NAME": "TestingTest-2026-11-23-101010.ips"}, false},
		{"the test host's, captured long ago", map[string]string{"STANDIN_IPS": standinFile("TestingTest-crash.ips"), "STANDIN_IPS_TIME": "2020-01-02 03:04:05.0000 +0000"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := map[string]string{"STANDIN_LOG": log, "STANDIN_EXIT": "65"}
			for k, v := range tc.env {
				env[k] = v
			}
			standin(t, env)
			_, out, _ := adapterstest.RunReal(t, xcodebuild{}, adapters.Request{ProjectRoot: t.TempDir(), Command: xcodeCommand})
			if out.Crash == nil {
				t.Fatal("no crash")
			}
			got := slices.Contains(out.Crash.Indicators, "crash_report")
			if got != tc.match {
				t.Fatalf("crash_report indicator = %v, want %v (%+v)", got, tc.match, out.Crash)
			}
			if tc.match && (!strings.Contains(out.Crash.Message, "TestingTest (pid 28750) crashed: EXC_BREAKPOINT (SIGTRAP)") ||
				!strings.Contains(out.Crash.Message, "TestingTestTests.testFailure() (TestingTestTests.swift:42)") || !strings.Contains(out.Hint, ".ips")) {
				t.Errorf("crash %+v hint %q", out.Crash, out.Hint)
			}
		})
	}
}

// TestXcodebuildHangIsLive replays a console cut inside a test, then hangs:
// the running test must be visible while it does.
func TestXcodebuildHangIsLive(t *testing.T) {
	for _, by := range []string{report.StoppedTimeout, ""} {
		t.Run("stopped by "+by, func(t *testing.T) { xcodebuildHang(t, by) })
	}
}

func xcodebuildHang(t *testing.T, stoppedBy string) {
	full, err := os.ReadFile(xcodeCorpus("fastlane-non-parallel-testing-failure-xcode10.log"))
	if err != nil {
		t.Fatal(err)
	}
	cut := full[:strings.Index(string(full), "Fatal error")]
	log := filepath.Join(t.TempDir(), "cut.log")
	os.WriteFile(log, cut, 0o644)
	standin(t, map[string]string{"STANDIN_LOG": log, "STANDIN_HANG": "1"})
	rec := adapters.NewRecorder()
	plan, err := xcodebuild{}.Plan(context.Background(), adapters.Request{ProjectRoot: t.TempDir(), Command: xcodeCommand}, rec)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(plan.Argv[0], plan.Argv[1:]...)
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			plan.Parser.Line(adapters.Stdout, sc.Bytes(), false)
		}
	}()
	var running []adapters.RunningTest
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if running = rec.Progress().Running; len(running) > 0 {
			break
		}
	}
	cmd.Process.Kill()
	cmd.Wait()
	out := plan.Parser.Finish(report.Exit{Signaled: true, Signal: 9, SignalName: "SIGKILL", Code: 137, StoppedBy: stoppedBy})
	if stoppedBy == "" {
		// Killed by someone else: a crash, and the test it hit fails.
		if out.Crash == nil || out.Crash.Type != report.CrashKilled {
			t.Errorf("crash %+v for a run killed by others, want killed", out.Crash)
		}
		if got := rec.Abandon(); len(got) != 0 {
			t.Errorf("abandoned %q, want none", got)
		}
		return
	}
	// Stopped by strobe: no crash of the adapter's, the test stays running.
	if out.Crash != nil {
		t.Errorf("crash %+v for a run strobe stopped", out.Crash)
	}
	if got := rec.Abandon(); !slices.Equal(got, []string{"TestingTestTests/TestingTestTests/testFailure"}) {
		t.Errorf("abandoned %q", got)
	}
	if len(running) != 1 || running[0].Name != "TestingTestTests/TestingTestTests/testFailure" {
		t.Errorf("running %+v, want testFailure", running)
	}
}

// xcodeProject makes a project directory holding NAME.xcodeproj with the
// given SDKROOT, and the extra files.
func xcodeProject(t *testing.T, name, sdk string, files ...string) string {
	root := t.TempDir()
	proj := filepath.Join(root, name)
	os.MkdirAll(proj, 0o755)
	os.WriteFile(filepath.Join(proj, "project.pbxproj"), []byte("// !$*UTF8*$!\n{\n\tbuildSettings = {\n\t\tSDKROOT = "+sdk+";\n\t};\n}\n"), 0o644)
	for _, f := range files {
		os.MkdirAll(filepath.Join(root, filepath.Dir(f)), 0o755)
		os.WriteFile(filepath.Join(root, f), []byte("{}\n"), 0o644)
	}
	return root
}

func TestXcodebuildPlan(t *testing.T) {
	standin(t, nil)
	for _, tc := range []struct {
		name  string
		root  string
		req   adapters.Request
		want  []string // words the command must hold
		error string
	}{
		{"iOS project", xcodeProject(t, "TestingTest.xcodeproj", "iphoneos"), adapters.Request{},
			[]string{"test", "-project", "TestingTest.xcodeproj", "-scheme", "TestingTest", "-destination", "platform=iOS Simulator,id=C4B2E8D1-9A77-4F10-A3E6-2B8D5E7F3003", "-test-timeouts-enabled", "YES", "-resultBundlePath"}, ""},
		{"macOS project", xcodeProject(t, "TestingTest.xcodeproj", "macosx"), adapters.Request{}, []string{"-destination", "platform=macOS"}, ""},
		{"one test", xcodeProject(t, "TestingTest.xcodeproj", "iphoneos"), adapters.Request{Test: "TestingTestTests/TestingTestTests/testA"},
			[]string{"-only-testing:TestingTestTests/TestingTestTests/testA"}, ""},
		{"unit by target", xcodeProject(t, "TestingTest.xcodeproj", "iphoneos"), adapters.Request{Level: adapters.LevelUnit}, []string{"-only-testing:TestingTestTests"}, ""},
		{"integration by target", xcodeProject(t, "TestingTest.xcodeproj", "iphoneos"), adapters.Request{Level: adapters.LevelIntegration}, []string{"-only-testing:TestingTestIntegrationTests"}, ""},
		{"e2e by target", xcodeProject(t, "TestingTest.xcodeproj", "iphoneos"), adapters.Request{Level: adapters.LevelE2E}, []string{"-only-testing:TestingTestUITests"}, ""},
		{"unit by test plan", xcodeProject(t, "TestingTest.xcodeproj", "iphoneos", "Plans/UnitTests.xctestplan"), adapters.Request{Level: adapters.LevelUnit}, []string{"-testPlan", "UnitTests"}, ""},
		{"given command", t.TempDir(), adapters.Request{Command: []string{"xcodebuild", "-scheme", "X", "-destination", "platform=macOS"}}, []string{"-scheme", "X", "test", "-test-timeouts-enabled"}, ""},
		{"two projects", xcodeProject(t, "A.xcodeproj", "iphoneos", "B.xcodeproj/project.pbxproj"), adapters.Request{}, nil, "several projects (A.xcodeproj, B.xcodeproj)"},
		{"not xcodebuild", t.TempDir(), adapters.Request{Command: []string{"make", "test"}}, nil, "runs `xcodebuild test …`"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.req.ProjectRoot = tc.root
			plan, err := xcodebuild{}.Plan(context.Background(), tc.req, adapters.NewRecorder())
			if tc.error != "" {
				if !adapters.IsUsage(err) || !strings.Contains(err.Error(), tc.error) {
					t.Fatalf("err %v, want a usage error with %q", err, tc.error)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer os.RemoveAll(plan.Parser.(*xcodeParser).dir)
			for _, w := range tc.want {
				if !slices.Contains(plan.Argv, w) {
					t.Errorf("argv %q lacks %q", plan.Argv, w)
				}
			}
			// The answer's command names no result bundle in the run's
			// directory, removed after the run.
			if strings.Contains(plan.Shown, "-resultBundlePath") || !strings.HasPrefix(plan.Shown, "xcodebuild ") {
				t.Errorf("shown %q, want xcodebuild's command without strobe's result bundle", plan.Shown)
			}
			for _, w := range tc.want {
				if w != "-resultBundlePath" && !strings.Contains(plan.Shown, w) {
					t.Errorf("shown %q lacks %q", plan.Shown, w)
				}
			}
		})
	}
	t.Run("several schemes", func(t *testing.T) {
		t.Setenv("STANDIN_LIST", standinFile("list-two-schemes.json"))
		root := xcodeProject(t, "Shop.xcworkspace", "iphoneos")
		_, err := xcodebuild{}.Plan(context.Background(), adapters.Request{ProjectRoot: root}, adapters.NewRecorder())
		if !adapters.IsUsage(err) || !strings.Contains(err.Error(), "several schemes (ShopApp, ShopKit)") || !strings.Contains(err.Error(), "-scheme NAME") {
			t.Errorf("err %v, want the schemes named", err)
		}
	})
}

func TestXcodebuildDetect(t *testing.T) {
	for _, tc := range []struct {
		name string
		root string
		cmd  []string
		want int
	}{
		{"project", xcodeProject(t, "App.xcodeproj", "iphoneos"), nil, 90},
		{"workspace", xcodeProject(t, "App.xcworkspace", "iphoneos"), nil, 90},
		{"command", t.TempDir(), []string{"/usr/bin/xcodebuild", "test"}, 95},
		{"nothing", t.TempDir(), nil, 0},
		{"other command", xcodeProject(t, "App.xcodeproj", "iphoneos"), []string{"make"}, 0},
	} {
		if d := (xcodebuild{}).Detect(adapters.Request{ProjectRoot: tc.root, Command: tc.cmd}); d.Confidence != tc.want {
			t.Errorf("%s: Detect = %+v, want %d", tc.name, d, tc.want)
		}
	}
}

func xcodeSample(name string) string {
	p, _ := filepath.Abs(filepath.Join("testdata", "samples", name))
	return p
}

// TestXcodebuildSamples replays real consoles of public projects kept
// apart from the team's corpus (testdata/samples, sources in
// testdata/README.md), each for one defect found replaying them.
func TestXcodebuildSamples(t *testing.T) {
	for _, tc := range []struct {
		log, scheme string // scheme: the one test target of a shared scheme file
		check       func(t *testing.T, rec *adapters.Recorder, out adapters.Outcome)
	}{
		{"bitrise-timed-out-registering-xcode8.txt", "", func(t *testing.T, rec *adapters.Recorder, out adapters.Outcome) {
			wantCrash(t, out, "test_runner_infrastructure_error", "")
			if out.Crash.SilentFailure || rec.Progress().Passed != 2 {
				t.Errorf("crash %+v progress %+v, want the runner's error and the 2 passed tests", out.Crash, rec.Progress())
			}
			for _, want := range []string{"ios-xcode-8.0UITests: Timed out registering for testing event accessibility notifications.", "not the code under test", "xcrun simctl erase"} {
				if !strings.Contains(out.Hint, want) {
					t.Errorf("hint %q lacks %q", out.Hint, want)
				}
			}
		}},
		{"fastlane-parallel-failing-tests-unprinted-xcode13.log", "", func(t *testing.T, rec *adapters.Recorder, out adapters.Outcome) {
			if p := rec.Progress(); p.Failed != 2 {
				t.Errorf("failed %d, want the 2 tests of Failing tests:", p.Failed)
			}
			tt, _ := adapterstest.TestByName(rec.Tests(), "Foo-UI-Tests/Test2/testSomething")
			if tt.Failure == nil || !strings.HasSuffix(tt.Failure.Rerun, " -only-testing:Foo-UI-Tests/Test2/testSomething") {
				t.Errorf("listed test %+v", tt)
			}
			wantCrash(t, out, "test_runner_infrastructure_error", "")
			if !strings.Contains(out.Hint, "Failed to prepare device 'Clone 5 of iPad Pro (9.7-inch)' for impending launch.") {
				t.Errorf("hint %q does not quote the runner's error", out.Hint)
			}
		}},
		{"fastlane-parallel-testing-failure-xcode10.log", "", func(t *testing.T, rec *adapters.Recorder, out adapters.Outcome) {
			if p := rec.Progress(); p.Failed != 1 || p.Passed != 17 {
				t.Errorf("progress %+v, want 17 passed and 1 failed", p)
			}
			tt, _ := adapterstest.TestByName(rec.Tests(), "TestingTestTests/testFailure()")
			if tt.Failure == nil || !strings.HasSuffix(tt.Failure.Rerun, " -only-testing:TestingTestTests/TestingTestTests/testFailure") {
				t.Errorf("rerun of a parallel failure, target from the test session: %+v", tt.Failure)
			}
		}},
		{"fastlane-xcode26-testing-failure.log", "", func(t *testing.T, rec *adapters.Recorder, out adapters.Outcome) {
			ui, _ := adapterstest.TestByName(rec.Tests(), "ExampleTestUITests/testExample()")
			if ui.Failure == nil || !strings.HasSuffix(ui.Failure.Rerun, " -only-testing:ExampleTestUITests/ExampleTestUITests/testExample") {
				t.Errorf("UI test rerun, target from its -Runner: %+v", ui.Failure)
			}
			unit, _ := adapterstest.TestByName(rec.Tests(), "ExampleTestTests/testExample()")
			if unit.Failure == nil || unit.Failure.Rerun != "" || !strings.Contains(out.Hint, "no rerun command for ExampleTestTests/testExample(): the log does not name the test target") {
				t.Errorf("unit test %+v hint %q: want no rerun, and the hint saying why", unit.Failure, out.Hint)
			}
		}},
		{"fastlane-xcode26-testing-failure.log", "ExampleTestTests", func(t *testing.T, rec *adapters.Recorder, out adapters.Outcome) {
			unit, _ := adapterstest.TestByName(rec.Tests(), "ExampleTestTests/testExample()")
			if unit.Failure == nil || !strings.HasSuffix(unit.Failure.Rerun, " -only-testing:ExampleTestTests/ExampleTestTests/testExample") {
				t.Errorf("unit test rerun, target from the scheme: %+v", unit.Failure)
			}
		}},
		{"minello-early-exit-after-restart-xcode15.txt", "", func(t *testing.T, rec *adapters.Recorder, out adapters.Outcome) {
			const name = "HomeCookedTests/BoardsRepositoryTests/testCreateBoardWithColumnsAndCards"
			wantCrash(t, out, "test_restarted_after_crash", name)
			tt, _ := adapterstest.TestByName(rec.Tests(), name)
			if tt.Status != report.TestFailed || tt.Failure == nil || !strings.Contains(tt.Failure.Message, "crashed") ||
				!strings.Contains(tt.Failure.Message, "HomeCooked (pid 3584) crashed in Board.columns.getter") {
				t.Errorf("the test the runner died in: %+v", tt)
			}
			if slices.Contains(out.Crash.Indicators, "test_runner_infrastructure_error") {
				t.Errorf("a crash of the app taken for the infrastructure: %v", out.Crash.Indicators)
			}
			if !strings.Contains(out.Hint, "HomeCooked (pid 3584) crashed in Board.columns.getter while "+name+" ran") || strings.Contains(out.Hint, "before testing began") {
				t.Errorf("hint %q does not say what the log says", out.Hint)
			}
		}},
	} {
		t.Run(tc.log+tc.scheme, func(t *testing.T) {
			standin(t, map[string]string{"STANDIN_LOG": xcodeSample(tc.log), "STANDIN_EXIT": "65"})
			root := t.TempDir()
			if tc.scheme != "" {
				dir := filepath.Join(root, "TestingTest.xcodeproj", "xcshareddata", "xcschemes")
				os.MkdirAll(dir, 0o755)
				b, err := os.ReadFile(xcodeSample("TestingTest.xcscheme"))
				if err != nil {
					t.Fatal(err)
				}
				os.WriteFile(filepath.Join(dir, "TestingTest.xcscheme"), []byte(strings.ReplaceAll(string(b), "{{TARGET}}", tc.scheme)), 0o644)
			}
			rec, out, _ := adapterstest.RunReal(t, xcodebuild{}, adapters.Request{ProjectRoot: root, Command: xcodeCommand})
			tc.check(t, rec, out)
		})
	}
}
