package cargo

import (
	"strings"
	"testing"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
)

// FuzzCargo feeds the cargo parser arbitrary streams, seeded with the
// recordings (adapterstest.FuzzLines says what is checked).
func FuzzCargo(f *testing.F) {
	for _, out := range adapterstest.FuzzGlob(f, "testdata/*.stdout") {
		errs := strings.TrimSuffix(out, ".stdout") + ".stderr"
		f.Add(adapterstest.FuzzSeed(f, out), adapterstest.FuzzSeed(f, errs), []byte{}, byte(101), byte(0))
		f.Add(adapterstest.FuzzSeed(f, out), adapterstest.FuzzSeed(f, errs), []byte{0, 1, 0x1c, 0xff, 0x3c}, byte(0), byte(1))
	}
	for _, path := range adapterstest.FuzzGlob(f, "testdata/corpus/*.jsonl") {
		f.Add(adapterstest.FuzzSeed(f, path), []byte{}, []byte{}, byte(101), byte(0))
	}
	f.Fuzz(func(t *testing.T, stdout, stderr, sched []byte, code, flags byte) {
		adapterstest.FuzzLines(t, func(rec *adapters.Recorder) adapters.Parser {
			return newCargoParser(rec, "/project", "/project", nil)
		}, stdout, stderr, sched, code, flags)
	})
}
