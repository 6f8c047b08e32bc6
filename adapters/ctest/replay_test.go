package ctest

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
	"strobe/report"
)

// TestReplay replays testdata/recorded (record.sh: real ctest 3.25 runs
// of the fixture, sequential, -j4 and a name that matches nothing) and
// checks the tests against ctest's own totals line.
func TestReplay(t *testing.T) {
	for _, name := range []string{"all", "parallel", "none"} {
		t.Run(name, func(t *testing.T) {
			base := filepath.Join("testdata", "recorded", name)
			lines := append(adapterstest.ReadLines(t, base+".stdout", adapters.Stdout), adapterstest.ReadLines(t, base+".stderr", adapters.Stderr)...)
			b, err := os.ReadFile(base + ".exit")
			if err != nil {
				t.Fatal(err)
			}
			code, _ := strconv.Atoi(strings.TrimSpace(string(b)))
			rec := adapters.NewRecorder()
			p := newParser(rec, "/src", "", base+".junit.xml")
			p.rerun = []string{"ctest", "--test-dir", "/build", "--output-on-failure"}
			out := adapterstest.Replay(p, lines, report.Exit{Exited: true, Code: code})
			adapterstest.Golden(t, "recorded/"+name, adapterstest.Normalise(rec, out, nil))

			failed, total := totals(t, base+".stdout")
			s := rec.Progress()
			if s.Failed != failed || len(rec.Tests()) != total {
				t.Errorf("recorded %d tests, %d failed; ctest said %d, %d failed", len(rec.Tests()), s.Failed, total, failed)
			}
			if total == 0 && !out.NoTests {
				t.Errorf("outcome %+v, want no tests", out)
			}
		})
	}
}

var totalsCount = regexp.MustCompile(`(?m)^\d+% tests passed, (\d+) tests? failed out of (\d+)$`)

// totals reads ctest's "N% tests passed, F tests failed out of T".
func totals(t *testing.T, path string) (failed, total int) {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m := totalsCount.FindSubmatch(b)
	if m == nil {
		return 0, 0
	}
	failed, _ = strconv.Atoi(string(m[1]))
	total, _ = strconv.Atoi(string(m[2]))
	return failed, total
}

// TestReplaySanitizer replays ctest on a GoogleTest binary built with
// -fsanitize=address (testdata/sanitizer, its README says how it was
// recorded): the test ASan stopped fails with the report's summary at its
// first frame in the project.
func TestReplaySanitizer(t *testing.T) {
	base := filepath.Join("testdata", "sanitizer", "recorded", "asan")
	lines := append(adapterstest.ReadLines(t, base+".stdout", adapters.Stdout), adapterstest.ReadLines(t, base+".stderr", adapters.Stderr)...)
	rec := adapters.NewRecorder()
	p := newParser(rec, "/src", "", base+".junit.xml")
	p.rerun = []string{"ctest", "--test-dir", "/build", "--output-on-failure"}
	out := adapterstest.Replay(p, lines, report.Exit{Exited: true, Code: 8})
	adapterstest.Golden(t, "sanitizer/asan", adapterstest.Normalise(rec, out, nil))
	f := rec.Failure("", "Asan.UsesAfterFree")
	if f == nil || f.File != "asan_test.cpp" || f.Line != 8 ||
		!strings.HasPrefix(f.Message, "AddressSanitizer: heap-use-after-free /src/asan_test.cpp:8 in read_freed()\n") || !strings.Contains(f.Message, "ERROR: AddressSanitizer: heap-use-after-free") {
		t.Errorf("failure %+v", f)
	}
	if s := rec.Progress(); s.Failed != 1 || s.Passed != 2 {
		t.Errorf("progress %+v, want 2 passed, 1 failed", s)
	}
}

// replayOne replays a run of one CTest test, named, that CTest passed,
// with output in the JUnit report as CTest wrote it.
func replayOne(t *testing.T, name, output string) (*adapters.Recorder, adapters.Outcome) {
	t.Helper()
	junit := filepath.Join(t.TempDir(), "junit.xml")
	xml := `<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="(empty)" tests="1" failures="0" disabled="0" skipped="0" hostname="" time="0" timestamp="2026-12-02T16:10:00">
	<testcase name="` + name + `" classname="` + name + `" time="0.0173598" status="run">
		<system-out>` + output + `</system-out>
	</testcase>
</testsuite>
`
	if err := os.WriteFile(junit, []byte(xml), 0o644); err != nil {
		t.Fatal(err)
	}
	var lines []adapterstest.Line
	for _, l := range []string{
		"Test project /build",
		"    Start 9: " + name,
		"1/1 Test #9: " + name + " .....................   Passed    0.02 sec",
		"",
		"100% tests passed, 0 tests failed out of 1",
		"",
		"Total Test time (real) =   0.02 sec",
	} {
		lines = append(lines, adapterstest.Line{Stream: adapters.Stdout, Text: l})
	}
	rec := adapters.NewRecorder()
	p := newParser(rec, "/src", "", junit)
	p.rerun = []string{"ctest", "--test-dir", "/build", "--output-on-failure"}
	return rec, adapterstest.Replay(p, lines, report.Exit{Exited: true})
}

// TestCutPassedOutput: CTest keeps 1,024 bytes of a passed test's output,
// and CTest 3.25 ends what it kept with "[This part of the test output
// was removed …]", where older ones said "The rest of the test output was
// removed". fmt's GoogleTest binaries, which pass, were read as binaries
// that exited inside a test: 6 failed where ctest said 100% passed.
func TestCutPassedOutput(t *testing.T) {
	rec, _ := replayOne(t, "ostream-test", `[==========] Running 20 tests from 1 test suite.
[----------] Global test environment set-up.
[----------] 20 tests from ostream_test
[ RUN      ] ostream_test.enum
[       OK ] ostream_test.enum (0 ms)
[ RUN      ] ostream_test.format_to_...
[This part of the test output was removed since it exceeds the threshold of 1024 bytes.]
`)
	if tt, ok := adapterstest.TestByName(rec.Tests(), "ostream-test"); !ok || tt.Status != report.TestPassed {
		t.Errorf("ostream-test: %+v, want passed, as ctest said", tt)
	}
}

// TestRanNoneWithoutFilter: a GoogleTest binary that CTest runs whole
// and that has no test (fmt's compile-fp-test, its tests compiled out) is
// skipped, and the hint does not blame a filter it never had.
func TestRanNoneWithoutFilter(t *testing.T) {
	rec, out := replayOne(t, "compile-fp-test", `[==========] Running 0 tests from 0 test suites.
[==========] 0 tests from 0 test suites ran. (0 ms total)
[  PASSED  ] 0 tests.
`)
	if tt, ok := adapterstest.TestByName(rec.Tests(), "compile-fp-test"); !ok || tt.Status != report.TestSkipped {
		t.Errorf("compile-fp-test: %+v, want skipped", tt)
	}
	if strings.Contains(out.Hint, "filter") && !strings.Contains(out.Hint, "no filter") || !strings.Contains(out.Hint, "has no GoogleTest test") {
		t.Errorf("hint %q, want the binary without tests, no filter blamed", out.Hint)
	}
}
