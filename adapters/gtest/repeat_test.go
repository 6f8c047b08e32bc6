package gtest

import (
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
	"strobe/internal/shell"
	"strobe/report"
)

// TestRepeat runs a binary with --gtest_repeat=3: each test is one test,
// failed if any iteration failed (GoogleTest exits 1 for it), and the
// message says in which iterations it failed.
func TestRepeat(t *testing.T) {
	dir := bins(t)
	rec, _, exit := adapterstest.RunReal(t, gtest{}, adapters.Request{ProjectRoot: fixtureRoot(t),
		Command: []string{dir + "/repeat_test", "--gtest_repeat=3"}})
	if exit.Code != 1 {
		t.Errorf("exit %+v, want 1", exit)
	}
	tests := rec.Tests()
	if len(tests) != 4 {
		t.Errorf("recorded %d tests, want 4: %+v", len(tests), tests)
	}
	for _, tc := range []struct {
		name    string
		status  report.TestStatus
		message string // a part of the failure's message, or of a skipped test's output
	}{
		{"Flaky.FailsOnSecondRun", report.TestFailed, "failed in 1 of 3 iterations (--gtest_repeat): iteration 2, passed in the others; the failure shown is iteration 2's\nExpected: (runs) != (2), actual: 2 vs 2\nrun 2"},
		{"Stable.Passes", report.TestPassed, ""},
		{"Skip.WithMessage", report.TestSkipped, "needs a GPU"},
		{"Death.WrongRegex", report.TestFailed, "failed in all 3 iterations (--gtest_repeat)\nDeath test: outOfMemory()\n    Result: died but not with expected error.\n  Expected: contains regular expression \"segmentation fault\"\nActual msg:\n[  DEATH   ] fatal: out of memory"},
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
		if f := tt.Failure; f == nil || f.File != "repeat_test.cpp" || !strings.Contains(f.Message, tc.message) {
			t.Errorf("%s: failure %+v, want repeat_test.cpp with %q", tc.name, f, tc.message)
		}
	}
}

// TestShuffle runs a binary with --gtest_shuffle: the rerun keeps the
// seed GoogleTest printed, and the hint says how to run the same order.
func TestShuffle(t *testing.T) {
	dir := bins(t)
	rec, out, _ := adapterstest.RunReal(t, gtest{}, adapters.Request{ProjectRoot: fixtureRoot(t),
		Command: []string{dir + "/repeat_test", "--gtest_shuffle"}})
	f := rec.Failure("", "Death.WrongRegex")
	m := regexp.MustCompile(`--gtest_shuffle --gtest_random_seed=(\d+) --gtest_filter=Death\.WrongRegex$`).FindStringSubmatch(f.Rerun)
	if m == nil {
		t.Fatalf("rerun %q, want the seed kept", f.Rerun)
	}
	if !strings.Contains(out.Hint, "the reruns keep --gtest_random_seed="+m[1]) {
		t.Errorf("hint %q, want the seed %s", out.Hint, m[1])
	}
	// The whole binary in the same order: the command with the seed.
	want := shell.Join([]string{dir + "/repeat_test", "--gtest_shuffle", "--gtest_random_seed=" + m[1]})
	if out.Shuffle == nil || out.Shuffle.Seed != m[1] || out.Shuffle.Command != want {
		t.Fatalf("shuffle %+v, want seed %s and %s", out.Shuffle, m[1], want)
	}
	again, _ := exec.Command("sh", "-c", out.Shuffle.Command).CombinedOutput()
	var order []string
	for _, tt := range rec.Tests() {
		order = append(order, tt.Name)
	}
	runs := regexp.MustCompile(`(?m)^\[ RUN      \] (\S+)$`).FindAllStringSubmatch(string(again), -1)
	var got []string
	for _, r := range runs {
		got = append(got, r[1])
	}
	if !slices.Equal(got, order) {
		t.Errorf("%s ran %v, want the run's order %v", out.Shuffle.Command, got, order)
	}
}
