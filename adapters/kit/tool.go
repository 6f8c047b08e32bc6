package kit

import (
	"context"
	"fmt"
	"os/exec"
	"syscall"
	"time"

	"strobe/internal/shell"
)

// Tool says how to run a helper process: a program an adapter runs itself
// while detecting or planning (cargo metadata, a Catch2 probe, xcodebuild
// -list), not the tests.
type Tool struct {
	Dir string
	// Env is the client's environment; the program is looked up on its
	// PATH. Nil means this process's.
	Env []string
	// Timeout bounds the run; 0 leaves it to ctx.
	Timeout time.Duration
	// MaxOutput is how many bytes of stdout, and of stderr, are kept;
	// what comes after is read and dropped. 0 means 1 MiB.
	MaxOutput int
}

// RunTool runs argv to the end in a process group of its own, so that
// whatever it starts goes with it: when ctx ends or the timeout passes,
// the whole group is killed, and the pipes are closed a second later
// even if a grandchild still holds them. It returns what the process
// wrote, capped, and an error wrapping ctx's (context.DeadlineExceeded
// for the timeout) when it was stopped, or the *exec.ExitError of a
// non-zero exit.
func RunTool(ctx context.Context, t Tool, argv ...string) (stdout, stderr []byte, err error) {
	if t.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, t.Timeout)
		defer cancel()
	}
	max := t.MaxOutput
	if max <= 0 {
		max = 1 << 20
	}
	out, errs := &capped{max: max}, &capped{max: max}
	cmd := toolCommand(ctx, t.Env, argv...)
	cmd.Dir = t.Dir
	cmd.Stdout, cmd.Stderr = out, errs
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = time.Second
	err = cmd.Run()
	if ctx.Err() != nil {
		err = fmt.Errorf("%s was stopped: %w", shell.Join(argv), ctx.Err())
	}
	return out.buf, errs.buf, err
}

// capped keeps the first max bytes written to it and drops the rest,
// still answering that it took them so the writer goes on.
type capped struct {
	buf []byte
	max int
}

func (c *capped) Write(p []byte) (int, error) {
	if room := c.max - len(c.buf); room > 0 {
		c.buf = append(c.buf, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

// toolCommand is exec.CommandContext for a program an adapter runs itself
// (a probe, cargo metadata): found on env's PATH and run with env, the
// client's, not the daemon's. A nil env means this process's.
func toolCommand(ctx context.Context, env []string, argv ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	if env != nil {
		if p, err := shell.LookPath(argv[0], env); err == nil {
			cmd.Path, cmd.Err = p, nil
		}
		cmd.Env = env
	}
	return cmd
}
