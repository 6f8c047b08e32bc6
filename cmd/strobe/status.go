package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap"

	"strobe/daemon"
)

func init() {
	register(command{name: "status", summary: "[--json]  the daemon's pid, version, uptime and runs", order: 50, run: cmdStatus})
}

func zapErr(err error) zap.Field { return zap.Error(err) }

// session connects to a running daemon (never starting one) for strobe's
// own methods.
func session(ctx context.Context) (*mcp.ClientSession, *daemon.Conn, error) {
	paths, err := daemon.DefaultPaths()
	if err != nil {
		return nil, nil, err
	}
	c, err := daemon.Dial(paths, daemon.NewHello(version))
	if err != nil {
		return nil, nil, err
	}
	cs, err := daemon.NewClient(version, nil).Connect(ctx, c.Transport(), nil)
	if err != nil {
		c.Close()
		return nil, nil, fmt.Errorf("talking to the daemon: %w", err)
	}
	return cs, c, nil
}

func cmdStatus(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("strobe status", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parseFlags(fs, args); err != nil {
		return exitUsage
	}
	cs, c, err := session(ctx)
	if errors.Is(err, daemon.ErrNoDaemon) {
		if *asJSON {
			writeJSON(stdout, map[string]any{"running": false})
		} else {
			fmt.Fprintln(stdout, "no daemon running: `strobe test` or `strobe mcp` starts one")
		}
		return exitOK
	}
	if err != nil {
		fmt.Fprintf(stderr, "strobe: %v\n", err)
		return exitUsage
	}
	defer cs.Close()
	st, err := mcp.CallCustomMethod[*daemon.StatusParams, *daemon.Status](ctx, cs, daemon.MethodStatus, &daemon.StatusParams{})
	if err != nil {
		fmt.Fprintf(stderr, "strobe: asking the daemon: %v\n", err)
		return exitUsage
	}
	if *asJSON {
		writeJSON(stdout, struct {
			Running bool `json:"running"`
			*daemon.Status
		}{true, st})
		return exitOK
	}
	if msg := daemon.Mismatch(c.Welcome, version); msg != "" {
		fmt.Fprintln(stderr, msg)
	}
	idle := "never"
	if st.IdleLimitMS > 0 {
		idle = (time.Duration(st.IdleLimitMS) * time.Millisecond).String()
	}
	fmt.Fprintf(stdout, "daemon pid %d, version %s, up %s, idle shutdown after %s\n", st.PID, st.Version,
		(time.Duration(st.UptimeMS) * time.Millisecond).Round(time.Second), idle)
	fmt.Fprintf(stdout, "home %s, log %s\n", st.Home, st.Log)
	fmt.Fprintf(stdout, "%d run(s) going, %d in memory\n", st.Active, len(st.Runs))
	if len(st.Runs) > 0 {
		tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "RUN\tSTATUS\tFRAMEWORK\tTOOK\tSTARTED\tPROJECT")
		for _, r := range st.Runs {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s ago\t%s\n", shortID(r.RunID), r.Status, r.Framework,
				(time.Duration(r.DurationMS) * time.Millisecond).Round(100*time.Millisecond), time.Since(r.Started).Round(time.Second), r.ProjectRoot)
		}
		tw.Flush()
	}
	return exitOK
}
