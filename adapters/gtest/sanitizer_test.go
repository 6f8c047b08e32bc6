package gtest

import (
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
	"strobe/report"
)

// TestSanitizers runs the fixture's binaries built with -fsanitize: the
// test that produced the report fails with the sanitizer's summary at the
// report's first frame in the project; a report that stopped the binary
// is the crash; the tests before it pass.
func TestSanitizers(t *testing.T) {
	for _, tc := range []struct {
		bin      string
		exit     int
		test     string
		file     string
		line     int
		message  []string // parts of the failure's message, in order
		crash    string   // the crash's indicator, "" for none
		passed   []string
		notRun   string
		hintPart string
	}{
		{bin: "asan_test", exit: 1, test: "Asan.UsesAfterFree", file: "asan_test.cpp", line: 8,
			message: []string{"AddressSanitizer: heap-use-after-free", "asan_test.cpp:8 in read_freed()", "READ of size 4", "at read_freed() asan_test.cpp:8", "freed by thread T0 here:", "at read_freed() asan_test.cpp:7", "previously allocated", "at read_freed() asan_test.cpp:6"},
			crash:   "address_sanitizer", passed: []string{"Asan.PassesFirst"}, notRun: "Asan.NeverRuns",
			hintPart: `AddressSanitizer stopped the binary in test "Asan.UsesAfterFree" at asan_test.cpp:8`},
		{bin: "ubsan_test", exit: 1, test: "Ubsan.Overflows", file: "ubsan_test.cpp", line: 9,
			message: []string{"UndefinedBehaviorSanitizer: signed integer overflow: 2147483647 + 1 cannot be represented in type 'int'", "runtime error"},
			crash:   "undefined_behavior_sanitizer", passed: []string{"Ubsan.PassesFirst"}, notRun: "Ubsan.RunsAfter"},
		// Recoverable: the report is printed, the test goes on and passes
		// as far as GoogleTest knows, the binary exits 0.
		{bin: "ubsan_recover_test", exit: 0, test: "Ubsan.Overflows", file: "ubsan_test.cpp", line: 9,
			message:  []string{"UndefinedBehaviorSanitizer: signed integer overflow"},
			passed:   []string{"Ubsan.PassesFirst", "Ubsan.RunsAfter"},
			hintPart: `UndefinedBehaviorSanitizer reported in test "Ubsan.Overflows" at ubsan_test.cpp:9`},
	} {
		t.Run(tc.bin, func(t *testing.T) {
			rec, out, exit := run(t, tc.bin, adapters.Request{})
			if !exit.Exited || exit.Code != tc.exit {
				t.Errorf("exit %+v, want code %d", exit, tc.exit)
			}
			tests := rec.Tests()
			tt, ok := adapterstest.TestByName(tests, tc.test)
			f := tt.Failure
			if !ok || tt.Status != report.TestFailed || f == nil || f.File != tc.file || f.Line != tc.line {
				t.Fatalf("%s: %+v (failure %+v), want failed at %s:%d", tc.test, tt, f, tc.file, tc.line)
			}
			at := 0
			for _, want := range tc.message {
				i := strings.Index(f.Message[at:], want)
				if i < 0 {
					t.Fatalf("message lacks %q after offset %d:\n%s", want, at, f.Message)
				}
				at += i
			}
			if !strings.HasSuffix(f.Rerun, "--gtest_filter="+tc.test) {
				t.Errorf("rerun %q", f.Rerun)
			}
			if !strings.Contains(tt.Output, "runtime error") && !strings.Contains(tt.Output, "ERROR: AddressSanitizer") {
				t.Errorf("the test's output lacks the report: %q", tt.Output)
			}
			for _, name := range tc.passed {
				if p, ok := adapterstest.TestByName(tests, name); !ok || p.Status != report.TestPassed {
					t.Errorf("%s: %+v, want passed", name, p)
				}
			}
			if tc.notRun != "" {
				if _, ok := adapterstest.TestByName(tests, tc.notRun); ok {
					t.Errorf("%s recorded, but the binary died before it", tc.notRun)
				}
			}
			switch c := out.Crash; {
			case tc.crash == "" && c != nil:
				t.Errorf("crash %+v, want none", c)
			case tc.crash != "" && (c == nil || len(c.Indicators) != 1 || c.Indicators[0] != tc.crash ||
				len(c.RunningTests) != 1 || c.RunningTests[0] != tc.test || !strings.HasPrefix(c.Message, strings.SplitN(tc.message[0], ":", 2)[0])):
				t.Errorf("crash %+v, want %s in %s", c, tc.crash, tc.test)
			case tc.crash != "" && c.Type != report.CrashSanitizer:
				// No signal: the sanitizer's own stop, not "unknown".
				t.Errorf("crash type %q, want %q", c.Type, report.CrashSanitizer)
			}
			if !strings.Contains(out.Hint, tc.hintPart) {
				t.Errorf("hint %q lacks %q", out.Hint, tc.hintPart)
			}
		})
	}
}

