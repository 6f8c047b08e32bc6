package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"strobe/report"
)

func TestRenderCrashOrStop(t *testing.T) {
	type testCase struct {
		name   string
		crash  report.Crash
		want   []string
		unwant []string
	}
	for _, tc := range []testCase{
		{
			name:   "stuck run stopped by strobe",
			crash:  report.Crash{Type: report.CrashStopped, StoppedBy: report.StoppedStuck, ExitCode: 143, RunningTests: []string{"TestSpin"}},
			want:   []string{"stopped by strobe: stuck while running TestSpin"},
			unwant: []string{"crash:", "SIGTERM", "exit 143"},
		},
		{
			name:  "segfault",
			crash: report.Crash{Type: report.CrashSegmentationFault, Signal: 11, SignalName: "SIGSEGV", ExitCode: 139},
			want:  []string{"crash: segmentation_fault (SIGSEGV, exit 139)"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			c := tc.crash
			render(&b, &report.Response{Status: report.Stuck, Crash: &c}, palette{})
			out := b.String()
			for _, s := range tc.want {
				if !strings.Contains(out, s) {
					t.Errorf("output lacks %q:\n%s", s, out)
				}
			}
			for _, s := range tc.unwant {
				if strings.Contains(out, s) {
					t.Errorf("output has %q:\n%s", s, out)
				}
			}
		})
	}
}

// TestRenderTimedOutEntry: at a timeout the stuck[] entries are the tests
// that were running, with their stacks; the terminal said "stuck after"
// beside a summary that counts none stuck (a slow test that printed as it
// went).
func TestRenderTimedOutEntry(t *testing.T) {
	for _, tc := range []struct {
		status report.Status
		want   string
	}{
		{report.Stuck, "⧗ TestSlow stuck after 4.9s"},
		{report.Timeout, "⧗ TestSlow still running after 4.9s"},
	} {
		var b strings.Builder
		render(&b, &report.Response{Status: tc.status, Stuck: []report.StuckTest{{Name: "TestSlow", ElapsedMS: 4900, Diagnosis: "no verdict before the 5s timeout"}}}, palette{})
		if !strings.Contains(b.String(), tc.want) {
			t.Errorf("%s: output lacks %q:\n%s", tc.status, tc.want, b.String())
		}
	}
}

// A stuck thread's stack shows its top frames and, deeper down, the stuck
// test's own frame; other stacks are cut as before.
func TestStackLinesKeepTheTestsFrame(t *testing.T) {
	latch := []string{
		"jdk.internal.misc.Unsafe.park(Native Method)",
		"java.util.concurrent.locks.LockSupport.park(LockSupport.java:211)",
		"java.util.concurrent.locks.AbstractQueuedSynchronizer.acquire(AbstractQueuedSynchronizer.java:715)",
		"java.util.concurrent.locks.AbstractQueuedSynchronizer.acquireSharedInterruptibly(AbstractQueuedSynchronizer.java:1047)",
		"java.util.concurrent.CountDownLatch.await(CountDownLatch.java:230)",
		"jdk.internal.reflect.Something.awaitHelper(Something.java:10)",
		"org.example.LatchTest.waitsForever(LatchTest.java:14)",
		"java.base/jdk.internal.reflect.DirectMethodHandleAccessor.invoke(DirectMethodHandleAccessor.java:103)",
		"org.junit.platform.commons.util.ReflectionUtils.invokeMethod(ReflectionUtils.java:728)",
	}
	for _, tc := range []struct {
		test  string
		stack []string
		want  []string
	}{
		{"org.example.LatchTest#waitsForever()", latch, append(append([]string{}, latch[:5]...),
			"… 1 frame", latch[6], "… 2 more frames")},
		{"org.example.LatchTest#waitsForever", latch[:7], append(append([]string{}, latch[:5]...), "… 1 frame", latch[6])},
		// A test named nowhere below: cut as before.
		{"org.example.LatchTest#other", latch, append(append([]string{}, latch[:5]...), "… 4 more frames")},
		// A part of a word is not the test's name.
		{"org.example.LatchTest#await", latch, append(append([]string{}, latch[:5]...), "… 4 more frames")},
		{"short", latch[:3], latch[:3]},
	} {
		if got := stackLines(tc.stack, tc.test); !slices.Equal(got, tc.want) {
			t.Errorf("stackLines(%s):\n%s\nwant:\n%s", tc.test, strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
		}
	}
	for test, want := range map[string]string{
		"org.example.LatchTest#waitsForever()":          "waitsForever",
		"tests/test_hang.py::TestC::test_waits[fast-1]": "test_waits",
		"tests::hangs":          "hangs",
		"TestDeadlock/sub_case": "TestDeadlock",
		"Scenario: it waits":    "",
		"adds numbers":          "",
		"HangSuite.Waits":       "Waits",
	} {
		if got := testFunc(test); got != want {
			t.Errorf("testFunc(%q) = %q, want %q", test, got, want)
		}
	}
}

// The head's counts add up to the tests that ran: stuck ones too.
func TestRenderCountsStuck(t *testing.T) {
	var b strings.Builder
	render(&b, &report.Response{Status: report.Stuck, Framework: "go", Summary: &report.Summary{Passed: 1, Stuck: 2, Skipped: 1}}, palette{})
	if head, _, _ := strings.Cut(b.String(), "\n"); !strings.Contains(head, "1 passed, 0 failed, 2 stuck, 1 skipped") {
		t.Errorf("head %q: want the stuck tests counted", head)
	}
}

// TestPastedHere: strobe pointed at another directory (`strobe test
// tests/`) prints reruns that start with a cd to it: pasted where strobe
// ran, pytest's said "file or directory not found". The response itself
// keeps them as they are, to be run in the project root.
func TestPastedHere(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	resp := &report.Response{
		Failures: []report.Failure{{Name: "t", Rerun: "python -m pytest test_a.py::test_one"}, {Name: "u"}},
		Stuck:    []report.StuckTest{{Name: "s", Rerun: "python -m pytest test_a.py::test_s"}},
	}
	got := pastedHere(resp, filepath.Join(wd, "my tests"))
	if f := got.Failures[0].Rerun; f != "cd 'my tests' && python -m pytest test_a.py::test_one" {
		t.Errorf("rerun %q", f)
	}
	if got.Failures[1].Rerun != "" || got.Stuck[0].Rerun != "cd 'my tests' && python -m pytest test_a.py::test_s" {
		t.Errorf("failures %+v, stuck %+v", got.Failures, got.Stuck)
	}
	if resp.Failures[0].Rerun != "python -m pytest test_a.py::test_one" {
		t.Errorf("the response's own rerun changed: %q", resp.Failures[0].Rerun)
	}
	if same := pastedHere(resp, wd); same != resp {
		t.Errorf("strobe run in the project root: the reruns changed")
	}
}
