package catch2

import (
	"bufio"
	"bytes"
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
	"time"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
	"strobe/adapters/kit"
	"strobe/internal/shell"
	"strobe/internal/testutil"
	"strobe/report"
)

// catch2Normalise zeroes durations and replaces the binaries' directory.
func catch2Normalise(rec *adapters.Recorder, out adapters.Outcome, bins string) adapterstest.Result {
	return adapterstest.Normalise(rec, out, func(s string) string { return strings.ReplaceAll(s, bins, "{{BIN}}") })
}

func TestCatch2Basic(t *testing.T) {
	bins := testutil.Catch2Fixtures(t)
	root := testutil.Fixture("catch2", "plain")
	rec, out, exit := adapterstest.RunReal(t, catch2{}, adapters.Request{ProjectRoot: root, Command: []string{filepath.Join(bins, "basic")}})
	if !exit.Exited || exit.Code == 0 {
		t.Errorf("exit = %+v, want a non-zero exit (failed assertions)", exit)
	}
	res := catch2Normalise(rec, out, bins)
	for i := range res.Tests {
		// Whether the stderr line reaches its test depends on how far the
		// binary got before strobe read it (see catch2Parser.Line).
		res.Tests[i].Output = strings.ReplaceAll(res.Tests[i].Output, "checking the size on stderr\n", "")
	}
	adapterstest.Golden(t, "basic-all", res)

	tests := rec.Tests()
	if len(tests) != 6 {
		t.Fatalf("recorded %d tests, want 6: %+v", len(tests), tests)
	}
	f := tests[1].Failure
	if f == nil || f.File != "basic.cpp" || f.Line != 17 || !strings.HasPrefix(f.Message, "REQUIRE( add(base, 2) == 5 )\nwith expansion:\n  4 == 5\nwith message:") || !strings.Contains(f.Message, "base is 2") {
		t.Errorf("adds wrongly: failure %+v", f)
	}
	sec, _ := adapterstest.TestByName(tests, "vector sections")
	if sec.Failure == nil || !strings.Contains(sec.Failure.Message, "in section push / size grows") || !strings.Contains(sec.Failure.Rerun, "-c push -c 'size grows'") {
		t.Errorf("vector sections: failure %+v", sec.Failure)
	}
	if !strings.Contains(sec.Output, "size is 4") {
		t.Errorf("vector sections: output %q lacks what it wrote to std::cout", sec.Output)
	}
	if out.Crash != nil {
		t.Errorf("crash %+v for plain failures", out.Crash)
	}
}

