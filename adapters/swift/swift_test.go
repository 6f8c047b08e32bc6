package swift

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
	"strobe/report"
)

// standin puts the swift stand-in (testdata/standin) first on PATH and sets
// its STANDIN_* variables.
func standin(t *testing.T, env map[string]string) {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("testdata", "standin"))
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	for _, k := range []string{"STANDIN_LOG", "STANDIN_STDERR", "STANDIN_EXIT", "STANDIN_SIGNAL", "STANDIN_HANG", "STANDIN_ARGS", "STANDIN_XUNIT", "STANDIN_XUNIT_ST"} {
		t.Setenv(k, env[k])
	}
}

func corpus(name string) string {
	p, _ := filepath.Abs(filepath.Join("testdata", "corpus", name))
	return p
}

// swiftPackage makes a Swift package: Package.swift and the given files
// under it.
func swiftPackage(t *testing.T, files ...string) string {
	root := t.TempDir()
	m := map[string]string{"Package.swift": "// swift-tools-version:5.9\n"}
	for _, f := range files {
		m[f] = "\n"
	}
	adapterstest.WriteFiles(t, root, m)
	return root
}

var swiftTmp = regexp.MustCompile(`/tmp/strobe-swift-[^/ ']+`)

// normalise zeroes durations and names strobe's report directory {{RUN}}.
func normalise(rec *adapters.Recorder, out adapters.Outcome) adapterstest.Result {
	res := adapterstest.Normalise(rec, out, func(s string) string { return swiftTmp.ReplaceAllString(s, "{{RUN}}") })
	for i := range res.Tests {
		res.Tests[i].Output = "" // the console's own lines; the goldens keep the results
	}
	return res
}

