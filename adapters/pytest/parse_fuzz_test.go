package pytest

import (
	"testing"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
)

// FuzzPytest feeds the pytest parser arbitrary streams as pytest's own
// output, read when the plugin sent no events, seeded with the recordings
// and the corpus (adapterstest.FuzzLines says what is checked). The events
// themselves are fuzzed in kit/python (FuzzDecode).
func FuzzPytest(f *testing.F) {
	for _, out := range adapterstest.FuzzGlob(f, "testdata/*.stdout") {
		f.Add(adapterstest.FuzzSeed(f, out), []byte{}, []byte{}, byte(1), byte(0))
	}
	for _, path := range adapterstest.FuzzGlob(f, "testdata/corpus/*.txt") {
		f.Add(adapterstest.FuzzSeed(f, path), []byte("Fatal Python error: Aborted\n\n  File \"/project/t.py\", line 3 in test_x\n"), []byte{0, 1}, byte(6), byte(1))
	}
	f.Fuzz(func(t *testing.T, stdout, stderr, sched []byte, code, flags byte) {
		adapterstest.FuzzLines(t, func(rec *adapters.Recorder) adapters.Parser {
			return newParser(rec, adapters.Request{ProjectRoot: "/project"}, nil, []string{"pytest"})
		}, stdout, stderr, sched, code, flags)
	})
}
