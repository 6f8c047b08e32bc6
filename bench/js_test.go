package bench

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"strobe/adapters"
	"strobe/adapters/kit/node"
	"strobe/adapters/mocha"
	"strobe/adapters/nodetest"
	"strobe/internal/testutil"
	"strobe/report"
)

// The JavaScript adapters (node:test, mocha) are not in adapters/all yet:
// these benchmarks plan and run them directly, so strobe's figure here is
// the adapter's (its command, its reporter, its parser), without the
// runner's fixed cost that strobe-noop measures for the others.

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
// through Finish and Close.
func BenchmarkJSOverhead(b *testing.B) {
	b.Run("node", func(b *testing.B) {
		testutil.RequireTool(b, "node")
		dir := jsSuite(b, "test/f%02d.test.js", "const { describe, it } = require('node:test');\nconst assert = require('node:assert');\n", `{"name":"bench","private":true,"scripts":{"test":"node --test"}}`)
		jsOverhead(b, dir, nodetest.New(), []string{"node", "--test"})
	})
	b.Run("mocha", func(b *testing.B) {
		testutil.RequireTool(b, "node")
		fixture := filepath.Join(testutil.Root(), "adapters", "mocha", "testdata", "fixtures", "mocha")
		if _, err := os.Stat(filepath.Join(fixture, "node_modules", ".bin", "mocha")); err != nil {
			testutil.RequireTool(b, "npm")
			cmd := exec.Command("npm", "ci", "--no-audit", "--no-fund")
			cmd.Dir = fixture
			if out, err := cmd.CombinedOutput(); err != nil {
				b.Fatalf("npm ci: %v\n%s", err, out)
			}
		}
		dir := jsSuite(b, "test/f%02d.spec.js", "const assert = require('node:assert');\n", `{"name":"bench","private":true,"scripts":{"test":"mocha"},"devDependencies":{"mocha":"11.7.5"}}`)
		if err := os.Symlink(filepath.Join(fixture, "node_modules"), filepath.Join(dir, "node_modules")); err != nil {
			b.Fatal(err)
		}
		jsOverhead(b, dir, mocha.New(), []string{filepath.Join(dir, "node_modules", ".bin", "mocha")})
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
	writeFiles(b, dir, files)
	return dir
}

func jsOverhead(b *testing.B, dir string, a adapters.Adapter, raw []string) {
	const tests = 2000
	var rawCPU, strobeCPU []time.Duration
	runRaw := func() time.Duration {
		r, err := timed(dir, nil, false, raw...)
		if err != nil || r.exitCode != 0 {
			b.Fatalf("%s: exit %d, %v\n%s", strings.Join(raw, " "), r.exitCode, err, tail(r.stderr, 2000))
		}
		rawCPU = append(rawCPU, r.cpu)
		return r.wall
	}
	runStrobe := func() time.Duration {
		start := time.Now()
		cpu0 := cpuTime()
		rec, out, child := runAdapter(b, a, adapters.Request{ProjectRoot: dir})
		d := time.Since(start)
		// The framework's CPU and the parser's (this process's).
		strobeCPU = append(strobeCPU, child+cpuTime()-cpu0)
		if p := rec.Progress(); p.Passed != tests || p.Failed != 0 || out.NoTests {
			b.Fatalf("the adapter recorded %+v, outcome %+v; want %d passed", p, out, tests)
		}
		return d
	}
	runRaw()
	runStrobe()
	rawCPU, strobeCPU = nil, nil
	var raws, strobes []time.Duration
	var ratios []float64
	for i := range overheadRounds {
		var r, s time.Duration
		if i%2 == 0 {
			r, s = runRaw(), runStrobe()
		} else {
			s, r = runStrobe(), runRaw()
		}
		raws, strobes = append(raws, r), append(strobes, s)
		ratios = append(ratios, float64(s)/float64(r))
	}
	ratio := float64(median(strobes)) / float64(median(raws))
	pair := medianFloat(ratios)
	// On a shared machine the wall times swing with the others' load; CPU
	// time says what the reporter and the parser add.
	cpuRatio := float64(median(strobeCPU)) / float64(median(rawCPU))
	b.ReportMetric(ratio, "ratio-of-medians")
	b.ReportMetric(pair, "median-pair-ratio")
	b.ReportMetric(cpuRatio, "cpu-ratio")
	verdict := "met"
	if ratio > overheadTarget || pair > overheadTarget {
		verdict = "MISSED"
	}
	b.Logf("raw %v\nstrobe %v", raws, strobes)
	record(b, "ratio %.3f of medians, %.3f median per pair (adapter %.0f ms, raw %.0f ms; cpu time ratio %.3f, %.0f ms against %.0f; %d tests, %d rounds, load %s; target <= %.2f: %s)",
		ratio, pair, ms(median(strobes)), ms(median(raws)), cpuRatio, ms(median(strobeCPU)), ms(median(rawCPU)), tests, overheadRounds, loadavg(), overheadTarget, verdict)
}

// runAdapter plans req and runs the plan as the runner does: both pipes
// read line by line into the parser, then Finish and Close.
func runAdapter(b *testing.B, a adapters.Adapter, req adapters.Request) (*adapters.Recorder, adapters.Outcome, time.Duration) {
	rec := adapters.NewRecorder()
	plan, err := a.Plan(context.Background(), req, rec)
	if err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(plan.Argv[0], plan.Argv[1:]...)
	cmd.Dir = plan.Dir
	cmd.Env = append(os.Environ(), plan.Env...)
	stdout, _ := cmd.StdoutPipe()
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	read := func(s adapters.Stream, r io.Reader) {
		defer wg.Done()
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 64<<10), 4<<20)
		for sc.Scan() {
			mu.Lock()
			plan.Parser.Line(s, sc.Bytes(), false)
			mu.Unlock()
		}
	}
	wg.Add(2)
	go read(adapters.Stdout, stdout)
	go read(adapters.Stderr, stderr)
	wg.Wait()
	cmd.Wait()
	out := plan.Parser.Finish(report.Exit{Exited: true, Code: cmd.ProcessState.ExitCode()})
	plan.Parser.(adapters.Closer).Close()
	return rec, out, cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
}
