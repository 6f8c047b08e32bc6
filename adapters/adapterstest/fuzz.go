package adapterstest

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"strobe/adapters"
	"strobe/report"
)

// The fuzz harness feeds an adapter's parser what a run could print:
// two streams of arbitrary bytes, read line by line and interleaved in an
// order the input chooses, some lines cut as the runner cuts a line over its
// limit, then Finish with an exit status the input chooses. Plain `go test`
// runs them on their seeds (the recordings under testdata); `make fuzz`
// mutates them. Each input must finish quickly, must not panic, and must
// leave the Recorder consistent (FuzzCheck).

// fuzzBudget bounds one input. A parser does a few passes over a few
// hundred kilobytes; anything near this is a hang, on a machine shared
// with other work.
const fuzzBudget = 10 * time.Second

// fuzzMaxSeed bounds a seed taken from a recording. Every execution replays
// its whole input, so a 900 KB seed would make each mutation of it slow; its
// first part keeps the format's structure.
const fuzzMaxSeed = 32 << 10

// FuzzSeed reads a recording for a seed, cut after its last line that fits
// in fuzzMaxSeed.
func FuzzSeed(f *testing.F, path string) []byte {
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

// FuzzGlob is the files matching pattern, at least one.
func FuzzGlob(f *testing.F, pattern string) []string {
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

// FuzzExit makes an exit status from two bytes: code is the exit code, or
// with flags&1 picks a signal; flags&2 sets a core dump; flags>>2 picks
// whether (and why) strobe stopped the run.
func FuzzExit(code, flags byte) report.Exit {
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

// FuzzReplay feeds the two streams to p in the order sched gives and
// delivers the report's chunks to report (nil when the parser reads none).
func FuzzReplay(p adapters.Parser, stdout, stderr, rep, sched []byte, report func([]byte)) {
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
		s := adapters.Stream(src)
		if !st.cut {
			p.Line(s, piece, false)
			continue
		}
		head := piece[:len(piece)*st.keep/8]
		if cl, ok := p.(adapters.CutLiner); ok && st.ends {
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

// FuzzRun runs replay within fuzzBudget, failing the input as a hang with
// every goroutine's stack when it takes longer.
func FuzzRun(t *testing.T, replay func()) {
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

// FuzzCheck checks what must hold of any run's Recorder after
// Finish: every test is named and has a known status, durations are not
// negative, a failure carries its test's name, and the live counts agree
// with the tests.
func FuzzCheck(t *testing.T, rec *adapters.Recorder, out adapters.Outcome) {
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

// FuzzLines is the body of a target whose parser reads only the two
// streams: replay, Finish, FuzzCheck.
func FuzzLines(t *testing.T, newParser func(*adapters.Recorder) adapters.Parser, stdout, stderr, sched []byte, code, flags byte) {
	rec := adapters.NewRecorder()
	p := newParser(rec)
	var out adapters.Outcome
	FuzzRun(t, func() {
		FuzzReplay(p, stdout, stderr, nil, sched, nil)
		out = p.Finish(FuzzExit(code, flags))
	})
	FuzzCheck(t, rec, out)
}

// StepReader gives a decoder the chunks sent on Chunks, saying on Need
// each time it has handed out all it had: a test drives a decoder that
// reads a report file in step with the output lines.
type StepReader struct {
	Chunks chan []byte
	Need   chan struct{}
	buf    []byte
	eof    bool
}

// NewStepReader returns a StepReader with its channels made.
func NewStepReader() *StepReader {
	return &StepReader{Chunks: make(chan []byte), Need: make(chan struct{}, 1)}
}

func (r *StepReader) Read(p []byte) (int, error) {
	if len(r.buf) == 0 {
		if r.eof {
			return 0, io.EOF
		}
		r.Need <- struct{}{}
		b, ok := <-r.Chunks
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
