package bun

import (
	"os"
	"path/filepath"
	"testing"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
	"strobe/report"
)

// replay feeds a recording to a parser, its report where bun wrote it.
func replay(t testing.TB, name string, rec *adapters.Recorder, lines []adapterstest.Line, exit report.Exit) adapters.Outcome {
	dir, err := os.MkdirTemp("", "strobe-bun-test-")
	if err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join("testdata", name+".report.xml")); err == nil {
		os.WriteFile(filepath.Join(dir, "report.xml"), b, 0o644)
	}
	p := newParser(rec, adapters.Request{ProjectRoot: "/project"}, dir, "bun test")
	out := adapterstest.Replay(p, lines, exit)
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("Close left %s behind", dir)
	}
	return out
}

// TestBunReplay replays bun 1.4.5's recorded console and report
// (testdata/record.sh), without bun.
func TestBunReplay(t *testing.T) {
	for _, name := range []string{"basic-all", "broken-all"} {
		t.Run(name, func(t *testing.T) {
			lines := append(adapterstest.ReadLines(t, "testdata/"+name+".stdout", adapters.Stdout),
				adapterstest.ReadLines(t, "testdata/"+name+".stderr", adapters.Stderr)...)
			rec := adapters.NewRecorder()
			out := replay(t, name, rec, lines, report.Exit{Exited: true, Code: 1})
			adapterstest.Golden(t, "replay-"+name, adapterstest.Normalise(rec, out, nil))
		})
	}
}

// FuzzBun feeds the parser arbitrary console output, with no report
// (adapterstest.FuzzLines says what is checked).
func FuzzBun(f *testing.F) {
	for _, path := range adapterstest.FuzzGlob(f, "testdata/*.stderr") {
		f.Add([]byte{}, adapterstest.FuzzSeed(f, path), []byte{}, byte(1), byte(0))
	}
	f.Fuzz(func(t *testing.T, stdout, stderr, sched []byte, code, flags byte) {
		adapterstest.FuzzLines(t, func(rec *adapters.Recorder) adapters.Parser {
			return newParser(rec, adapters.Request{ProjectRoot: "/project"}, t.TempDir(), "bun test")
		}, stdout, stderr, sched, code, flags)
	})
}