// TestSwiftReplays runs the adapter, unchanged, on real swift test consoles
// (testdata/corpus, sources in testdata/SOURCES.md) replayed by the
// stand-in with the exit status swift test gives them: 0 for a passing
// run, 1 for failed tests, a failed build or a crashed test process.
func TestSwiftReplays(t *testing.T) {
	for _, tc := range []struct {
		log    string
		exit   int
		check  func(t *testing.T, rec *adapters.Recorder, out adapters.Outcome)
		golden string
	}{
		{"xcbeautify-MixedTestLog-XCTest+SwiftTesting-Linux.txt", 1, func(t *testing.T, rec *adapters.Recorder, out adapters.Outcome) {
			if p := rec.Progress(); p.Failed != 2 || p.Passed != 4 || out.Crash != nil {
				t.Errorf("progress %+v crash %+v, want 4 passed and 2 failed", p, out.Crash)
			}
			xc, _ := adapterstest.TestByName(rec.Tests(), "CaptureGroupTests/testForceFailure")
			if xc.Failure == nil || xc.Failure.Line != 34 || xc.Failure.Message != "XCTAssertTrue failed - True is never false." ||
				xc.Failure.Rerun != `swift test --filter '(^|\.)CaptureGroupTests/testForceFailure$'` {
				t.Errorf("XCTest failure on Linux: %+v", xc.Failure)
			}
			st, _ := adapterstest.TestByName(rec.Tests(), "testFailTrueIsFalse()")
			if st.Failure == nil || st.Failure.File != "Tests/AppTests/Test.swift" || st.Failure.Line != 17 || st.Failure.Message != "Expectation failed: true == false" ||
				st.Failure.Rerun != `swift test --filter '(^|[./])testFailTrueIsFalse\(\)$'` {
				t.Errorf("Swift Testing issue, its file found under Tests/: %+v", st.Failure)
			}
		}, "linux-mixed"},
		{"xcbeautify-MixedTestLog-XCTest+SwiftTesting-macOS.txt", 1, func(t *testing.T, rec *adapters.Recorder, out adapters.Outcome) {
			xc, _ := adapterstest.TestByName(rec.Tests(), "XcbeautifyLibTests.CaptureGroupTests/testForceFailure")
			if xc.Failure == nil || xc.Failure.Line != 34 || !strings.HasSuffix(xc.Failure.Rerun, `--filter 'XcbeautifyLibTests\.CaptureGroupTests/testForceFailure$'`) {
				t.Errorf("XCTest failure on macOS: %+v", xc.Failure)
			}
		}, "macos-mixed"},
		{"xcbeautify-TestLog-swiftpm-xctest-failures.txt", 1, func(t *testing.T, rec *adapters.Recorder, out adapters.Outcome) {
			tt, _ := adapterstest.TestByName(rec.Tests(), "XcbeautifyLibTests.XcbeautifyLibTests/testAggregateTarget")
			if tt.Status != report.TestFailed || tt.Failure == nil || tt.Failure.Line != 13 || !strings.HasPrefix(tt.Failure.Message, "XCTAssertEqual failed") {
				t.Errorf("assertion failure: %+v", tt)
			}
		}, "xctest-failures"},
		{"xcbeautify-spi-swift-testing-full-log.txt", 1, func(t *testing.T, rec *adapters.Recorder, out adapters.Outcome) {
			if p := rec.Progress(); p.Failed != 3 || out.BuildFailed {
				t.Errorf("progress %+v build failed %v, want 3 failed after a build with warnings", p, out.BuildFailed)
			}
		}, "spi-swift-testing"},
		{"xcbeautify-swift-test-log-macOS-build-and-test.txt", 1, func(t *testing.T, rec *adapters.Recorder, out adapters.Outcome) {
			p := rec.Progress()
			if p.Failed == 0 || p.Passed < 300 || p.Skipped < 2 || out.Crash != nil {
				t.Errorf("swift-testing's own suite: %+v", p)
			}
			tt, _ := adapterstest.TestByName(rec.Tests(), `"Repeated calls to #expect() run in reasonable time"`)
			if tt.Status != report.TestSkipped || !strings.Contains(tt.Output, "time-sensitive") {
				t.Errorf("skipped with a reason: %+v", tt)
			}
			for _, tt := range rec.Tests() {
				if tt.Failure != nil && strings.HasPrefix(tt.Name, `"`) && tt.Failure.Rerun != "" {
					t.Errorf("a rerun for display name %s: --filter does not match display names", tt.Name)
				}
			}
		}, ""},
		{"xcbeautify-swift-testing-sf-symbols-skipped.txt", 1, func(t *testing.T, rec *adapters.Recorder, out adapters.Outcome) {
			if p := rec.Progress(); p.Passed != 1 || p.Failed != 1 || p.Skipped != 1 {
				t.Errorf("sf symbols: %+v", p)
			}
		}, "sf-symbols-skipped"},
		{"xcsift-swift-testing-xcode26-testing-library-6.2.txt", 0, func(t *testing.T, rec *adapters.Recorder, out adapters.Outcome) {
			if p := rec.Progress(); p.Passed != 23 || p.Failed != 0 || out.Crash != nil || out.NoTests {
				t.Errorf("swift testing 6.2: %+v %+v", p, out)
			}
		}, ""},
		{"issue-swift-png-50-build-errors.txt", 1, func(t *testing.T, rec *adapters.Recorder, out adapters.Outcome) {
			if !out.BuildFailed || len(out.BuildErrors) != 3 || out.BuildErrors[0].Line != 10 || out.BuildErrors[0].Column != 11 ||
				out.BuildErrors[0].Message != "cannot find type 'SynchronousTests' in scope" {
				t.Errorf("build errors, each once: %+v", out)
			}
		}, "build-errors"},
		{"issue-distributed-actors-492-linux-signal-11.txt", 1, func(t *testing.T, rec *adapters.Recorder, out adapters.Outcome) {
			const name = "ClusterLeaderActionsClusteredTests/test_joining_to_up_earlyYetStillLettingAllNodesKnowAboutLatestMembershipStatus"
			wantCrash(t, out, report.CrashSegmentationFault, name)
			tt, _ := adapterstest.TestByName(rec.Tests(), name)
			if tt.Status != report.TestFailed || tt.Failure == nil || !strings.Contains(tt.Failure.Message, "SIGSEGV") {
				t.Errorf("the test the process died in: %+v", tt)
			}
		}, "linux-signal-11"},
		{"issue-swift-embeddings-4-macos-signal-6.txt", 1, func(t *testing.T, rec *adapters.Recorder, out adapters.Outcome) {
			wantCrash(t, out, report.CrashAbort, "VecturaMLXKitTests.VecturaMLXKitTests/testAddAndSearch")
		}, ""},
		{"issue-container-1637-macos-swift-testing-signal-11.txt", 1, func(t *testing.T, rec *adapters.Recorder, out adapters.Outcome) {
			wantCrash(t, out, report.CrashSegmentationFault, "")
			if p := rec.Progress(); p.Passed != 2 || len(out.Crash.RunningTests) != 0 || !strings.Contains(out.Hint, "--no-parallel") {
				t.Errorf("progress %+v crash %+v hint %q", p, out.Crash, out.Hint)
			}
		}, ""},
		{"issue-swift-subprocess-239-freebsd-signal-13.txt", 1, func(t *testing.T, rec *adapters.Recorder, out adapters.Outcome) {
			wantCrash(t, out, report.CrashUnknown, "")
			if out.Crash.SignalName != "SIGPIPE" {
				t.Errorf("signal %q, want SIGPIPE", out.Crash.SignalName)
			}
		}, ""},
		{"issue-swiftoca-19-linux-fatal-error-backtrace.txt", 1, func(t *testing.T, rec *adapters.Recorder, out adapters.Outcome) {
			wantCrash(t, out, report.CrashAbort, "")
			for _, want := range []string{"Fatal error: failed to allocate 281474976710656 bytes", "SIGABRT", "Root.swift:226"} {
				if !strings.Contains(out.Crash.Message, want) {
					t.Errorf("crash message %q lacks %q", out.Crash.Message, want)
				}
			}
		}, "linux-fatal-error"},
		{"issue-csv-swift-135-linux-cast-crash.txt", 1, func(t *testing.T, rec *adapters.Recorder, out adapters.Outcome) {
			wantCrash(t, out, report.CrashAbort, "")
			if !strings.Contains(out.Crash.Message, "Program crashed: Aborted") {
				t.Errorf("crash message %q", out.Crash.Message)
			}
		}, ""},
	} {
		t.Run(tc.log, func(t *testing.T) {
			standin(t, map[string]string{"STANDIN_LOG": corpus(tc.log), "STANDIN_EXIT": strconv.Itoa(tc.exit)})
			root := swiftPackage(t, "Tests/AppTests/Test.swift")
			rec, out, exit := adapterstest.RunReal(t, swiftTest{}, adapters.Request{ProjectRoot: root})
			if exit.Code != tc.exit {
				t.Errorf("exit %+v, want %d", exit, tc.exit)
			}
			tc.check(t, rec, out)
			if out.Crash != nil && out.Hint == "" {
				t.Errorf("a crash without a hint: %+v", out.Crash)
			}
			if tc.golden != "" {
				adapterstest.Golden(t, tc.golden, normalise(rec, out))
			}
		})
	}
}