// TestCatch2Selection runs one test by a name full of test-spec characters,
// and a level by its tag, for real.
func TestCatch2Selection(t *testing.T) {
	bins := testutil.Catch2Fixtures(t)
	root := testutil.Fixture("catch2", "plain")
	bin := filepath.Join(bins, "basic")
	for _, tc := range []struct {
		name  string
		req   adapters.Request
		tests []string
	}{
		{"special characters", adapters.Request{Test: `a, b [c] "d" ~e \f *g`}, []string{`a, b [c] "d" ~e \f *g`}},
		{"name with sections", adapters.Request{Test: "vector sections"}, []string{"vector sections"}},
		{"unit", adapters.Request{Level: adapters.LevelUnit}, []string{"adds small numbers", "adds wrongly"}},
		{"integration", adapters.Request{Level: adapters.LevelIntegration}, []string{"vector sections", "throws unexpectedly"}},
		{"e2e", adapters.Request{Level: adapters.LevelE2E}, []string{"end to end warns"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.req.ProjectRoot, tc.req.Command = root, []string{bin}
			rec, out, _ := adapterstest.RunReal(t, catch2{}, tc.req)
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
		_, out, _ := adapterstest.RunReal(t, catch2{}, adapters.Request{ProjectRoot: root, Command: []string{bin}, Test: "no such test"})
		if !out.NoTests || !strings.Contains(out.Hint, `no test case is named "no such test"`) {
			t.Errorf("outcome %+v, want no_tests with a hint", out)
		}
	})
}

func TestCatch2Segfault(t *testing.T) {
	bins := testutil.Catch2Fixtures(t)
	root := testutil.Fixture("catch2", "plain")
	rec, out, exit := adapterstest.RunReal(t, catch2{}, adapters.Request{ProjectRoot: root, Command: []string{filepath.Join(bins, "crash")}})
	if !exit.Signaled || exit.Signal != int(syscall.SIGSEGV) {
		t.Errorf("exit = %+v, want SIGSEGV", exit)
	}
	adapterstest.Golden(t, "crash-all", catch2Normalise(rec, out, bins))
	c := out.Crash
	if c == nil || c.Type != report.CrashSegmentationFault || !slices.Equal(c.RunningTests, []string{"dereferences null"}) {
		t.Fatalf("crash %+v, want a segmentation fault in \"dereferences null\"", c)
	}
	tt, _ := adapterstest.TestByName(rec.Tests(), "dereferences null")
	if tt.Status != report.TestFailed || tt.Failure == nil || tt.Failure.File != "crash.cpp" || tt.Failure.Line != 13 {
		t.Errorf("crashed test %+v, want failed at crash.cpp:13 (the last assertion reached)", tt)
	}
	if !strings.Contains(out.Hint, "dereferences null") || !strings.Contains(out.Hint, "gdb") {
		t.Errorf("hint %q is not actionable", out.Hint)
	}
	if _, ok := adapterstest.TestByName(rec.Tests(), "never runs"); ok {
		t.Errorf("a test after the crash was recorded")
	}
}

func TestCatch2AddressSanitizer(t *testing.T) {
	bins := testutil.Catch2Fixtures(t)
	root := testutil.Fixture("catch2", "plain")
	rec, out, exit := adapterstest.RunReal(t, catch2{}, adapters.Request{ProjectRoot: root, Command: []string{filepath.Join(bins, "asan")}})
	if !exit.Exited || exit.Code != 1 {
		t.Errorf("exit = %+v, want ASan's exit code 1", exit)
	}
	c := out.Crash
	if c == nil || !slices.Contains(c.Indicators, "address_sanitizer") || !slices.Equal(c.RunningTests, []string{"reads past the end"}) ||
		!strings.Contains(c.Message, "heap-buffer-overflow") {
		t.Fatalf("crash %+v, want ASan's heap-buffer-overflow in \"reads past the end\"", c)
	}
	if c.Type != report.CrashSanitizer {
		t.Errorf("crash type %q, want %q: ASan stopped the binary, no signal", c.Type, report.CrashSanitizer)
	}
	tt, _ := adapterstest.TestByName(rec.Tests(), "reads past the end")
	if tt.Failure == nil || tt.Failure.File != "asan.cpp" || tt.Failure.Line != 5 || !strings.Contains(tt.Failure.Message, "heap-buffer-overflow") {
		t.Errorf("failure %+v, want asan.cpp:5 with the report", tt.Failure)
	}
	if !strings.Contains(tt.Output, "SUMMARY: AddressSanitizer") {
		t.Errorf("the report is not in the test's output: %q", tt.Output)
	}
	if ok, _ := adapterstest.TestByName(rec.Tests(), "reads in bounds"); ok.Status != report.TestPassed {
		t.Errorf("the test before the overflow: %+v", ok)
	}
	if !strings.Contains(out.Hint, "AddressSanitizer") || !strings.Contains(out.Hint, "reads past the end") {
		t.Errorf("hint %q", out.Hint)
	}
}

// TestCatch2DeadlockIsLive checks that the test start reaches the Recorder
// while the test hangs: what the stuck detector reads to name it.
func TestCatch2DeadlockIsLive(t *testing.T) {
	// Killed by strobe after a stuck verdict: no crash of the adapter's,
	// and the test stays running for the runner to name.
	rec, out := catch2Deadlock(t, report.StoppedStuck)
	if out.Crash != nil || out.Hint != "" {
		t.Errorf("outcome %+v, want neither a crash nor a hint", out)
	}
	if got := rec.Abandon(); !slices.Equal(got, []string{"transfers between accounts"}) {
		t.Errorf("abandoned %q, want the hung test", got)
	}
}

// TestCatch2KilledByOthers: the same SIGKILL from someone else (the OOM
// killer, a user) is not strobe's stop: the test it hit fails.
func TestCatch2KilledByOthers(t *testing.T) {
	rec, _ := catch2Deadlock(t, "")
	if got := rec.Abandon(); len(got) != 0 {
		t.Errorf("abandoned %q: a test killed by others was left running", got)
	}
	if tt, _ := adapterstest.TestByName(rec.Tests(), "transfers between accounts"); tt.Status != report.TestFailed {
		t.Errorf("the killed test: %+v, want failed", tt)
	}
}

// catch2Deadlock runs the deadlock fixture until its hung test shows,
// kills it, and finishes the parser as the runner would, with stoppedBy.
func catch2Deadlock(t *testing.T, stoppedBy string) (*adapters.Recorder, adapters.Outcome) {
	bins := testutil.Catch2Fixtures(t)
	root := testutil.Fixture("catch2", "plain")
	rec := adapters.NewRecorder()
	plan, err := catch2{}.Plan(context.Background(), adapters.Request{ProjectRoot: root, Command: []string{filepath.Join(bins, "deadlock")}}, rec)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(plan.Argv[0], plan.Argv[1:]...)
	cmd.Dir = plan.Dir
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan struct{})
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			plan.Parser.Line(adapters.Stderr, sc.Bytes(), false)
		}
	}()
	deadline := time.Now().Add(10 * time.Second)
	var running []adapters.RunningTest
	for time.Now().Before(deadline) {
		if running = rec.Progress().Running; len(running) > 0 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if len(running) != 1 || running[0].Name != "transfers between accounts" {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("running %+v, want the deadlocked test", running)
	}
	time.Sleep(50 * time.Millisecond) // let the stderr line come
	cmd.Process.Kill()
	<-lines
	cmd.Wait()
	if tt, _ := adapterstest.TestByName(rec.Tests(), "transfers between accounts"); !strings.Contains(tt.Output, "locking the ledger") {
		t.Errorf("the hung test's stderr is not its output: %q", tt.Output)
	}
	if p := rec.Progress(); p.Passed != 1 {
		t.Errorf("passed = %d, want 1 (quick one)", p.Passed)
	}
	return rec, plan.Parser.Finish(report.Exit{Signaled: true, Signal: 9, SignalName: "SIGKILL", Code: 137, StoppedBy: stoppedBy})
}

