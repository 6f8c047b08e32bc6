package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
	"strobe/adapters/kit/node"
	"strobe/adapters/mocha"
	"strobe/adapters/nodetest"
	"strobe/internal/testutil"
	"strobe/report"
)

// BenchmarkNodeEventsParser measures node.Events, the parser of strobe's
// JavaScript reporters, on the lines its node:test reporter writes for
// 100,000 tests in 100 files: an end line per test (node's reporter sends
// a start only for a test still running 20 ms later), one in a hundred
// failing with an assertion's message, expected and actual, one in a
// hundred skipped, one in ten with a line of output. An event is a line.
func BenchmarkNodeEventsParser(b *testing.B) {
	lines, failed := jsEvents(parserTests, false)
	benchEvents(b, "node:test", lines, failed)
}

// BenchmarkMochaEventsParser is the same for mocha's reporter, which also
// writes a start line before every test.
func BenchmarkMochaEventsParser(b *testing.B) {
	lines, failed := jsEvents(parserTests, true)
	benchEvents(b, "mocha", lines, failed)
}

// jsEvents writes the reporter lines for n tests, and says how many fail.
func jsEvents(n int, starts bool) (lines []string, failed int) {
	lines = append(lines, `{"e":"begin","node":"v20.20.2"}`)
	for i := range n {
		file := fmt.Sprintf("/p/test/f%03d.test.js", i%100)
		name := fmt.Sprintf("suite %d › adds %d and %d", i/100, i, i+1)
		if starts {
			lines = append(lines, fmt.Sprintf(`{"e":"start","file":%q,"name":%q,"line":%d}`, file, name, 10+i%50))
		}
		if i%10 == 0 {
			lines = append(lines, fmt.Sprintf(`{"e":"out","file":%q,"name":%q,"stream":"stdout","text":"computing %d\n"}`, file, name, i))
		}
		switch i % 100 {
		case 1:
			failed++
			lines = append(lines, fmt.Sprintf(`{"e":"end","file":%q,"name":%q,"line":%d,"ms":0.4,"status":"failed","fail":{"kind":"testCodeFailure","message":"Expected values to be strictly equal:\n\n%d !== %d\n","expected":"%d","actual":"%d","file":%q,"line":%d}}`, file, name, 10+i%50, i, i+1, i+1, i, file, 12+i%50))
		case 2:
			lines = append(lines, fmt.Sprintf(`{"e":"end","file":%q,"name":%q,"line":%d,"ms":0.1,"status":"skipped"}`, file, name, 10+i%50))
		default:
			lines = append(lines, fmt.Sprintf(`{"e":"end","file":%q,"name":%q,"line":%d,"ms":0.31,"status":"passed"}`, file, name, 10+i%50))
		}
	}
	lines = append(lines, fmt.Sprintf(`{"e":"summary","counts":{"tests":%d}}`, n), `{"e":"done"}`)
	return lines, failed
}

// benchEvents times node.Events from the start of its reader to the end
// of Finish, over a file already written: the reader's polling, decoding
// and recording, through the public API.
func benchEvents(b *testing.B, framework string, lines []string, wantFailed int) {
	path := filepath.Join(b.TempDir(), "events.jsonl")
	text := strings.Join(lines, "\n") + "\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	var rec *adapters.Recorder
	cpu0 := cpuTime()
	for b.Loop() {
		rec = adapters.NewRecorder()
		e := node.NewEvents(rec, node.EventsConfig{Framework: framework, Root: "/p", Rerun: func(file, test string) string { return "node --test " + file }}, "", path)
		e.Finish(report.Exit{Exited: true, Code: 1})
		e.Close()
	}
	cpu := cpuTime() - cpu0
	rate := float64(len(lines)) * float64(b.N) / b.Elapsed().Seconds()
	// On a machine shared with other work the wall rate drops with the
	// CPU the benchmark gets; the rate per CPU second says what the parser
	// costs.
	cpuRate := float64(len(lines)) * float64(b.N) / cpu.Seconds()
	b.ReportMetric(rate, "events/s")
	b.ReportMetric(cpuRate, "events/cpu-s")
	p := rec.Progress()
	if p.Passed+p.Failed+p.Skipped != parserTests || p.Failed != wantFailed {
		b.Errorf("parser recorded %+v; want %d tests, %d failed", p, parserTests, wantFailed)
	}
	verdict := "met"
	if rate < parserTarget {
		verdict = "MISSED"
	}
	record(b, "%.0f events/s, %.0f per CPU second (%d events, %.1f MB, %.0f ns/event, load %s; target >= %d: %s)",
		rate, cpuRate, len(lines), float64(len(text))/1e6, float64(b.Elapsed().Nanoseconds())/float64(len(lines)*b.N), loadavg(), parserTarget, verdict)
}

// BenchmarkJSOverhead measures what strobe's node:test and mocha adapters
// cost over the command a user types, on a generated suite of 2,000
// passing tests (20 files of 100, in describe blocks), as the ratio of the
// median wall times of the two run alternately (and the median of each
// round's ratio). "raw" is `node --test` or `mocha` with its output to
// /dev/null; "strobe" is the adapter's plan run as the runner runs it (its
// pipes read line by line into the parser, the reporter's file tailed),
// through Finish and Close (planOverhead).
func BenchmarkJSOverhead(b *testing.B) {
	b.Run("node", func(b *testing.B) {
		testutil.RequireTool(b, "node")
		dir := jsSuite(b, "test/f%02d.test.js", "const { describe, it } = require('node:test');\nconst assert = require('node:assert');\n", `{"name":"bench","private":true,"scripts":{"test":"node --test"}}`)
		planOverhead(b, planCase{dir: dir, adapter: nodetest.New(), raw: []string{"node", "--test"}, tests: 2000})
	})
	b.Run("mocha", func(b *testing.B) {
		testutil.RequireTool(b, "node")
		fixture := filepath.Join(testutil.Root(), "adapters", "mocha", "testdata", "fixtures", "mocha")
		adapterstest.NpmCI(b, fixture)
		dir := jsSuite(b, "test/f%02d.spec.js", "const assert = require('node:assert');\n", `{"name":"bench","private":true,"scripts":{"test":"mocha"},"devDependencies":{"mocha":"11.7.5"}}`)
		if err := os.Symlink(filepath.Join(fixture, "node_modules"), filepath.Join(dir, "node_modules")); err != nil {
			b.Fatal(err)
		}
		planOverhead(b, planCase{dir: dir, adapter: mocha.New(), raw: []string{filepath.Join(dir, "node_modules", ".bin", "mocha")}, tests: 2000})
	})
}

// jsSuite writes 20 test files of 100 passing tests each.
func jsSuite(b *testing.B, name, head, pkg string) string {
	dir := b.TempDir()
	files := map[string]string{"package.json": pkg + "\n"}
	for f := range 20 {
		var src strings.Builder
		src.WriteString(head)
		fmt.Fprintf(&src, "\ndescribe('file %d', () => {\n", f)
		for t := range 100 {
			fmt.Fprintf(&src, "  it('adds %d', () => {\n    assert.strictEqual(%d + %d, %d);\n  });\n", t, f, t, f+t)
		}
		src.WriteString("});\n")
		files[fmt.Sprintf(name, f)] = src.String()
	}
	adapterstest.WriteFiles(b, dir, files)
	return dir
}