func wantCrash(t *testing.T, out adapters.Outcome, typ report.CrashType, test string) {
	t.Helper()
	if out.Crash == nil {
		t.Fatalf("no crash, want %s (outcome %+v)", typ, out)
	}
	if out.Crash.Type != typ {
		t.Errorf("crash type %s, want %s (%+v)", out.Crash.Type, typ, out.Crash)
	}
	if test != "" && !slices.Equal(out.Crash.RunningTests, []string{test}) {
		t.Errorf("running tests %v, want %s", out.Crash.RunningTests, test)
	}
	if test != "" && !strings.Contains(out.Hint, test) {
		t.Errorf("hint %q does not name %s", out.Hint, test)
	}
}

// TestSwiftXUnit reads SwiftPM's real xUnit reports when the console names
// no test: XCTest's report and Swift Testing's -swift-testing one.
func TestSwiftXUnit(t *testing.T) {
	t.Run("xctest", func(t *testing.T) {
		standin(t, map[string]string{"STANDIN_XUNIT": corpus("swift-test-xunit-output-3-tests.xml"), "STANDIN_EXIT": "1"})
		rec, _, _ := adapterstest.RunReal(t, swiftTest{}, adapters.Request{ProjectRoot: swiftPackage(t)})
		if p := rec.Progress(); p.Passed != 2 || p.Failed != 1 {
			t.Errorf("progress %+v, want 2 passed (the skip is written as a pass) and 1 failed", p)
		}
		tt, _ := adapterstest.TestByName(rec.Tests(), "AcmeLibTests.AcmeLibTests/test_always_fail")
		if tt.Failure == nil || tt.Failure.Message != "failed" || !strings.HasSuffix(tt.Failure.Rerun, `'AcmeLibTests\.AcmeLibTests/test_always_fail$'`) {
			t.Errorf("failure from the report: %+v", tt.Failure)
		}
	})
	t.Run("swift testing", func(t *testing.T) {
		standin(t, map[string]string{"STANDIN_XUNIT_ST": corpus("trunkio-docs-swift-testing-xunit.xml"), "STANDIN_EXIT": "1"})
		rec, _, _ := adapterstest.RunReal(t, swiftTest{}, adapters.Request{ProjectRoot: swiftPackage(t)})
		tt, _ := adapterstest.TestByName(rec.Tests(), "helloworld()")
		if tt.Failure == nil || tt.Failure.Message != `Expectation failed: (greeting → "hello, world!") == "hello, worldz!"` {
			t.Errorf("tests %+v", rec.Tests())
		}
	})
}