func TestCatch2Detect(t *testing.T) {
	bins := testutil.Catch2Fixtures(t)
	root := testutil.Fixture("catch2", "plain")
	script := filepath.Join(t.TempDir(), "run.sh")
	os.WriteFile(script, []byte("#!/bin/sh\necho Catch2 --list-tests\n"), 0o755)
	for _, tc := range []struct {
		name string
		cmd  []string
		want int
		hint string
	}{
		{"catch2 binary", []string{filepath.Join(bins, "basic")}, 95, ""},
		{"with arguments", []string{filepath.Join(bins, "basic"), "--order", "rand"}, 95, ""},
		{"not catch2", []string{filepath.Join(bins, "notcatch")}, 0, "not a Catch2 test binary"},
		{"script", []string{script}, 0, "not a Catch2 test binary"},
		{"hangs on listing", []string{filepath.Join(bins, "listhang")}, 0, "did not answer --list-tests"},
		{"on PATH, not catch2", []string{"ls"}, 0, "not a Catch2 test binary"},
		{"missing", []string{"./nope"}, 0, "not a Catch2 test binary"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			d := catch2{}.Detect(adapters.Request{ProjectRoot: root, Command: tc.cmd})
			if took := time.Since(start); took > probeTimeout+2*time.Second {
				t.Errorf("Detect took %v", took)
			}
			if d.Confidence != tc.want || !strings.Contains(d.Hint, tc.hint) {
				t.Errorf("Detect = %+v, want confidence %d and a hint with %q", d, tc.want, tc.hint)
			}
		})
	}
}

