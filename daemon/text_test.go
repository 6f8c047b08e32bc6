package daemon

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"strobe/report"
)

// mcpSession opens an MCP client session to a daemon run in this process
// for the test's lifetime.
func mcpSession(t *testing.T) *mcp.ClientSession {
	t.Helper()
	p := startInProcess(t, Options{})
	c, err := Dial(p, NewHello("test"))
	if err != nil {
		t.Fatal(err)
	}
	cs, err := NewClient("test", nil).Connect(context.Background(), c.Transport(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// TestTextContent checks the text an agent reads: the response's JSON in
// report.Response's field order (status first, as strobe test --json
// prints it), on one line, for each tool.
func TestTextContent(t *testing.T) {
	cs := mcpSession(t)
	zero := int64(0)
	root := t.TempDir()
	calls := []struct {
		name   string
		args   func(runID string) any
		status report.Status
	}{
		{"debug_test", func(string) any {
			return TestArgs{ProjectRoot: root, Command: "sleep 0.5; echo 'ok 1 - a && b'", WaitMs: &zero}
		}, report.Running},
		{"debug_test_status", func(id string) any { return StatusArgs{RunID: id} }, report.Passed},
		{"debug_test_cancel", func(id string) any { return CancelArgs{RunID: id} }, report.Passed},
	}
	var id string
	for _, c := range calls {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: c.name, Arguments: c.args(id)})
		if err != nil || res.IsError {
			t.Fatalf("%s: %v %+v", c.name, err, res)
		}
		if len(res.Content) != 1 {
			t.Fatalf("%s: %d content blocks, want 1", c.name, len(res.Content))
		}
		text := res.Content[0].(*mcp.TextContent).Text
		var resp report.Response
		if err := json.Unmarshal([]byte(text), &resp); err != nil {
			t.Fatalf("%s: text is not a response: %v\n%s", c.name, err, text)
		}
		if resp.Status != c.status {
			t.Fatalf("%s: status %s, want %s\n%s", c.name, resp.Status, c.status, text)
		}
		id = resp.RunID
		// The same response marshalled from the struct: the wire order.
		want, _ := json.Marshal(resp)
		if !bytes.Equal(bytes.ReplaceAll([]byte(text), []byte(`\u0026`), []byte("&")), bytes.ReplaceAll(want, []byte(`\u0026`), []byte("&"))) {
			t.Errorf("%s: text\n%s\nwant the fields in report.Response's order\n%s", c.name, text, want)
		}
		if !strings.HasPrefix(text, `{"status":"`+string(c.status)+`","runId":`) || strings.ContainsAny(text, "\n\t") {
			t.Errorf("%s: text %q does not start with the status on one line", c.name, text)
		}
		// The structured content is the same response.
		b, _ := json.Marshal(res.StructuredContent)
		var structured report.Response
		if err := json.Unmarshal(b, &structured); err != nil || structured.RunID != resp.RunID || structured.Status != resp.Status {
			t.Errorf("%s: structured content %s differs from the text %s", c.name, b, text)
		}
	}
}

// TestArgumentErrors checks the tool error of arguments the SDK refuses
// before any handler runs (they do not match the input schema): one line
// that names the argument and says what to do.
func TestArgumentErrors(t *testing.T) {
	cs := mcpSession(t)
	root := t.TempDir()
	for _, tc := range []struct {
		tool string
		args any
		want string
	}{
		{"debug_test", map[string]any{}, `"projectRoot"`},
		{"debug_test", map[string]any{"projectRoot": 42}, "projectRoot: type: 42"},
		{"debug_test", map[string]any{"projectRoot": root, "timeout": "3s"}, "timeout"},
		{"debug_test", map[string]any{"projectRoot": root, "timeout": 1e30}, "timeout"},
		{"debug_test", map[string]any{"projectRoot": root, "bogus": 1}, "bogus"},
		{"debug_test", map[string]any{"projectRoot": root, "tracePatterns": "calc.*"}, "tracePatterns"},
		{"debug_test_status", map[string]any{"runId": 12}, "runId"},
		{"debug_test_cancel", map[string]any{}, "runId"},
		{"debug_query", map[string]any{"sessionId": "s", "limit": "ten"}, "limit"},
	} {
		text, isErr := callText(t, cs, tc.tool, tc.args)
		if !isErr || !strings.Contains(text, tc.want) || strings.Contains(text, "\n") {
			t.Errorf("%s %v: error %v, text %q; want one line naming %s", tc.tool, tc.args, isErr, text, tc.want)
		}
		if want := "fix them as " + tc.tool + "'s input schema says"; !strings.Contains(text, want) || strings.Contains(text, "Go struct") {
			t.Errorf("%s %v: %q does not say what to do (%q)", tc.tool, tc.args, text, want)
		}
	}
}

// TestHugeDurations checks waitMs and timeout past what a time.Duration
// holds: a wait is capped (the call waits, it does not answer running at
// once), a timeout is refused in milliseconds, never as a negative
// duration.
func TestHugeDurations(t *testing.T) {
	cs := mcpSession(t)
	huge := int64(9_000_000_000_000_000)
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "debug_test",
		Arguments: TestArgs{ProjectRoot: t.TempDir(), Command: "sleep 0.3; echo 'ok 1 - a'", WaitMs: &huge}})
	if err != nil || res.IsError {
		t.Fatalf("waitMs %d: %v %+v", huge, err, res)
	}
	if text := res.Content[0].(*mcp.TextContent).Text; !strings.HasPrefix(text, `{"status":"passed"`) {
		t.Errorf("waitMs %d: %s, want the call to wait for the run", huge, text)
	}
	text, isErr := callText(t, cs, "debug_test", TestArgs{ProjectRoot: t.TempDir(), Command: "true", Timeout: 18_446_744_073_709})
	if !isErr || !strings.Contains(text, "timeout 18446744073709 ms is too long") || strings.Contains(text, "negative") {
		t.Errorf("huge timeout: %v %q, want it refused as too long", isErr, text)
	}
}
