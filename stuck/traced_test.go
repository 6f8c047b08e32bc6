package stuck

import (
	"context"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"strobe/internal/testutil"
)

// A test process held in tracing stop by a debugger of the run is the
// debugger at work, never a hang; the same process in a lock wait is a
// deadlock, found in the test process, not in the debugger that waits
// for it.
func TestDebuggerStopsAreNotHangs(t *testing.T) {
	tree := func(state byte, w Wait) func(int) []ProcSample {
		return func(int) []ProcSample {
			gdb := proc(1, "gdb", thread(1, 'S', childWait, 0, 0), thread(2, 'S', lock, 0, 0))
			test := proc(2, "hang", thread(10, state, w, 0, 0), thread(11, state, w, 0, 0))
			test.PPID, test.TracerPID = 1, 1
			return []ProcSample{gdb, test}
		}
	}
	if v, _ := (scenario{procs: tree('t', Wait{Kind: Stopped}), duration: 30 * time.Second}).run(t); v != nil {
		t.Errorf("verdict on a debugger's stop: %s: %s", v.Kind, v.Diagnosis)
	}
	v, _ := scenario{procs: tree('S', lock), duration: 30 * time.Second}.run(t)
	if v == nil || v.Kind != Deadlock || v.Process.PID != 2 {
		t.Errorf("verdict %+v, want a deadlock of pid 2", v)
	}
}

// A deadlock under a real debugger is still called one, and the stacks of
// a process a debugger holds are refused at once, saying why.
func TestDeadlockUnderGDB(t *testing.T) {
	gdb := testutil.RequireTool(t, "gdb")
	cc := testutil.RequireTool(t, "gcc")
	dir := t.TempDir()
	src := dir + "/relock.c"
	os.WriteFile(src, []byte("#include <pthread.h>\n#include <stdio.h>\nint main(void){pthread_mutex_t m=PTHREAD_MUTEX_INITIALIZER;puts(\"locking\");fflush(stdout);pthread_mutex_lock(&m);pthread_mutex_lock(&m);return 0;}\n"), 0o600)
	if out, err := exec.Command(cc, "-g", "-pthread", "-o", dir+"/relock", src).CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	cmd := exec.Command(gdb, "-nx", "-batch", "-ex", "run", "--args", dir+"/relock")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	started := time.Now()
	d := New(Config{Root: cmd.Process.Pid, LastOutput: func() time.Time { return started }, Stacker: UntracedStacker(NativeStacker())})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	v := d.Run(ctx)
	if v == nil {
		t.Fatal("no verdict on a deadlock under gdb")
	}
	if v.Kind != Deadlock || v.Process.TracerPID != cmd.Process.Pid {
		t.Errorf("verdict %s on %s (tracer %d): %s", v.Kind, v.Process.Name, v.Process.TracerPID, v.Diagnosis)
	}
	if len(v.Stacks.Stacks) != 0 || !strings.HasPrefix(v.Stacks.Reason, "stacks unavailable: the test runs under the tracer (gdb, pid ") {
		t.Errorf("stacks: %+v", v.Stacks)
	}
	if took := time.Since(started); took > 15*time.Second {
		t.Errorf("verdict after %v", took)
	}
}

// holdingStacker captures with a real gdb that holds the process for a
// moment, as a slow sample of strobe's own does; others answer at once.
type holdingStacker struct{ gdb string }

func (h holdingStacker) Stacks(ctx context.Context, pid int, _ string, opt Opts) Capture {
	if opt.Lines {
		return Capture{PID: pid, Tool: "fake", Stacks: []Stack{{TID: pid, Frames: []Frame{{Func: "main"}}}}}
	}
	exec.CommandContext(ctx, h.gdb, "-p", strconv.Itoa(pid), "-batch", "-nx", "-ex", "shell sleep 1.5").Run()
	return Capture{PID: pid, Tool: "gdb"}
}

// A capture that finds the process held by another capture's tool waits
// for it to let go, instead of blaming a debugger: the timeout's capture
// of a Go test came back "stacks unavailable: the test runs under the
// tracer (gdb)", strobe's own.
func TestCaptureWaitsForItsOwnTool(t *testing.T) {
	gdb := testutil.RequireTool(t, "gdb")
	sleep := exec.Command("sleep", "60")
	if err := sleep.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { sleep.Process.Kill(); sleep.Wait() }()
	pid := sleep.Process.Pid
	u := UntracedStacker(holdingStacker{gdb: gdb})
	done := make(chan Capture)
	go func() { done <- u.Stacks(context.Background(), pid, "", Opts{}) }()
	for deadline := time.Now().Add(10 * time.Second); TracerPID(pid) == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("gdb never attached")
		}
	}
	c := u.Stacks(context.Background(), pid, "", Opts{Lines: true})
	if c.Tool != "fake" || len(c.Stacks) == 0 {
		t.Errorf("capture while the other held the process: tool %q, %q; want the stacks once it let go", c.Tool, c.Reason)
	}
	<-done
}
