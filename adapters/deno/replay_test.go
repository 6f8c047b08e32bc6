package deno

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
	"strobe/report"
)

// replay feeds a recording to a parser, its report where deno wrote it.
func replay(t testing.TB, name string, rec *adapters.Recorder, lines []adapterstest.Line, exit report.Exit) adapters.Outcome {
	dir, err := os.MkdirTemp("", "strobe-deno-test-")
	if err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join("testdata", name+".report.xml")); err == nil {
		os.WriteFile(filepath.Join(dir, "report.xml"), b, 0o644)
	}
	p := newParser(rec, adapters.Request{ProjectRoot: "/project"}, dir, "deno test")
	out := adapterstest.Replay(p, lines, exit)
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("Close left %s behind", dir)
	}
	return out
}

// TestDenoReplay replays deno 2.9.6's recorded console and report
// (testdata/record.sh), without deno.
func TestDenoReplay(t *testing.T) {
	for _, name := range []string{"basic-all", "basic-filter", "broken-all"} {
		t.Run(name, func(t *testing.T) {
			lines := append(adapterstest.ReadLines(t, "testdata/"+name+".stdout", adapters.Stdout),
				adapterstest.ReadLines(t, "testdata/"+name+".stderr", adapters.Stderr)...)
			rec := adapters.NewRecorder()
			out := replay(t, name, rec, lines, report.Exit{Exited: true, Code: 1})
			adapterstest.Golden(t, "replay-"+name, adapterstest.Normalise(rec, out, nil))
		})
	}
}

// FuzzDeno feeds the parser arbitrary console output, with no report
// (adapterstest.FuzzLines says what is checked).
func FuzzDeno(f *testing.F) {
	for _, path := range adapterstest.FuzzGlob(f, "testdata/*.stdout") {
		errs := strings.TrimSuffix(path, ".stdout") + ".stderr"
		f.Add(adapterstest.FuzzSeed(f, path), adapterstest.FuzzSeed(f, errs), []byte{}, byte(1), byte(0))
	}
	f.Fuzz(func(t *testing.T, stdout, stderr, sched []byte, code, flags byte) {
		adapterstest.FuzzLines(t, func(rec *adapters.Recorder) adapters.Parser {
			return newParser(rec, adapters.Request{ProjectRoot: "/project"}, t.TempDir(), "deno test")
		}, stdout, stderr, sched, code, flags)
	})
}