func TestSwiftSignal(t *testing.T) {
	standin(t, map[string]string{"STANDIN_LOG": corpus("issue-distributed-actors-492-linux-signal-11.txt"), "STANDIN_SIGNAL": "SEGV"})
	_, out, exit := adapterstest.RunReal(t, swiftTest{}, adapters.Request{ProjectRoot: swiftPackage(t)})
	if !exit.Signaled {
		t.Fatalf("exit %+v, want a signal", exit)
	}
	wantCrash(t, out, report.CrashSegmentationFault, "ClusterLeaderActionsClusteredTests/test_joining_to_up_earlyYetStillLettingAllNodesKnowAboutLatestMembershipStatus")
}

// TestSwiftHangIsLive replays a console that stops inside a test and
// hangs: the test is running while it does, and a run strobe stopped is
// no crash.
func TestSwiftHangIsLive(t *testing.T) {
	const name = "VecturaMLXKitTests.VecturaMLXKitTests/testAddAndSearch"
	full, err := os.ReadFile(corpus("issue-swift-embeddings-4-macos-signal-6.txt"))
	if err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(t.TempDir(), "cut.log")
	os.WriteFile(log, full[:strings.Index(string(full), "libc++abi")], 0o644)
	standin(t, map[string]string{"STANDIN_LOG": log, "STANDIN_HANG": "1"})
	s := adapterstest.Start(t, swiftTest{}, adapters.Request{ProjectRoot: swiftPackage(t)})
	s.WaitRunning(t, name)
	s.Cmd.Process.Kill()
	exit := s.Wait()
	exit.StoppedBy = report.StoppedTimeout
	out := s.Plan.Parser.Finish(exit)
	s.Plan.Parser.(adapters.Closer).Close()
	if out.Crash != nil {
		t.Errorf("crash %+v for a run strobe stopped", out.Crash)
	}
	if got := s.Rec.Abandon(); !slices.Equal(got, []string{name}) {
		t.Errorf("abandoned %q, want %s", got, name)
	}
}

func TestSwiftNoTests(t *testing.T) {
	log := filepath.Join(t.TempDir(), "empty.log")
	// The head of swift-testing issue 906's real log: no XCTest test, and
	// here no Swift Testing test after it.
	os.WriteFile(log, []byte("Build complete! (438.67s)\nTest Suite 'All tests' started at 2025-01-11 10:19:32.886.\nTest Suite 'All tests' passed at 2025-01-11 10:19:32.887.\n\t Executed 0 tests, with 0 failures (0 unexpected) in 0.000 (0.001) seconds\n"), 0o644)
	standin(t, map[string]string{"STANDIN_LOG": log})
	_, out, _ := adapterstest.RunReal(t, swiftTest{}, adapters.Request{ProjectRoot: swiftPackage(t), Test: "Nope/testNothing"})
	if !out.NoTests || !strings.Contains(out.Hint, "no test matched --filter") {
		t.Errorf("outcome %+v", out)
	}
}