// catch2CMake configures and builds a copy of a CMake fixture and returns
// the copy's root.
func catch2CMake(t *testing.T, name string) string {
	t.Helper()
	testutil.RequireTool(t, "cmake")
	testutil.Catch2Fixtures(t) // the same toolchain checks
	root := filepath.Join(t.TempDir(), name)
	if out, err := exec.Command("cp", "-r", testutil.Fixture("catch2", name), root).CombinedOutput(); err != nil {
		t.Fatalf("copy: %v %s", err, out)
	}
	// Catch2's single header takes most of a minute to compile on one
	// loaded core; the bound is only against a build that never ends.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	for _, args := range [][]string{{"-S", ".", "-B", "build"}, {"--build", "build", "-j", "4"}} {
		cmd := exec.CommandContext(ctx, "cmake", args...)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("cmake %v: %v\n%s", args, err, out)
		}
	}
	return root
}

func TestCatch2CMakeProjects(t *testing.T) {
	t.Run("one binary", func(t *testing.T) {
		t.Parallel()
		root := catch2CMake(t, "cmake-one")
		if d := (catch2{}).Detect(adapters.Request{ProjectRoot: root}); d.Confidence != 80 {
			t.Errorf("Detect = %+v, want 80", d)
		}
		rec, out, _ := adapterstest.RunReal(t, catch2{}, adapters.Request{ProjectRoot: root})
		if !strings.Contains(out.Hint, "ran build/tests/unit_tests, the only Catch2 test binary") {
			t.Errorf("hint %q does not say which binary ran", out.Hint)
		}
		tests := rec.Tests()
		if len(tests) != 2 || tests[1].Failure == nil || tests[1].Failure.File != "tests/math_test.cpp" || tests[1].Failure.Line != 9 {
			t.Errorf("tests %+v, want divides wrongly failing at tests/math_test.cpp:9", tests)
		}
		if strings.Contains(out.Hint, "changed after") {
			t.Errorf("hint %q: the build is newer than its sources", out.Hint)
		}
		// A source edited since the build (or one that no longer compiles:
		// strobe never builds) leaves the old binary, whose results these
		// are: the hint says so.
		later := time.Now().Add(time.Minute)
		if err := os.Chtimes(filepath.Join(root, "tests", "math_test.cpp"), later, later); err != nil {
			t.Fatal(err)
		}
		_, out, _ = adapterstest.RunReal(t, catch2{}, adapters.Request{ProjectRoot: root})
		if !strings.Contains(out.Hint, "tests/math_test.cpp changed after it was last compiled into unit_tests: this run tested the old build; rebuild (cmake --build build)") {
			t.Errorf("hint %q does not say the build is older than its sources", out.Hint)
		}
	})
	t.Run("two binaries", func(t *testing.T) {
		t.Parallel()
		root := catch2CMake(t, "cmake-two")
		_, err := catch2{}.Plan(context.Background(), adapters.Request{ProjectRoot: root}, adapters.NewRecorder())
		if !adapters.IsUsage(err) || !strings.Contains(err.Error(), "build/tests/more_tests, build/tests/unit_tests") || !strings.Contains(err.Error(), "--command") {
			t.Errorf("Plan error %v, want a usage error listing both binaries", err)
		}
	})
	t.Run("not built", func(t *testing.T) {
		root := testutil.Fixture("catch2", "cmake-one")
		if d := (catch2{}).Detect(adapters.Request{ProjectRoot: root}); d.Confidence != 80 {
			t.Errorf("Detect = %+v, want 80", d)
		}
		_, err := catch2{}.Plan(context.Background(), adapters.Request{ProjectRoot: root}, adapters.NewRecorder())
		var u *adapters.UsageError
		if !errors.As(err, &u) || u.Framework != "catch2" || !strings.Contains(u.Hint, "cmake -S . -B build && cmake --build build") {
			t.Errorf("Plan error %#v, want a usage error naming catch2 with the build command", err)
		}
	})
}

