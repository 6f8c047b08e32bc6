package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"strobe/adapters/kit"
	"strobe/daemon"
)

func init() {
	register(command{name: "stop", summary: "  stop the daemon (its runs are cancelled)", order: 51, run: cmdStop})
}

func cmdStop(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintf(stderr, "strobe stop: unexpected argument %q: it takes none\n", args[0])
		return exitUsage
	}
	cs, _, err := session(ctx)
	if errors.Is(err, daemon.ErrNoDaemon) {
		fmt.Fprintln(stdout, "no daemon running")
		return exitOK
	}
	if err != nil {
		// A daemon that will not talk to this client (another protocol, a
		// build that broke) still stops on SIGTERM; its pid is in the lock.
		if paths, perr := daemon.DefaultPaths(); perr == nil {
			if pid := daemon.LockHolder(paths); pid > 0 && kit.Alive(pid) {
				fmt.Fprintf(stderr, "strobe: %v; sending SIGTERM to daemon pid %d\n", err, pid)
				if err := syscall.Kill(pid, syscall.SIGTERM); err != nil {
					fmt.Fprintf(stderr, "strobe: %v\n", err)
					return exitUsage
				}
				return waitGone(pid, stdout, stderr)
			}
		}
		fmt.Fprintf(stderr, "strobe: %v\n", err)
		return exitUsage
	}
	res, err := mcp.CallCustomMethod[*daemon.StopParams, *daemon.Stopping](ctx, cs, daemon.MethodStop, &daemon.StopParams{})
	cs.Close()
	if err != nil {
		fmt.Fprintf(stderr, "strobe: asking the daemon to stop: %v\n", err)
		return exitUsage
	}
	return waitGone(res.PID, stdout, stderr)
}

// waitGone waits until the daemon is gone: its runs are stopped (SIGTERM,
// grace, SIGKILL) before it exits.
func waitGone(pid int, stdout, stderr io.Writer) int {
	deadline := time.Now().Add(30 * time.Second)
	for kit.Alive(pid) {
		if time.Now().After(deadline) {
			fmt.Fprintf(stderr, "strobe: daemon pid %d is still running after 30s\n", pid)
			return exitFailed
		}
		time.Sleep(10 * time.Millisecond)
	}
	fmt.Fprintf(stdout, "daemon pid %d stopped\n", pid)
	return exitOK
}
