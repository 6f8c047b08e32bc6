package swift

import (
	"testing"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
)

// FuzzSwift feeds the swift test parser arbitrary streams, seeded with the
// corpus consoles (adapterstest.FuzzLines says what is checked). The
// parser is made directly: Plan would need swift on PATH, and the report
// it names never exists, so Finish reads no file.
func FuzzSwift(f *testing.F) {
	for _, path := range adapterstest.FuzzGlob(f, "testdata/corpus/*.txt") {
		f.Add(adapterstest.FuzzSeed(f, path), []byte{}, []byte{}, byte(1), byte(0))
	}
	f.Fuzz(func(t *testing.T, stdout, stderr, sched []byte, code, flags byte) {
		adapterstest.FuzzLines(t, func(rec *adapters.Recorder) adapters.Parser {
			return newParser(rec, "/project", "", "/nonexistent/xunit.xml", []string{"swift", "test"})
		}, stdout, stderr, sched, code, flags)
	})
}
