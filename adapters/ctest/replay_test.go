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
