package main

// End-to-end tests of the daemon: real `strobe daemon` and `strobe mcp`
// processes, real sockets, and an MCP client of the official SDK, as an
// agent would use them.

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"strobe/daemon"
	"strobe/internal/testutil"
	"strobe/report"
)

func init() {
	// Connect starts the daemon from "this" executable: here, strobe.
	daemon.Executable = func() (string, error) { return strobeBin, nil }
}

// env is the environment a test's clients and daemons run with. TMPDIR
// (where details files go) is inside the test's STROBE_HOME, removed only
// after its daemon has stopped writing there.
func env(t *testing.T, extra ...string) []string {
	home := strobeHome(t)
	tmp := filepath.Join(home, "tmp")
	os.MkdirAll(tmp, 0o700)
	return append(append(os.Environ(), "STROBE_HOME="+home, "TMPDIR="+tmp), extra...)
}

// progressLog collects progress notifications.
type progressLog struct {
	mu   sync.Mutex
	msgs []*mcp.ProgressNotificationParams
}

func (p *progressLog) handler(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
	p.mu.Lock()
	p.msgs = append(p.msgs, r.Params)
	p.mu.Unlock()
}

func (p *progressLog) all() []*mcp.ProgressNotificationParams {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]*mcp.ProgressNotificationParams(nil), p.msgs...)
}

// socketSession is an SDK client on the daemon's socket (the daemon started
// on demand), speaking protocol version (empty: the SDK's default).
func socketSession(t *testing.T, version string, prog *progressLog) *mcp.ClientSession {
	t.Helper()
	p := homePaths(t, strobeHome(t))
	h := daemon.NewHello("test")
	h.Env = env(t)
	c, err := daemon.Connect(context.Background(), p, h)
	if err != nil {
		t.Fatal(err)
	}
	return connect(t, c.Transport(), version, prog)
}

// stdioSession is an SDK client of `strobe mcp` run as an agent runs it.
func stdioSession(t *testing.T, version string, prog *progressLog) *mcp.ClientSession {
	t.Helper()
	cmd := exec.Command(strobeBin, "mcp")
	cmd.Env = env(t)
	cmd.Stderr = &testWriter{t: t, prefix: "strobe mcp: "}
	return connect(t, &mcp.CommandTransport{Command: cmd}, version, prog)
}

