package unittest

import (
	"testing"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
)

// FuzzUnittest feeds the parser arbitrary streams (its events are fuzzed
// in kit/python), seeded with the recorded stderr.
func FuzzUnittest(f *testing.F) {
	for _, path := range adapterstest.FuzzGlob(f, "testdata/*.stderr") {
		f.Add([]byte{}, adapterstest.FuzzSeed(f, path), []byte{1}, byte(6), byte(1))
	}
	f.Fuzz(func(t *testing.T, stdout, stderr, sched []byte, code, flags byte) {
		adapterstest.FuzzLines(t, func(rec *adapters.Recorder) adapters.Parser {
			return newParser(rec, adapters.Request{ProjectRoot: "/project"}, nil, []string{"python3", "-m", "unittest"})
		}, stdout, stderr, sched, code, flags)
	})
}
