package maven

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"strobe/adapters/adapterstest"
	"strobe/adapters/kit/jvm"
	"strobe/report"
)

// TestDeadlockVerdict: two threads deadlocked in the forked JVM, on
// synchronized monitors and on ReentrantLocks, are called a deadlock
// within seconds of the test's start, from the JVM's own deadlock report
// (jstack -l), naming the running test.
func TestDeadlockVerdict(t *testing.T) {
	for _, tc := range []struct {
		test  string
		cycle []string
	}{
		{"HangTest#deadlocks", []string{`"main" waits for a java.lang.Object held by "other-locker"`, `"other-locker" waits for a java.lang.Object held by "main"`}},
		{"HangTest#deadlocksOnReentrantLocks", []string{`"main" waits for a java.util.concurrent.locks.ReentrantLock$NonfairSync held by "right-then-left"`,
			`"right-then-left" waits for a java.util.concurrent.locks.ReentrantLock$NonfairSync held by "main"`}},
	} {
		t.Run(tc.test, func(t *testing.T) {
			v, _, latency := watchHang(t, tc.test)
			if v == nil {
				t.Fatal("no verdict: the run ended")
			}
			t.Logf("verdict %s after %v: %s", v.Kind, latency.Round(10*time.Millisecond), v.Diagnosis)
			if v.Kind != "deadlock" {
				t.Errorf("verdict %s, want deadlock", v.Kind)
			}
			for _, want := range append([]string{"Java-level deadlock (jstack)"}, tc.cycle...) {
				if !strings.Contains(v.Diagnosis, want) {
					t.Errorf("diagnosis lacks %q", want)
				}
			}
			named := false
			for _, r := range v.Tests {
				named = named || r.Name == tc.test
			}
			if !named {
				t.Errorf("running tests %+v, want %s", v.Tests, tc.test)
			}
			// The pause before the second lock is 0.3 s, the lock wait
			// threshold 2 s; jstack itself takes about half a second.
			if latency > 8*time.Second {
				t.Errorf("verdict %v after the class started, want a few seconds", latency)
			}
		})
	}
}

// TestDeadlockCycle reads the cycle out of a recorded jstack dump, and
// nothing out of a dump without one.
func TestDeadlockCycle(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "jstack-deadlock.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want := `Java-level deadlock (jstack): "main" waits for a java.lang.Object held by "other-locker"; "other-locker" waits for a java.lang.Object held by "main"`
	if got := jvm.DeadlockCycle(string(b)); got != want {
		t.Errorf("DeadlockCycle =\n%s\nwant\n%s", got, want)
	}
	if got := jvm.TestsInDump(string(b)); !slices.Equal(got, []string{"HangTest#deadlocks"}) {
		t.Errorf("TestsInDump = %q, want [HangTest#deadlocks]", got)
	}
	head, _, _ := strings.Cut(string(b), "Found one Java-level deadlock")
	if got := jvm.DeadlockCycle(head); got != "" {
		t.Errorf("DeadlockCycle of a dump without a deadlock = %q", got)
	}
}

// TestChurnNoVerdict: 6 s of silent allocation with full collections
// between (the collector's and the JIT's threads busy, the test's thread
// stopped at their safepoints) is no hang.
func TestChurnNoVerdict(t *testing.T) {
	v, s, _ := watchHang(t, "HangTest#churnsQuietly")
	if v != nil {
		t.Fatalf("verdict %s on silent GC-heavy work: %s", v.Kind, v.Diagnosis)
	}
	if tt, ok := adapterstest.TestByName(s.Rec.Tests(), "HangTest#churnsQuietly"); !ok || tt.Status != report.TestPassed {
		t.Errorf("the churning test: %+v, want passed", tt)
	}
}