func connect(t *testing.T, tr mcp.Transport, version string, prog *progressLog) *mcp.ClientSession {
	t.Helper()
	opts := &mcp.ClientOptions{}
	if prog != nil {
		opts.ProgressNotificationHandler = prog.handler
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, opts).Connect(context.Background(), tr, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("connecting (protocol %q): %v", version, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

type testWriter struct {
	t      *testing.T
	prefix string
}

func (w *testWriter) Write(p []byte) (int, error) {
	w.t.Log(w.prefix + strings.TrimSpace(string(p)))
	return len(p), nil
}

// call calls a tool; a tool error comes back as toolErr.
func call(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any, token any) (resp report.Response, toolErr string) {
	t.Helper()
	resp, toolErr, err := callCtx(context.Background(), cs, name, args, token)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return resp, toolErr
}

func callCtx(ctx context.Context, cs *mcp.ClientSession, name string, args map[string]any, token any) (report.Response, string, error) {
	params := &mcp.CallToolParams{Name: name, Arguments: args}
	if token != nil {
		params.SetProgressToken(token)
	}
	res, err := cs.CallTool(ctx, params)
	if err != nil {
		return report.Response{}, "", err
	}
	text := ""
	if len(res.Content) > 0 {
		text = res.Content[0].(*mcp.TextContent).Text
	}
	if res.IsError {
		return report.Response{}, text, nil
	}
	// Both kinds of client read the same answer: structured and as text.
	var resp, fromText report.Response
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &resp); err != nil {
		return resp, "", fmt.Errorf("structured content: %v: %s", err, b)
	}
	if err := json.Unmarshal([]byte(text), &fromText); err != nil || fromText.RunID != resp.RunID || fromText.Status != resp.Status {
		return resp, "", fmt.Errorf("text content is not the response: %v: %s", err, text)
	}
	return resp, "", nil
}

// tap is a generic command printing TAP after sleeping secs.
func tap(secs float64) string {
	return fmt.Sprintf("sleep %g; echo 'ok 1 - slow'", secs)
}

func TestMCPSession(t *testing.T) {
	testutil.RequireTool(t, "go")
	for _, tc := range []struct{ transport, version string }{
		{"socket", ""},
		{"stdio", "2025-06-18"},
		{"stdio", "2025-11-25"},
		{"stdio", ""}, // the SDK's default: the stateless 2026-07-28
	} {
		name := tc.transport + "/" + tc.version
		if tc.version == "" {
			name = tc.transport + "/default"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			prog := &progressLog{}
			var cs *mcp.ClientSession
			if tc.transport == "socket" {
				cs = socketSession(t, tc.version, prog)
			} else {
				cs = stdioSession(t, tc.version, prog)
			}
			if want := tc.version; want != "" && cs.InitializeResult().ProtocolVersion != want {
				t.Errorf("negotiated %s, want %s", cs.InitializeResult().ProtocolVersion, want)
			}
			tools, err := cs.ListTools(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			byName := map[string]*mcp.Tool{}
			for _, tool := range tools.Tools {
				byName[tool.Name] = tool
			}
			for _, n := range []string{"debug_test", "debug_test_status", "debug_test_cancel"} {
				if byName[n] == nil || byName[n].Description == "" || byName[n].OutputSchema == nil {
					t.Fatalf("tool %s missing, undescribed or without output schema: %+v", n, byName[n])
				}
			}
			schema, _ := json.Marshal(byName["debug_test"].InputSchema)
			if !strings.Contains(string(schema), `"required":["projectRoot"]`) || !strings.Contains(string(schema), `"waitMs"`) {
				t.Errorf("debug_test input schema: %s", schema)
			}

			// A real fixture suite.
			resp, terr := call(t, cs, "debug_test", map[string]any{"projectRoot": example("go-demo")}, nil)
			if terr != "" || resp.Status != report.Failed || resp.Summary == nil || resp.Summary.Passed != 1 || resp.Summary.Failed != 2 {
				t.Fatalf("go-demo: %+v %s", resp, terr)
			}

			// Progress while a call waits.
			dir := t.TempDir()
			resp, terr = call(t, cs, "debug_test", map[string]any{"projectRoot": dir, "command": "echo 'ok 1 - first'; " + tap(0.8)}, "tok-1")
			if terr != "" || resp.Status != report.Passed {
				t.Fatalf("slow suite: %+v %s", resp, terr)
			}
			got := prog.all()
			if len(got) == 0 {
				t.Fatal("no progress notification")
			}
			last := got[len(got)-1]
			if last.ProgressToken != "tok-1" || last.Meta[daemon.MetaRunID] != resp.RunID || !strings.Contains(last.Message, "generic") {
				t.Errorf("progress %+v, want token tok-1, runId %s", last, resp.RunID)
			}
		})
	}
}

func TestMCPLongRunAndBadArguments(t *testing.T) {
	cs := socketSession(t, "", nil)
	dir := t.TempDir()
	resp, terr := call(t, cs, "debug_test", map[string]any{"projectRoot": dir, "command": tap(1.5), "waitMs": 200}, nil)
	if terr != "" || resp.Status != report.Running || resp.RunID == "" || resp.Progress == nil {
		t.Fatalf("want running with progress after 200 ms: %+v %s", resp, terr)
	}
	id := resp.RunID

	// A second run on the same project names the one going.
	if _, terr := call(t, cs, "debug_test", map[string]any{"projectRoot": dir, "command": "true"}, nil); !strings.Contains(terr, id) {
		t.Errorf("second run on a busy project: %q, want an error naming %s", terr, id)
	}
	resp, _ = call(t, cs, "debug_test_status", map[string]any{"runId": id, "waitMs": 100}, nil)
	if resp.Status != report.Running || resp.Progress.ElapsedMS < 200 {
		t.Errorf("status after 300 ms: %+v", resp)
	}
	resp, _ = call(t, cs, "debug_test_status", map[string]any{"runId": id, "waitMs": 20000}, nil)
	if resp.Status != report.Passed || resp.RunID != id {
		t.Errorf("final status: %+v", resp)
	}

	file := filepath.Join(dir, "f")
	os.WriteFile(file, nil, 0o644)
	for _, tc := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"debug_test", map[string]any{}, "projectRoot"},
		{"debug_test", map[string]any{"projectRoot": "relative/dir"}, "not absolute"},
		{"debug_test", map[string]any{"projectRoot": file}, "is a file"},
		{"debug_test", map[string]any{"projectRoot": dir, "framework": "nose"}, "unknown framework"},
		{"debug_test", map[string]any{"projectRoot": dir, "command": "true", "waitMs": -1}, "negative"},
		{"debug_test", map[string]any{"projectRoot": dir, "command": "true", "waitMs": "soon"}, "waitMs"},
		{"debug_test_status", map[string]any{"runId": "no-such-run"}, "no run"},
		{"debug_test_cancel", map[string]any{"runId": ""}, "runId"},
	} {
		_, terr := call(t, cs, tc.tool, tc.args, nil)
		if !strings.Contains(terr, tc.want) || strings.Contains(terr, "\n") {
			t.Errorf("%s %v: tool error %q, want one line mentioning %q", tc.tool, tc.args, terr, tc.want)
		}
	}
	// The daemon is still there and serving.
	if resp, terr := call(t, cs, "debug_test", map[string]any{"projectRoot": dir, "command": "echo ok 1 - x"}, nil); resp.Status != report.Passed {
		t.Errorf("after bad arguments: %+v %s", resp, terr)
	}
}

