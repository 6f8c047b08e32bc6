package gtest

import (
	"os"
	"path/filepath"
	"testing"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
)

// FuzzGTest feeds the parser arbitrary consoles and reports: the seeds are
// the corpus's consoles and report, and a console cut inside a test.
func FuzzGTest(f *testing.F) {
	for _, path := range adapterstest.FuzzGlob(f, "testdata/corpus/*.txt") {
		f.Add(adapterstest.FuzzSeed(f, path), []byte{}, []byte{}, []byte{2, 2, 2, 0, 2, 1}, byte(1), byte(0))
	}
	for _, path := range adapterstest.FuzzGlob(f, "testdata/corpus/*.json") {
		f.Add([]byte("[==========] Running 1 test from 1 test suite.\n[ RUN      ] Builder.SignVideoStream\n"), []byte("to stderr\n"), adapterstest.FuzzSeed(f, path), []byte{}, byte(1), byte(0))
	}
	f.Add([]byte("[==========] Running 2 tests from 1 test suite.\n[ RUN      ] A.B\n[       OK ] A.B (0 ms)\n[ RUN      ] A.C\na.cc:3: Failure\nValue of: x\n"),
		[]byte{}, []byte{}, []byte{2, 1}, byte(11), byte(1))
	f.Fuzz(func(t *testing.T, stdout, stderr, rep, sched []byte, code, flags byte) {
		path := filepath.Join(t.TempDir(), "report.json")
		if len(rep) > 0 {
			if err := os.WriteFile(path, rep, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		adapterstest.FuzzLines(t, func(rec *adapters.Recorder) adapters.Parser {
			p := newParser(rec, "/project", "", path)
			p.rerun = []string{"/project/t"}
			return p
		}, stdout, stderr, sched, code, flags)
	})
}