func TestCatch2Spec(t *testing.T) {
	for in, want := range map[string]string{
		"plain name":        "plain name",
		`a, b [c] "d" ~e`:   `a\, b \[c\] \"d\" \~e`,
		`back\slash *star*`: `back\\slash \*star\*`,
		"  padded  ":        "padded",
		"exclude:this one":  "*xclude:this one",
		"Exclude:[x]":       `*xclude:\[x\]`,
		"exclude:":          "exclude:",
	} {
		if got := catch2Spec(in); got != want {
			t.Errorf("catch2Spec(%q) = %q, want %q", in, got, want)
		}
	}
	kept, specs := catch2Args([]string{"-r", "console", "--order", "rand", "[fast]", "-o=x.txt", "-s", "-c", "sec", "name"})
	if !slices.Equal(kept, []string{"--order", "rand", "[fast]", "-s", "-c", "sec", "name"}) || !slices.Equal(specs, []string{"[fast]", "name"}) {
		t.Errorf("catch2Args: kept %q specs %q", kept, specs)
	}
}

// TestCatch2Listing checks the probe's reading of real --list-tests output.
func TestCatch2Listing(t *testing.T) {
	files, _ := filepath.Glob("testdata/corpus/list-tests-*.txt")
	if len(files) == 0 {
		t.Fatal("no listings in testdata/corpus")
	}
	for _, f := range files {
		b, _ := os.ReadFile(f)
		if !catch2Listing.Match(b) {
			t.Errorf("%s: not recognised as a Catch2 listing", f)
		}
	}
	if catch2Listing.MatchString("usage: tool [options]\n3 test cases\n") {
		t.Error("a listing without Catch2's header matched")
	}
}

// TestCatch2Corpus parses Catch2's own XML reporter baselines (v2.13 and
// v3). Those are normalised by Catch2's approval tests: the executable's
// name and version are written <exe-name> and <version>, which no real run
// prints (and which are not XML), so they are replaced before parsing.
func TestCatch2Corpus(t *testing.T) {
	for _, tc := range []struct {
		file                   string
		passed, failed, skiped int
	}{
		// The counts are the baselines' own OverallResultsCases, less
		// expected failures (they pass) and plus skips (v3 counts a skipped
		// test as passed).
		{"v2.13.10-xml-reporter-selftest.approved.xml", 0, 0, 0},
		{"v3-xml-reporter-selftest.approved.xml", 0, 0, 0},
	} {
		t.Run(tc.file, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("testdata/corpus", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			text := strings.NewReplacer("<exe-name>", "SelfTest", "<version>", "3.0.0", "<hex digits>", "hexdigits").Replace(string(b))
			dir := t.TempDir()
			path := filepath.Join(dir, "report.xml")
			os.WriteFile(path, []byte(text), 0o644)
			rec := adapters.NewRecorder()
			p := newCatch2Parser(rec, "/src/Catch2", dir, path)
			p.rerun = []string{"SelfTest"}
			p.start()
			out := p.Finish(report.Exit{Exited: true, Code: 1})
			if p.xmlErr != nil {
				t.Errorf("XML error: %v", p.xmlErr)
			}
			res := catch2Normalise(rec, out, "/nowhere")
			for i := range res.Tests {
				res.Tests[i].Output = ""
			}
			adapterstest.Golden(t, "corpus/"+strings.TrimSuffix(tc.file, ".approved.xml"), res)
			pr := rec.Progress()
			t.Logf("%s: %d passed, %d failed, %d skipped", tc.file, pr.Passed, pr.Failed, pr.Skipped)
		})
	}
}

