package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/term"

	"strobe/daemon"
	"strobe/report"
	"strobe/runner"
)

// statusWait is how long each debug_test_status call of the CLI waits.
const statusWait = 45 * time.Second

// testThroughDaemon runs req in the daemon (started on demand) as an MCP
// client of the same SDK agents use: debug_test waits for the answer (then
// debug_test_status, for a run longer than statusWait), with progress
// notifications drawn on a terminal. Ctrl+C (ctx) cancels the run in the
// daemon and prints its partial result.
func testThroughDaemon(ctx context.Context, req runner.Request, asJSON bool, junitPath string, stdout, stderr io.Writer) int {
	paths, err := daemon.DefaultPaths()
	if err != nil {
		return usageError(stdout, stderr, asJSON, err)
	}
	conn, err := daemon.Connect(ctx, paths, daemon.NewHello(version))
	if err != nil {
		if ctx.Err() != nil {
			return exitInterrupt
		}
		return usageError(stdout, stderr, asJSON, fmt.Errorf("%v (`strobe test --no-daemon` runs without the daemon)", err))
	}
	if msg := daemon.Mismatch(conn.Welcome, version); msg != "" {
		fmt.Fprintln(stderr, msg)
	}
	var p *remoteProgress
	var draw *progress
	if f, ok := stderr.(*os.File); ok && !asJSON && term.IsTerminal(int(f.Fd())) {
		p = &remoteProgress{}
		draw = startProgress(f, p.line)
		defer draw.stop()
	}
	// One debug_test call waits for the answer; its progress notifications
	// carry the run id, for the partial result if Ctrl+C comes first.
	var mu sync.Mutex
	runID := ""
	opts := &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{},
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			if id, ok := r.Params.Meta[daemon.MetaRunID].(string); ok {
				mu.Lock()
				runID = id
				mu.Unlock()
			}
			p.update(r.Params)
		}}
	// The session lives until we close it: Ctrl+C must still reach the
	// daemon through it.
	cs, err := daemon.NewClient(version, opts).Connect(context.WithoutCancel(ctx), conn.Transport(), nil)
	if err != nil {
		conn.Close()
		return usageError(stdout, stderr, asJSON, fmt.Errorf("talking to the strobe daemon: %w", err))
	}
	defer cs.Close()

	wait := statusWait.Milliseconds()
	args := daemon.TestArgs{ProjectRoot: req.ProjectRoot, Framework: req.Framework, Level: req.Level, Test: req.Test,
		Command: req.Command, Env: req.Env, Timeout: req.Timeout.Milliseconds(), WaitMs: &wait,
		OnlyFailed: req.OnlyFailed, Partition: req.Partition,
		Retries: req.Retries, RetryStuck: req.RetryStuck, Repeat: req.Repeat}
	args.TracePatterns, args.Watches = daemonTraceArgs(req.Trace)
	if req.Timeout > 0 && args.Timeout == 0 {
		args.Timeout = 1
	}
	// Interrupted: the cancelled call already told the daemon to stop the
	// run; ask for its partial result explicitly.
	cancelRun := func(id string) int {
		cctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		resp, err := callTool(cctx, cs, "debug_test_cancel", daemon.CancelArgs{RunID: id}, nil)
		if err != nil {
			fmt.Fprintf(stderr, "strobe: cancelling run %s: %v\n", id, err)
			return exitInterrupt
		}
		draw.stop()
		return finish(stdout, stderr, resp, asJSON, junitPath, req.ProjectRoot)
	}
	resp, err := callTool(ctx, cs, "debug_test", args, "strobe-cli-0")
	switch {
	case ctx.Err() != nil:
		mu.Lock()
		id := runID
		mu.Unlock()
		if id == "" {
			return exitInterrupt // interrupted before the run had begun
		}
		return cancelRun(id)
	case err != nil:
		return usageError(stdout, stderr, asJSON, daemonGone(err, paths))
	}
	p.show(resp)
	for n := 1; resp.Status == report.Running; n++ {
		id := resp.RunID
		resp, err = callTool(ctx, cs, "debug_test_status", daemon.StatusArgs{RunID: id, WaitMs: &wait}, fmt.Sprintf("strobe-cli-%d", n))
		if ctx.Err() != nil {
			return cancelRun(id)
		}
		if err != nil {
			return usageError(stdout, stderr, asJSON, fmt.Errorf("waiting for run %s: %w", id, daemonGone(err, paths)))
		}
	}
	draw.stop() // erase the line before the answer
	return finish(stdout, stderr, resp, asJSON, junitPath, req.ProjectRoot)
}

