package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"

	"strobe/daemon"
)

func init() {
	register(command{name: "mcp", summary: "  speak MCP on stdin/stdout for an agent, through the daemon (started on demand)", order: 30, run: cmdMCP})
}

// cmdMCP bridges stdio to the daemon. Nothing but protocol goes to stdout;
// what a person should know goes to stderr, which agents log.
func cmdMCP(ctx context.Context, args []string, _, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintf(stderr, "strobe mcp: unexpected argument %q: it takes none\n", args[0])
		return exitUsage
	}
	paths, err := daemon.DefaultPaths()
	if err != nil {
		fmt.Fprintf(stderr, "strobe: %v\n", err)
		return exitUsage
	}
	var once sync.Once
	dial := func(ctx context.Context) (*daemon.Conn, error) {
		c, err := daemon.Connect(ctx, paths, daemon.NewHello(version))
		if err != nil {
			fmt.Fprintf(stderr, "strobe mcp: %v\n", err)
			return nil, err
		}
		if msg := daemon.Mismatch(c.Welcome, version); msg != "" {
			once.Do(func() { fmt.Fprintln(stderr, msg) })
		}
		return c, nil
	}
	if err := daemon.Bridge(ctx, os.Stdin, os.Stdout, dial); err != nil {
		fmt.Fprintf(stderr, "strobe mcp: %v\n", err)
		return exitFailed
	}
	return exitOK
}