// TestCatch2CutShort feeds a report that ends inside a test, as when the
// test calls exit() or a signal Catch2 does not catch ends the binary.
func TestCatch2CutShort(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "report.xml")
	os.WriteFile(path, []byte(`<?xml version="1.0" encoding="UTF-8"?>
<Catch name="t">
  <Group name="t">
    <TestCase name="first" filename="/src/a.cpp" line="3">
      <OverallResult success="true" durationInSeconds="0.001"/>
    </TestCase>
    <TestCase name="calls exit" filename="/src/a.cpp" line="7">
`), 0o644)
	rec := adapters.NewRecorder()
	p := newCatch2Parser(rec, "/src", dir, path)
	p.rerun = []string{"/src/t"}
	p.start()
	out := p.Finish(report.Exit{Exited: true, Code: 3})
	if out.Crash == nil || !slices.Equal(out.Crash.RunningTests, []string{"calls exit"}) || !slices.Contains(out.Crash.Indicators, "catch2_report_cut_short") {
		t.Fatalf("crash %+v", out.Crash)
	}
	tt, _ := adapterstest.TestByName(rec.Tests(), "calls exit")
	if tt.Status != report.TestFailed || tt.Failure == nil || tt.Failure.File != "a.cpp" || tt.Failure.Line != 7 || !strings.Contains(tt.Failure.Message, "exit code 3") {
		t.Errorf("test %+v", tt)
	}
	if !strings.Contains(out.Hint, `inside test "calls exit"`) {
		t.Errorf("hint %q", out.Hint)
	}
}

// TestCatch2ThreadSanitizer feeds a passing report and a data race on
// stderr, as TSan prints it and goes on: the test it came from fails.
func TestCatch2ThreadSanitizer(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "report.xml")
	os.WriteFile(path, []byte(`<?xml version="1.0" encoding="UTF-8"?>
<Catch name="t">
  <Group name="t">
    <TestCase name="counts in parallel" filename="/src/race.cpp" line="9">
      <OverallResult success="true" durationInSeconds="0.01"/>
    </TestCase>
    <OverallResults successes="1" failures="0" expectedFailures="0"/>
  </Group>
</Catch>
`), 0o644)
	rec := adapters.NewRecorder()
	p := newCatch2Parser(rec, "/src", dir, path)
	p.rerun = []string{"/src/t"}
	p.start()
	for _, l := range []string{
		"==================",
		"WARNING: ThreadSanitizer: data race (pid=4242)",
		"  Write of size 4 at 0x7b0400000000 by thread T2:",
		"    #0 bump() /src/race.cpp:5 (t+0x1234)",
		"SUMMARY: ThreadSanitizer: data race /src/race.cpp:5 in bump()",
		"==================",
	} {
		p.Line(adapters.Stderr, []byte(l), false)
	}
	out := p.Finish(report.Exit{Exited: true, Code: 66})
	tt, _ := adapterstest.TestByName(rec.Tests(), "counts in parallel")
	if tt.Status != report.TestFailed || tt.Failure == nil || !strings.Contains(tt.Failure.Message, "data race") {
		t.Errorf("test %+v, want failed by the race", tt)
	}
	if out.Crash != nil || !strings.Contains(out.Hint, "ThreadSanitizer reported in test") {
		t.Errorf("outcome %+v", out)
	}
}

var expectedBuild = &testutil.CachedBuild{Name: "catch2-expected", Src: mustAbs("testdata/fixtures/expected"), Sentinel: "expected",
	Build: func(dir string) error {
		if out, err := exec.Command(filepath.Join(mustAbs("testdata/fixtures/expected"), "build.sh"), dir).CombinedOutput(); err != nil {
			return fmt.Errorf("%s%w", out, err)
		}
		return nil
	}}

func mustAbs(p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		panic(err)
	}
	return a
}

