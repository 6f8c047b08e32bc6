package gotest

import (
	"testing"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
)

// FuzzGo feeds the go test parser arbitrary streams, seeded with the
// recordings (adapterstest.FuzzLines says what is checked).
func FuzzGo(f *testing.F) {
	for _, path := range adapterstest.FuzzGlob(f, "testdata/*.jsonl") {
		f.Add(adapterstest.FuzzSeed(f, path), []byte{}, []byte{}, byte(1), byte(0))
	}
	for _, path := range adapterstest.FuzzGlob(f, "testdata/corpus/*.jsonl") {
		f.Add(adapterstest.FuzzSeed(f, path), []byte{}, []byte{1, 0, 0x1c}, byte(1), byte(0))
	}
	f.Add(adapterstest.FuzzSeed(f, "testdata/corpus/json-mixed-pass-fail-skip-badmain.jsonl"),
		adapterstest.FuzzSeed(f, "testdata/corpus/json-mixed.stderr.txt"), []byte{1, 0}, byte(1), byte(0))
	f.Fuzz(func(t *testing.T, stdout, stderr, sched []byte, code, flags byte) {
		adapterstest.FuzzLines(t, func(rec *adapters.Recorder) adapters.Parser {
			return newGoParser(rec, "/project", []goModule{{"example.com/m", "."}}, []string{"go", "test"}, "no test ran")
		}, stdout, stderr, sched, code, flags)
	})
}

// FuzzGoFramed feeds the parser arbitrary streams as go test -v=test2json
// prints them for one package, seeded with the framed recordings.
func FuzzGoFramed(f *testing.F) {
	for _, path := range adapterstest.FuzzGlob(f, "testdata/framed/*.txt") {
		f.Add(adapterstest.FuzzSeed(f, path), []byte{}, []byte{}, byte(1), byte(0))
	}
	f.Fuzz(func(t *testing.T, stdout, stderr, sched []byte, code, flags byte) {
		adapterstest.FuzzLines(t, func(rec *adapters.Recorder) adapters.Parser {
			p := newGoParser(rec, "/project", []goModule{{"example.com/crash", "."}}, []string{"go", "test"}, "no test ran")
			p.framer = newGoFramer("example.com/crash/segv", p.event)
			return p
		}, stdout, stderr, sched, code, flags)
	})
}
