package daemon

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"strobe/trace"
)

// storeSession writes a session of n parse calls into the client's
// details directory, as a traced run leaves it.
func storeSession(t *testing.T, detailsDir, id string, n int) {
	t.Helper()
	out := trace.OutDir(detailsDir, id)
	if err := os.MkdirAll(out, 0o700); err != nil {
		t.Fatal(err)
	}
	start := time.Now().UnixNano()
	var b strings.Builder
	enc := json.NewEncoder(&b)
	for i := range n {
		enc.Encode(trace.Event{ID: uint64(2*i + 1), Type: trace.Enter, T: start + int64(i)*1000, Thread: "1", Function: "calc::parse",
			File: "/p/src/parser.rs", Line: 40, Args: []trace.Value{{Name: "input", Value: fmt.Sprintf(`"%d+"`, i)}}})
		enc.Encode(trace.Event{ID: uint64(2*i + 2), Type: trace.Exit, T: start + int64(i)*1000 + 500, Thread: "1", Parent: uint64(2*i + 1),
			Function: "calc::parse", Return: []trace.Value{{Value: fmt.Sprint(i)}}, DurationNS: 500})
	}
	enc.Encode(trace.Meta{Type: trace.MetaType, Tracer: "test"})
	if err := os.WriteFile(filepath.Join(out, "events-1.jsonl"), []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := trace.Ingest(trace.Dir(detailsDir, id), id, "/p", start, out, nil, trace.MaxEvents, trace.MaxSessionBytes); err != nil {
		t.Fatal(err)
	}
}

func callText(t *testing.T, cs *mcp.ClientSession, name string, args any) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v (the daemon must answer, not drop the call)", name, err)
	}
	var text []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text = append(text, tc.Text)
		}
	}
	return strings.Join(text, "\n"), res.IsError
}

func TestDebugQuery(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	cs := mcpSession(t)
	storeSession(t, detailsDirFor([]string{"TMPDIR=" + tmp}), "sess-1", 60)

	text, isErr := callText(t, cs, "debug_query", QueryArgs{SessionID: "sess-1", EventType: "exit", ReturnValue: &ReturnFilter{Equals: ptr("7")}})
	if isErr || !strings.Contains(text, "← calc::parse = 7 500ns") || strings.Count(text, "\n") != 1 {
		t.Errorf("returnValue query:\n%s", text)
	}
	text, _ = callText(t, cs, "debug_query", QueryArgs{SessionID: "sess-1"})
	if strings.Count(text, "#") != 50 || !strings.Contains(text, "more: afterEventId 50") {
		t.Errorf("default page:\n%s", text)
	}
	text, _ = callText(t, cs, "debug_query", QueryArgs{SessionID: "sess-1", AfterEventID: 115, Limit: ptr(5), Verbose: true})
	if !strings.Contains(text, `"function":"calc::parse"`) || strings.Contains(text, "more:") {
		t.Errorf("last verbose page:\n%s", text)
	}
	// Past what int64 nanoseconds hold: no call took that long.
	text, _ = callText(t, cs, "debug_query", QueryArgs{SessionID: "sess-1", MinDurationMs: 1e300})
	if !strings.HasPrefix(text, "no events match") {
		t.Errorf("minDurationMs 1e300:\n%s", text)
	}
	text, _ = callText(t, cs, "debug_query", QueryArgs{SessionID: "sess-1", Function: &FunctionFilter{Matches: `parse$`}, Limit: ptr(1)})
	if !strings.Contains(text, `→ calc::parse(input="0+") @src/parser.rs:40`) {
		t.Errorf("function matches:\n%s", text)
	}
}

// Every malformed query answers a one-line error and the daemon goes on.
func TestDebugQueryMalformed(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	cs := mcpSession(t)
	storeSession(t, detailsDirFor([]string{"TMPDIR=" + tmp}), "s", 3)
	for _, tc := range []struct {
		args any
		want string
	}{
		{map[string]any{}, "sessionId"},
		{QueryArgs{SessionID: "nope"}, `no trace session "nope"`},
		{QueryArgs{SessionID: "../../etc"}, "give the sessionId"},
		{QueryArgs{SessionID: "s", Limit: ptr(0)}, "limit 0 is out of range"},
		{QueryArgs{SessionID: "s", Limit: ptr(501)}, "limit 501"},
		{QueryArgs{SessionID: "s", EventType: "call"}, "unknown eventType"},
		{QueryArgs{SessionID: "s", Function: &FunctionFilter{Matches: "(("}}, "not a regular expression"},
		{QueryArgs{SessionID: "s", FromNs: 9, ToNs: 1}, "time window"},
		{map[string]any{"sessionId": "s", "limit": "ten"}, "limit"},
		{map[string]any{"sessionId": 7}, "sessionId"},
		{map[string]any{"sessionId": "s", "function": "parse"}, "function"},
		{map[string]any{"sessionId": "s", "returnValue": map[string]any{"isNull": "yes"}}, "isNull"},
		{map[string]any{"sessionId": "s", "afterEventId": -1}, "afterEventId"},
	} {
		text, isErr := callText(t, cs, "debug_query", tc.args)
		if !isErr || !strings.Contains(text, tc.want) || strings.Contains(text, "\n") {
			t.Errorf("debug_query %+v: error %v, text %q; want one line with %q", tc.args, isErr, text, tc.want)
		}
	}
	// A traced run of a framework without a tracer is refused, not run
	// untraced.
	text, isErr := callText(t, cs, "debug_test", TestArgs{ProjectRoot: t.TempDir(), Command: "true", TracePatterns: []string{"main"}})
	if !isErr || !strings.Contains(text, "tracePatterns is not supported for generic yet") {
		t.Errorf("traced generic run: %v %q", isErr, text)
	}
	text, isErr = callText(t, cs, "debug_test", map[string]any{"projectRoot": t.TempDir(), "command": "true", "watches": []any{map[string]any{"variable": 3}}})
	if !isErr || strings.Contains(text, "\n") {
		t.Errorf("malformed watches: %v %q", isErr, text)
	}
	// Still answering.
	if text, isErr := callText(t, cs, "debug_query", QueryArgs{SessionID: "s"}); isErr || !strings.Contains(text, "#6 ") {
		t.Errorf("after the malformed calls: %q", text)
	}
}

func ptr[T any](v T) *T { return &v }
