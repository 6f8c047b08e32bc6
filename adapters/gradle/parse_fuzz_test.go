package gradle

import (
	"testing"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
)

// FuzzGradle feeds the console reader arbitrary streams as Gradle's
// output, seeded with the recorded consoles (adapterstest.FuzzLines says
// what is checked). The project has no reports: what the console names is
// looked for and not found, as when the test JVM died before writing them.
func FuzzGradle(f *testing.F) {
	for _, out := range adapterstest.FuzzGlob(f, "testdata/corpus/*.txt") {
		f.Add(adapterstest.FuzzSeed(f, out), []byte{}, []byte{}, byte(1), byte(0))
	}
	f.Add([]byte("> Task :test\n\nFooTest > bar() FAILED\n    java.lang.AssertionError at FooTest.java:3\n"),
		[]byte("* What went wrong:\nExecution failed for task ':test'.\n"), []byte{0, 1}, byte(1), byte(0))
	f.Fuzz(func(t *testing.T, stdout, stderr, sched []byte, code, flags byte) {
		adapterstest.FuzzLines(t, func(rec *adapters.Recorder) adapters.Parser {
			return newParser(rec, "/project", []string{"./gradlew", "test", "--console=plain", "--continue"}, "test")
		}, stdout, stderr, sched, code, flags)
	})
}