// TestCatch2ExpectedFailures: Catch2 passes a [!shouldfail] test that
// fails and a [!mayfail] one either way, and fails a [!shouldfail] test
// that passes. strobe says the same, and why: that failure is no failed
// assertion but the tag, and the failures Catch2 expected are in the
// passed tests' output.
func TestCatch2ExpectedFailures(t *testing.T) {
	testutil.RequireTool(t, "g++")
	testutil.RequireHeader(t, "/usr/include/catch2/catch.hpp", "catch2")
	bin := filepath.Join(expectedBuild.Dir(t), "expected")
	rec, out, exit := adapterstest.RunReal(t, catch2{}, adapters.Request{ProjectRoot: mustAbs("testdata/fixtures/expected"), Command: []string{bin}})
	if exit.Code != 1 || out.Crash != nil {
		t.Errorf("exit %+v, crash %+v: want Catch2's 1 for the one failed test", exit, out.Crash)
	}
	want := map[string]report.TestStatus{
		"should fail and fails": report.TestPassed, "should fail but passes": report.TestFailed, "should fail and throws": report.TestPassed,
		"may fail and fails": report.TestPassed, "may fail and passes": report.TestPassed, "plain passes": report.TestPassed,
	}
	tests := rec.Tests()
	if len(tests) != len(want) {
		t.Errorf("%d tests, want %d: %+v", len(tests), len(want), tests)
	}
	for _, tt := range tests {
		if tt.Status != want[tt.Name] {
			t.Errorf("%s: %s, want %s", tt.Name, tt.Status, want[tt.Name])
		}
	}
	f := tests[1].Failure
	if f == nil || f.File != "expected.cpp" || f.Line != 12 ||
		f.Message != "tagged [!shouldfail], and no assertion failed: Catch2 fails a test that should fail when it passes" ||
		f.Rerun != shell.Join([]string{bin, "should fail but passes"}) {
		t.Errorf("should fail but passes: failure %+v", f)
	}
	for name, text := range map[string]string{
		"should fail and fails":  "failed as expected ([!shouldfail]), at expected.cpp:9:\nREQUIRE( 1 + 1 == 3 )\nwith expansion:\n  2 == 3\n",
		"should fail and throws": "failed as expected ([!shouldfail]), at expected.cpp:16:\ndue to unexpected exception with message:\n  expected trouble\n",
		"may fail and fails":     "failed as expected ([!mayfail]), at expected.cpp:21:\nCHECK( 2 * 2 == 5 )\nwith expansion:\n  4 == 5\n",
	} {
		if tt, _ := adapterstest.TestByName(tests, name); tt.Output != text {
			t.Errorf("%s: output %q, want %q", name, tt.Output, text)
		}
	}
}

var manyBuild = &testutil.CachedBuild{Name: "catch2-many", Src: mustAbs("testdata/fixtures/many"), Sentinel: "many",
	Build: func(dir string) error {
		if out, err := exec.Command(filepath.Join(mustAbs("testdata/fixtures/many"), "build.sh"), dir).CombinedOutput(); err != nil {
			return fmt.Errorf("%s%w", out, err)
		}
		return nil
	}}

// TestCatch2ManyFailures: a test goes on after a failed CHECK, and stops
// at a failed REQUIRE. Its failure is the first; the message names the
// later ones, a few, and counts the rest; later_failures keeps them all.
// A CHECK_FALSE is written as in the source and Catch2's console,
// `CHECK_FALSE( a == 1 )`: the XML's Original is negated, and it read
// `CHECK_FALSE( !(a == 1) )`, the opposite assertion (Catch2 v3's
// examples, REQUIRE_FALSE( one() == "1" )).
func TestCatch2ManyFailures(t *testing.T) {
	testutil.RequireTool(t, "g++")
	testutil.RequireHeader(t, "/usr/include/catch2/catch.hpp", "catch2")
	bin := filepath.Join(manyBuild.Dir(t), "many")
	rec, _, _ := adapterstest.RunReal(t, catch2{}, adapters.Request{ProjectRoot: mustAbs("testdata/fixtures/many"), Command: []string{bin}})
	for name, want := range map[string]string{
		"several checks": "CHECK( a == 2 )\nwith expansion:\n  1 == 2\nand 2 more failures in this test:\n" +
			"many.cpp:9: CHECK( a * 3 == 4 ) with expansion: 3 == 4\nmany.cpp:10: CHECK_FALSE( a == 1 ) with expansion: !(1 == 1)",
		"check in a loop": "CHECK( i < 0 )\nwith expansion:\n  0 < 0\nand 49 more failures in this test:\n" +
			"many.cpp:15: CHECK( i < 0 ) with expansion: 1 < 0\nmany.cpp:15: CHECK( i < 0 ) with expansion: 2 < 0\n" +
			"many.cpp:15: CHECK( i < 0 ) with expansion: 3 < 0\nmany.cpp:15: CHECK( i < 0 ) with expansion: 4 < 0\n" +
			"many.cpp:15: CHECK( i < 0 ) with expansion: 5 < 0\n(44 more: the details file's later_failures)",
		"check then require": "CHECK( 1 == 2 )\nand 1 more failure in this test:\nmany.cpp:21: REQUIRE( 3 == 4 )",
		"checks in sections": "in section first:\nCHECK( 1 == 2 )\nand 1 more failure in this test:\nmany.cpp:27: in section second: CHECK( 3 == 4 )",
	} {
		f := rec.Failure("", name)
		if f == nil || f.File != "many.cpp" || f.Message != want {
			t.Errorf("%s: failure %+v, want many.cpp and\n%s", name, f, want)
		}
	}
	f := rec.Failure("", "check in a loop")
	if f == nil || f.Line != 15 || len(f.Later) != 49 ||
		f.Later[48] != (report.LaterFailure{File: "many.cpp", Line: 15, Message: "CHECK( i < 0 )\nwith expansion:\n  49 < 0"}) {
		t.Errorf("check in a loop: later failures %+v, want all 49", f)
	}
}