// sleeper is a generic suite that hangs in a process named uniquely, so the
// test can find it.
func sleeper(t *testing.T) (cmd, mark string) {
	mark = fmt.Sprintf("%d.%03d", 40+time.Now().Nanosecond()%50, time.Now().Nanosecond()%1000)
	return "echo 'ok 1 - started'; sleep " + mark + "; echo 'ok 2 - never'", "sleep " + mark
}

// waitForProcess waits for the run's process whose arguments are name's
// words (the sleeper's sleep: its command line holds them NUL-separated).
// The shell whose script names the sleep does not match, so the shell has
// echoed its first line by then.
func waitForProcess(t *testing.T, name string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for len(testProcesses(strings.ReplaceAll(name, " ", "\x00"))) == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%s never started", name)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// noneLeft waits for the run's processes that name names to be gone: the
// shell whose script holds it, and the process it is the arguments of.
func noneLeft(t *testing.T, name string, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	left := func() []int {
		return append(testProcesses(name), testProcesses(strings.ReplaceAll(name, " ", "\x00"))...)
	}
	for len(left()) > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("processes of the run outlived it: %v", left())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestMCPCancel(t *testing.T) {
	cs := socketSession(t, "", nil)
	t.Run("debug_test_cancel", func(t *testing.T) {
		cmd, mark := sleeper(t)
		resp, _ := call(t, cs, "debug_test", map[string]any{"projectRoot": t.TempDir(), "command": cmd, "waitMs": 0}, nil)
		waitForProcess(t, mark)
		resp, terr := call(t, cs, "debug_test_cancel", map[string]any{"runId": resp.RunID}, nil)
		if resp.Status != report.Cancelled || resp.Summary == nil || resp.Summary.Passed != 1 {
			t.Errorf("cancel: %+v %s, want cancelled with the test that passed", resp, terr)
		}
		if left := processesOf(resp.RunID); len(left) > 0 {
			t.Errorf("left after cancel: %v", left)
		}
	})
	t.Run("cancelled call", func(t *testing.T) {
		cmd, mark := sleeper(t)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() {
			_, _, err := callCtx(ctx, cs, "debug_test", map[string]any{"projectRoot": t.TempDir(), "command": cmd}, nil)
			done <- err
		}()
		waitForProcess(t, mark)
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled call returned %v", err)
		}
		noneLeft(t, mark, 8*time.Second)
	})
}

func TestMCPDisconnectKeepsTheRun(t *testing.T) {
	dir := t.TempDir()
	cs := socketSession(t, "", nil)
	resp, _ := call(t, cs, "debug_test", map[string]any{"projectRoot": dir, "command": tap(1), "waitMs": 100}, nil)
	if resp.Status != report.Running {
		t.Fatalf("want running: %+v", resp)
	}
	cs.Close()
	cs2 := socketSession(t, "", nil)
	resp2, terr := call(t, cs2, "debug_test_status", map[string]any{"runId": resp.RunID, "waitMs": 20000}, nil)
	if resp2.Status != report.Passed || resp2.Details == "" {
		t.Errorf("after reconnecting: %+v %s", resp2, terr)
	}
}

func TestDaemonKilledMidRun(t *testing.T) {
	for _, version := range []string{"2025-11-25", ""} {
		t.Run("protocol "+version, func(t *testing.T) {
			cs := stdioSession(t, version, nil)
			cmd, mark := sleeper(t)
			done := make(chan error, 1)
			go func() {
				_, _, err := callCtx(context.Background(), cs, "debug_test", map[string]any{"projectRoot": t.TempDir(), "command": cmd, "waitMs": 60000}, nil)
				done <- err
			}()
			waitForProcess(t, mark)
			pid := daemon.LockHolder(homePaths(t, strobeHome(t)))
			syscall.Kill(pid, syscall.SIGKILL)
			select {
			case err := <-done:
				var werr *jsonrpc.Error
				if !errors.As(err, &werr) || werr.Code != daemon.CodeDaemonLost || !strings.Contains(werr.Message, "retry") {
					t.Errorf("in-flight call: %v, want a JSON-RPC error saying to retry", err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("the in-flight call was never answered")
			}
			noneLeft(t, mark, 5*time.Second)
			// The next call starts a fresh daemon on the same session.
			resp, terr := call(t, cs, "debug_test", map[string]any{"projectRoot": t.TempDir(), "command": "echo ok 1 - again"}, nil)
			if resp.Status != report.Passed {
				t.Errorf("after the daemon died: %+v %s", resp, terr)
			}
			if pid2 := daemon.LockHolder(homePaths(t, strobeHome(t))); pid2 == pid || !running(pid2) {
				t.Errorf("no fresh daemon: pid %d before, %d now", pid, pid2)
			}
		})
	}
}

// TestCLIDaemonKilledMidRun: `strobe test` waiting on its one debug_test
// call when the daemon dies says what happened and what to do, not the
// SDK's `calling "tools/call": EOF`, and the run's processes go with it.
func TestCLIDaemonKilledMidRun(t *testing.T) {
	cmdline, mark := sleeper(t)
	cmd := exec.Command(strobeBin, "test", t.TempDir(), "--command", cmdline)
	cmd.Env = env(t)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitForProcess(t, mark)
	syscall.Kill(daemon.LockHolder(homePaths(t, strobeHome(t))), syscall.SIGKILL)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		t.Fatal("strobe test never ended after its daemon was killed")
	}
	if code := cmd.ProcessState.ExitCode(); code != exitUsage {
		t.Errorf("exit %d, want %d", code, exitUsage)
	}
	if msg := stderr.String(); !strings.Contains(msg, "the strobe daemon went away during the run") || !strings.Contains(msg, "run the tests again") || strings.Contains(msg, "tools/call") {
		t.Errorf("stderr: %q, want the daemon named as gone and what to do", msg)
	}
	noneLeft(t, mark, 5*time.Second)
}

// TestCLIKilledMidRun: `strobe test` killed (a terminal closed, an agent's
// shell tool out of time) stops its run in the daemon: the project is not
// held busy until the run's timeout, and its processes go.
func TestCLIKilledMidRun(t *testing.T) {
	dir := t.TempDir()
	cmdline, mark := sleeper(t)
	cmd := exec.Command(strobeBin, "test", dir, "--command", cmdline)
	cmd.Env = env(t)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitForProcess(t, mark)
	cmd.Process.Kill()
	cmd.Wait()
	noneLeft(t, mark, 5*time.Second)
	again := exec.Command(strobeBin, "test", dir, "--command", "echo 'ok 1 - again'")
	again.Env = env(t)
	if out, err := again.CombinedOutput(); err != nil {
		t.Errorf("the next run: %v\n%s", err, out)
	}
	if pid := daemon.LockHolder(homePaths(t, strobeHome(t))); !running(pid) {
		t.Errorf("the daemon (pid %d) went with its client", pid)
	}
}

// daemonCmd is `strobe daemon` with t's home.
func daemonCmd(t *testing.T, args ...string) *exec.Cmd {
	cmd := exec.Command(strobeBin, append([]string{"daemon"}, args...)...)
	cmd.Env = env(t)
	return cmd
}

func TestTwoDaemonsAtOnce(t *testing.T) {
	a, b := daemonCmd(t), daemonCmd(t)
	if err := a.Start(); err != nil {
		t.Fatal(err)
	}
	if err := b.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan *exec.Cmd, 2)
	go func() { a.Wait(); exited <- a }()
	go func() { b.Wait(); exited <- b }()
	var loser *exec.Cmd
	select {
	case loser = <-exited:
	case <-time.After(10 * time.Second):
		t.Fatal("both daemons still running after 10s")
	}
	if loser.ProcessState.ExitCode() != 0 {
		t.Errorf("the second daemon exited %d, want 0", loser.ProcessState.ExitCode())
	}
	winner := a
	if loser == a {
		winner = b
	}
	if pid := daemon.LockHolder(homePaths(t, strobeHome(t))); pid != winner.Process.Pid {
		t.Errorf("lock held by %d, want the serving daemon %d", pid, winner.Process.Pid)
	}
	cs := socketSession(t, "", nil)
	if resp, terr := call(t, cs, "debug_test", map[string]any{"projectRoot": t.TempDir(), "command": "echo ok 1 - x"}, nil); resp.Status != report.Passed {
		t.Errorf("%+v %s", resp, terr)
	}
	stopDaemon(t, strobeHome(t))
	select {
	case <-exited:
	case <-time.After(10 * time.Second):
		t.Fatal("the serving daemon did not exit on strobe stop")
	}
}

func TestStaleSocket(t *testing.T) {
	p := homePaths(t, strobeHome(t))
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: p.Socket, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	ln.SetUnlinkOnClose(false)
	ln.Close()
	os.WriteFile(p.Lock, []byte("999999\n"), 0o600)
	r := strobe(t, true, "test", t.TempDir(), "--command", "echo ok 1 - x")
	wantStatus(t, r, report.Passed, 0)
}

// rawConn is a connection after the hello, for writing bytes by hand.
func rawConn(t *testing.T) (*daemon.Conn, *bufio.Reader) {
	p := homePaths(t, strobeHome(t))
	h := daemon.NewHello("test")
	h.Env = env(t)
	c, err := daemon.Connect(context.Background(), p, h)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c, bufio.NewReader(c)
}

func TestMalformedMessages(t *testing.T) {
	c, r := rawConn(t)
	other := socketSession(t, "2025-11-25", nil)
	exchange := func(line string) map[string]any {
		t.Helper()
		io.WriteString(c, line+"\n")
		c.SetDeadline(time.Now().Add(10 * time.Second))
		b, err := r.ReadBytes('\n')
		if err != nil {
			t.Fatalf("after %q: %v", line, err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("answer to %q is not JSON: %s", line, b)
		}
		return m
	}
	code := func(m map[string]any) float64 {
		e, _ := m["error"].(map[string]any)
		c, _ := e["code"].(float64)
		return c
	}
	for _, tc := range []struct {
		line string
		code float64
	}{
		{"this is not json", jsonrpc.CodeParseError},
		{`{"jsonrpc":"2.0","id":1,"method":`, jsonrpc.CodeParseError},
		{`[]`, jsonrpc.CodeInvalidRequest},
		{`{"hello":"world"}`, jsonrpc.CodeInvalidRequest},
	} {
		if m := exchange(tc.line); code(m) != tc.code {
			t.Errorf("%q answered %v, want code %v", tc.line, m, tc.code)
		}
	}
	if m := exchange(`{"jsonrpc":"2.0","id":7,"method":"tools/list"}`); m["error"] == nil || m["id"] != float64(7) {
		t.Errorf("tools/list before initialize: %v, want an error", m)
	}
	init := `{"jsonrpc":"2.0","id":8,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`
	if m := exchange(init); m["result"] == nil {
		t.Fatalf("initialize after garbage: %v", m)
	}
	io.WriteString(c, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	if m := exchange(`{"jsonrpc":"2.0","id":9,"method":"no/such/method"}`); code(m) != jsonrpc.CodeMethodNotFound {
		t.Errorf("unknown method: %v", m)
	}
	if m := exchange(`{"jsonrpc":"2.0","id":10,"method":"tools/list"}`); m["result"] == nil {
		t.Errorf("tools/list after the errors: %v", m)
	}
	if resp, terr := call(t, other, "debug_test", map[string]any{"projectRoot": t.TempDir(), "command": "echo ok 1 - x"}, nil); resp.Status != report.Passed {
		t.Errorf("another client after the garbage: %+v %s", resp, terr)
	}
	// A hello that is not one is refused, and the daemon goes on.
	nc, err := net.Dial("unix", homePaths(t, strobeHome(t)).Socket)
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(nc, `{"jsonrpc":"2.0","id":1,"method":"initialize"}`+"\n")
	b, _ := bufio.NewReader(nc).ReadBytes('\n')
	nc.Close()
	if !strings.Contains(string(b), "hello") {
		t.Errorf("MCP without the hello: %s", b)
	}
}

func TestRunEnvironment(t *testing.T) {
	// A daemon started with a variable of its own; the client exports another.
	d := daemonCmd(t)
	d.Env = append(d.Env, "STROBE_E2E_DAEMON_ONLY=leak")
	if err := d.Start(); err != nil {
		t.Fatal(err)
	}
	go d.Wait()
	waitServing(t, d.Process.Pid)
	script := `if [ "$STROBE_E2E_CLIENT" = yes ]; then echo "ok 1 - client variable"; else echo "not ok 1 - client variable missing"; fi; ` +
		`if [ -z "$STROBE_E2E_DAEMON_ONLY" ]; then echo "ok 2 - no daemon variable"; else echo "not ok 2 - daemon variable leaked"; fi`
	cmd := exec.Command(strobeBin, "test", t.TempDir(), "--command", script, "--json")
	cmd.Env = env(t, "STROBE_E2E_CLIENT=yes")
	out, _ := cmd.Output()
	var resp report.Response
	json.Unmarshal(out, &resp)
	if resp.Status != report.Passed || resp.Summary == nil || resp.Summary.Passed != 2 {
		t.Errorf("environment of the run: %s", out)
	}
	if pid := daemon.LockHolder(homePaths(t, strobeHome(t))); pid != d.Process.Pid {
		t.Errorf("the run did not go through the daemon started first (%d), but %d", d.Process.Pid, pid)
	}
}

func TestIdleShutdownAndSignals(t *testing.T) {
	t.Run("idle", func(t *testing.T) {
		d := daemonCmd(t, "--idle", "300ms")
		start := time.Now()
		if err := d.Run(); err != nil {
			t.Fatalf("idle daemon: %v", err)
		}
		if took := time.Since(start); took > 5*time.Second {
			t.Errorf("idle shutdown after %v", took)
		}
		if _, err := os.Stat(homePaths(t, strobeHome(t)).Socket); !os.IsNotExist(err) {
			t.Errorf("socket left after idle shutdown: %v", err)
		}
	})
	t.Run("SIGTERM", func(t *testing.T) {
		d := daemonCmd(t)
		if err := d.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan error, 1)
		go func() { exited <- d.Wait() }()
		waitServing(t, d.Process.Pid)
		cs := socketSession(t, "", nil)
		cmd, mark := sleeper(t)
		call(t, cs, "debug_test", map[string]any{"projectRoot": t.TempDir(), "command": cmd, "waitMs": 0}, nil)
		waitForProcess(t, mark)
		d.Process.Signal(syscall.SIGTERM)
		select {
		case err := <-exited:
			if err != nil {
				t.Errorf("daemon after SIGTERM: %v, want exit 0", err)
			}
		case <-time.After(15 * time.Second):
			t.Fatal("daemon still running 15s after SIGTERM")
		}
		noneLeft(t, mark, 5*time.Second)
		if _, err := os.Stat(homePaths(t, strobeHome(t)).Socket); !os.IsNotExist(err) {
			t.Errorf("socket left after SIGTERM: %v", err)
		}
	})
}

func TestStatusAndStop(t *testing.T) {
	run := func(args ...string) (string, int) {
		cmd := exec.Command(strobeBin, args...)
		cmd.Env = env(t)
		out, _ := cmd.CombinedOutput()
		return string(out), cmd.ProcessState.ExitCode()
	}
	if out, code := run("status"); code != 0 || !strings.Contains(out, "no daemon") {
		t.Errorf("status without a daemon: %d %s", code, out)
	}
	r := strobe(t, true, "test", t.TempDir(), "--command", "echo ok 1 - x")
	wantStatus(t, r, report.Passed, 0)
	out, code := run("status", "--json")
	var st daemon.Status
	json.Unmarshal([]byte(out), &st)
	if code != 0 || st.PID == 0 || len(st.Runs) != 1 || st.Runs[0].RunID != r.resp.RunID {
		t.Errorf("status: %d %s", code, out)
	}
	if out, code := run("status"); code != 0 || !strings.Contains(out, shortID(r.resp.RunID)) {
		t.Errorf("status: %d %s", code, out)
	}
	if out, code := run("stop"); code != 0 || !strings.Contains(out, "stopped") || running(st.PID) {
		t.Errorf("stop: %d %s", code, out)
	}
	// A new daemon does not know the run: its result comes from the
	// details file in the client's TMPDIR.
	tmp := filepath.Dir(filepath.Dir(filepath.Dir(r.resp.Details)))
	p := homePaths(t, strobeHome(t))
	h := daemon.NewHello("test")
	h.Env = append(os.Environ(), "TMPDIR="+tmp)
	c, err := daemon.Connect(context.Background(), p, h)
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, c.Transport(), "", nil)
	if resp, terr := call(t, cs, "debug_test_status", map[string]any{"runId": r.resp.RunID}, nil); resp.Status != report.Passed || resp.RunID != r.resp.RunID {
		t.Errorf("status of a run of an earlier daemon: %+v %s", resp, terr)
	}
}

func TestSocketPathTooLong(t *testing.T) {
	deep := filepath.Join(t.TempDir(), strings.Repeat("d", 60), strings.Repeat("e", 60))
	cmd := exec.Command(strobeBin, "test", t.TempDir(), "--command", "true")
	cmd.Env = append(os.Environ(), "STROBE_HOME="+deep)
	out, _ := cmd.CombinedOutput()
	if cmd.ProcessState.ExitCode() != exitUsage || !strings.Contains(string(out), "STROBE_HOME") {
		t.Errorf("deep STROBE_HOME: exit %d %s", cmd.ProcessState.ExitCode(), out)
	}
}

func TestOtherBuildAndStdinClose(t *testing.T) {
	// Another build of strobe: the same source, another version stamped in.
	other := filepath.Join(t.TempDir(), "strobe-other")
	if out, err := exec.Command("go", "build", "-ldflags", "-X main.version=other", "-o", other, ".").CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	r := strobe(t, true, "test", t.TempDir(), "--command", "echo ok 1 - x") // this build's daemon
	wantStatus(t, r, report.Passed, 0)

	cmd := exec.Command(other, "mcp")
	cmd.Env = env(t)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	out := bufio.NewReader(stdout)
	// A line that is not JSON is answered, and the session goes on.
	io.WriteString(stdin, "garbage\n")
	if line, err := out.ReadBytes('\n'); err != nil || !strings.Contains(string(line), `"code":-32700`) {
		t.Fatalf("answer to garbage: %v %q", err, line)
	}
	for i, m := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/list"}`,
	} {
		io.WriteString(stdin, m+"\n")
		if i == 1 {
			continue
		}
		line, err := out.ReadBytes('\n')
		var resp map[string]any
		if err != nil || json.Unmarshal(line, &resp) != nil || resp["result"] == nil {
			t.Fatalf("answer to %s: %v %q", m, err, line)
		}
	}
	stdin.Close()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("strobe mcp after stdin closed: %v", err)
		}
	case <-time.After(5 * time.Second):
		cmd.Process.Kill()
		t.Fatal("strobe mcp still running 5s after stdin closed")
	}
	if rest, _ := io.ReadAll(out); len(rest) > 0 {
		t.Errorf("stdout after the answers: %q", rest)
	}
	if n := strings.Count(stderr.String(), "different build"); n != 1 {
		t.Errorf("strobe mcp said %d times that the daemon is another build, want once:\n%s", n, stderr.String())
	}
}

