package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

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
		fmt.Fprintf(stderr, "strobe: %v\n", err)
		return exitUsage
	}
	res, err := mcp.CallCustomMethod[*daemon.StopParams, *daemon.Stopping](ctx, cs, daemon.MethodStop, &daemon.StopParams{})
	cs.Close()
	if err != nil {
		fmt.Fprintf(stderr, "strobe: asking the daemon to stop: %v\n", err)
		return exitUsage
	}
	// Wait until it is gone: its runs are stopped (SIGTERM, grace, SIGKILL)
	// before it exits.
	deadline := time.Now().Add(30 * time.Second)
	for alive(res.PID) {
		if time.Now().After(deadline) {
			fmt.Fprintf(stderr, "strobe: daemon pid %d is still running after 30s\n", res.PID)
			return exitFailed
		}
		time.Sleep(10 * time.Millisecond)
	}
	fmt.Fprintf(stdout, "daemon pid %d stopped\n", res.PID)
	return exitOK
}

// alive reports whether pid runs; a zombie (an exited daemon whose parent
// has not reaped it) does not.
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	_, rest, _ := strings.Cut(string(b), ") ")
	return !strings.HasPrefix(rest, "Z")
}
