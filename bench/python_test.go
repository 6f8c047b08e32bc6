package bench

import (
	"bytes"
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
	"strobe/adapters/kit/python"
	"strobe/adapters/pytest"
	"strobe/internal/testutil"
)

// BenchmarkPytestParser measures the Python adapters' event reader (the
// file strobe's pytest plugin and unittest runner write, decoded and
// recorded) on 100,000 tests: a start and an end event each, one test in a
// hundred failing with a rewritten assertion and its captured output, one
// in a hundred skipped with its reason. An event is one line.
func BenchmarkPytestParser(b *testing.B) {
	var buf bytes.Buffer
	failed := 0
	for i := range parserTests {
		id := fmt.Sprintf("tests/test_m%02d.py::test_%05d", i%50, i)
		fmt.Fprintf(&buf, `{"ev":"start","id":"%s","file":"tests/test_m%02d.py","line":%d}`+"\n", id, i%50, 3+i%400)
		switch i % 100 {
		case 7:
			failed++
			fmt.Fprintf(&buf, `{"ev":"end","id":"%s","status":"failed","dur":0.000412,"when":"call","msg":"assert 8 == 9\n +  where 8 = double(4)","type":"AssertionError","file":"tests/test_m%02d.py","line":%d,"out":"connecting\nretrying\n"}`+"\n", id, i%50, 4+i%400)
		case 9:
			fmt.Fprintf(&buf, `{"ev":"end","id":"%s","status":"skipped","dur":0.000101,"reason":"needs a GPU"}`+"\n", id)
		default:
			fmt.Fprintf(&buf, `{"ev":"end","id":"%s","status":"passed","dur":0.000254}`+"\n", id)
		}
	}
	events := 2 * parserTests
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var rec *adapters.Recorder
	for b.Loop() {
		rec = adapters.NewRecorder()
		m := &python.Mapper{Rec: rec, Rerun: func(id string) string { return "python3 -m pytest " + id }}
		python.Read(bytes.NewReader(data), m)
	}
	rate := float64(events) * float64(b.N) / b.Elapsed().Seconds()
	b.ReportMetric(rate, "events/s")
	if got := rec.Progress(); got.Failed != failed || got.Passed+got.Failed+got.Skipped != parserTests {
		b.Errorf("recorded %+v, want %d tests, %d failed", got, parserTests, failed)
	}
	verdict := "met"
	if rate < parserTarget {
		verdict = "MISSED"
	}
	record(b, "%.0f events/s (%d events, %.1f MB; target >= %d: %s)", rate, events, float64(len(data))/1e6, parserTarget, verdict)
}

// BenchmarkPytestOverhead measures what strobe's pytest plugin and parser
// cost over `python3 -m pytest -q` on a generated suite of 2,000 passing
// tests (20 modules of 100), run alternately overheadRounds times after a
// warm-up, as the ratio of median wall times (and the median of each
// round's ratio). "plugin" runs the adapter's plan (python3 -m pytest -p
// strobe_plugin) with its output and events read by the parser in this
// process, as the runner reads them (planOverhead); the fixed cost of
// `strobe test` itself is BenchmarkOverhead's strobe-noop.
func BenchmarkPytestOverhead(b *testing.B) {
	py := testutil.RequireTool(b, "python3")
	if err := exec.Command(py, "-c", "import pytest").Run(); err != nil {
		b.Skip("python3 cannot import pytest")
	}
	dir := b.TempDir()
	for m := range 20 {
		var src strings.Builder
		for t := range 100 {
			fmt.Fprintf(&src, "def test_%03d():\n    assert sum(range(%d)) == %d\n\n\n", t, t, t*(t-1)/2)
		}
		adapterstest.WriteFiles(b, dir, map[string]string{fmt.Sprintf("tests/test_mod%02d.py", m): src.String()})
	}
	adapterstest.WriteFiles(b, dir, map[string]string{"pytest.ini": "[pytest]\n"})

	planOverhead(b, planCase{dir: dir, adapter: pytest.New(), raw: []string{py, "-m", "pytest", "-q"}, tests: 2000, what: "plugin"})
}
