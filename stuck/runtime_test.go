package stuck

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestRuntimeDeadlock: a JVM-like process whose blocked thread rechecks
// with a timed wait is no deadlock by /proc's rules; the runtime's own
// report makes it one after QuietLock, asked at most every 2 s; a runtime
// that finds nothing leaves the run alone.
func TestRuntimeDeadlock(t *testing.T) {
	ms := uint64(time.Millisecond)
	recheck := Wait{Kind: Timed, Call: "futex", Timeout: time.Second, Known: true}
	for _, tc := range []struct {
		name     string
		found    func(call int) bool
		wantAt   time.Duration // 0: no verdict
		maxCalls int
	}{
		{"the runtime reports a cycle", func(int) bool { return true }, DefaultQuietLock, 1},
		{"on the second question", func(call int) bool { return call >= 2 }, DefaultQuietLock + runtimeProbeEvery, 2},
		{"no cycle: no verdict, questions spaced", func(int) bool { return false }, 0, 6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clock := &fakeClock{t: start}
			calls := 0
			cfg := Config{Root: 1, Clock: clock, Stacker: &fakeStacker{},
				View: &fakeView{clock: clock, procs: func(int) []ProcSample {
					return []ProcSample{proc(10, "java", thread(10, 'S', lock, 5*ms, 3), thread(11, 'S', recheck, ms, 2))}
				}},
				LastOutput: func() time.Time { return start },
				RuntimeDeadlock: func(_ context.Context, p ProcSample) (string, []string) {
					calls++
					if p.PID != 10 || !tc.found(calls) {
						return "", nil
					}
					return `Java-level deadlock (jstack): "main" waits for a java.lang.Object held by "t"`, []string{"HangTest#deadlocks"}
				},
			}
			d := New(cfg)
			var v *Verdict
			for clock.t.Sub(start) <= 12*time.Second && v == nil {
				v = d.Step(context.Background())
				if v == nil {
					clock.t = clock.t.Add(DefaultTick)
				}
			}
			switch {
			case tc.wantAt == 0 && v != nil:
				t.Fatalf("verdict %s: %s", v.Kind, v.Diagnosis)
			case tc.wantAt != 0 && v == nil:
				t.Fatal("no verdict")
			case v != nil:
				at := clock.t.Sub(start)
				if at < tc.wantAt || at > tc.wantAt+DefaultTick {
					t.Errorf("verdict at %v, want %v", at, tc.wantAt)
				}
				if v.Kind != Deadlock || !strings.Contains(v.Diagnosis, `"main" waits for`) || len(v.Tests) != 1 || v.Tests[0].Name != "HangTest#deadlocks" {
					t.Errorf("verdict %+v", v)
				}
			}
			if calls > tc.maxCalls {
				t.Errorf("asked the runtime %d times, want at most %d", calls, tc.maxCalls)
			}
		})
	}
}