// TestCatch2ManyFailuresBound: a CHECK failing 1000 times in a loop. The
// parser holds its first failure and the kit.LaterKept after it while the
// test runs (a million would hold a million), and counts the rest: the
// answer says all 999 later ones, keeps 100 and counts 899.
func TestCatch2ManyFailuresBound(t *testing.T) {
	testutil.RequireTool(t, "g++")
	testutil.RequireHeader(t, "/usr/include/catch2/catch.hpp", "catch2")
	bin := filepath.Join(manyBuild.Dir(t), "many")
	root := mustAbs("testdata/fixtures/many")
	rec, _, _ := adapterstest.RunReal(t, catch2{}, adapters.Request{ProjectRoot: root, Command: []string{bin, "check in a long loop"}})
	f := rec.Failure("", "check in a long loop")
	if f == nil || f.File != "many.cpp" || f.Line != 32 || len(f.Later) != kit.LaterKept || f.LaterOmitted != 999-kit.LaterKept ||
		f.Later[99] != (report.LaterFailure{File: "many.cpp", Line: 32, Message: "CHECK( i < 0 )\nwith expansion:\n  100 < 0"}) ||
		!strings.Contains(f.Message, "\nand 999 more failures in this test:\nmany.cpp:32: CHECK( i < 0 ) with expansion: 1 < 0\n") ||
		!strings.HasSuffix(f.Message, "\n(994 more: the details file's later_failures)") {
		t.Fatalf("failure %+v, want the first at many.cpp:32, 100 later kept and 899 counted", f)
	}
	// The binary's report up to the test's end: what the parser holds
	// while the test runs.
	xmlPath := filepath.Join(t.TempDir(), "report.xml")
	if out, err := exec.Command(bin, "-r", "xml", "-o", xmlPath, "check in a long loop").CombinedOutput(); err == nil {
		t.Fatalf("the binary passed: %s", out)
	}
	data, err := os.ReadFile(xmlPath)
	if err != nil {
		t.Fatal(err)
	}
	end := bytes.LastIndex(data, []byte("<OverallResult "))
	if end < 0 {
		t.Fatalf("no OverallResult in the report:\n%s", data)
	}
	p := newCatch2Parser(adapters.NewRecorder(), root, filepath.Dir(xmlPath), xmlPath)
	p.decode(bytes.NewReader(data[:end]))
	if p.cur == nil || p.cur.name != "check in a long loop" {
		t.Fatalf("the parser's current test %+v, want check in a long loop", p.cur)
	}
	if len(p.cur.failures) != 1+kit.LaterKept || p.cur.omitted != 999-kit.LaterKept {
		t.Errorf("the parser holds %d failures, %d counted, want the first failure and %d later ones, %d counted", len(p.cur.failures), p.cur.omitted, kit.LaterKept, 999-kit.LaterKept)
	}
}
