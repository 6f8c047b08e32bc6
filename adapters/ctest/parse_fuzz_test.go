package ctest

import (
	"os"
	"path/filepath"
	"testing"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
)

// FuzzCTest feeds the parser arbitrary consoles and JUnit reports: the
// seeds are the recorded runs.
func FuzzCTest(f *testing.F) {
	for _, name := range []string{"all", "parallel", "none"} {
		base := filepath.Join("testdata", "recorded", name)
		f.Add(adapterstest.FuzzSeed(f, base+".stdout"), adapterstest.FuzzSeed(f, base+".stderr"), adapterstest.FuzzSeed(f, base+".junit.xml"), []byte{2, 2, 2, 0, 2, 1}, byte(8), byte(0))
	}
	f.Add([]byte("      Start  1: a\n 1/1 Test  #1: a ....***Exception: SegFault  0.01 sec\n[ RUN      ] A.B\n"), []byte{}, []byte{}, []byte{2, 1}, byte(8), byte(1))
	f.Fuzz(func(t *testing.T, stdout, stderr, rep, sched []byte, code, flags byte) {
		path := filepath.Join(t.TempDir(), "junit.xml")
		if len(rep) > 0 {
			if err := os.WriteFile(path, rep, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		adapterstest.FuzzLines(t, func(rec *adapters.Recorder) adapters.Parser {
			p := newParser(rec, "/project", "", path)
			p.rerun = []string{"ctest", "--test-dir", "build"}
			return p
		}, stdout, stderr, sched, code, flags)
	})
}
