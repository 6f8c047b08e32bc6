package maven

import (
	"testing"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
)

// FuzzMaven feeds the console reader arbitrary streams as Maven's output,
// seeded with the recorded runs (adapterstest.FuzzLines says what is
// checked). The project has no reports: what the console names is looked
// for and not found, as when a report directory is elsewhere.
func FuzzMaven(f *testing.F) {
	for _, out := range adapterstest.FuzzGlob(f, "testdata/recorded/*/console.txt") {
		f.Add(adapterstest.FuzzSeed(f, out), []byte{}, []byte{}, byte(1), byte(0))
	}
	f.Add([]byte("[ERROR] /project/src/test/java/A.java:[3,7] cannot find symbol\n"), []byte("The forked VM terminated without properly saying goodbye. VM crash or System.exit called?\n"), []byte{0, 1}, byte(1), byte(0))
	f.Fuzz(func(t *testing.T, stdout, stderr, sched []byte, code, flags byte) {
		adapterstest.FuzzLines(t, func(rec *adapters.Recorder) adapters.Parser {
			return newParser(rec, "/project", []string{"."}, []string{"mvn", "-B", "test"})
		}, stdout, stderr, sched, code, flags)
	})
}