func TestGTestClass(t *testing.T) {
	for name, want := range map[string]string{
		"Ubsan.Overflows":                 "Ubsan_Overflows_Test",
		"Small/IntegrationParam.IsEven/1": "IntegrationParam_IsEven_Test",
		"UnitTyped/1.DefaultIsZero":       "UnitTyped_DefaultIsZero_Test",
		"NoDot":                           "",
	} {
		if got := gtestClass(name); got != want {
			t.Errorf("gtestClass(%q) = %q, want %q", name, got, want)
		}
	}
}

// TestSanitizerReportBeforeItsRunLine replays the asan binary's real output
// in an order the two pipes can give it: the report's first lines read
// while the test before is still current (its OK line and the next RUN
// line not read yet). The report is still the dying test's failure, and
// that test's output still has the report's head.
func TestSanitizerReportBeforeItsRunLine(t *testing.T) {
	dir := bins(t)
	cmd := exec.Command(filepath.Join(dir, "asan_test"))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.Run()
	exit := report.Exit{Exited: true, Code: cmd.ProcessState.ExitCode()}
	out := strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n")
	errs := strings.Split(strings.TrimSuffix(stderr.String(), "\n"), "\n")
	head := slices.IndexFunc(errs, func(l string) bool { return strings.Contains(l, "ERROR: AddressSanitizer") })
	run := slices.IndexFunc(out, func(l string) bool { return strings.HasPrefix(l, "[ RUN      ] Asan.PassesFirst") })
	if head < 0 || run < 0 {
		t.Fatalf("the binary's output changed:\n%s\n%s", stdout.String(), stderr.String())
	}
	rec := adapters.NewRecorder()
	plan, err := gtest{}.Plan(context.Background(), adapters.Request{ProjectRoot: fixtureRoot(t), Command: []string{filepath.Join(dir, "asan_test")}}, rec)
	if err != nil {
		t.Fatal(err)
	}
	feed := func(s adapters.Stream, lines []string) {
		for _, l := range lines {
			plan.Parser.Line(s, []byte(l), false)
		}
	}
	feed(adapters.Stdout, out[:run+1])   // up to PassesFirst's RUN line
	feed(adapters.Stderr, errs[:head+2]) // the report's head, PassesFirst still current
	feed(adapters.Stdout, out[run+1:])   // PassesFirst's OK, UsesAfterFree's RUN
	feed(adapters.Stderr, errs[head+2:]) // the rest of the report
	plan.Parser.Finish(exit)
	tt, ok := adapterstest.TestByName(rec.Tests(), "Asan.UsesAfterFree")
	if !ok || tt.Status != report.TestFailed || tt.Failure == nil || tt.Failure.Line != 8 {
		t.Fatalf("Asan.UsesAfterFree: %+v, want failed at asan_test.cpp:8", tt)
	}
	if !strings.Contains(tt.Output, "ERROR: AddressSanitizer: heap-use-after-free") {
		t.Errorf("the dying test's output lacks the report's head:\n%s", tt.Output)
	}
	if p, _ := adapterstest.TestByName(rec.Tests(), "Asan.PassesFirst"); p.Status != report.TestPassed {
		t.Errorf("Asan.PassesFirst: %+v, want passed", p)
	}
}
