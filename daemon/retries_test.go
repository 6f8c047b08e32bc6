package daemon

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"strobe/internal/testutil"
	"strobe/report"
)

// TestRetriesThroughDaemon: debug_test refuses retries above 10 in one
// line, and debug_test_cancel reaches a run while it retries its failed
// tests (the go fixture of runner's retry tests: one always fails).
func TestRetriesThroughDaemon(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a real project")
	}
	testutil.RequireTool(t, "go")
	home, err := os.MkdirTemp("/tmp", "sdr")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(home)
	p, err := PathsIn(home)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ended := make(chan error, 1)
	go func() { ended <- Run(ctx, Options{Paths: p, Version: "test", noReaper: true}) }()
	defer func() {
		cancel()
		<-ended
	}()
	var c *Conn
	for deadline := time.Now().Add(5 * time.Second); ; {
		if c, err = Dial(p, NewHello("test")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal(err)
		}
		time.Sleep(5 * time.Millisecond)
	}
	cs, err := NewClient("test", nil).Connect(context.Background(), c.Transport(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	call := func(name string, args any) (*report.Response, string) {
		t.Helper()
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if res.IsError {
			return nil, res.Content[0].(*mcp.TextContent).Text
		}
		var resp report.Response
		b, _ := json.Marshal(res.StructuredContent)
		json.Unmarshal(b, &resp)
		return &resp, ""
	}

	root, counts := t.TempDir(), t.TempDir()
	for _, f := range []string{"go.mod", "flaky_test.go"} {
		b, err := os.ReadFile(filepath.Join("..", "runner", "testdata", "flaky", "gomod", f))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(root, f), b, 0o644)
	}
	if _, msg := call("debug_test", TestArgs{ProjectRoot: root, Retries: 11}); !strings.HasPrefix(msg, "retries 11 is out of bounds") || strings.Contains(msg, "\n") {
		t.Errorf("retries 11: error %q, want one line refusing it", msg)
	}

	zero := int64(0)
	resp, msg := call("debug_test", TestArgs{ProjectRoot: root, Env: map[string]string{"FLAKY_DIR": counts}, Retries: 10, WaitMs: &zero})
	if resp == nil {
		t.Fatalf("debug_test: %s", msg)
	}
	for deadline := time.Now().Add(2 * time.Minute); ; {
		st, msg := call("debug_test_status", StatusArgs{RunID: resp.RunID, WaitMs: &zero})
		if st == nil {
			t.Fatalf("debug_test_status: %s", msg)
		}
		if st.Status != report.Running {
			t.Fatalf("the run ended before it retried: %s, %s", st.Status, st.Hint)
		}
		if st.Progress != nil && strings.HasPrefix(st.Progress.Warning, "retrying") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no retry began")
		}
		time.Sleep(10 * time.Millisecond)
	}
	got, msg := call("debug_test_cancel", CancelArgs{RunID: resp.RunID})
	if got == nil {
		t.Fatalf("debug_test_cancel: %s", msg)
	}
	if got.Status != report.Cancelled || got.Crash == nil || got.Crash.StoppedBy != report.StoppedCancelled {
		t.Errorf("after cancel: status %s, crash %+v; want cancelled", got.Status, got.Crash)
	}
}