func TestSwiftPlan(t *testing.T) {
	standin(t, nil)
	levels := []string{"Tests/CoreTests/A.swift", "Tests/APIIntegrationTests/B.swift", "Tests/AppE2ETests/C.swift"}
	for _, tc := range []struct {
		name  string
		root  string
		req   adapters.Request
		want  []string // the words after `swift test`, the report's path written {{RUN}}
		error string
	}{
		{"suite", swiftPackage(t, levels...), adapters.Request{}, []string{"--xunit-output", "{{RUN}}/xunit.xml"}, ""},
		{"one XCTest", swiftPackage(t), adapters.Request{Test: "AppTests.ParserTests/testParse"},
			[]string{"--xunit-output", "{{RUN}}/xunit.xml", "--filter", `AppTests\.ParserTests/testParse$`}, ""},
		{"one Swift Testing test", swiftPackage(t), adapters.Request{Test: "parse(_:)"},
			[]string{"--xunit-output", "{{RUN}}/xunit.xml", "--filter", `(^|[./])parse\(_:\)$`}, ""},
		{"unit", swiftPackage(t, levels...), adapters.Request{Level: adapters.LevelUnit}, []string{"--xunit-output", "{{RUN}}/xunit.xml", "--filter", `^(CoreTests)\.`}, ""},
		{"integration", swiftPackage(t, levels...), adapters.Request{Level: adapters.LevelIntegration}, []string{"--xunit-output", "{{RUN}}/xunit.xml", "--filter", `^(APIIntegrationTests)\.`}, ""},
		{"e2e", swiftPackage(t, levels...), adapters.Request{Level: adapters.LevelE2E}, []string{"--xunit-output", "{{RUN}}/xunit.xml", "--filter", `^(AppE2ETests)\.`}, ""},
		{"given command", swiftPackage(t), adapters.Request{Command: []string{"swift", "test", "--parallel"}}, []string{"--parallel", "--xunit-output", "{{RUN}}/xunit.xml"}, ""},
		{"given report", swiftPackage(t), adapters.Request{Command: []string{"swift", "test", "--xunit-output", "out.xml"}}, []string{"--xunit-output", "out.xml"}, ""},
		{"no level target", swiftPackage(t, "Tests/CoreTests/A.swift"), adapters.Request{Level: adapters.LevelE2E}, nil, "no test target names the e2e level (test targets: CoreTests)"},
		{"not swift test", swiftPackage(t), adapters.Request{Command: []string{"swift", "build"}}, nil, "runs `swift test …`"},
		{"level with command", swiftPackage(t), adapters.Request{Command: []string{"swift", "test"}, Level: adapters.LevelUnit}, nil, "--filter"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.req.ProjectRoot = tc.root
			plan, err := swiftTest{}.Plan(context.Background(), tc.req, adapters.NewRecorder())
			if tc.error != "" {
				if !adapters.IsUsage(err) || !strings.Contains(err.Error(), tc.error) {
					t.Fatalf("err %v, want a usage error with %q", err, tc.error)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer plan.Parser.(adapters.Closer).Close()
			got := slices.Clone(plan.Argv[2:])
			for i := range got {
				got[i] = swiftTmp.ReplaceAllString(got[i], "{{RUN}}")
			}
			if plan.Argv[0] != "swift" || plan.Argv[1] != "test" || !slices.Equal(got, tc.want) {
				t.Errorf("argv %q, want swift test %q", plan.Argv, tc.want)
			}
		})
	}
}

func TestSwiftMissing(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	_, err := swiftTest{}.Plan(context.Background(), adapters.Request{ProjectRoot: swiftPackage(t, "Tests/ATests/A.swift")}, adapters.NewRecorder())
	var u *adapters.UsageError
	if !errorsAs(err, &u) || u.Framework != "swift" || !strings.Contains(u.Hint, "swift.org") {
		t.Fatalf("err %#v, want a usage error naming swift with a hint to install it", err)
	}
}

func TestSwiftDetect(t *testing.T) {
	withXcode := swiftPackage(t, "Tests/ATests/A.swift", "App.xcodeproj/project.pbxproj")
	for _, tc := range []struct {
		name string
		root string
		cmd  []string
		want int
	}{
		{"package with tests", swiftPackage(t, "Tests/ATests/A.swift"), nil, 90},
		{"package and Xcode project", withXcode, nil, 85},
		{"package without tests", swiftPackage(t, "Sources/A/A.swift"), nil, 20},
		{"command", t.TempDir(), []string{"/usr/bin/swift", "test"}, 95},
		{"swift build", t.TempDir(), []string{"swift", "build"}, 0},
		{"nothing", t.TempDir(), nil, 0},
	} {
		if d := (swiftTest{}).Detect(adapters.Request{ProjectRoot: tc.root, Command: tc.cmd}); d.Confidence != tc.want {
			t.Errorf("%s: Detect = %+v, want %d", tc.name, d, tc.want)
		}
	}
}

func TestTestFilter(t *testing.T) {
	for _, tc := range []struct {
		name, filter string
		matches      []string // the identifiers SwiftPM and Swift Testing match it against
		not          []string
	}{
		{"AppTests.ParserTests/testParse", `AppTests\.ParserTests/testParse$`, []string{"AppTests.ParserTests/testParse"}, []string{"AppTests.ParserTests/testParseAll"}},
		{"ParserTests/testParse", `(^|\.)ParserTests/testParse$`, []string{"AppTests.ParserTests/testParse"}, []string{"AppTests.MyParserTests/testParse"}},
		{"parse()", `(^|[./])parse\(\)$`, []string{"AppTests.Suite/parse()", "AppTests.parse()"}, []string{"AppTests.Suite/reparse()"}},
	} {
		if got := TestFilter(tc.name); got != tc.filter {
			t.Errorf("TestFilter(%q) = %q, want %q", tc.name, got, tc.filter)
			continue
		}
		re := regexp.MustCompile(tc.filter)
		for _, m := range tc.matches {
			if !re.MatchString(m) {
				t.Errorf("%s does not match %s", tc.filter, m)
			}
		}
		for _, m := range tc.not {
			if re.MatchString(m) {
				t.Errorf("%s matches %s", tc.filter, m)
			}
		}
	}
}

func errorsAs(err error, target **adapters.UsageError) bool { return errors.As(err, target) }
