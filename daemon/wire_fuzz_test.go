package daemon

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// The fuzz targets below feed what a client could send first on the
// socket (the hello line, read by a real daemon), and what an agent could
// send `strobe mcp` (the checked line reader in front of the SDK, and the
// whole bridge). Plain `go test` runs them on their seeds; `make fuzz`
// mutates them.

// fuzzBudget bounds one input: everything here answers at once.
const fuzzBudget = 10 * time.Second

// helloSeeds are first lines a client could send.
func helloSeeds() []string {
	hello, _ := json.Marshal(NewHello("test"))
	probe, _ := json.Marshal(Hello{Strobe: protocolVersion, Version: "test", PID: 1})
	return []string{
		string(hello) + "\n",
		string(probe) + "\r\n",
		`{"strobe":2,"version":"future","env":[]}` + "\n",
		`{"strobe":0}` + "\n",
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}` + "\n",
		`{"strobe":1,"env":["A=1"]`,
		"\n",
		"",
	}
}

// FuzzHello sends each input's first line to a real daemon as a client's
// hello: the daemon must answer a welcome, without error exactly when the
// line is a hello of its protocol, and keep serving.
func FuzzHello(f *testing.F) {
	for _, s := range helloSeeds() {
		f.Add([]byte(s))
	}
	p := fuzzDaemon(f)
	f.Fuzz(func(t *testing.T, in []byte) {
		if i := bytes.IndexByte(in, '\n'); i >= 0 {
			in = in[:i+1] // the hello only: what follows it is MCP, fuzzed by FuzzChecked
		}
		nc, err := net.Dial("unix", p.Socket)
		if err != nil {
			t.Fatal(err)
		}
		defer nc.Close()
		c := nc.(*net.UnixConn)
		c.SetDeadline(time.Now().Add(fuzzBudget))
		if _, err := c.Write(in); err != nil {
			t.Fatal(err)
		}
		c.CloseWrite()
		answer, err := readLine(bufio.NewReader(c), 1<<20)
		if len(bytes.TrimSpace(in)) == 0 && errors.Is(err, io.EOF) {
			return // nothing said, nothing answered
		}
		if err != nil {
			t.Fatalf("no answer to %q: %v", in, err)
		}
		var w Welcome
		if err := json.Unmarshal(answer, &w); err != nil || w.Strobe != protocolVersion || w.PID != os.Getpid() {
			t.Fatalf("answer %q to %q is not a welcome: %v", answer, in, err)
		}
		var h Hello
		valid := json.Unmarshal(bytes.TrimRight(in, "\r\n"), &h) == nil && h.Strobe == protocolVersion && bytes.HasSuffix(in, []byte("\n"))
		if valid != (w.Error == "") {
			t.Fatalf("hello %q answered %q", in, answer)
		}
		// The daemon still serves.
		conn, err := Dial(p, NewHello("test"))
		if err != nil {
			t.Fatalf("after %q: %v", in, err)
		}
		conn.Close()
	})
}

// fuzzDaemon runs a daemon in this process for the fuzz target, on a
// socket of its own, until the target ends.
func fuzzDaemon(f *testing.F) Paths {
	f.Helper()
	home, err := os.MkdirTemp("/tmp", "sdf") // short: a socket path is at most 108 bytes
	if err != nil {
		f.Fatal(err)
	}
	p, err := PathsIn(home)
	if err != nil {
		f.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ended := make(chan error, 1)
	go func() { ended <- Run(ctx, Options{Paths: p, Version: "test", noReaper: true}) }()
	f.Cleanup(func() {
		cancel()
		<-ended
		os.RemoveAll(home)
	})
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		c, err := Dial(p, NewHello("test"))
		if err == nil {
			c.Close()
			return p
		}
		if time.Now().After(deadline) {
			f.Fatal(err)
		}
	}
}

// mcpSeeds are what an agent sends `strobe mcp`, well formed and not.
var mcpSeeds = []string{
	`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"agent","version":"1"}}}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" +
		`{"jsonrpc":"2.0","id":"2","method":"tools/call","params":{"name":"debug_test","arguments":{"projectRoot":"/p"}}}` + "\r\n",
	"\n  \n" + `{"jsonrpc":"2.0","method":"x"}` + "\r\n",
	"nope\n" + `{"jsonrpc":"2.0","id":3,` + "\n[]\n" + `{"id":4,"hello":1}` + "\n",
	`[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","method":"b"}]` + "\n" + `[{"jsonrpc":"2.0","id":1,"method":"a"},{"x":1}]` + "\n",
	`{"jsonrpc":"2.0","id":7,"result":{}}`,
}

