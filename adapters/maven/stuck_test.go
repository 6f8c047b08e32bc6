package maven

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
	"strobe/report"
	"strobe/stuck"
)

// stamped is the Maven adapter whose parser notes when each line came:
// the stuck detector's output clock, as the runner keeps it.
type stamped struct {
	mavenAdapter
	last    *atomic.Int64
	running *atomic.Int64 // when the hang fixture's class started
}

func (a stamped) Plan(ctx context.Context, req adapters.Request, rec *adapters.Recorder) (*adapters.Plan, error) {
	plan, err := a.mavenAdapter.Plan(ctx, req, rec)
	if err == nil {
		plan.Parser = stampParser{plan.Parser, a}
	}
	return plan, err
}

type stampParser struct {
	adapters.Parser
	a stamped
}

func (s stampParser) Line(st adapters.Stream, b []byte, cut bool) {
	now := time.Now().UnixNano()
	s.a.last.Store(now)
	if strings.Contains(string(b), "Running com.example.HangTest") && s.a.running.Load() == 0 {
		s.a.running.Store(now)
	}
	s.Parser.Line(st, b, cut)
}

// watchHang runs one test of the hang fixture with the stuck detector
// beside it, wired as the runner wires it (the adapter's test processes
// and harness threads), until a verdict or the run's end.
func watchHang(t *testing.T, test string) (*stuck.Verdict, *adapterstest.Started, time.Duration) {
	requireMaven(t)
	root := adapterstest.CopyFixture(t, "hang")
	a := stamped{last: new(atomic.Int64), running: new(atomic.Int64)}
	a.last.Store(time.Now().UnixNano())
	s := adapterstest.Start(t, a, adapters.Request{ProjectRoot: root, Test: test})
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	exited := make(chan struct{})
	go func() {
		s.Wait()
		close(exited)
		cancel()
	}()
	d := stuck.New(stuck.Config{
		Root:        s.Cmd.Process.Pid,
		LastOutput:  func() time.Time { return time.Unix(0, a.last.Load()) },
		Judging:     func() bool { return s.Rec.Progress().Phase == adapters.PhaseRunning },
		TestProcess: func(p stuck.ProcSample) bool { return a.IsTestProcess(procOf(p)) },
		Harness: func(p stuck.ProcSample, th stuck.ThreadSample) bool {
			return a.IsHarnessThread(procOf(p), th.TID, th.Name)
		},
		RuntimeDeadlock: func(ctx context.Context, p stuck.ProcSample) (string, []string) {
			return a.RuntimeDeadlock(ctx, procOf(p))
		},
		Running: func() []stuck.RunningTest {
			var out []stuck.RunningTest
			for _, t := range s.Rec.Progress().Running {
				out = append(out, stuck.RunningTest{Name: t.Name, Since: t.Since})
			}
			return out
		},
	})
	v := d.Run(ctx)
	latency := time.Duration(0)
	if v != nil && a.running.Load() != 0 {
		latency = v.At.Sub(time.Unix(0, a.running.Load()))
	}
	// The hung JVM stays for the stacks; then the whole group goes, as
	// the runner stops a stuck run (or the test's own time ran out).
	t.Cleanup(func() {
		syscall.Kill(-s.Cmd.Process.Pid, syscall.SIGKILL)
		<-exited
	})
	if v == nil && ctx.Err() == context.DeadlineExceeded {
		t.Fatalf("no verdict and no end in 90 s (last suspicion: %s)", d.Warning())
	}
	if v == nil {
		<-exited
	}
	return v, s, latency
}

func procOf(p stuck.ProcSample) adapters.Proc {
	return adapters.Proc{PID: p.PID, Name: p.Name, Exe: p.Exe, Args: p.Args}
}

// TestDeadlockStacks: two threads deadlocked on two synchronized locks
// in the forked JVM; jstack shows both in the test's own frames, and the
// JVM's deadlock report. The detector's verdict on it is not asserted:
// HotSpot parks a thread blocked on a monitor with a 1 s recheck timeout,
// which the detector reads as a wait that ends (see the report); the hard
// timeout's capture shows these stacks.
func TestDeadlockStacks(t *testing.T) {
	requireMaven(t)
	root := adapterstest.CopyFixture(t, "hang")
	s := adapterstest.Start(t, mavenAdapter{}, adapters.Request{ProjectRoot: root, Test: "HangTest#deadlocks"})
	t.Cleanup(func() { syscall.Kill(-s.Cmd.Process.Pid, syscall.SIGKILL) })
	var fork adapters.Proc
	for deadline := time.Now().Add(60 * time.Second); fork.PID == 0 && time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		fork = findFork(root)
	}
	if fork.PID == 0 {
		t.Fatal("no forked Surefire JVM in 60 s")
	}
	var text, reason string
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(time.Second) {
		s := mavenAdapter{}.CaptureStacks(context.Background(), fork, root)
		threads := s.Threads
		reason = s.Reason
		var all []string
		for _, th := range threads {
			all = append(all, th.Name+"\n  "+strings.Join(th.Stack, "\n  "))
		}
		if text = strings.Join(all, "\n"); strings.Contains(text, "Java-level deadlock") {
			break
		}
	}
	for _, want := range []string{"Java-level deadlock", "com.example.HangTest.deadlocks (src/test/java/com/example/HangTest.java:25)",
		"com.example.HangTest.lambda$deadlocks$0 (src/test/java/com/example/HangTest.java:17)"} {
		if !strings.Contains(text, want) {
			t.Errorf("stacks lack %q (%s):\n%s", want, reason, text)
		}
	}
}

// findFork is the forked Surefire JVM running in root, from /proc.
func findFork(root string) adapters.Proc {
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", d.Name(), "cmdline"))
		comm, _ := os.ReadFile(filepath.Join("/proc", d.Name(), "comm"))
		if err != nil || !strings.Contains(string(b), root) {
			continue
		}
		p := adapters.Proc{PID: pid, Name: strings.TrimSpace(string(comm)), Args: strings.Split(strings.TrimRight(string(b), "\x00"), "\x00")}
		if (mavenAdapter{}).IsTestProcess(p) {
			return p
		}
	}
	return adapters.Proc{}
}

// TestSleepNoVerdict: a test sleeping 9 s in silence, beside the JVM's
// collector and compiler threads, is no hang.
func TestSleepNoVerdict(t *testing.T) {
	v, s, _ := watchHang(t, "HangTest#sleepsQuietly")
	if v != nil {
		t.Fatalf("verdict %s on a sleep: %s", v.Kind, v.Diagnosis)
	}
	if tt, ok := adapterstest.TestByName(s.Rec.Tests(), "HangTest#sleepsQuietly"); !ok || tt.Status != report.TestPassed {
		t.Errorf("the sleeping test: %+v, want passed", tt)
	}
}
