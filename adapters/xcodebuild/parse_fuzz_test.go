package xcodebuild

import (
	"context"
	"testing"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
)

// FuzzXcodebuild feeds the xcodebuild parser arbitrary streams, seeded
// with the corpus logs (adapterstest.FuzzLines says what is checked).
func FuzzXcodebuild(f *testing.F) {
	for _, path := range adapterstest.FuzzGlob(f, "testdata/corpus/*.[tl][xo][tg]") {
		f.Add(adapterstest.FuzzSeed(f, path), []byte{}, []byte{}, byte(65), byte(0))
	}
	f.Fuzz(func(t *testing.T, stdout, stderr, sched []byte, code, flags byte) {
		adapterstest.FuzzLines(t, func(rec *adapters.Recorder) adapters.Parser {
			// An environment without HOME reads no crash reports, and
			// the result bundle never exists, so Finish runs no tool.
			plan, err := xcodebuild{}.Plan(context.Background(), adapters.Request{ProjectRoot: "/project", Command: xcodeCommand, Env: []string{"PATH=/nonexistent"}}, rec)
			if err != nil {
				t.Fatal(err)
			}
			return plan.Parser
		}, stdout, stderr, sched, code, flags)
	})
}
