package adapters

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"strobe/report"
)

// The fuzz targets below feed each adapter's parser what a run could print:
// two streams of arbitrary bytes, read line by line and interleaved in an
// order the input chooses, some lines cut as the runner cuts a line over its
// limit, then Finish with an exit status the input chooses. Plain `go test`
// runs them on their seeds (the recordings under testdata); `make fuzz`
// mutates them. Each input must finish quickly, must not panic, and must
// leave the Recorder consistent (fuzzCheckRecorder).

// fuzzBudget bounds one input. A parser does a few passes over a few
// hundred kilobytes; anything near this is a hang, on a machine shared
// with other work.
const fuzzBudget = 10 * time.Second

// fuzzMaxSeed bounds a seed taken from a recording. Every execution replays
// its whole input, so a 900 KB seed would make each mutation of it slow; its
// first part keeps the format's structure.
const fuzzMaxSeed = 32 << 10

// fuzzSeed reads a recording for a seed, cut after its last line that fits
// in fuzzMaxSeed.
func fuzzSeed(f *testing.F, path string) []byte {
	f.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	if len(b) > fuzzMaxSeed {
		b = b[:fuzzMaxSeed]
		if i := bytes.LastIndexByte(b, '\n'); i > 0 {
			b = b[:i+1]
		}
	}
	return b
}

func fuzzGlob(f *testing.F, pattern string) []string {
	f.Helper()
	files, _ := filepath.Glob(pattern)
	if len(files) == 0 {
		f.Fatalf("no seeds match %s", pattern)
	}
	return files
}

// fuzzSignals are the signals a test process dies of or is stopped with.
var fuzzSignals = []struct {
	n    int
	name string
}{{11, "SIGSEGV"}, {6, "SIGABRT"}, {9, "SIGKILL"}, {15, "SIGTERM"}, {2, "SIGINT"}, {7, "SIGBUS"}, {4, "SIGILL"}, {8, "SIGFPE"}}

// fuzzExit makes an exit status from two bytes: code is the exit code, or
// with flags&1 picks a signal; flags&2 sets a core dump; flags>>2 picks
// whether (and why) strobe stopped the run.
func fuzzExit(code, flags byte) report.Exit {
	e := report.Exit{Exited: true, Code: int(code)}
	if flags&1 != 0 {
		s := fuzzSignals[int(code)%len(fuzzSignals)]
		e = report.Exit{Signaled: true, Signal: s.n, SignalName: s.name, Code: 128 + s.n, CoreDump: flags&2 != 0}
	}
	switch flags >> 2 % 4 {
	case 1:
		e.StoppedBy = report.StoppedStuck
	case 2:
		e.StoppedBy = report.StoppedTimeout
	case 3:
		e.StoppedBy = report.StoppedCancelled
	}
	return e
}

// fuzzLines splits a stream into lines as the runner does: on '\n', without
// it; a last line without one still counts.
func fuzzLines(b []byte) [][]byte {
	if len(b) == 0 {
		return nil
	}
	lines := bytes.Split(b, []byte("\n"))
	if len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// fuzzStep is one step of a replay: which source gives the next piece and
// how a line is delivered. Source 0 and 1 are stdout and stderr; 2 is a
// report file, for parsers that read one.
type fuzzStep struct {
	source int
	cut    bool // deliver the line cut, as over the runner's limit
	ends   bool // with CutLine, when the parser has it
	keep   int  // eighths of the line kept in the head (1-8)
}

// fuzzSchedule reads step i from sched, cycling; an empty schedule takes
// stdout first.
func fuzzSchedule(sched []byte, i, sources int) fuzzStep {
	var b byte
	if len(sched) > 0 {
		b = sched[i%len(sched)]
	}
	return fuzzStep{source: int(b&3) % sources, cut: b>>2&7 == 7, ends: b&0x20 != 0, keep: int(b>>6)*2 + 1}
}

// fuzzReplay feeds the two streams to p in the order sched gives and
// delivers the report's chunks to report (nil when the parser reads none).
func fuzzReplay(p Parser, stdout, stderr, rep, sched []byte, report func([]byte)) {
	srcs := [3][][]byte{fuzzLines(stdout), fuzzLines(stderr), fuzzChunks(rep)}
	n := 2
	if report != nil {
		n = 3
	}
	for i := 0; ; i++ {
		st := fuzzSchedule(sched, i, n)
		src := st.source
		for k := 0; len(srcs[src]) == 0 && k < n; k++ {
			src = (src + 1) % n
		}
		if len(srcs[src]) == 0 {
			return
		}
		piece := srcs[src][0]
		srcs[src] = srcs[src][1:]
		if src == 2 {
			report(piece)
			continue
		}
		s := Stream(src)
		if !st.cut {
			p.Line(s, piece, false)
			continue
		}
		head := piece[:len(piece)*st.keep/8]
		if cl, ok := p.(CutLiner); ok && st.ends {
			cl.CutLine(s, head, piece[len(piece)-len(piece)*st.keep/8:])
			continue
		}
		p.Line(s, head, true)
	}
}

// fuzzChunks splits a report file into the pieces in which it grows: its
// lines, each with its newline.
func fuzzChunks(b []byte) [][]byte {
	var out [][]byte
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n') + 1
		if i == 0 {
			i = len(b)
		}
		out = append(out, b[:i])
		b = b[i:]
	}
	return out
}

