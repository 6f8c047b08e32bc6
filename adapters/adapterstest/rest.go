package adapterstest

import (
	"context"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// restTimeout bounds the rest's command: one that runs the test that hung
// hangs again, and the test fails on its error instead of waiting for go
// test's own timeout.
const restTimeout = 60 * time.Second

// RunRest runs, in dir, the command a stopped run's hint gives for the
// rest of its tests ("…; to run the rest without what hung: CMD", or
// "what was running" at a timeout, the runner's own hint after it), as a
// person pasting it would, and returns the command and what it printed.
// The test fails when the hint has none. The command's process group is
// killed after restTimeout.
func RunRest(t *testing.T, hint, dir string) (cmd string, out []byte, err error) {
	t.Helper()
	_, rest, ok := strings.Cut(hint, "to run the rest without ")
	if ok {
		_, rest, ok = strings.Cut(rest, ": ")
	}
	if !ok {
		t.Fatalf("hint %q gives no command for the rest", hint)
	}
	rest, _, _ = strings.Cut(rest, "; ")
	rest, _, _ = strings.Cut(rest, ". ") // the runner's hint follows
	ctx, cancel := context.WithTimeout(context.Background(), restTimeout)
	defer cancel()
	c := exec.CommandContext(ctx, "sh", "-c", rest)
	c.Dir = dir
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	c.Cancel = func() error { return syscall.Kill(-c.Process.Pid, syscall.SIGKILL) }
	c.WaitDelay = 5 * time.Second
	out, err = c.CombinedOutput()
	return rest, out, err
}
