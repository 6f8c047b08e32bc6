package adapterstest

import (
	"bufio"
	"os"
	"testing"

	"strobe/adapters"
	"strobe/report"
)

// Line is one line of a recorded run and the stream it came on.
type Line struct {
	Stream adapters.Stream
	Text   string
}

// ReadLines reads a recording of one stream (testdata/NAME.stdout, a
// .jsonl), a line at a time, lines up to 16 MiB.
func ReadLines(t *testing.T, path string, s adapters.Stream) []Line {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []Line
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		lines = append(lines, Line{s, sc.Text()})
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("reading %s: %v", path, err)
	}
	return lines
}

// Replay feeds recorded lines to a parser the way the runner does, one at a
// time, then finishes it with exit and closes it.
func Replay(p adapters.Parser, lines []Line, exit report.Exit) adapters.Outcome {
	for _, l := range lines {
		p.Line(l.Stream, []byte(l.Text), false)
	}
	out := p.Finish(exit)
	if c, ok := p.(adapters.Closer); ok {
		c.Close()
	}
	return out
}

// Normalise makes what a golden file holds from a run: the recorded tests
// with their durations zeroed, and the outcome. fix, when given, rewrites
// what differs between machines or runs (a temporary directory, HOME) in
// the tests' output, the failures' messages and reruns, the hint and the
// crash message.
func Normalise(rec *adapters.Recorder, out adapters.Outcome, fix func(string) string) Result {
	tests := rec.Tests()
	for i := range tests {
		tests[i].DurationMS = 0
		if fix == nil {
			continue
		}
		tests[i].Output = fix(tests[i].Output)
		if f := tests[i].Failure; f != nil {
			f.Rerun, f.Message = fix(f.Rerun), fix(f.Message)
		}
	}
	if fix != nil {
		out.Hint = fix(out.Hint)
		if out.Crash != nil {
			out.Crash.Message = fix(out.Crash.Message)
		}
	}
	return Result{Tests: tests, Outcome: out}
}
