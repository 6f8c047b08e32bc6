package kit

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestRunToolCapsOutput(t *testing.T) {
	out, errs, err := RunTool(context.Background(), Tool{MaxOutput: 1000},
		"sh", "-c", "head -c 3000000 /dev/zero; head -c 5000 /dev/zero >&2")
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 1000 || len(errs) != 1000 {
		t.Errorf("kept %d bytes of stdout and %d of stderr, want 1000 of each", len(out), len(errs))
	}
}

func TestRunToolExitError(t *testing.T) {
	_, errs, err := RunTool(context.Background(), Tool{}, "sh", "-c", "echo no >&2; exit 3")
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 3 {
		t.Errorf("err = %v, want exit status 3", err)
	}
	if strings.TrimSpace(string(errs)) != "no" {
		t.Errorf("stderr = %q", errs)
	}
}

// TestRunToolKillsItsGroup: a helper that hangs, and the grandchild it
// started, are both gone when the timeout passes, and RunTool does not
// wait for the grandchild's pipe.
func TestRunToolKillsItsGroup(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	start := time.Now()
	_, _, err := RunTool(context.Background(), Tool{Timeout: 300 * time.Millisecond},
		"sh", "-c", "sleep 60 & echo $! >"+pidFile+"; wait")
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want the deadline", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("RunTool took %v after a 300ms timeout", d)
	}
	b, rerr := os.ReadFile(pidFile)
	if rerr != nil {
		t.Fatal(rerr)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	deadline := time.Now().Add(5 * time.Second)
	for syscall.Kill(pid, 0) == nil {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("the helper's child %d outlived it", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestRunToolCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	_, _, err := RunTool(ctx, Tool{}, "sleep", "60")
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want cancelled", err)
	}
}