// fuzzRun runs replay within fuzzBudget, failing the input as a hang with
// every goroutine's stack when it takes longer.
func fuzzRun(t *testing.T, replay func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		replay()
	}()
	select {
	case <-done:
	case <-time.After(fuzzBudget):
		buf := make([]byte, 1<<20)
		t.Fatalf("the parser took over %v on this input (a hang):\n%s", fuzzBudget, buf[:runtime.Stack(buf, true)])
	}
}

// fuzzCheckRecorder checks what must hold of any run's Recorder after
// Finish: every test is named and has a known status, durations are not
// negative, a failure carries its test's name, and the live counts agree
// with the tests.
func fuzzCheckRecorder(t *testing.T, rec *Recorder, out Outcome) {
	t.Helper()
	p := rec.Progress()
	if p.Passed < 0 || p.Failed < 0 || p.Skipped < 0 {
		t.Fatalf("negative counts: %+v", p)
	}
	var counts [3]int
	running := 0
	for _, tt := range rec.Tests() {
		if tt.Name == "" {
			t.Errorf("a test without a name: %+v", tt)
		}
		if tt.DurationMS < 0 {
			t.Errorf("test %q: negative duration %d ms", tt.Name, tt.DurationMS)
		}
		switch tt.Status {
		case report.TestPassed:
			counts[0]++
		case report.TestFailed:
			counts[1]++
		case report.TestSkipped:
			counts[2]++
		case report.TestRunning:
			running++
		default:
			t.Errorf("test %q: unknown status %q", tt.Name, tt.Status)
		}
		if tt.Failure != nil && tt.Failure.Name == "" {
			t.Errorf("test %q: a failure without a name: %+v", tt.Name, tt.Failure)
		}
		if tt.Failure != nil && tt.Failure.Line < 0 {
			t.Errorf("test %q: negative line %d", tt.Name, tt.Failure.Line)
		}
	}
	if counts != [3]int{p.Passed, p.Failed, p.Skipped} {
		t.Errorf("progress counts %d passed, %d failed, %d skipped; the tests say %v", p.Passed, p.Failed, p.Skipped, counts)
	}
	if len(p.Running) > running {
		t.Errorf("%d tests running, only %d recorded as running", len(p.Running), running)
	}
	for _, e := range out.BuildErrors {
		if e.Line < 0 {
			t.Errorf("build error with negative line: %+v", e)
		}
	}
	if out.Crash != nil && out.Crash.Type == "" {
		t.Errorf("a crash without a type: %+v", out.Crash)
	}
}

// fuzzLinesTarget is the body of a target whose parser reads only the two
// streams.
func fuzzLinesTarget(t *testing.T, newParser func(*Recorder) Parser, stdout, stderr, sched []byte, code, flags byte) {
	rec := NewRecorder()
	p := newParser(rec)
	var out Outcome
	fuzzRun(t, func() {
		fuzzReplay(p, stdout, stderr, nil, sched, nil)
		out = p.Finish(fuzzExit(code, flags))
	})
	fuzzCheckRecorder(t, rec, out)
}