// waitServing waits until the daemon pid answers on t's socket.
func waitServing(t *testing.T, pid int) {
	t.Helper()
	p := homePaths(t, strobeHome(t))
	for deadline := time.Now().Add(10 * time.Second); ; {
		if c, err := daemon.Dial(p, daemon.NewHello("test")); err == nil {
			c.Close()
			if c.Welcome.PID == pid {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("daemon %d never answered", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A burst of connections, then quiet: the daemon restarts in place (the
// real exec), with the same pid, socket and reaper, and serves on: a run
// of the first image is still answered, and a new run goes. Killed then,
// it leaves no test behind: the first image's reaper still watches it.
// The daemon's program is removed from the disk once it started (as a new
// build replaces it): the restart runs it still, and still knows its build.
func TestRestartInPlace(t *testing.T) {
	exe := filepath.Join(t.TempDir(), "strobe")
	if b, err := os.ReadFile(strobeBin); err != nil || os.WriteFile(exe, b, 0o755) != nil {
		t.Fatalf("copying strobe: %v", err)
	}
	d := daemonCmd(t)
	d.Path, d.Args[0] = exe, exe
	if err := d.Start(); err != nil {
		t.Fatal(err)
	}
	go d.Wait()
	waitServing(t, d.Process.Pid)
	os.Remove(exe)
	build := func() string {
		c, err := daemon.Dial(homePaths(t, strobeHome(t)), daemon.NewHello("test"))
		if err != nil {
			t.Fatal(err)
		}
		c.Close()
		return c.Welcome.Build
	}
	first := build()

	cs := socketSession(t, "", nil)
	before, terr := call(t, cs, "debug_test", map[string]any{"projectRoot": t.TempDir(), "command": "echo ok 1 - before"}, nil)
	if before.Status != report.Passed {
		t.Fatalf("%+v %s", before, terr)
	}
	cs.Close()
	p := homePaths(t, strobeHome(t))
	pid := daemon.LockHolder(p)
	reaper := reapers(pid)
	if len(reaper) != 1 {
		t.Fatalf("daemon %d has reapers %v, want one", pid, reaper)
	}
	burst := time.Now()
	var conns []*daemon.Conn
	for range 20 {
		h := daemon.NewHello("test")
		h.Env = env(t)
		c, err := daemon.Dial(p, h)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
	}
	for _, c := range conns {
		c.Close()
	}
	// The restart comes after the trim delay (5 s) with nothing open.
	var restarted bool
	for deadline := time.Now().Add(20 * time.Second); !restarted && time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		b, _ := os.ReadFile(p.Log)
		restarted = strings.Count(string(b), `"daemon started"`) == 2 && strings.Contains(string(b), "restarting in place")
	}
	if !restarted {
		b, _ := os.ReadFile(p.Log)
		t.Fatalf("no restart in place within 20 s of the burst; the log:\n%s", b)
	}
	cmd := exec.Command(strobeBin, "status", "--json")
	cmd.Env = env(t)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("strobe status: %v\n%s", err, out)
	}
	var st daemon.Status
	json.Unmarshal(out, &st)
	if st.PID != pid || st.Restarts != 1 || !st.Started.Before(burst) {
		t.Errorf("after the restart: %s, want pid %d, restarts 1, the first start kept", out, pid)
	}
	if b := build(); b != first || b == "unknown" {
		t.Errorf("the restarted daemon says it is build %q, the first image %q", b, first)
	}
	if now := reapers(pid); len(now) != 1 || now[0] != reaper[0] || !running(reaper[0]) {
		t.Errorf("reapers after the restart: %v, want the one of before, %v", now, reaper)
	}
	cs2 := socketSession(t, "", nil)
	if resp, terr := call(t, cs2, "debug_test_status", map[string]any{"runId": before.RunID}, nil); resp.Status != report.Passed || resp.RunID != before.RunID {
		t.Errorf("the run of the first image: %+v %s", resp, terr)
	}
	if resp, terr := call(t, cs2, "debug_test", map[string]any{"projectRoot": t.TempDir(), "command": "echo ok 1 - after"}, nil); resp.Status != report.Passed {
		t.Errorf("a run after the restart: %+v %s", resp, terr)
	}
	sleep, mark := sleeper(t)
	go callCtx(context.Background(), cs2, "debug_test", map[string]any{"projectRoot": t.TempDir(), "command": sleep, "waitMs": 60000}, nil)
	waitForProcess(t, mark)
	syscall.Kill(pid, syscall.SIGKILL)
	noneLeft(t, mark, 5*time.Second)
}
