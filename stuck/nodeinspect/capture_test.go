package nodeinspect

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"strobe/internal/testutil"
)

// startNode runs the stuck fixture hang.js in mode with the run's
// NODE_OPTIONS and waits for its first line of output.
func startNode(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	node := testutil.RequireTool(t, "node")
	script, _ := filepath.Abs("../testdata/node/hang.js")
	cmd := exec.Command(node, append([]string{script}, args...)...)
	cmd.Env = append(os.Environ(), "NODE_OPTIONS="+WithPortOption(os.Getenv("NODE_OPTIONS")))
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	buf := make([]byte, 64)
	if _, err := out.Read(buf); err != nil {
		t.Fatalf("no output from hang.js: %v", err)
	}
	go func() { // keep the pipe drained
		for {
			if _, err := out.Read(buf); err != nil {
				return
			}
		}
	}()
	return cmd
}

func TestTake(t *testing.T) {
	for _, tc := range []struct {
		mode    string
		idle    bool
		frame   string // in the main thread's frames, or its handles when idle
		threads int
	}{
		{mode: "busy", frame: "spinForever (", threads: 1},
		{mode: "promise", idle: true, frame: "setInterval 200ms → <anonymous> (", threads: 1},
		{mode: "workerbusy", frame: "spinForever (", threads: 2},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			cmd := startNode(t, tc.mode)
			time.Sleep(300 * time.Millisecond) // into the hang
			ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
			defer cancel()
			c, err := Take(ctx, cmd.Process.Pid)
			if err != nil {
				t.Fatal(err)
			}
			var text strings.Builder
			for _, th := range c.Threads {
				text.WriteString(th.Name + "\n")
				for _, f := range th.Frames {
					text.WriteString("  " + f.String() + "\n")
				}
				for _, h := range th.Handles {
					text.WriteString("  handle " + h + "\n")
				}
			}
			t.Logf("took %v\n%s", c.Took, text.String())
			if len(c.Threads) != tc.threads {
				t.Errorf("%d threads, want %d", len(c.Threads), tc.threads)
			}
			last := c.Threads[len(c.Threads)-1]
			if last.Idle != tc.idle {
				t.Errorf("idle = %v, want %v", last.Idle, tc.idle)
			}
			if !strings.Contains(text.String(), tc.frame) {
				t.Errorf("capture lacks %q", tc.frame)
			}
		})
	}
}

// TestNextTimer: an interval of the test's and a timer it awaits are
// pending timers; an http server's own unref'd interval is none.
func TestNextTimer(t *testing.T) {
	for _, tc := range []struct {
		args []string
		ok   bool
		max  time.Duration // the timer is due within this
	}{
		{[]string{"promise"}, true, 200 * time.Millisecond},
		{[]string{"sleep", "9"}, true, 9 * time.Second},
		{[]string{"server"}, false, 0},
	} {
		t.Run(tc.args[0], func(t *testing.T) {
			cmd := startNode(t, tc.args...)
			time.Sleep(300 * time.Millisecond) // into the wait
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			start := time.Now()
			in, ok, err := NextTimer(ctx, cmd.Process.Pid)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("next timer in %v (%v), probed in %v", in, ok, time.Since(start))
			if ok != tc.ok || in > tc.max {
				t.Errorf("next timer in %v (%v), want %v within %v", in, ok, tc.ok, tc.max)
			}
		})
	}
}

// TestYoungProcessNotSignalled: node dies of SIGUSR1 before it installs
// its handler (its first milliseconds: a worker a test runner just
// forked, sampled as the run falls silent). A process younger than
// minAge is not told to open its inspector, and lives on.
func TestYoungProcessNotSignalled(t *testing.T) {
	node := testutil.RequireTool(t, "node")
	cmd := exec.Command(node, "-e", "setTimeout(() => {}, 500)")
	cmd.Env = append(os.Environ(), "NODE_OPTIONS="+PortOption)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, _, err := NextTimer(ctx, cmd.Process.Pid); !errors.Is(err, ErrYoung) {
		t.Errorf("NextTimer on a node process just started: %v, want ErrYoung", err)
	}
	if err := cmd.Wait(); err != nil {
		t.Errorf("the node process: %v, want it to live on and exit 0", err)
	}
}

// TestTimerDelay: mocha's timeout(0) arms node's largest delay, which %g
// wrote as 2.147483647e+09ms.
func TestTimerDelay(t *testing.T) {
	for ms, want := range map[float64]string{2147483647: "2147483647ms", 1000: "1000ms", 1.5: "1.5ms"} {
		if got := timerDelay(ms); got != want {
			t.Errorf("timerDelay(%v) = %q, want %q", ms, got, want)
		}
	}
}