// daemonGone says what a lost connection to the daemon means for the run:
// the daemon's reaper stopped the run's processes when it went away, and
// the daemon's log says why it did. Other errors are returned as they are.
func daemonGone(err error, paths daemon.Paths) error {
	if errors.Is(err, mcp.ErrConnectionClosed) || errors.Is(err, io.EOF) || strings.Contains(err.Error(), "EOF") {
		return fmt.Errorf("the strobe daemon went away during the run (see %s); its processes were stopped: run the tests again", paths.Log)
	}
	return err
}

// callTool calls a strobe tool and decodes its response. A tool error is
// returned as an error with its one-line reason.
func callTool(ctx context.Context, cs *mcp.ClientSession, name string, args any, token any) (*report.Response, error) {
	params := &mcp.CallToolParams{Name: name, Arguments: args}
	if token != nil {
		params.SetProgressToken(token)
	}
	res, err := cs.CallTool(ctx, params)
	if err != nil {
		return nil, err
	}
	if res.IsError {
		var msg []string
		for _, c := range res.Content {
			if t, ok := c.(*mcp.TextContent); ok {
				msg = append(msg, t.Text)
			}
		}
		return nil, errors.New(strings.Join(msg, " "))
	}
	var b []byte
	if res.StructuredContent != nil {
		b, err = json.Marshal(res.StructuredContent)
	} else if len(res.Content) > 0 {
		if t, ok := res.Content[0].(*mcp.TextContent); ok {
			b = []byte(t.Text)
		}
	}
	var resp report.Response
	if err == nil {
		err = json.Unmarshal(b, &resp)
	}
	if err != nil || resp.Status == "" {
		return nil, fmt.Errorf("the daemon's answer to %s is not a response: %.200s", name, b)
	}
	return &resp, nil
}

// remoteProgress holds the latest progress of a run in the daemon, from
// its answers and progress notifications, for the progress line.
type remoteProgress struct {
	mu        sync.Mutex
	framework string
	pr        *report.Progress
	at        time.Time
}

func (p *remoteProgress) show(resp *report.Response) {
	if p == nil || resp.Progress == nil {
		return
	}
	p.mu.Lock()
	p.framework, p.pr, p.at = resp.Framework, resp.Progress, time.Now()
	p.mu.Unlock()
}

func (p *remoteProgress) update(params *mcp.ProgressNotificationParams) {
	if p == nil {
		return
	}
	raw, ok := params.Meta[daemon.MetaProgress]
	if !ok {
		return
	}
	b, _ := json.Marshal(raw)
	var pr report.Progress
	if json.Unmarshal(b, &pr) != nil {
		return
	}
	fw, _ := params.Meta[daemon.MetaFramework].(string)
	p.mu.Lock()
	p.framework, p.pr, p.at = fw, &pr, time.Now()
	p.mu.Unlock()
}

// line is the progress line, with the clocks moved on since the last news.
func (p *remoteProgress) line() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.pr == nil {
		return ""
	}
	since := time.Since(p.at).Milliseconds()
	pr := *p.pr
	pr.ElapsedMS += since
	pr.Running = slices.Clone(pr.Running)
	for i := range pr.Running {
		pr.Running[i].ElapsedMS += since
	}
	return daemon.ProgressMessage(p.framework, &pr)
}