func FuzzCargo(f *testing.F) {
	for _, out := range fuzzGlob(f, "testdata/cargo/*.stdout") {
		errs := strings.TrimSuffix(out, ".stdout") + ".stderr"
		f.Add(fuzzSeed(f, out), fuzzSeed(f, errs), []byte{}, byte(101), byte(0))
		f.Add(fuzzSeed(f, out), fuzzSeed(f, errs), []byte{0, 1, 0x1c, 0xff, 0x3c}, byte(0), byte(1))
	}
	for _, path := range fuzzGlob(f, "testdata/cargo/corpus/*.jsonl") {
		f.Add(fuzzSeed(f, path), []byte{}, []byte{}, byte(101), byte(0))
	}
	f.Fuzz(func(t *testing.T, stdout, stderr, sched []byte, code, flags byte) {
		fuzzLinesTarget(t, func(rec *Recorder) Parser { return newCargoParser(rec, "/project", "/project", nil) }, stdout, stderr, sched, code, flags)
	})
}

func FuzzGo(f *testing.F) {
	for _, path := range fuzzGlob(f, "testdata/go/*.jsonl") {
		f.Add(fuzzSeed(f, path), []byte{}, []byte{}, byte(1), byte(0))
	}
	for _, path := range fuzzGlob(f, "testdata/go/corpus/*.jsonl") {
		f.Add(fuzzSeed(f, path), []byte{}, []byte{1, 0, 0x1c}, byte(1), byte(0))
	}
	f.Add(fuzzSeed(f, "testdata/go/corpus/json-mixed-pass-fail-skip-badmain.jsonl"), fuzzSeed(f, "testdata/go/corpus/json-mixed.stderr.txt"), []byte{1, 0}, byte(1), byte(0))
	f.Fuzz(func(t *testing.T, stdout, stderr, sched []byte, code, flags byte) {
		fuzzLinesTarget(t, func(rec *Recorder) Parser {
			return newGoParser(rec, "/project", []goModule{{"example.com/m", "."}}, []string{"go", "test"}, "no test ran")
		}, stdout, stderr, sched, code, flags)
	})
}

// genericSeeds are the formats the generic adapter reads (docs/adapters.md).
var genericSeeds = []string{
	"TAP version 13\n1..4\nok 1 - adds\nnot ok 2 - subtracts\n  ---\n  at: src/math.js:12:3\n  ...\nok 3 # SKIP no network\nnot ok 4 - later # TODO\n",
	"PASS: t/one.sh\nFAIL: t/two.sh\nSKIP: t/three.sh\nXFAIL: t/four.sh\nXPASS: t/five.sh\nERROR: t/six.sh\n",
	"running\ntests: 7 passed, 2 failed, 1 skipped\n",
	"ok\nnot ok\nok 12\n",
}

func FuzzGeneric(f *testing.F) {
	for _, s := range genericSeeds {
		f.Add([]byte(s), []byte{}, []byte{}, byte(1), byte(0))
		f.Add([]byte{}, []byte(s), []byte{}, byte(0), byte(0))
	}
	f.Fuzz(func(t *testing.T, stdout, stderr, sched []byte, code, flags byte) {
		fuzzLinesTarget(t, func(rec *Recorder) Parser {
			plan, err := generic{}.Plan(Request{ProjectRoot: "/project", Command: []string{"./test.sh"}}, rec)
			if err != nil {
				t.Fatal(err)
			}
			return plan.Parser
		}, stdout, stderr, sched, code, flags)
	})
}

func FuzzXcodebuild(f *testing.F) {
	for _, path := range fuzzGlob(f, "testdata/xcodebuild/corpus/*.[tl][xo][tg]") {
		f.Add(fuzzSeed(f, path), []byte{}, []byte{}, byte(65), byte(0))
	}
	f.Fuzz(func(t *testing.T, stdout, stderr, sched []byte, code, flags byte) {
		fuzzLinesTarget(t, func(rec *Recorder) Parser {
			// An environment without HOME reads no crash reports, and
			// the result bundle never exists, so Finish runs no tool.
			plan, err := xcodebuild{}.Plan(Request{ProjectRoot: "/project", Command: xcodeCommand, Env: []string{"PATH=/nonexistent"}}, rec)
			if err != nil {
				t.Fatal(err)
			}
			return plan.Parser
		}, stdout, stderr, sched, code, flags)
	})
}

