package nextest

import (
	"strings"
	"testing"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
)

// FuzzNextest feeds the nextest parser arbitrary streams, seeded with the
// recordings (adapterstest.FuzzLines says what is checked).
func FuzzNextest(f *testing.F) {
	for _, out := range adapterstest.FuzzGlob(f, "testdata/*.stdout") {
		errs := strings.TrimSuffix(out, ".stdout") + ".stderr"
		f.Add(adapterstest.FuzzSeed(f, out), adapterstest.FuzzSeed(f, errs), []byte{}, byte(100), byte(0))
		f.Add(adapterstest.FuzzSeed(f, out), adapterstest.FuzzSeed(f, errs), []byte{0, 1, 0x1c, 0xff, 0x3c}, byte(0), byte(1))
	}
	f.Fuzz(func(t *testing.T, stdout, stderr, sched []byte, code, flags byte) {
		adapterstest.FuzzLines(t, func(rec *adapters.Recorder) adapters.Parser {
			return newParser(rec, "/project", "/project", nil)
		}, stdout, stderr, sched, code, flags)
	})
}