// FuzzChecked reads each input through the bridge's line reader: every
// line it passes on must be a JSON-RPC message (or batch) the SDK can
// read, every other non-blank line (the last one too, newline or not) must
// be answered with a JSON-RPC error, and the reader must reach the input's
// end.
func FuzzChecked(f *testing.F) {
	for _, s := range mcpSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		var answers bytes.Buffer
		var passed []byte
		fuzzRun(t, func() {
			var err error
			passed, err = io.ReadAll(newChecked(bufio.NewReaderSize(bytes.NewReader(in), 16), &answers))
			// A last line without its newline is read like any other:
			// a whole message is passed on, half a frame is answered.
			if err != nil {
				t.Errorf("read: %v", err)
			}
		})
		lines := 0
		for l := range bytes.Lines(in) {
			if len(bytes.TrimSpace(l)) > 0 {
				lines++
			}
		}
		n := 0
		for l := range bytes.Lines(passed) {
			n++
			if !bytes.HasSuffix(l, []byte("\n")) || !fuzzJSONRPC(bytes.TrimSpace(l)) {
				t.Errorf("passed on %q, which the SDK cannot read", l)
			}
		}
		for l := range bytes.Lines(answers.Bytes()) {
			n++
			fuzzCheckError(t, l)
		}
		if n != lines {
			t.Errorf("%d non-blank lines in, %d passed on or answered", lines, n)
		}
	})
}

// fuzzJSONRPC says whether the SDK reads line as a message or a batch of
// them.
func fuzzJSONRPC(line []byte) bool {
	var batch []json.RawMessage
	if json.Unmarshal(line, &batch) == nil {
		for _, m := range batch {
			if _, err := jsonrpc.DecodeMessage(m); err != nil {
				return false
			}
		}
		return len(batch) > 0
	}
	_, err := jsonrpc.DecodeMessage(line)
	return err == nil
}

// fuzzCheckError checks that line is a JSON-RPC error response, or a
// batch of them (the SDK answers a batch of calls with one).
func fuzzCheckError(t *testing.T, line []byte) {
	t.Helper()
	var batch []json.RawMessage
	if json.Unmarshal(line, &batch) == nil {
		if len(batch) == 0 {
			t.Errorf("answer %q is an empty batch", line)
		}
		for _, m := range batch {
			fuzzCheckError(t, m)
		}
		return
	}
	var m struct {
		Version string `json:"jsonrpc"`
		ID      any    `json:"id"`
		Error   struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(line, &m); err != nil || m.Version != "2.0" || m.Error.Code == 0 || m.Error.Message == "" {
		t.Errorf("answer %q is not a JSON-RPC error: %v", line, err)
	}
	if m.ID != nil {
		if _, err := jsonrpc.DecodeMessage(bytes.TrimSpace(line)); err != nil {
			t.Errorf("answer %q is not a JSON-RPC message: %v", line, err)
		}
	}
}

// FuzzBridge runs `strobe mcp`'s bridge on each input as the agent's
// stdin, with no daemon to reach: it must return at the input's end, and
// all it writes to the agent must be JSON-RPC error responses (a bad line,
// or a call the daemon could not take).
func FuzzBridge(f *testing.F) {
	for _, s := range mcpSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		var out lockedBuffer
		fuzzRun(t, func() {
			dial := func(context.Context) (*Conn, error) { return nil, ErrNoDaemon }
			if err := Bridge(context.Background(), io.NopCloser(bytes.NewReader(in)), &out, dial); err != nil {
				// The SDK gives up on a message it cannot decode
				// although checked let it through: say which.
				if !strings.Contains(err.Error(), "EOF") {
					t.Errorf("bridge: %v", err)
				}
			}
		})
		for l := range bytes.Lines(out.Bytes()) {
			fuzzCheckError(t, l)
		}
	})
}

// lockedBuffer is the agent's stdout: the bridge writes to it from more
// than one goroutine.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) Close() error { return nil }

func (b *lockedBuffer) Bytes() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return bytes.Clone(b.buf.Bytes())
}

// fuzzRun runs fn within fuzzBudget, failing the input as a hang when it
// takes longer.
func fuzzRun(t *testing.T, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn()
	}()
	select {
	case <-done:
	case <-time.After(fuzzBudget):
		t.Fatalf("over %v on this input (a hang)", fuzzBudget)
	}
}
