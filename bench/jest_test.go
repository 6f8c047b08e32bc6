package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
	"strobe/adapters/jest"
	"strobe/internal/testutil"
	"strobe/report"
)

// jestFixtures is where the jest adapter's tests install jest (npm ci);
// the benchmarks use that install.
var jestFixtures = filepath.Join(testutil.Root(), "adapters", "jest", "testdata", "fixtures")

// BenchmarkJestParser measures the jest adapter's parser on its reporter's
// events for 100,000 tests in 100 files: per file a file event, per test a
// start and an end; one test in a hundred fails (a toBe message with its
// location), one in a hundred is skipped. The events file is written
// beforehand and moved into place under the timer; Finish returns once the
// tailing decoder has read it all. An event is one JSON line.
func BenchmarkJestParser(b *testing.B) {
	root := b.TempDir()
	adapterstest.WriteFiles(b, root, map[string]string{
		"package.json":             `{"devDependencies":{"jest":"29.7.0"}}`,
		"package-lock.json":        "{}",
		"node_modules/.bin/jest":   "#!/bin/sh\n",
		"node_modules/jest/x.json": "{}",
	})
	var buf strings.Builder
	events, failed := 0, 0
	fmt.Fprintf(&buf, `{"ev":"run","total":100,"version":"29.7.0"}`+"\n")
	for f := range 100 {
		file := fmt.Sprintf("%s/src/m%03d.test.js", root, f)
		fmt.Fprintf(&buf, `{"ev":"file","file":%q}`+"\n", file)
		events++
		for i := range parserTests / 100 {
			name := fmt.Sprintf("module %d › case %d", f, i)
			fmt.Fprintf(&buf, `{"ev":"start","file":%q,"name":%q}`+"\n", file, name)
			switch {
			case i%100 == 7:
				failed++
				fmt.Fprintf(&buf, `{"ev":"end","file":%q,"name":%q,"status":"failed","ms":2,"msg":"Error: expect(received).toBe(expected) // Object.is equality\n\nExpected: %d\nReceived: %d","at":{"file":%q,"line":%d,"col":17}}`+"\n", file, name, i, i+1, file, 10+i)
			case i%100 == 8:
				fmt.Fprintf(&buf, `{"ev":"end","file":%q,"name":%q,"status":"skipped","ms":0}`+"\n", file, name)
			default:
				fmt.Fprintf(&buf, `{"ev":"end","file":%q,"name":%q,"status":"passed","ms":1}`+"\n", file, name)
			}
			events += 2
		}
	}
	buf.WriteString(`{"ev":"done","passed":98000,"failed":1000,"skipped":1000,"todo":0,"suitesFailed":0,"interrupted":false}` + "\n")
	events += 2
	data := []byte(buf.String())
	staged := filepath.Join(root, "staged.jsonl")
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var rec *adapters.Recorder
	for b.Loop() {
		b.StopTimer()
		if err := os.WriteFile(staged, data, 0o600); err != nil {
			b.Fatal(err)
		}
		rec = adapters.NewRecorder()
		plan, err := jest.New().Plan(context.Background(), adapters.Request{ProjectRoot: root}, rec)
		if err != nil {
			b.Fatal(err)
		}
		var eventsPath string
		for _, kv := range plan.Env {
			if v, ok := strings.CutPrefix(kv, "STROBE_JEST_EVENTS="); ok {
				eventsPath = v
			}
		}
		b.StartTimer()
		if err := os.Rename(staged, eventsPath); err != nil {
			b.Fatal(err)
		}
		plan.Parser.Finish(report.Exit{Exited: true, Code: 1})
		b.StopTimer()
		plan.Parser.(adapters.Closer).Close()
		b.StartTimer()
	}
	elapsed := b.Elapsed()
	rate := float64(events) * float64(b.N) / elapsed.Seconds()
	b.ReportMetric(rate, "events/s")
	p := rec.Progress()
	if p.Passed+p.Failed+p.Skipped != parserTests || p.Failed != failed {
		b.Errorf("parser recorded %+v; want %d tests, %d failed", p, parserTests, failed)
	}
	verdict := "met"
	if rate < parserTarget {
		verdict = "MISSED"
	}
	record(b, "%.0f events/s (%d events, %.1f MB, %.0f ns/event; target >= %d: %s)",
		rate, events, float64(len(data))/1e6, float64(elapsed.Nanoseconds())/float64(events*b.N), parserTarget, verdict)
}

// BenchmarkJestOverhead measures what strobe's jest adapter costs over
// plain jest on a generated suite of 2,000 passing tests (20 files of 100):
// "raw" is `node_modules/.bin/jest --ci` with jest's own reporter, its
// output to /dev/null; "strobe" is the adapter's plan (strobe's reporter,
// --testLocationInResults, the events file tailed and parsed) run in
// process the way the runner runs it, lines of both streams to the parser
// (planOverhead). They run alternately after a warm-up of each (jest's
// transform cache and timings filled); "ratio" is of the medians. The
// daemon's fixed cost (BenchmarkFixedCost) is not in it: this is the
// reporter's and the parser's share.
func BenchmarkJestOverhead(b *testing.B) {
	testutil.RequireTool(b, "node")
	adapterstest.NpmCI(b, jestFixtures)
	root := b.TempDir()
	files := map[string]string{"package.json": `{"name":"gen","private":true,"devDependencies":{"jest":"29.7.0"}}`}
	for f := range 20 {
		var s strings.Builder
		fmt.Fprintf(&s, "describe('module %d', () => {\n", f)
		for i := range 100 {
			fmt.Fprintf(&s, "  test('case %d', () => {\n    expect(%d + 1).toBe(%d);\n  });\n", i, i, i+1)
		}
		s.WriteString("});\n")
		files[fmt.Sprintf("src/m%02d.test.js", f)] = s.String()
	}
	adapterstest.WriteFiles(b, root, files)
	if err := os.Symlink(filepath.Join(jestFixtures, "node_modules"), filepath.Join(root, "node_modules")); err != nil {
		b.Fatal(err)
	}
	planOverhead(b, planCase{dir: root, adapter: jest.New(), raw: []string{filepath.Join(root, "node_modules", ".bin", "jest"), "--ci"}, tests: 2000, ratio: "ratio"})
}