// catch2Seeds are the report endings the Catch2 parser treats apart: a
// report cut inside a test, and a sanitizer report on stderr.
var catch2Seeds = []struct{ report, stderr string }{
	{`<?xml version="1.0" encoding="UTF-8"?>
<Catch name="t">
  <Group name="t">
    <TestCase name="first" filename="/project/a.cpp" line="3">
      <OverallResult success="true" durationInSeconds="0.001"/>
    </TestCase>
    <TestCase name="calls exit" filename="/project/a.cpp" line="7">
`, ""},
	{`<?xml version="1.0" encoding="UTF-8"?>
<Catch name="t">
  <Group name="t">
    <TestCase name="overflows" filename="/project/a.cpp" line="3">
`, `=================================================================
==4242==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x602000000014
READ of size 4 at 0x602000000014 thread T0
    #0 0x55d4 in overflow() /project/a.cpp:5
    #1 0x55d5 in C_A_T_C_H_T_E_S_T_0() /project/a.cpp:9
SUMMARY: AddressSanitizer: heap-buffer-overflow /project/a.cpp:5 in overflow()
/project/b.cpp:3:7: runtime error: signed integer overflow
WARNING: ThreadSanitizer: data race (pid=4242)
SUMMARY: ThreadSanitizer: data race /project/race.cpp:5 in bump()
`},
}

func FuzzCatch2(f *testing.F) {
	placeholders := strings.NewReplacer("<exe-name>", "SelfTest", "<version>", "3.0.0", "<hex digits>", "hexdigits")
	for _, path := range fuzzGlob(f, "testdata/catch2/corpus/*.approved.xml") {
		f.Add([]byte(placeholders.Replace(string(fuzzSeed(f, path)))), []byte{}, []byte{}, []byte{2, 2, 2, 0, 2, 1}, byte(1), byte(0))
	}
	for _, s := range catch2Seeds {
		f.Add([]byte(s.report), []byte("printed\n"), []byte(s.stderr), []byte{}, byte(1), byte(0))
		f.Add([]byte(s.report), []byte{}, []byte(s.stderr), []byte{2, 1}, byte(0), byte(1))
	}
	f.Fuzz(func(t *testing.T, rep, stdout, stderr, sched []byte, code, flags byte) {
		rec := NewRecorder()
		p := newCatch2Parser(rec, "/project", "", "")
		p.rerun = []string{"/project/t"}
		var out Outcome
		fuzzRun(t, func() {
			feed := catch2Feed(p)
			fuzzReplay(p, stdout, stderr, rep, sched, feed)
			feed(nil)
			out = p.Finish(fuzzExit(code, flags))
		})
		fuzzCheckRecorder(t, rec, out)
	})
}

// catch2Feed runs p's report decoder on the chunks it is given, in step
// with the replay: each call returns once the decoder has taken in every
// byte given so far and waits for more, as the tail reader lets it when
// the report stops growing; nil ends the report. Output lines then reach
// the test the report shows running, as they do live.
func catch2Feed(p *catch2Parser) func([]byte) {
	r := &stepReader{chunks: make(chan []byte), need: make(chan struct{}, 1)}
	p.tail.idle.Store(true) // Line hands lines over at once: the decoder is never behind
	go func() {
		defer close(p.decoded)
		p.decode(r)
	}()
	wait := func() {
		select {
		case <-r.need:
		case <-p.decoded: // the decoder stopped at an XML error
		}
	}
	wait()
	return func(chunk []byte) {
		if chunk == nil {
			close(r.chunks)
			return
		}
		select {
		case r.chunks <- chunk:
			wait()
		case <-p.decoded:
		}
	}
}

// stepReader gives the decoder the chunks sent on chunks, saying on need
// each time it has handed out all it had.
type stepReader struct {
	chunks chan []byte
	need   chan struct{}
	buf    []byte
	eof    bool
}

func (r *stepReader) Read(p []byte) (int, error) {
	if len(r.buf) == 0 {
		if r.eof {
			return 0, io.EOF
		}
		r.need <- struct{}{}
		b, ok := <-r.chunks
		if !ok {
			r.eof = true
			return 0, io.EOF
		}
		r.buf = b
	}
	n := copy(p, r.buf)
	r.buf = r.buf[n:]
	return n, nil
}
