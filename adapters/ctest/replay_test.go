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
